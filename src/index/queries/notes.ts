/**
 * @module
 * Read queries over the notes table: newest-first listing with cursors, and name lookup candidates.
 */

import { decodeCursor, encodeCursor } from '../../common/cursor.js';
import type { Db } from '../db/database.js';
import { escapeLike } from '../db/like.js';
import { hiddenNotesOut } from '../store/visibility.js';
import { type DateRange, dateRangeSql } from './date-range.js';

export interface NoteRow {
  readonly path: string;
  readonly title: string;
  readonly mtime_ms: number;
  readonly size: number;
  readonly etag: string;
  /** Obsidian's word count of the body. */
  readonly words: number;
  /** Frontmatter `created` when a date, else the file's birth time (store.ts). */
  readonly created_ms: number;
}

const NOTE_COLUMNS = 'path, title, mtime_ms, size, etag, words, created_ms';

/**
 * Makes `noted_visible(path)` available to SQL on this database, answering with `visible` (a JS
 * predicate, e.g. the access policy) until the next call. Returns the SQL condition over the alias
 * `n`, or null when everything is visible.
 */
export function visibleSql(db: Db, visible: ((path: string) => boolean) | undefined): string | null {
  if (visible === undefined) return null;
  let slot = predicates.get(db);
  if (slot === undefined) {
    const holder = { fn: visible };
    db.function('noted_visible', { deterministic: false }, (p: unknown) =>
      typeof p === 'string' && holder.fn(p) ? 1 : 0,
    );
    slot = holder;
    predicates.set(db, slot);
  }
  slot.fn = visible;
  return 'noted_visible(n.path) = 1';
}

const predicates = new WeakMap<Db, { fn: (path: string) => boolean }>();

export interface ListOptions {
  /** Lower-cased folder ('' or undefined for the whole vault); sub-folders are included. */
  readonly folderLower?: string;
  readonly limit: number;
  readonly cursor?: string;
  /** Leaves out notes the caller may not see. */
  readonly visible?: (path: string) => boolean;
  /** The key of the rules `visible` follows: hidden notes are then left out by the index's flag first. */
  readonly visibilityKey?: string;
  /** Only notes modified or created in this range. */
  readonly range?: DateRange;
}

interface Cursor {
  readonly m: number;
  readonly p: string;
}

function cursorOf(row: NoteRow): string {
  return encodeCursor('notes', { m: row.mtime_ms, p: row.path } satisfies Cursor);
}

function isCursor(data: unknown): data is Cursor {
  const c = data as Partial<Cursor> | null;
  return typeof c?.m === 'number' && typeof c.p === 'string';
}

/** Newest first; ties by path. The cursor is keyset-based, so pages stay stable while notes change. */
export function listNotes(db: Db, options: ListOptions): { rows: NoteRow[]; nextCursor?: string } {
  const where: string[] = [];
  const params: unknown[] = [];
  if (options.folderLower) {
    where.push("(folder_lower = ? OR folder_lower LIKE ? ESCAPE '\\')");
    params.push(options.folderLower, `${escapeLike(options.folderLower)}/%`);
  }
  // By the index's flag first (the walk then reads no hidden row), the predicate having the last word.
  const leftOut = hiddenNotesOut(db, options);
  if (leftOut !== null) where.push(leftOut);
  const visible = visibleSql(db, options.visible);
  if (visible !== null) where.push(visible);
  const range = dateRangeSql(options.range);
  where.push(...range.where);
  params.push(...range.params);
  if (options.cursor !== undefined) {
    const c = decodeCursor('notes', options.cursor, isCursor);
    where.push('(mtime_ms < ? OR (mtime_ms = ? AND path > ?))');
    params.push(c.m, c.m, c.p);
  }
  const sql = `SELECT ${NOTE_COLUMNS} FROM notes n ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
    ORDER BY mtime_ms DESC, path LIMIT ?`;
  const rows = db.prepare<unknown[], NoteRow>(sql).all(...params, options.limit + 1);
  const more = rows.length > options.limit;
  const page = more ? rows.slice(0, options.limit) : rows;
  const last = page[page.length - 1];
  return more && last ? { rows: page, nextCursor: cursorOf(last) } : { rows: page };
}

export function noteRow(db: Db, path: string): NoteRow | undefined {
  return db.prepare<[string], NoteRow>(`SELECT ${NOTE_COLUMNS} FROM notes WHERE path = ?`).get(path);
}

/**
 * Notes a name could mean, the way a wikilink is read (SPEC 1.4): case-insensitive; a bare name
 * matches a note of that file name in any folder, a name with folders matches on whole trailing
 * path segments. An exact case-insensitive path match, when there is one, is the only candidate.
 */
export function nameCandidates(db: Db, name: string): string[] {
  const lower = name.toLowerCase();
  const exact = db
    .prepare<[string], { path: string }>('SELECT path FROM notes WHERE path_lower = ?')
    .all(lower);
  if (exact.length > 0) return exact.map((r) => r.path);
  const file = lower.slice(lower.lastIndexOf('/') + 1);
  const byFile = db
    .prepare<[string], { path: string; path_lower: string }>(
      'SELECT path, path_lower FROM notes WHERE file_lower = ? ORDER BY length(path), path',
    )
    .all(file);
  if (!lower.includes('/')) return byFile.map((r) => r.path);
  return byFile.filter((r) => r.path_lower.endsWith(`/${lower}`)).map((r) => r.path);
}

/** Each note's word count and created time, by id: what a page of search hits shows of each. */
export function noteFacts(
  db: Db,
  ids: readonly number[],
): Map<number, { words: number; created_ms: number }> {
  const out = new Map<number, { words: number; created_ms: number }>();
  if (ids.length === 0) return out;
  const rows = db
    .prepare<number[], { id: number; words: number; created_ms: number }>(
      `SELECT id, words, created_ms FROM notes WHERE id IN (${ids.map(() => '?').join(',')})`,
    )
    .all(...ids);
  for (const r of rows) out.set(r.id, { words: r.words, created_ms: r.created_ms });
  return out;
}

export function countNotes(db: Db): number {
  return (db.prepare('SELECT count(*) AS n FROM notes').get() as { n: number }).n;
}
