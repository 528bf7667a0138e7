/**
 * @module
 * The index look-ups a move needs: which notes hold links that could reach a moved file (by link key,
 * `markdown/link-key.ts`), the files and alias owners those links could resolve to, and what lies in a
 * folder. Only candidates are read, so a move costs what its links cost, not what the vault holds.
 */
import type { Db } from '../../index/db/database.js';

/** Paths of the notes holding at least one link filed under one of `keys`. */
export function notesWithLinkKeys(db: Db, keys: readonly string[]): string[] {
  if (keys.length === 0) return [];
  return db
    .prepare<[string], { path: string }>(
      `SELECT DISTINCT n.path FROM note_links l JOIN notes n ON n.id = l.note_id
       WHERE l.key_lower IN (SELECT value FROM json_each(?))`,
    )
    .all(JSON.stringify(keys))
    .map((r) => r.path);
}

/** Notes and attachments whose folded file name is one of `fileNames`. */
export function filesNamed(db: Db, fileNames: readonly string[]): string[] {
  if (fileNames.length === 0) return [];
  const names = JSON.stringify(fileNames);
  return db
    .prepare<[string, string], { path: string }>(
      `SELECT path FROM notes WHERE file_lower IN (SELECT value FROM json_each(?))
       UNION ALL
       SELECT path FROM attachments WHERE file_lower IN (SELECT value FROM json_each(?))`,
    )
    .all(names, names)
    .map((r) => r.path);
}

/** The notes whose aliases hold one of `texts` (folded), with those aliases. */
export function aliasOwners(db: Db, texts: readonly string[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  if (texts.length === 0) return out;
  const rows = db
    .prepare<[string], { path: string; alias_lower: string }>(
      `SELECT n.path, a.alias_lower FROM note_aliases a JOIN notes n ON n.id = a.note_id
       WHERE a.alias_lower IN (SELECT value FROM json_each(?))`,
    )
    .all(JSON.stringify(texts));
  for (const r of rows) out.set(r.path, [...(out.get(r.path) ?? []), r.alias_lower]);
  return out;
}

/** Every indexed note and attachment below `folder` (exact letter case), by path. */
export function filesUnder(db: Db, folder: string): { notes: string[]; attachments: string[] } {
  const prefix = { p: `${folder}/` };
  const notes = db
    .prepare<[{ p: string }], { path: string }>(
      'SELECT path FROM notes WHERE substr(path, 1, length(@p)) = @p ORDER BY path',
    )
    .all(prefix)
    .map((r) => r.path);
  const attachments = db
    .prepare<[{ p: string }], { path: string }>(
      'SELECT path FROM attachments WHERE substr(path, 1, length(@p)) = @p ORDER BY path',
    )
    .all(prefix)
    .map((r) => r.path);
  return { notes, attachments };
}

/** Every indexed note path (for folder note counts). */
export function allNotePaths(db: Db): string[] {
  return db
    .prepare<[], { path: string }>('SELECT path FROM notes')
    .all()
    .map((r) => r.path);
}

/** Indexed notes or attachments whose lower-cased path starts with `prefixLower` (case variants). */
export function pathsWithLowerPrefix(db: Db, prefixLower: string): string[] {
  return db
    .prepare<[{ p: string }], { path: string }>(
      `SELECT path FROM notes WHERE substr(path_lower, 1, length(@p)) = @p
       UNION ALL SELECT path FROM attachments WHERE substr(path_lower, 1, length(@p)) = @p LIMIT 1`,
    )
    .all({ p: prefixLower })
    .map((r) => r.path);
}
