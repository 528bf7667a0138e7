/**
 * @module
 * The tables' secondary indexes (every `CREATE INDEX` of the schema; primary keys and UNIQUE
 * constraints stay). A build that writes most of the vault drops them first and creates them at the
 * end: inserting a row into an index whose pages are spread over more than SQLite's cache reads and
 * rewrites a page per row, where creating the index afterwards is one sort (100k notes, 713k links:
 * the cold build took 54–59 s with the indexes kept up row by row, 39–46 s with this, of which the
 * creation is about 4 s).
 *
 * The indexes by `note_id` stay: re-indexing a note that is already there deletes its old rows by
 * `note_id` (store.ts), and without them each of those deletes scanned its whole table, so a re-sync
 * of a vault whose every file changed (a `cp -a` copy, every mtime touched) was quadratic: 30k notes
 * 137 s against 5.9 s cold (issue 19). They cost the build little: a build inserts notes in id order,
 * so their new rows go at the end of those indexes.
 *
 * A build stopped midway leaves them missing; the next start puts them back before it syncs
 * (note-index.ts). Creating only the missing ones, after looking again inside the write transaction,
 * lets two processes do this at once.
 */
import type { Db } from './database.js';
import { SCHEMA_SQL } from './schema.js';

interface SecondaryIndex {
  readonly name: string;
  readonly sql: string;
}

const SECONDARY_INDEXES: readonly SecondaryIndex[] = [
  ...SCHEMA_SQL.matchAll(/^CREATE INDEX (\w+) ON .+;$/gm),
].map((m) => ({ name: m[1] as string, sql: m[0] }));

/** The indexes the per-note writes look rows up by (`WHERE note_id = ?`): never dropped. */
export const NOTE_ID_INDEXES: readonly string[] = SECONDARY_INDEXES.filter((index) =>
  /ON \w+\(note_id\)/.test(index.sql),
).map((index) => index.name);

/** The indexes a bulk load drops and creates again. */
const DROPPED = SECONDARY_INDEXES.filter((index) => !NOTE_ID_INDEXES.includes(index.name));

function missingIndexes(db: Db): SecondaryIndex[] {
  const present = new Set(
    db
      .prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'index'")
      .all()
      .map((r) => r.name),
  );
  return SECONDARY_INDEXES.filter((index) => !present.has(index.name));
}

/** Drops every secondary index but those by note id, in one transaction. */
export function dropSecondaryIndexes(db: Db): void {
  db.transaction(() => {
    for (const index of DROPPED) db.prepare(`DROP INDEX IF EXISTS ${index.name}`).run();
  }).immediate();
}

/**
 * The same, one index per transaction with `pause` before each, so other work runs between them:
 * the end of a large build (creating them all at once held the thread for seconds at 100k notes).
 */
export async function ensureSecondaryIndexesInSteps(db: Db, pause: () => Promise<void>): Promise<number> {
  let created = 0;
  for (const index of missingIndexes(db)) {
    await pause();
    created += ensureSecondaryIndexes(db, index.name);
  }
  return created;
}

/** Creates the secondary indexes that are missing (or only the one named); returns how many it created. */
export function ensureSecondaryIndexes(db: Db, only?: string): number {
  const wanted = (index: SecondaryIndex) => only === undefined || index.name === only;
  // Looking first keeps the usual open (all present) from taking the write lock.
  if (!missingIndexes(db).some(wanted)) return 0;
  // Creating an index sorts every row; past the cache, the sort spills to temporary storage, which
  // must be a file here and not memory, or the process grows by what it sorts (100k notes: peak RSS
  // 434–486 MB with memory, 418–421 MB with a file, build time the same).
  const previous = Number(db.pragma('temp_store', { simple: true }));
  db.pragma('temp_store = FILE');
  try {
    return db
      .transaction(() => {
        const missing = missingIndexes(db).filter(wanted);
        for (const index of missing) db.prepare(index.sql).run();
        return missing.length;
      })
      .immediate();
  } finally {
    db.pragma(`temp_store = ${previous}`);
  }
}
