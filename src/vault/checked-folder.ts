/**
 * @module
 * A folder opened for writing, and checked where it really is (issue 25 item 4). Resolving a name and
 * writing there are two steps; between them another process (a sync tool, a hostile local process)
 * may replace a folder on the way with a symbolic link into a hidden folder, and a write by path would
 * land there. So a write opens the folder once, asks the system which folder it holds (Linux:
 * /proc/self/fd), checks that one, and makes every file operation relative to that descriptor
 * (`/proc/self/fd/N/name`): whatever happens to the path afterwards, the write goes where it was
 * checked. Folders missing on the way are made one at a time, each opened without following a link.
 *
 * Where the system does not say which folder a descriptor holds, the folder's real path at opening is
 * used: the check stands, a swap after it is not caught (a known limit off Linux).
 */
import fs from 'node:fs';
import path from 'node:path';
import { NotedError } from '../common/errors.js';
import { openedPath, refuseChanged, relativeToRoot } from './confine.js';
import { isHiddenPath } from './names.js';

/** Decides from a file's real vault-relative path whether it may be read (or written) there. */
export type Sight = (realRel: string) => boolean;

/** Every path the vault offers at all (dot-folders are never offered): for the owner's own actions. */
export const ANYWHERE: Sight = () => true;

const O_DIRECTORY = fs.constants.O_DIRECTORY ?? 0;
const O_NOFOLLOW = fs.constants.O_NOFOLLOW ?? 0;

export class OpenedFolder {
  private closed = false;

  constructor(
    /** The descriptor, or null where the system cannot name it (then `abs` is used). */
    readonly fd: number | null,
    /** The folder's real absolute path when it was opened. */
    readonly abs: string,
    /** Its real vault-relative path (`''` for the root). */
    readonly real: string,
  ) {}

  /** A path to `name` in this very folder: through the descriptor where the system allows. */
  at(name: string): string {
    return this.fd === null ? path.join(this.abs, name) : `/proc/self/fd/${this.fd}/${name}`;
  }

  /** The real vault-relative path of `name` in this folder. */
  realOf(name: string): string {
    return this.real === '' ? name : `${this.real}/${name}`;
  }

  /** Flushes the folder's entries (renames, links) to disk; some file systems refuse, harmlessly. */
  sync(): void {
    if (this.fd === null) return;
    try {
      fs.fsyncSync(this.fd);
    } catch {
      // The rename has happened either way.
    }
  }

  close(): void {
    if (this.closed || this.fd === null) return;
    this.closed = true;
    fs.closeSync(this.fd);
  }
}

/**
 * Opens the folder `dirAbs` (below `root`, as `resolveInside` gave it) and checks the folder opened is
 * inside the vault, not a dot-folder, and a place `allowHere` accepts (given its real path). Missing
 * folders are made when `create` is true, after `allowHere` accepted where they would be, so nothing is
 * made where it refuses; else null is returned. Any refusal throws `invalid_name` (reason `changed`),
 * the answer for a link that leads nowhere too.
 */
export function openFolder(
  root: string,
  dirAbs: string,
  name: string,
  create: boolean,
  allowHere: (realFolder: string) => boolean = () => true,
): OpenedFolder | null {
  const rel = relativeToRoot(root, dirAbs);
  if (rel === null) refuseChanged(name);
  const segments = rel === '' ? [] : rel.split('/');
  let depth = segments.length;
  let fd: number | null = null;
  let from = root;
  for (; depth >= 0; depth--) {
    from = path.join(root, ...segments.slice(0, depth));
    try {
      fd = fs.openSync(from, fs.constants.O_RDONLY | O_DIRECTORY);
      break;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' && depth > 0) continue;
      if (code === 'ENOTDIR') throw fileInTheWay(name);
      throw err;
    }
  }
  let folder = checked(root, fd as number, from, name);
  const missing = segments.slice(depth);
  const final = [folder.real, ...missing].filter((s) => s !== '').join('/');
  if (!allowHere(final)) {
    folder.close();
    refuseChanged(name);
  }
  if (missing.length === 0) return folder;
  if (!create) {
    folder.close();
    return null;
  }
  try {
    for (const segment of missing) {
      const next = folder.at(segment);
      try {
        fs.mkdirSync(next);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
      let child: number;
      try {
        // Security: made a moment ago, so a link there now was put there since; it is not followed.
        child = fs.openSync(next, fs.constants.O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'ELOOP' || code === 'ENOTDIR') refuseChanged(name);
        throw err;
      }
      folder.sync();
      const parent = folder;
      folder = checked(root, child, path.join(parent.abs, segment), name);
      parent.close();
    }
  } catch (err) {
    folder.close();
    throw err;
  }
  return folder;
}

/**
 * Wraps `fd` (opened from `opened`) after checking where it is; closes it and throws when that is out
 * of bounds. Where the system cannot name it, the descriptor is closed and the real path used.
 */
function checked(root: string, fd: number, from: string, name: string): OpenedFolder {
  let keep = false;
  try {
    const held = openedPath(fd);
    const abs = held ?? fs.realpathSync.native(from);
    const real = relativeToRoot(root, abs);
    // Security: out of the vault, or into a dot-folder (`.noted/`, `.git/`): not a place for notes.
    if (real === null || (real !== '' && isHiddenPath(real))) refuseChanged(name);
    keep = held !== null;
    return new OpenedFolder(held === null ? null : fd, abs, real);
  } finally {
    if (!keep) fs.closeSync(fd);
  }
}

function fileInTheWay(name: string): NotedError {
  return new NotedError(
    'already_exists',
    `A file stands where a folder of "${name}" should be, so nothing was written. Choose another name.`,
    { name, committed: false },
  );
}
