/**
 * @module
 * Cross-process locks on lock files. Writes to one note are serialized across every server process on
 * the vault (SPEC 1.6): each holder creates `<dir>/<key>.lock` exclusively and removes it when done.
 * Critical sections are synchronous, so inside one process a lock is never contended; waiting only
 * happens when another process holds it.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { threadId } from 'node:worker_threads';
import { fileSystemFailure, NotedError } from '../common/errors.js';
import { processAlive } from './atomic-write.js';

const SLEEPER = new Int32Array(new SharedArrayBuffer(4));

/** A holder that has not let go after this long has crashed or hung; its lock is taken over. */
const STALE_AFTER_MS = 15_000;

/**
 * `holder.<pid>-<thread>.tmp`: the pid-holding file locks are linked from (see tryAcquire); earlier
 * versions made one per lock, `<lock>.<pid>-<thread>.tmp`.
 */
const HOLDER_TEMP = /\.(\d+)-\d+\.tmp$/;

/** This process's holder file in each lock folder, for this thread. */
const holders = new Map<string, string>();

/** Lock folders this process has swept of temporary files left by killed processes. */
const swept = new Set<string>();

export interface LockOptions {
  /** How long to wait for another process before answering `busy`. */
  readonly timeoutMs?: number;
}

export class LockDir {
  constructor(private readonly dir: string) {}

  /** The lock file for a key; keys are hashed so any note name makes a safe file name. */
  pathFor(key: string): string {
    const digest = createHash('sha1').update(key).digest('hex').slice(0, 24);
    return path.join(this.dir, `${digest}.lock`);
  }

  /**
   * Runs `fn` while holding the lock for `key`. `fn` must be synchronous: the lock is released as
   * soon as it returns or throws.
   */
  async withLock<T>(key: string, fn: () => T, options: LockOptions = {}): Promise<T> {
    const file = this.pathFor(key);
    const deadline = Date.now() + (options.timeoutMs ?? 10_000);
    let delay = 2;
    while (!this.acquire(file)) {
      if (Date.now() > deadline) {
        throw new NotedError(
          'busy',
          'Another Noted process is writing this note right now and did not finish in time. Nothing was written; try again in a moment.',
        );
      }
      await sleep(delay);
      delay = Math.min(delay * 2, 50);
    }
    try {
      return fn();
    } finally {
      fs.rmSync(file, { force: true });
    }
  }

  /**
   * The same as withLock for a short critical section that must run inside another one (the journal
   * append inside a note's write): waits by blocking this thread, a few milliseconds at a time.
   */
  withLockSync<T>(key: string, fn: () => T, options: LockOptions = {}): T {
    const file = this.pathFor(key);
    const deadline = Date.now() + (options.timeoutMs ?? 10_000);
    let delay = 1;
    while (!this.acquire(file)) {
      if (Date.now() > deadline) {
        throw new NotedError(
          'busy',
          'Another Noted process holds a lock of the vault and did not let go in time. Nothing was written; try again in a moment.',
        );
      }
      Atomics.wait(SLEEPER, 0, 0, delay);
      delay = Math.min(delay * 2, 20);
    }
    try {
      return fn();
    } finally {
      fs.rmSync(file, { force: true });
    }
  }

  /**
   * tryAcquire, with a failure of the file system (a full disk: the lock file cannot be written) as a
   * typed error. Nothing has been done yet when it happens, and the caller's change is not made.
   */
  private acquire(file: string): boolean {
    try {
      return this.tryAcquire(file);
    } catch (err) {
      const failure = fileSystemFailure(err);
      if (failure === null) throw err;
      throw new NotedError(
        'not_supported',
        `A lock could not be taken in ${this.dir} (${failure.why}, ${failure.errno}), so nothing was written. ${failure.fix} Then try again.`,
        { errno: failure.errno, committed: false },
      );
    }
  }

  /**
   * Takes the lock by hard-linking this thread's holder file (its pid inside) to the lock's name:
   * `link` refuses an existing name, and the lock has its holder's pid from the moment it exists. A
   * process killed between creating an empty lock file and writing its pid used to leave a lock that no
   * one could judge stale for 15 s, so the next server waited 10 s and answered `busy` (found by the
   * SIGKILL test). Linking one holder file, rather than writing a file per lock, creates no inode per
   * lock: on ext4 without a journal the kernel looks for a new inode past every one freed in the last
   * 20–50 s (`recently_deleted`), and a move locking a thousand notes right after another spent
   * 0.5–0.9 ms on each (profiled with perf).
   */
  private tryAcquire(file: string, retried = false): boolean {
    fs.mkdirSync(this.dir, { recursive: true });
    this.sweepOnce();
    const holder = this.holder();
    try {
      fs.linkSync(holder, file);
      return true;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') {
        if (this.isStale(file)) fs.rmSync(file, { force: true });
        return false;
      }
      if (code === 'ENOENT' && !retried) {
        // The holder file was removed under us (the folder was cleaned): make it again.
        holders.delete(this.dir);
        return this.tryAcquire(file, true);
      }
      if (code === 'EPERM' || code === 'ENOTSUP' || code === 'EOPNOTSUPP' || code === 'ENOSYS') {
        return this.tryAcquireWithoutLinks(file);
      }
      throw err;
    }
  }

  /**
   * This thread's holder file in this folder, `holder.<pid>-<thread>.tmp`, made once. Its time is set
   * at every acquisition: a lock's age, for judging it stale, is the time since its holder last took
   * a lock (isStale).
   */
  private holder(): string {
    let holder = holders.get(this.dir);
    if (holder === undefined) {
      holder = path.join(this.dir, `holder.${process.pid}-${threadId}.tmp`);
      // A file of that name from a process gone before, with this pid, may still be linked to its
      // locks: a new inode keeps them apart from ours.
      fs.rmSync(holder, { force: true });
      try {
        fs.writeFileSync(holder, String(process.pid), { flag: 'wx' });
      } catch (err) {
        fs.rmSync(holder, { force: true });
        throw err;
      }
      holders.set(this.dir, holder);
    } else {
      const now = new Date();
      try {
        fs.utimesSync(holder, now, now);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
        holders.delete(this.dir);
        return this.holder();
      }
    }
    return holder;
  }

  /**
   * Once per process and folder: removes the temporary files of processes that are gone (a process
   * killed between writing one and removing it leaves it behind: about one in 30 SIGKILLs in the
   * crash soak). A live process's file is left alone.
   */
  private sweepOnce(): void {
    if (swept.has(this.dir)) return;
    swept.add(this.dir);
    try {
      for (const name of fs.readdirSync(this.dir)) {
        const m = HOLDER_TEMP.exec(name);
        if (m !== null && !processAlive(Number(m[1]))) fs.rmSync(path.join(this.dir, name), { force: true });
      }
    } catch {
      // Tidying only: a folder that cannot be listed or cleaned does not stop the lock being taken.
    }
  }

  /** File systems without hard links: create exclusively, then write the pid (see isStale). */
  private tryAcquireWithoutLinks(file: string): boolean {
    try {
      const fd = fs.openSync(file, 'wx');
      fs.writeSync(fd, `${process.pid} ${Date.now()}`);
      fs.closeSync(fd);
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      if (this.isStale(file)) fs.rmSync(file, { force: true });
      return false;
    }
  }

  /**
   * A lock is stale when its holder's process is gone, or when the holder has not taken a lock for
   * STALE_AFTER_MS (hung). Locks written by earlier versions hold their own time after the pid.
   */
  private isStale(file: string): boolean {
    let content: string;
    try {
      content = fs.readFileSync(file, 'utf8');
    } catch {
      return false; // released between our attempt and this read
    }
    const [pidText, timeText] = content.split(' ');
    const pid = Number(pidText);
    const since = timeText === undefined ? this.changedAt(file) : Number(timeText);
    if (!Number.isInteger(pid) || pid <= 0 || !Number.isFinite(since)) {
      // A holder may be between creating the file and writing its pid (no links); judge by age.
      return Date.now() - this.changedAt(file) > STALE_AFTER_MS;
    }
    return !processAlive(pid) || Date.now() - since > STALE_AFTER_MS;
  }

  /** The lock file's last change, or now when it is gone (then it is not stale: it was released). */
  private changedAt(file: string): number {
    try {
      return fs.statSync(file).mtimeMs;
    } catch {
      return Date.now();
    }
  }
}
