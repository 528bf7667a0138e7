/**
 * @module
 * The partial sync: the paths a watcher reported (or this process wrote) brought in line with the
 * files, folders walked as a whole, renames paired into moves in the same transaction.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileEntryOf, isNoteFile } from '../../vault/walk.js';
import type { Db } from '../db/database.js';
import { withoutAutomerge } from '../store/fts-merge.js';
import { indexFormat } from '../store/index-format.js';
import { type ChangeListener, type IndexedFile, IndexWriter } from '../store/store.js';
import { EVERYTHING_VISIBLE, type IndexVisibility } from '../store/visibility.js';
import { indexFile, syncAll, unchanged } from './sync.js';

export interface PathsSync {
  readonly changed: number;
  /**
   * The synced folders that hold folders: a watcher may watch those only under their old path, or not
   * at all (VaultWatcher.rewatch).
   */
  readonly nested: string[];
  /** The synced paths reached through symbolic links, with their real paths. */
  readonly linked: Map<string, string>;
}

/**
 * Syncs the paths a watcher reported: a changed file is re-read when its stat differs (or when
 * `visibility` now judges it otherwise), a folder is walked, and a path that no longer exists is
 * removed with everything below it.
 */
export function syncPaths(
  db: Db,
  root: string,
  paths: Iterable<string>,
  options: { deferMerge?: boolean; visibility?: IndexVisibility; onChange?: ChangeListener } = {},
): PathsSync {
  const visibility = options.visibility ?? EVERYTHING_VISIBLE;
  const linked = new Map<string, string>();
  const onChange = options.onChange ?? (() => undefined);
  const writer = new IndexWriter(db, visibility.key, onChange);
  const format = indexFormat(db);
  const selectOne = db.prepare<[string], IndexedFile & { etag: string }>(
    'SELECT id, path, size, mtime_ms, ino, visible, etag FROM notes WHERE path = ?',
  );
  const selectUnder = db.prepare<[{ p: string }], IndexedFile>(
    'SELECT id, path, size, mtime_ms, ino, visible FROM notes WHERE substr(path, 1, length(@p)) = @p',
  );
  let changed = 0;
  const folders: string[] = [];
  const nested: string[] = [];
  const write = (fn: () => void) =>
    options.deferMerge === true ? withoutAutomerge(db, () => writer.write(fn)) : writer.write(fn);
  /** Takes a path that is not there out of the index, with everything below it. */
  const gone = (rel: string) => {
    if (writer.removeNoteByPath(rel)) changed++;
    // Already out of the index: another process took it out first, or it was never a note.
    else if (isNoteFile(rel, format.ending) && !hasHiddenSegment(rel))
      onChange({ path: rel, kind: 'removed', etag: null, echo: true });
    writer.removeAttachment(rel);
    for (const row of selectUnder.all({ p: `${rel}/` })) {
      writer.removeNote(row.id);
      changed++;
    }
  };
  write(() => {
    for (const rel of new Set(paths)) {
      const abs = path.join(root, ...rel.split('/'));
      const st = statInside(root, abs);
      if (st?.isDirectory()) {
        folders.push(rel);
        continue;
      }
      if (st === null || !st.isFile()) {
        gone(rel);
        continue;
      }
      if (hasHiddenSegment(rel)) continue;
      const real = realName(root, abs);
      if (real === null) {
        // Gone since the stat (another process deleted or moved it): as if the stat had missed it.
        gone(rel);
        continue;
      }
      if (real !== rel) linked.set(rel, real);
      const file = fileEntryOf(rel, st, real);
      if (!isNoteFile(rel, format.ending)) {
        writer.putAttachment(file);
        continue;
      }
      const visible = visibility.visible(real);
      const row = selectOne.get(rel);
      if (unchanged(row, file, visible)) {
        // The index already holds it as it is: written by another process that indexed it first, or
        // by this one (NoteIndex tells which).
        if (row !== undefined) onChange({ path: rel, kind: 'changed', etag: row.etag, echo: true });
        continue;
      }
      if (indexFile(root, writer, file, visible, format)) changed++;
    }
    // In the same transaction: a folder renamed (old path gone, new path walked) is one set of moves
    // in the change feed, not deletions then creations (feed.ts).
    for (const folder of folders) {
      if (holdsFolders(path.join(root, ...folder.split('/')))) nested.push(folder);
      const stats = syncAll(db, root, folder, undefined, visibility, onChange);
      changed += stats.reindexed;
      for (const [k, v] of stats.linked) linked.set(k, v);
    }
  });
  return { changed, linked, nested };
}

/** Whether a folder holds a folder agents may see (hidden ones are not watched anyway). */
function holdsFolders(abs: string): boolean {
  try {
    return fs
      .readdirSync(abs, { withFileTypes: true })
      .some((e) => e.isDirectory() && !e.name.startsWith('.'));
  } catch {
    return false;
  }
}

/**
 * The vault-relative real path of a file inside the vault, or null when it is gone, or its path was
 * changing as it was resolved (a folder on the way flipped between a folder and a link: EINVAL, ELOOP);
 * the next look finds it as it settled.
 */
function realName(root: string, abs: string): string | null {
  try {
    return path.relative(root, fs.realpathSync.native(abs)).split(path.sep).join('/');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'EINVAL' || code === 'ELOOP') return null;
    throw err;
  }
}

/** Stats a path, following a symbolic link only when its real target is inside the vault. */
function statInside(root: string, abs: string): fs.Stats | null {
  try {
    const st = fs.lstatSync(abs);
    if (!st.isSymbolicLink()) return st;
    const real = fs.realpathSync.native(abs);
    // Security: a link that leads out of the vault, or into a hidden folder of it (`.noted/`), is
    // treated as if the file were not there.
    if (real !== root && !real.startsWith(root + path.sep)) return null;
    if (
      hasHiddenSegment(
        real
          .slice(root.length + 1)
          .split(path.sep)
          .join('/'),
      )
    )
      return null;
    return fs.statSync(abs);
  } catch {
    return null;
  }
}

function hasHiddenSegment(rel: string): boolean {
  return rel.startsWith('.') || rel.includes('/.');
}
