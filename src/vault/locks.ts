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

/** `<lock>.<pid>-<thread>.tmp`: the pid-holding file a lock is linked from (see tryAcquire). */
const HOLDER_TEMP = /\.(\d+)-\d+\.tmp$/;

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
   * Creates the lock file with its holder's pid already in it: written under a name of this process
   * and thread, then hard-linked into place (`link` refuses an existing file). A process killed between
   * creating an empty lock file and writing its pid used to leave a lock that no one could judge stale
   * for 15 s, so the next server waited 10 s and answered `busy` (found by the SIGKILL test).
   */
  private tryAcquire(file: string): boolean {
    fs.mkdirSync(this.dir, { recursive: true });
    this.sweepOnce();
    // One name per process and thread: acquiring is synchronous, so it is never in use twice at once.
    const tmp = `${file}.${process.pid}-${threadId}.tmp`;
    try {
      // Inside the try: a write that fails (a full disk) leaves the file, empty, to be removed.
      fs.writeFileSync(tmp, `${process.pid} ${Date.now()}`);
      fs.linkSync(tmp, file);
      return true;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') {
        if (this.isStale(file)) fs.rmSync(file, { force: true });
        return false;
      }
      if (code === 'EPERM' || code === 'ENOTSUP' || code === 'EOPNOTSUPP' || code === 'ENOSYS') {
        return this.tryAcquireWithoutLinks(file);
      }
      throw err;
    } finally {
      fs.rmSync(tmp, { force: true });
    }
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

  private isStale(file: string): boolean {
    let content: string;
    try {
      content = fs.readFileSync(file, 'utf8');
    } catch {
      return false; // released between our attempt and this read
    }
    const [pidText, timeText] = content.split(' ');
    const pid = Number(pidText);
    const since = Number(timeText);
    if (!Number.isInteger(pid) || !Number.isFinite(since)) {
      // A holder may be between creating the file and writing its pid; judge by the file's age.
      try {
        return Date.now() - fs.statSync(file).mtimeMs > STALE_AFTER_MS;
      } catch {
        return false;
      }
    }
    return !processAlive(pid) || Date.now() - since > STALE_AFTER_MS;
  }
}
