/**
 * The index file's page sizes (index/db/database.ts, schema.ts): a new file gets 16 KiB pages with FTS5
 * leaves to match, and a file of an older layout (4 KiB pages) is rebuilt with them; statements
 * reused per connection.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, expect, it } from 'vitest';
import { openIndexDatabase, reusedStatement } from '../../../src/index/db/database.js';
import { APPLICATION_ID, PAGE_SIZE, SCHEMA_VERSION } from '../../../src/index/db/schema.js';

let base: string | undefined;
afterEach(() => {
  if (base !== undefined) fs.rmSync(base, { recursive: true, force: true });
  base = undefined;
});

function file(): string {
  base = fs.mkdtempSync(path.join(os.tmpdir(), 'noted-db-'));
  return path.join(base, 'index.sqlite');
}

const pgsz = (db: Database.Database) =>
  (db.prepare("SELECT v FROM notes_fts_config WHERE k = 'pgsz'").get() as { v: number } | undefined)?.v;

it('a new index file has 16 KiB pages and full-text leaves sized to fit them', () => {
  const opened = openIndexDatabase(file());
  try {
    expect(PAGE_SIZE).toBe(16384);
    expect(opened.db.pragma('page_size', { simple: true })).toBe(16384);
    expect(opened.db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(pgsz(opened.db)).toBe(16000);
  } finally {
    opened.db.close();
  }
});

it('an index of an older layout, with 4 KiB pages, is rebuilt with the new ones', () => {
  const f = file();
  const old = new Database(f);
  old.pragma('page_size = 4096');
  old.pragma('journal_mode = WAL');
  old.exec(
    "CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT); INSERT INTO meta VALUES ('schema', 'older');",
  );
  old.pragma(`application_id = ${APPLICATION_ID}`);
  old.pragma(`user_version = ${SCHEMA_VERSION}`);
  old.close();
  const opened = openIndexDatabase(f);
  try {
    expect(opened.rebuiltBecause).toMatch(/differ/);
    expect(opened.db.pragma('page_size', { simple: true })).toBe(16384);
    expect(pgsz(opened.db)).toBe(16000);
  } finally {
    opened.db.close();
  }
});

it('an existing index file of this layout keeps its pages: opening it twice changes nothing', () => {
  const f = file();
  openIndexDatabase(f).db.close();
  const again = openIndexDatabase(f);
  try {
    expect(again.rebuiltBecause).toBeNull();
    expect(again.db.pragma('page_size', { simple: true })).toBe(16384);
  } finally {
    again.db.close();
  }
});

it('reusedStatement prepares a statement once per connection and lets the least recently used go past 100', () => {
  const a = new Database(':memory:');
  const b = new Database(':memory:');
  try {
    const first = reusedStatement<[], { n: number }>(a, 'SELECT 1 AS n');
    expect(reusedStatement(a, 'SELECT 1 AS n')).toBe(first);
    expect(reusedStatement(b, 'SELECT 1 AS n')).not.toBe(first);
    expect(first.get()).toEqual({ n: 1 });
    // 99 more fill the cache; using the first again makes the second the oldest.
    const second = reusedStatement(a, 'SELECT 2 AS n');
    for (let i = 3; i <= 100; i++) reusedStatement(a, `SELECT ${i} AS n`);
    expect(reusedStatement(a, 'SELECT 1 AS n')).toBe(first);
    reusedStatement(a, 'SELECT 101 AS n');
    expect(reusedStatement(a, 'SELECT 1 AS n')).toBe(first);
    expect(reusedStatement(a, 'SELECT 2 AS n')).not.toBe(second);
  } finally {
    a.close();
    b.close();
  }
});
