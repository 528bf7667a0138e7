/**
 * @module
 * Lists the vault's files: notes (files with the vault's note ending) and attachments, skipping every path segment that starts
 * with `.` (the server's own `.noted/`, `.obsidian/`, `.git/`, temporary files). Symbolic links are
 * followed only while they stay inside the vault, and each real folder is visited once.
 */
import fs from 'node:fs';
import path from 'node:path';
import { hasEnding, type NoteEnding } from '../common/note-ending.js';
import { isOrphanTemp } from './atomic-write.js';
import { openedPath } from './confine.js';
import { isHiddenPath, MAX_FOLDER_DEPTH } from './names.js';

export interface FileEntry {
  /** Vault-relative path with `/` separators. */
  readonly name: string;
  readonly size: number;
  readonly mtimeMs: number;
  readonly ctimeMs: number;
  readonly birthtimeMs: number;
  readonly ino: number;
  /**
   * The real vault-relative path, when it differs from `name` (reached through a symbolic link): the
   * index reads the note only from there (index/sync/parse-note.ts).
   */
  readonly real?: string;
}

export interface WalkResult {
  readonly notes: FileEntry[];
  readonly attachments: FileEntry[];
  /**
   * Files reached through a symbolic link (the file itself, or a linked folder above it), by their
   * listed name, with the real vault-relative path they lead to: the access policy judges that one.
   */
  readonly linked: Map<string, string>;
  /** Files that could not be read (vanished or lost permission during the walk), with why. */
  readonly skipped: { name: string; reason: string }[];
}

/** True when a file of that name is a note of a vault whose notes end in `ending`. */
export function isNoteFile(name: string, ending: NoteEnding): boolean {
  return hasEnding(name, ending);
}

/** A file as the walk and the index know it; `real` only where it differs from `name`. */
export function fileEntryOf(name: string, st: fs.Stats, real: string): FileEntry {
  return {
    name,
    size: st.size,
    mtimeMs: st.mtimeMs,
    ctimeMs: st.ctimeMs,
    birthtimeMs: st.birthtimeMs,
    ino: st.ino,
    ...(real === name ? {} : { real }),
  };
}

/**
 * Walks `root` (a real path) or one folder of it. `sub` is a vault-relative folder ('' for all).
 * Files ending in `ending` are notes. Orphaned temporary files from crashed writers are removed on
 * the way.
 */
export function walkVault(root: string, ending: NoteEnding, sub = ''): WalkResult {
  const result = emptyWalk();
  const steps = walkSteps(root, ending, sub, result);
  while (steps.next().done !== true);
  return result;
}

/**
 * The same walk, letting other work run between folders (`pause`, e.g. a Work's checkpoint): at 100k
 * notes the walk takes about a second, which a server that answers at once cannot hold the thread for.
 */
export async function walkVaultAsync(
  root: string,
  ending: NoteEnding,
  sub: string,
  pause: () => Promise<void>,
): Promise<WalkResult> {
  const result = emptyWalk();
  const steps = walkSteps(root, ending, sub, result);
  while (steps.next().done !== true) await pause();
  return result;
}

function emptyWalk(): WalkResult {
  return { notes: [], attachments: [], linked: new Map(), skipped: [] };
}

/** The walk, one folder per step, in the same order as a recursive walk. */
function* walkSteps(root: string, ending: NoteEnding, sub: string, result: WalkResult): Generator<void> {
  const seen = new Set<string>();
  const rootPrefix = root.endsWith(path.sep) ? root : root + path.sep;
  const inside = (real: string) => real === root || real.startsWith(rootPrefix);
  // Security: a link may lead to a hidden place inside the vault (`state -> .noted`); what is there is
  // as hidden as it would be under its own name, so such a link is not followed.
  const hiddenTarget = (real: string) => real !== root && isHiddenPath(real.slice(rootPrefix.length));

  // Linked folders are walked after every real one, so a note reachable both by its own path and
  // through a link to its folder is always listed under its own path.
  const deferred: { abs: string; rel: string; depth: number }[] = [];

  const visit = function* (absDir: string, relDir: string, depth: number): Generator<void> {
    const listed = listFolder(absDir);
    if (listed === null) return;
    const { real } = listed;
    if (!inside(real) || hiddenTarget(real) || seen.has(real)) return;
    seen.add(real);
    if ('error' in listed) {
      result.skipped.push({ name: relDir, reason: listed.error });
      return;
    }
    const entries = listed.entries;
    // Worked out once per folder, not per file: at 100k notes, path.join and split/join per file were
    // a fifth of the walk.
    const absPrefix = absDir.endsWith(path.sep) ? absDir : absDir + path.sep;
    const relPrefix = relDir === '' ? '' : `${relDir}/`;
    const realRelDir = real === root ? '' : real.slice(rootPrefix.length).split(path.sep).join('/');
    const realPrefix = realRelDir === '' ? '' : `${realRelDir}/`;
    for (const entry of entries) {
      const fileName = entry.name;
      if (fileName.startsWith('.')) {
        if (entry.isFile() && isOrphanTemp(fileName)) fs.rmSync(absPrefix + fileName, { force: true });
        continue;
      }
      const abs = absPrefix + fileName;
      const rel = relPrefix + fileName;
      let isDir = entry.isDirectory();
      let isFile = entry.isFile();
      const linked = entry.isSymbolicLink();
      let target = '';
      if (linked) {
        // Security: a link is followed only when its real target is inside the vault and not hidden.
        try {
          target = fs.realpathSync.native(abs);
        } catch {
          continue;
        }
        if (!inside(target) || hiddenTarget(target)) continue;
        let st: fs.Stats;
        try {
          st = fs.statSync(abs);
        } catch {
          continue;
        }
        isDir = st.isDirectory();
        isFile = st.isFile();
      }
      if (isDir) {
        if (depth >= MAX_FOLDER_DEPTH) continue;
        if (linked) deferred.push({ abs, rel, depth: depth + 1 });
        else yield* visit(abs, rel, depth + 1);
        continue;
      }
      if (!isFile) continue;
      let st: fs.Stats;
      try {
        st = fs.statSync(abs);
      } catch (err) {
        result.skipped.push({ name: rel, reason: (err as NodeJS.ErrnoException).code ?? String(err) });
        continue;
      }
      // The file's real place: its link's target, or its name in a folder reached through a link.
      const realName = linked
        ? target.slice(rootPrefix.length).split(path.sep).join('/')
        : realPrefix + fileName;
      const item = fileEntryOf(rel, st, realName);
      (isNoteFile(fileName, ending) ? result.notes : result.attachments).push(item);
      if (realName !== rel) result.linked.set(rel, realName);
    }
    yield;
  };

  const startAbs = sub === '' ? root : path.join(root, ...sub.split('/'));
  yield* visit(startAbs, sub, sub === '' ? 0 : sub.split('/').length);
  for (let next = deferred.shift(); next !== undefined; next = deferred.shift())
    yield* visit(next.abs, next.rel, next.depth);
}

/**
 * The entries of the folder at `absDir` and its real path, both of the one folder opened: read through
 * its descriptor where the system names it (/proc/self/fd), so a folder swapped for a link between
 * finding its real path and listing it cannot list another folder's files under its name (issue 25).
 * Null when it cannot be opened; an error reading it is returned with the real path.
 */
function listFolder(
  absDir: string,
): { real: string; entries: fs.Dirent[] } | { real: string; error: string } | null {
  let fd: number;
  try {
    fd = fs.openSync(absDir, fs.constants.O_RDONLY | (fs.constants.O_DIRECTORY ?? 0));
  } catch {
    return null;
  }
  try {
    const held = openedPath(fd);
    let real: string;
    try {
      real = held ?? fs.realpathSync.native(absDir);
    } catch {
      return null;
    }
    try {
      return {
        real,
        entries: fs.readdirSync(held === null ? absDir : `/proc/self/fd/${fd}`, { withFileTypes: true }),
      };
    } catch (err) {
      return { real, error: (err as NodeJS.ErrnoException).code ?? String(err) };
    }
  } finally {
    fs.closeSync(fd);
  }
}
