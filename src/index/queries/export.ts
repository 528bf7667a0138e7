/**
 * @module
 * Which notes an export takes (SPEC 12.2), in name order, a page at a time: a folder and its
 * sub-folders, a tag and the tags nested under it, a search query, and what the caller may see.
 */

import type { Db } from '../db/database.js';
import { escapeLike } from '../db/like.js';
import type { CompiledSearch } from '../search/plan/compiled.js';
import { registerSearchFunctions } from '../search/run/functions.js';
import { hiddenNotesOut, type Visible, visibleRows } from '../store/visibility.js';
import { type DateRange, dateRangeSql } from './date-range.js';
import { visibleSql } from './notes.js';

export interface ExportSelection {
  /** Lower-cased folder, '' for the whole vault. */
  readonly folderLower: string;
  /** A tag as stored (checkTag), or undefined. */
  readonly tagLower?: string;
  readonly search?: CompiledSearch;
  readonly visible?: Visible;
  readonly visibilityKey?: string;
  /** Only notes modified or created in this range. */
  readonly range?: DateRange;
}

function conditions(db: Db, sel: ExportSelection): { where: string[]; params: unknown[] } {
  // Tasks, property values and regexes on paths are tested by SQL functions (search/run/functions.ts).
  registerSearchFunctions(db);
  // Hidden notes left out by the index's own flag first, so that neither the tag's rows nor the
  // predicate below are reached for them (issue 35: the time told what hidden notes hold).
  const out = hiddenNotesOut(db, sel);
  const where: string[] = out === null ? [] : [out];
  const params: unknown[] = [];
  if (sel.folderLower !== '') {
    where.push("(n.folder_lower = ? OR n.folder_lower LIKE ? ESCAPE '\\')");
    params.push(sel.folderLower, `${escapeLike(sel.folderLower)}/%`);
  }
  if (sel.tagLower !== undefined) {
    where.push(
      `n.id IN (SELECT note_id FROM note_tag_prefixes p WHERE ${visibleRows(db, sel, 'p')} AND p.tag_lower = ?)`,
    );
    params.push(sel.tagLower);
  }
  if (sel.search !== undefined) {
    if (sel.search.where !== '1') {
      where.push(`(${sel.search.where})`);
      params.push(...sel.search.params);
    }
    if (sel.search.rankMatch !== null) {
      where.push('n.id IN (SELECT rowid FROM notes_fts WHERE notes_fts MATCH ?)');
      params.push(sel.search.rankMatch);
    }
  }
  const dates = dateRangeSql(sel.range);
  where.push(...dates.where);
  params.push(...dates.params);
  const hidden = visibleSql(db, sel.visible);
  if (hidden !== null) where.push(hidden);
  return { where, params };
}

/** Up to `limit` selected note paths after `after` (null: from the first), by name. */
export function exportPaths(db: Db, sel: ExportSelection, after: string | null, limit: number): string[] {
  const { where, params } = conditions(db, sel);
  if (after !== null) {
    where.push('n.path > ?');
    params.push(after);
  }
  const sql = `SELECT n.path AS path FROM notes n ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY n.path LIMIT ?`;
  return db
    .prepare<unknown[], { path: string }>(sql)
    .all(...params, limit)
    .map((r) => r.path);
}

/** How many notes the selection holds. */
export function exportCount(db: Db, sel: ExportSelection): number {
  const { where, params } = conditions(db, sel);
  const sql = `SELECT count(*) AS n FROM notes n ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''}`;
  return (db.prepare<unknown[], { n: number }>(sql).get(...params) as { n: number }).n;
}
