/**
 * @module
 * The journal's key (SPEC 6.2): 32 random bytes in the user's configuration folder, outside every
 * vault, readable by the owner only. Each journal entry carries an HMAC of its hash under this key,
 * so whoever has only the vault (a sync tool, another machine, a process without the user's
 * configuration) cannot write an entry that verifies, nor re-chain entries after changing one.
 *
 * One key serves every vault of the user; several server processes share it. It is created on first
 * use without a race: the new key is written to a temporary file and hard-linked into place, which
 * fails when another process got there first, and then that process's key is read and used.
 *
 * The folder also holds the vaults' anchors (anchor.ts).
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export const KEY_FILE_NAME = 'journal.key';

/** What an entry's authentication code is computed over, besides its hash: a version, for later keys. */
const MAC_CONTEXT = 'noted-journal-entry-v1\0';

export class JournalKey {
  /** The first 16 hex digits of a hash of the key: names the key in entries without revealing it. */
  readonly id: string;

  constructor(
    /** The configuration folder that holds the key (and the anchors). */
    readonly dir: string,
    private readonly secret: Buffer,
  ) {
    this.id = createHash('sha256').update('noted-journal-key-id\0').update(secret).digest('hex').slice(0, 16);
  }

  /** The authentication code of an entry with hash `hash` (hex HMAC-SHA256). */
  mac(hash: string): string {
    return createHmac('sha256', this.secret).update(MAC_CONTEXT).update(hash).digest('hex');
  }

  /** True when `mac` is this key's code for `hash` (compared in constant time). */
  verifies(hash: string, mac: string): boolean {
    const want = Buffer.from(this.mac(hash), 'hex');
    const got = Buffer.from(mac, 'hex');
    return got.length === want.length && timingSafeEqual(got, want);
  }
}

/**
 * The key, or why there is none: journaling goes on unauthenticated, and verify says so. `firstUse`:
 * there is none yet and the journal makes it at its first append (openJournalKey's `create: 'first use'`).
 */
export type JournalKeyState =
  | { readonly key: JournalKey }
  | { readonly key: null; readonly dir: string | null; readonly reason: string; readonly firstUse?: true };

/** No key at all: for callers with no configuration folder (verify then says the journal is unchecked). */
export function noJournalKey(reason: string): JournalKeyState {
  return { key: null, dir: null, reason };
}

/**
 * The key in `dir`, created there (with `dir`, owner-only) when missing — unless `create` is false, or
 * `'first use'`: then the state says so and the journal makes it at its first append, so a server that
 * only answers reads never touches the configuration folder. Never throws: a folder that cannot be
 * made or a key that cannot be read is returned as the reason.
 */
export function openJournalKey(
  dir: string,
  options: { create?: boolean | 'first use' } = {},
): JournalKeyState {
  const file = path.join(dir, KEY_FILE_NAME);
  const none = (reason: string): JournalKeyState => ({ key: null, dir, reason });
  try {
    const existing = readKeyFile(file);
    if (existing !== null) return { key: new JournalKey(dir, existing) };
    if (options.create === false || options.create === 'first use') {
      const reason = `there is no journal key in ${dir} on this machine; one is made at the first agent change`;
      return options.create === false ? none(reason) : { key: null, dir, reason, firstUse: true };
    }
    return { key: new JournalKey(dir, createKeyFile(dir, file)) };
  } catch (err) {
    if (err instanceof KeyFileError) return none(err.message);
    const code = (err as NodeJS.ErrnoException).code;
    return none(`the journal key ${file} cannot be read or created (${code ?? (err as Error).message})`);
  }
}

class KeyFileError extends Error {}

/** The key's bytes, or null when there is no key file. */
function readKeyFile(file: string): Buffer | null {
  let st: fs.Stats;
  try {
    st = fs.lstatSync(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  if (!st.isFile()) throw new KeyFileError(`the journal key ${file} is not a regular file`);
  // Security: like ssh with a private key, a key others can read is not used: they could forge entries.
  if (process.platform !== 'win32' && (st.mode & 0o077) !== 0) {
    throw new KeyFileError(
      `the journal key ${file} can be read by other users, so it no longer proves anything; make it private (chmod 600 "${file}")`,
    );
  }
  const hex = fs.readFileSync(file, 'utf8').trim();
  if (!/^[0-9a-f]{64}$/.test(hex)) throw new KeyFileError(`the journal key ${file} is damaged`);
  return Buffer.from(hex, 'hex');
}

/** Writes a new key unless another process wrote one first; returns the key in place either way. */
function createKeyFile(dir: string, file: string): Buffer {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const secret = randomBytes(32);
  const tmp = `${file}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
  const fd = fs.openSync(tmp, 'wx', 0o600);
  try {
    fs.writeFileSync(fd, `${secret.toString('hex')}\n`);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  try {
    // link() refuses an existing file, so two processes creating at once keep one key, the first.
    fs.linkSync(tmp, file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    const theirs = readKeyFile(file);
    if (theirs === null) throw err;
    return theirs;
  } finally {
    fs.rmSync(tmp, { force: true });
  }
  return secret;
}
