/**
 * @module
 * Keeps the BM25 statistics of the full-text index equal to those of a fresh build.
 *
 * FTS5 ranks with two figures it keeps in its "averages" record (`notes_fts_data`, id 1): the number
 * of rows and the number of tokens in each column, over the whole table. On a contentless-delete
 * table such as `notes_fts`, a DELETE leaves both as they were — FTS5 tombstones the row without
 * reading its tokens back (SQLite's `fts5StorageContentlessDelete` never touches the totals; only
 * 'delete-all' resets them). Every re-index of a changed note deletes and re-inserts its row, so each
 * edit counted the note once more: after a few hundred edits the live index ranked a word found in
 * every note at 7.5 where a rebuild of the same files gives 1.8e-6 (found by the concurrency test).
 *
 * The row's token counts are still in `notes_fts_docsize` until the delete. `FtsTotals` reads them
 * just before each delete and takes them off the averages at the end of the same transaction, so the
 * correction commits with the deletes or not at all. FTS5 keeps a transaction's totals in memory and
 * writes them over the record when it commits; opening a savepoint makes it write them out first and
 * read the record again afterwards (its xSavepoint flushes to disk), so the corrected record is the
 * one that commits. `settleWithinTransaction` checks once that this SQLite does so.
 *
 * The correction once ran in a transaction of its own after the commit. Two servers building one new
 * index lost it: the other server's `repairFtsTotals`, run between the commit and the correction, set
 * the totals right, and the late correction then took the deleted rows off a second time — down to no
 * rows at all, where FTS5's bm25() reports "database disk image is malformed" for every search.
 * `repairFtsTotals` still puts right an index written before (or by a SQLite that fails the probe).
 */
import Database from 'better-sqlite3';
import type { Db } from '../db/database.js';

/** The averages record's id in `notes_fts_data` (FTS5_AVERAGES_ROWID). */
const AVERAGES_ID = 1;
/** title, tags, body */
const COLUMNS = 3;

/** The varints of an FTS5 record (SQLite's format: big-endian 7-bit groups, a 9th byte of 8 bits). */
export function readVarints(bytes: Uint8Array): number[] {
  const out: number[] = [];
  let pos = 0;
  while (pos < bytes.length) {
    let value = 0;
    let i = 0;
    for (; i < 8; i++) {
      const b = bytes[pos++] as number;
      value = value * 128 + (b & 0x7f);
      if ((b & 0x80) === 0) break;
    }
    if (i === 8) value = value * 256 + (bytes[pos++] as number);
    out.push(value);
  }
  return out;
}

export function writeVarints(values: readonly number[]): Buffer {
  const bytes: number[] = [];
  for (const value of values) {
    const groups: number[] = [];
    let v = Math.max(0, Math.floor(value));
    do {
      groups.unshift(v % 128);
      v = Math.floor(v / 128);
    } while (v > 0);
    groups.forEach((g, i) => {
      bytes.push(i < groups.length - 1 ? g | 0x80 : g);
    });
  }
  return Buffer.from(bytes);
}

/** The averages record: rows, then tokens per column; null when the table has none yet. */
export function readAverages(db: Db): { rows: number; sizes: number[] } | null {
  const row = db.prepare('SELECT block FROM notes_fts_data WHERE id = ?').get(AVERAGES_ID) as
    | { block: Buffer }
    | undefined;
  if (row === undefined) return null;
  const [rows = 0, ...sizes] = readVarints(row.block);
  while (sizes.length < COLUMNS) sizes.push(0);
  return { rows, sizes };
}

/**
 * Writes the averages record. SQLite's defensive mode (on in better-sqlite3) makes FTS5's shadow
 * tables read-only to SQL; it is lifted for this one fixed statement only. The record's layout is
 * part of FTS5's stable file format.
 */
function writeAverages(db: Db, rows: number, sizes: readonly number[]): void {
  db.unsafeMode(true);
  try {
    db.prepare('UPDATE notes_fts_data SET block = ? WHERE id = ?').run(
      writeVarints([rows, ...sizes]),
      AVERAGES_ID,
    );
  } finally {
    db.unsafeMode(false);
  }
}

/** Runs `probe` on a table like `notes_fts`, in memory, holding rows 1 ('a') and 2 ('b'). */
function probeTable(probe: (db: Db) => boolean): boolean {
  const db = new Database(':memory:');
  try {
    db.exec("CREATE VIRTUAL TABLE notes_fts USING fts5(title, tags, body, content='', contentless_delete=1)");
    db.prepare(
      "INSERT INTO notes_fts(rowid, title, tags, body) VALUES (1, 'a', '', ''), (2, 'b', '', '')",
    ).run();
    return probe(db);
  } finally {
    db.close();
  }
}

let deleteKeepsTotals: boolean | null = null;

/**
 * Whether this SQLite leaves the totals alone on a contentless delete (every version so far). Probed
 * once on a table in memory, so that a future SQLite that subtracts them itself is not corrected twice.
 */
export function contentlessDeleteKeepsTotals(): boolean {
  deleteKeepsTotals ??= probeTable((db) => {
    db.prepare('DELETE FROM notes_fts WHERE rowid = 1').run();
    return readAverages(db)?.rows === 2;
  });
  return deleteKeepsTotals;
}

let settlesWithin: boolean | null = null;

/**
 * Whether a savepoint makes this SQLite's FTS5 write its pending totals out and read them back, so a
 * record written inside the transaction is the one that commits (see the module's comment). Probed
 * once in memory: without it the correction would be overwritten at the commit, and none is made
 * (the totals then stay too large until `repairFtsTotals` on the next start: ranks drift, nothing breaks).
 */
export function settleWithinTransaction(): boolean {
  settlesWithin ??= probeTable((db) => {
    db.transaction(() => {
      db.prepare('DELETE FROM notes_fts WHERE rowid = 1').run();
      flushFtsTotals(db);
      writeAverages(db, 7, [7, 0, 0]);
      db.prepare("INSERT INTO notes_fts(rowid, title, tags, body) VALUES (3, 'c', '', '')").run();
    })();
    const after = readAverages(db);
    return after?.rows === 8 && after.sizes[0] === 8;
  });
  return settlesWithin;
}

/** Makes FTS5 write the totals it holds for the open transaction, and read them again when next needed. */
function flushFtsTotals(db: Db): void {
  db.exec('SAVEPOINT fts_totals; RELEASE fts_totals');
}

/** Token counts of the rows deleted in a transaction, to take off the averages before it commits. */
export class FtsTotals {
  private rows = 0;
  private readonly sizes = new Array<number>(COLUMNS).fill(0);
  private readonly selectSize;
  private readonly active = contentlessDeleteKeepsTotals() && settleWithinTransaction();

  constructor(private readonly db: Db) {
    this.selectSize = db.prepare<[number], { sz: Buffer }>('SELECT sz FROM notes_fts_docsize WHERE id = ?');
  }

  /**
   * Call right before deleting the FTS row `id`, inside the transaction that deletes it. False when
   * there is no such row (a hidden note has none), so there is nothing to delete.
   */
  removing(id: number): boolean {
    const row = this.selectSize.get(id);
    if (row === undefined) return false;
    if (!this.active) return true;
    this.rows++;
    readVarints(row.sz).forEach((n, i) => {
      if (i < COLUMNS) this.sizes[i] = (this.sizes[i] as number) + n;
    });
    return true;
  }

  /** Forgets what was noted (the transaction rolled back). */
  discard(): void {
    this.rows = 0;
    this.sizes.fill(0);
  }

  /**
   * Takes the deleted rows off the averages; call inside the transaction that deleted them, after its
   * last full-text write, so that the correction commits with the deletes.
   */
  settle(): void {
    if (this.rows === 0) return;
    const rows = this.rows;
    const sizes = [...this.sizes];
    this.discard();
    flushFtsTotals(this.db);
    const now = readAverages(this.db);
    if (now === null) return;
    writeAverages(
      this.db,
      Math.max(0, now.rows - rows),
      now.sizes.map((n, i) => Math.max(0, n - (sizes[i] ?? 0))),
    );
  }
}

/**
 * Puts the totals right when they do not match the rows (an index written before this fix, or a
 * process stopped between a delete and its correction): counts every row's tokens from
 * `notes_fts_docsize`. Returns true when it changed something.
 */
export function repairFtsTotals(db: Db): boolean {
  if (!contentlessDeleteKeepsTotals()) return false;
  return db
    .transaction(() => {
      const now = readAverages(db);
      if (now === null) return false;
      const count = (db.prepare('SELECT count(*) AS n FROM notes_fts_docsize').get() as { n: number }).n;
      if (count === now.rows) return false;
      const sizes = new Array<number>(COLUMNS).fill(0);
      for (const row of db.prepare('SELECT sz FROM notes_fts_docsize').iterate() as Iterable<{
        sz: Buffer;
      }>) {
        readVarints(row.sz).forEach((n, i) => {
          if (i < COLUMNS) sizes[i] = (sizes[i] as number) + n;
        });
      }
      writeAverages(db, count, sizes);
      return true;
    })
    .immediate();
}
