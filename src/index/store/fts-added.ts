/**
 * @module
 * Which notes got a full-text row, in order: the last {@link KEPT_ADDED} rows written to `notes_fts`
 * (a note indexed, re-indexed or shown again). A ranking kept from before a write
 * (search/run/top-rows.ts) scores these again and knows that every other row is as it was.
 */
import { type Db, reusedStatement } from '../db/database.js';

/** How many of the latest full-text rows are named; older entries are deleted. */
const KEPT_ADDED = 10_000;
/** Trim the log once per this many rows written. */
const TRIM_EVERY = 1_000;

/**
 * Names each full-text row as it is written (inside the writer's transaction). The trim goes by the
 * log's own sequence, not by what this writer wrote: a writer is made per sync, and the watcher's and
 * agents' writes, a few notes each, never reached a count of their own, so the log grew for ever.
 */
export class FtsAddedLog {
  private readonly insert;
  private readonly trim;

  constructor(db: Db) {
    this.insert = db.prepare<[number]>('INSERT INTO fts_added(note_id) VALUES (?)');
    this.trim = db.prepare<[number]>('DELETE FROM fts_added WHERE seq <= ?');
  }

  added(id: number): void {
    const seq = Number(this.insert.run(id).lastInsertRowid);
    if (seq % TRIM_EVERY === 0) this.trim.run(seq - KEPT_ADDED);
  }
}

/** The number of the latest row written (0 before any). */
export function ftsAddedHigh(db: Db): number {
  const row = reusedStatement<[], { seq: number }>(
    db,
    "SELECT seq FROM sqlite_sequence WHERE name = 'fts_added'",
  ).get();
  return row?.seq ?? 0;
}

/**
 * The notes whose full-text rows were written after row `since`, up to row `high`; null when the log
 * no longer names them all (trimmed since).
 */
export function ftsAddedSince(db: Db, since: number, high: number): number[] | null {
  if (high === since) return [];
  const rows = reusedStatement<[number, number], { note_id: number; seq: number }>(
    db,
    'SELECT note_id, seq FROM fts_added WHERE seq > ? AND seq <= ? ORDER BY seq',
  ).all(since, high);
  if (rows[0]?.seq !== since + 1) return null;
  return [...new Set(rows.map((r) => r.note_id))];
}
