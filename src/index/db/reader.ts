/**
 * @module
 * A second, read-only connection to the index file, for a read that steps through one statement with
 * safe points between its rows (search/run/stepped.ts): while a statement is open its connection
 * runs nothing else, so the server's own connection stays free for the requests let in meanwhile. In
 * WAL mode the reader keeps the snapshot its transaction began with while the server writes.
 */
import Database from 'better-sqlite3';
import type { Db } from './database.js';

/**
 * A new reader of `db`'s file, to be closed by the caller. Null for an index held in memory, or when
 * the file cannot be opened again (out of file handles): the caller then reads on `db` in one piece,
 * as before there were readers.
 */
export function openReader(db: Db): Db | null {
  if (db.memory) return null;
  let reader: Db | undefined;
  try {
    reader = new Database(db.name, { readonly: true, fileMustExist: true, timeout: 15_000 });
    reader.pragma('cache_size = -8000');
    reader.pragma('temp_store = MEMORY');
    return reader;
  } catch {
    reader?.close();
    return null;
  }
}
