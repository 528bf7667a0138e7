/**
 * @module
 * Path confinement, the file-system half (SPEC 1.3): a name already checked by `names.ts` is
 * resolved through symbolic links from its nearest existing ancestor and must stay inside the
 * vault's real root. This is the only place that turns a note name into a path for I/O.
 *
 * A check and the I/O that follows are two steps. Returning the resolved real path (not `root +
 * name`) means every link that existed at check time is already followed. For reads,
 * {@link readChecked} also looks at the file it opened, so a folder swapped for a symbolic link in
 * between cannot make a read return a file from elsewhere. Known limit: for writes, such a swap is
 * not caught here.
 */

import fs from 'node:fs';
import path from 'node:path';
import { NotedError } from '../common/errors.js';
import { isHiddenPath, quoteName } from './names.js';

type EscapeReason = 'outside' | 'dangling_symlink' | 'symlink_loop' | 'too_long' | 'changed';

/** Attempts when a path vanishes between the lstat and the realpath of one resolution. */
const RACE_ATTEMPTS = 3;

/** The vault folder's real path (symbolic links and `..` resolved). The folder must exist. */
export function realVaultRoot(dir: string): string {
  return fs.realpathSync.native(dir);
}

/**
 * The absolute path to use for I/O on the canonical name `rel` (`""` is the vault root itself).
 * `root` must come from `realVaultRoot`. The deepest existing prefix of the path is resolved with
 * realpath (a final component that is a link is followed too) and must equal `root` or lie below
 * `root + path.sep`; the missing rest of the name is appended. A dangling link or a link loop on
 * the way counts as an escape. Escapes throw `NotedError('invalid_name')` with `details.reason`;
 * nothing is created or changed either way.
 *
 * The result may be a hidden real location (a link inside the vault pointing into `.noted/`);
 * callers check `isHiddenPath(relativeToRoot(root, result))` before offering it to an agent.
 *
 * @example
 * resolveInside('/home/me/notes', 'inbox/idea.md') // '/home/me/notes/inbox/idea.md'
 * resolveInside('/home/me/notes', 'link/x.md') // throws invalid_name when link -> /etc
 */
export function resolveInside(root: string, rel: string): string {
  const segments = canonicalSegments(rel);
  // The usual case, a path that exists: one realpath follows every link on it, with no lstat first
  // (a search reads its ten results through here: about 0.1 ms less per search at 10k notes).
  // Anything it cannot resolve, from a missing file to a loop, is left to the general resolution
  // below, which tells the cases apart.
  const whole = existingRealPath(segmentsPath(root, segments));
  if (whole !== null) {
    // Security: compare with root + separator, never a bare string prefix (/vault-evil vs /vault).
    if (!isInside(root, whole)) refuse(rel, 'outside');
    return whole;
  }
  for (let attempt = 1; ; attempt++) {
    const existing = countExisting(root, segments, rel);
    const prefix = path.join(root, ...segments.slice(0, existing));
    let real: string;
    try {
      real = fs.realpathSync.native(prefix);
    } catch (error) {
      const code = errorCode(error);
      if (code === 'ELOOP') refuse(rel, 'symlink_loop');
      if (code === 'ENAMETOOLONG') refuse(rel, 'too_long');
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw error;
      // Security: lstat found the prefix but realpath cannot follow it, so it is a link to nowhere.
      // Creating through it would write wherever the link points, which may be outside the vault.
      if (lstatOrNull(prefix, rel)?.isSymbolicLink()) refuse(rel, 'dangling_symlink');
      // Otherwise the prefix vanished between the two calls (a concurrent delete): look again.
      if (attempt < RACE_ATTEMPTS) continue;
      throw error;
    }
    // Security: compare with root + separator, never a bare string prefix (/vault-evil vs /vault).
    if (!isInside(root, real)) refuse(rel, 'outside');
    return path.join(real, ...segments.slice(existing));
  }
}

/**
 * The `/`-separated vault-relative path of an absolute path, `""` for the root itself, or `null`
 * when the path is not inside `root` (tested segment-wise, not as a string prefix).
 *
 * @example
 * relativeToRoot('/vault', '/vault/a/b.md') // 'a/b.md'
 * relativeToRoot('/vault', '/vault-evil/b.md') // null
 */
export function relativeToRoot(root: string, abs: string): string | null {
  if (!path.isAbsolute(abs)) return null;
  // Security: resolve `..` lexically first so `/vault/../etc` is not taken for a path below /vault.
  const target = path.resolve(abs);
  const base = path.resolve(root);
  if (target === base) return '';
  const prefix = withSep(base);
  if (!target.startsWith(prefix)) return null;
  return target.slice(prefix.length).split(path.sep).join('/');
}

/** Read-only, and a FIFO does not block the open. */
const OPEN_THROUGH_LINK = fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0);
/**
 * Also never through a final symbolic link: the name was resolved without one, so one there now was
 * put there since, and might lead anywhere, a device included.
 */
const OPEN_FOR_READ = OPEN_THROUGH_LINK | (fs.constants.O_NOFOLLOW ?? 0);

/**
 * Opens for reading the file at `abs`, the path {@link resolveInside} gave for `rel`, and checks that
 * what was opened is still inside the vault and not in a hidden folder: between the resolution and
 * the open, a folder on the way may have been swapped for a symbolic link to elsewhere. Where the
 * system tells which file a descriptor holds (Linux: /proc/self/fd), that file's own path is
 * checked; elsewhere only the final name is guarded. Returns the descriptor (the caller closes it),
 * or null when there is no file, or none in sight. A final name that became a symbolic link is
 * refused with `invalid_name` (reason `changed`); other failures (EACCES, EIO) are thrown as they
 * are.
 */
function openChecked(
  root: string,
  rel: string,
  abs: string,
  options: { readonly followFinalLink?: boolean; readonly sight?: (realRel: string) => boolean },
): { fd: number; real: string } | null {
  let fd: number;
  try {
    fd = fs.openSync(abs, options.followFinalLink ? OPEN_THROUGH_LINK : OPEN_FOR_READ);
  } catch (error) {
    const code = errorCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    if (code === 'ELOOP') refuse(rel, 'changed');
    throw error;
  }
  let keep = false;
  try {
    const opened = openedPath(fd);
    // A deleted file reads as "<path> (deleted)": still its own path, still checked.
    const inside = relativeToRoot(root, opened ?? abs);
    // Security: a file out of sight is not read. Either it was moved there since the check (a note
    // put in the trash as it was read) or a folder on the way was swapped for a link to elsewhere
    // (into a folder the policy hides, say: `sight` judges the file's real place); both ways there is
    // no note here.
    keep = inside !== null && !isHiddenPath(inside) && (options.sight?.(inside) ?? true);
    return keep ? { fd, real: inside as string } : null;
  } finally {
    if (!keep) fs.closeSync(fd);
  }
}

/** A file's bytes and the stat of the same open file. */
export interface CheckedFile {
  readonly bytes: Buffer;
  readonly stat: fs.Stats;
  /** The vault-relative real path of the file read (links followed). */
  readonly real: string;
}

/**
 * Reads the file at `abs`, the path {@link resolveInside} gave for `rel`, through one descriptor
 * opened by {@link openChecked}: size, times and bytes all come from the file opened. Null when there
 * is no regular file there, or none in sight. `check` sees the stat before the bytes are read (to
 * refuse a file too large). System errors (EACCES, EIO) are thrown as they are.
 */
export function readChecked(
  root: string,
  rel: string,
  abs: string,
  options: {
    followFinalLink?: boolean;
    check?: (stat: fs.Stats) => void;
    /** Whether the file may be read at its real vault-relative place (the gate passes the policy). */
    sight?: (realRel: string) => boolean;
  } = {},
): CheckedFile | null {
  const opened = openChecked(root, rel, abs, options);
  if (opened === null) return null;
  const { fd, real } = opened;
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile()) return null;
    options.check?.(stat);
    return { bytes: fs.readFileSync(fd), stat, real };
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * The stat of the file at `abs`, the path {@link resolveInside} gave for `rel`, from the same checked
 * open as {@link readChecked}, without reading it: null when there is no regular file there, or none
 * in sight (`sight` judges the file opened at its real place).
 */
export function statChecked(
  root: string,
  rel: string,
  abs: string,
  sight?: (realRel: string) => boolean,
): fs.Stats | null {
  const opened = openChecked(root, rel, abs, sight === undefined ? {} : { sight });
  if (opened === null) return null;
  try {
    const stat = fs.fstatSync(opened.fd);
    return stat.isFile() ? stat : null;
  } finally {
    fs.closeSync(opened.fd);
  }
}

/**
 * Whether a regular file the reader may see is at `abs` (the path {@link resolveInside} gave for
 * `rel`), judged on the file opened, as {@link readChecked} reads it, without reading it.
 */
export function existsChecked(
  root: string,
  rel: string,
  abs: string,
  sight: (realRel: string) => boolean,
): boolean {
  return statChecked(root, rel, abs, sight) !== null;
}

/**
 * The bytes of the note `rel` (a canonical name the walk found) as the index reads it: through a
 * final symbolic link if there is one, since the walk checked where it led, but, as with
 * {@link readChecked}, never from a file that is out of sight, or no longer a regular file, by the
 * time it is opened. A cold build reads its notes seconds after the walk listed them. The caller
 * compares the file's `real` path with the one the walk found.
 */
export function readInside(root: string, rel: string): CheckedFile | null {
  return readChecked(root, rel, segmentsPath(root, canonicalSegments(rel)), { followFinalLink: true });
}

function segmentsPath(root: string, segments: readonly string[]): string {
  return segments.length === 0 ? root : path.join(root, ...segments);
}

/** Whether /proc/self/fd names open files here; learnt on first use. */
let procFd: boolean | undefined;

/** The path of the file `fd` holds, or null where the system does not say. */
export function openedPath(fd: number): string | null {
  if (procFd === false) return null;
  try {
    const opened = fs.readlinkSync(`/proc/self/fd/${fd}`);
    procFd = true;
    return opened;
  } catch (error) {
    // Security: once known to work, a failure is not taken as "cannot tell".
    if (procFd === true) throw error;
    procFd = false;
    return null;
  }
}

function existingRealPath(abs: string): string | null {
  try {
    return fs.realpathSync.native(abs);
  } catch {
    return null;
  }
}

function isInside(root: string, real: string): boolean {
  return real === root || real.startsWith(withSep(root));
}

function withSep(dir: string): string {
  return dir.endsWith(path.sep) ? dir : dir + path.sep;
}

/** `rel` must already be canonical; anything else reaching this point is a bug in the caller. */
function canonicalSegments(rel: string): string[] {
  if (rel === '') return [];
  const segments = rel.split('/');
  const broken =
    path.isAbsolute(rel) || rel.includes('\0') || segments.some((s) => s === '' || s === '.' || s === '..');
  if (broken) throw new Error(`resolveInside expects a normalized name, got ${quoteName(rel)}`);
  return segments;
}

/**
 * How many leading segments exist on disk (lstat succeeds), searching from the full path upward
 * since the common case is a note or folder that exists.
 */
function countExisting(root: string, segments: readonly string[], rel: string): number {
  for (let n = segments.length; n > 0; n--) {
    if (lstatOrNull(path.join(root, ...segments.slice(0, n)), rel)) return n;
  }
  return 0;
}

/** lstat, or null when the path does not exist (ENOENT, or a file where a folder was expected). */
function lstatOrNull(p: string, rel: string): fs.Stats | null {
  try {
    return fs.lstatSync(p);
  } catch (error) {
    const code = errorCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    // A loop in a middle link surfaces here rather than in realpath.
    if (code === 'ELOOP') refuse(rel, 'symlink_loop');
    if (code === 'ENAMETOOLONG') refuse(rel, 'too_long');
    throw error;
  }
}

function errorCode(error: unknown): string | undefined {
  return error instanceof Error && 'code' in error && typeof error.code === 'string' ? error.code : undefined;
}

const REASONS: Record<EscapeReason, string> = {
  outside: 'it resolves to a location outside the vault through a symbolic link',
  dangling_symlink:
    'it passes through a symbolic link whose target does not exist, so where it leads cannot be checked and it is treated as leaving the vault',
  symlink_loop: 'it passes through a loop of symbolic links',
  too_long: 'the resulting path is longer than the file system allows',
  changed:
    'it became a symbolic link, or a folder on its way was replaced by one, while it was being read or written',
};

/**
 * The very error a dangling link on the way of `rel` gets. Security (issue 35 finding 10): a visible
 * link whose target the policy hides answers with it, so that the owner's link shows nothing of
 * whether its hidden target exists.
 */
export function refuseAsDangling(rel: string): never {
  refuse(rel, 'dangling_symlink');
}

/** The error for a path that changed under a read or write (a folder swapped for a link). */
export function refuseChanged(rel: string): never {
  refuse(rel, 'changed');
}

function refuse(rel: string, reason: EscapeReason): never {
  const next =
    reason === 'too_long'
      ? 'use a shorter name'
      : 'use a note whose real location is inside the vault, or ask the vault owner to fix the link';
  throw new NotedError(
    'invalid_name',
    `The name ${quoteName(rel)} cannot be used: ${REASONS[reason]}. Nothing was read or written; ${next}.`,
    { name: rel, reason },
  );
}
