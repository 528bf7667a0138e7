/**
 * @module
 * Opens `<vault>/.noted/index.sqlite`. The index is a cache: a corrupt, foreign or outdated file is
 * deleted and rebuilt, never fatal (SPEC 1.6a).
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import Database from 'better-sqlite3';
import { APPLICATION_ID, PAGE_SIZE, SCHEMA_SQL, SCHEMA_VERSION } from './schema.js';

export type Db = Database.Database;

export interface OpenedIndex {
  readonly db: Db;
  /** Why an existing file was thrown away and rebuilt, if it was. */
  readonly rebuiltBecause: string | null;
}

/** How often, and how long apart, an open that found the file locked by another process is tried. */
const OPEN_ATTEMPTS = 50;
const OPEN_PAUSE_MS = 100;

export function openIndexDatabase(file: string): OpenedIndex {
  return openIndexWith(file, openChecked, pause);
}

/**
 * {@link openIndexDatabase} with its opening and waiting given, for tests. A file another process is
 * creating or changing at the same moment can answer SQLITE_BUSY at once, whatever the busy timeout
 * (two servers starting on one new vault: one of them switching the file to WAL). That is tried again,
 * never taken for a damaged file: deleting the files would pull them from under the other process,
 * which then failed with SQLITE_IOERR_FSTAT, and both servers stopped.
 */
export function openIndexWith(
  file: string,
  open: (file: string) => Db,
  wait: (ms: number) => void,
): OpenedIndex {
  for (let attempt = 1; ; attempt++) {
    try {
      return { db: open(file), rebuiltBecause: null };
    } catch (err) {
      if (isLocked(err)) {
        if (attempt >= OPEN_ATTEMPTS) throw err;
        wait(OPEN_PAUSE_MS);
        continue;
      }
      const reason = err instanceof ForeignIndex ? err.message : `unreadable (${(err as Error).message})`;
      removeDatabaseFiles(file);
      return { db: open(file), rebuiltBecause: reason };
    }
  }
}

function isLocked(err: unknown): boolean {
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' && (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED'));
}

/** Blocks the thread for `ms`: only at start-up, before the server answers anything. */
function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

class ForeignIndex extends Error {}

/** Names the exact table layout, so an index made by any other layout is never reused. */
const SCHEMA_FINGERPRINT = createHash('sha256').update(SCHEMA_SQL).digest('hex').slice(0, 16);

function openChecked(file: string): Db {
  const db = new Database(file, { timeout: 15_000 });
  try {
    // Takes effect only on a new, empty file, and only before WAL is on; an existing file keeps its own.
    db.pragma(`page_size = ${PAGE_SIZE}`);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('cache_size = -32000');
    db.pragma('temp_store = MEMORY');
    // Both in one snapshot: read apart, another process's first commit could fall between them
    // (id 0, then its version), and the file it had just made was taken for foreign and deleted.
    const [appId, version] = db.transaction(() => [
      db.pragma('application_id', { simple: true }) as number,
      db.pragma('user_version', { simple: true }) as number,
    ])();
    if (appId === 0 && version === 0) {
      initialize(db);
    } else if (appId !== APPLICATION_ID) {
      throw new ForeignIndex('not a Noted index');
    } else if (version !== SCHEMA_VERSION) {
      throw new ForeignIndex(`index schema ${version}, this server uses ${SCHEMA_VERSION}`);
    } else {
      // The same version number with other tables (a development build) is rebuilt too.
      const row = db.prepare("SELECT value FROM meta WHERE key = 'schema'").get() as
        | { value: string }
        | undefined;
      if (row?.value !== SCHEMA_FINGERPRINT) throw new ForeignIndex('index tables differ from this server');
    }
    // Touch every table so a damaged file fails here rather than mid-request.
    db.prepare('SELECT count(*) FROM notes').get();
    db.prepare('SELECT count(*) FROM notes_fts WHERE notes_fts MATCH ?').get('"noted"');
    return db;
  } catch (err) {
    db.close();
    throw err;
  }
}

function initialize(db: Db): void {
  // Another process may be creating the same file: take the write lock, then look again.
  db.transaction(() => {
    const count = db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table'").get() as {
      n: number;
    };
    if (count.n > 0) {
      if ((db.pragma('application_id', { simple: true }) as number) !== APPLICATION_ID) {
        throw new ForeignIndex('not a Noted index');
      }
      return;
    }
    db.exec(SCHEMA_SQL);
    db.pragma(`application_id = ${APPLICATION_ID}`);
    db.pragma(`user_version = ${SCHEMA_VERSION}`);
    db.prepare("INSERT INTO meta(key, value) VALUES ('schema', ?)").run(SCHEMA_FINGERPRINT);
  }).immediate();
}

/**
 * Opens an existing index read-only, for looking at it without changing it (`noted-mcp doctor`);
 * throws when the file is missing, damaged, foreign or of another layout, saying which.
 */
export function openIndexReadOnly(file: string): Db {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    if ((db.pragma('application_id', { simple: true }) as number) !== APPLICATION_ID) {
      throw new Error('it is not a Noted index');
    }
    const version = db.pragma('user_version', { simple: true }) as number;
    if (version !== SCHEMA_VERSION)
      throw new Error(`it has index schema ${version}, this server uses ${SCHEMA_VERSION}`);
    const row = db.prepare("SELECT value FROM meta WHERE key = 'schema'").get() as
      | { value: string }
      | undefined;
    if (row?.value !== SCHEMA_FINGERPRINT) throw new Error('its tables differ from this server');
    db.prepare('SELECT count(*) FROM notes').get();
    return db;
  } catch (err) {
    db.close();
    throw err;
  }
}

/** Statements kept per connection by {@link reusedStatement}; past this many the oldest is let go. */
const MAX_REUSED_STATEMENTS = 100;
const reused = new WeakMap<Db, Map<string, Database.Statement>>();

/**
 * The statement for `sql`, prepared once per connection and reused: preparing a search's two
 * statements took about 50 µs of every search. Only for statements run to completion with `get`,
 * `all` or `run` and never switched to `pluck`/`raw`/`expand` mode, since every caller shares the one
 * object.
 */
export function reusedStatement<P extends unknown[], R>(db: Db, sql: string): Database.Statement<P, R> {
  let cache = reused.get(db);
  if (cache === undefined) {
    cache = new Map();
    reused.set(db, cache);
  }
  let statement = cache.get(sql);
  if (statement === undefined) {
    statement = db.prepare(sql);
    if (cache.size >= MAX_REUSED_STATEMENTS) cache.delete(cache.keys().next().value as string);
  } else {
    cache.delete(sql);
  }
  // Most recently used last, so the first key is the one to let go.
  cache.set(sql, statement);
  return statement as Database.Statement<P, R>;
}

function removeDatabaseFiles(file: string): void {
  for (const suffix of ['', '-wal', '-shm', '-journal']) fs.rmSync(file + suffix, { force: true });
}
