/**
 * @module
 * A secret kept in a file of the vault's state folder, readable by its owner only (mode 0600):
 * created once with fresh random bytes, then reused. The caller names the file; this module knows
 * nothing of what the secret guards.
 *
 * @example
 * const { secret, created } = readOrCreateSecretFile(path.join(vault.stateDir, 'mcp-http-token'));
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export interface SecretFile {
  readonly secret: string;
  readonly file: string;
  /** True when this call made the file. */
  readonly created: boolean;
  /** The mode the file had when it let others read or write it, before it was set to 0600. */
  readonly fixedMode?: number;
}

export class SecretFileError extends Error {}

/** 32 random bytes, base64url: 43 characters safe in a header, a URL and a shell word. */
export function newSecret(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * Reads the secret in `file`, or writes a new one there (mode 0600) when the file does not exist.
 * A file others may read or write is set back to 0600 and reported in `fixedMode`.
 * Throws `SecretFileError` for a file that is a symbolic link, not a regular file, or empty.
 */
export function readOrCreateSecretFile(file: string): SecretFile {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const secret = newSecret();
  try {
    // Security: 'wx' fails on an existing file or link, so two servers starting at once agree on
    // one secret, and a planted link is never written through. Mode 0600 from the first byte.
    const fd = fs.openSync(file, 'wx', 0o600);
    try {
      fs.writeFileSync(fd, `${secret}\n`);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    return { secret, file, created: true };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  return readExisting(file);
}

function readExisting(file: string): SecretFile {
  const stat = fs.lstatSync(file);
  // Security: a link could make us read (and later print) some other file, or chmod it.
  if (stat.isSymbolicLink()) throw new SecretFileError(`${file} is a symbolic link; refusing to use it.`);
  if (!stat.isFile()) throw new SecretFileError(`${file} is not a regular file; refusing to use it.`);
  let fixedMode: number | undefined;
  if ((stat.mode & 0o077) !== 0) {
    fixedMode = stat.mode & 0o777;
    fs.chmodSync(file, 0o600);
  }
  const secret = fs.readFileSync(file, 'utf8').trim();
  if (secret === '') throw new SecretFileError(`${file} is empty; delete it to have a new secret made.`);
  return { secret, file, created: false, ...(fixedMode === undefined ? {} : { fixedMode }) };
}
