/**
 * Opening the index while another process creates or changes it (index/db/database.ts): a file that
 * answers SQLITE_BUSY is waited for and opened again, never deleted — two servers starting on one new
 * vault once had one take the other's busy file for a damaged one and delete it, and both stopped. A
 * damaged file is still deleted and rebuilt.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type Db, openIndexDatabase, openIndexWith } from '../../../src/index/db/database.js';

let base: string | undefined;
afterEach(() => {
  if (base !== undefined) fs.rmSync(base, { recursive: true, force: true });
  base = undefined;
});

/** A real index file holding one note row. */
function indexFile(): string {
  base = fs.mkdtempSync(path.join(os.tmpdir(), 'noted-open-'));
  const file = path.join(base, 'index.sqlite');
  const { db } = openIndexDatabase(file);
  db.prepare(
    "INSERT INTO notes(path, path_lower, folder_lower, file_lower, title, size, mtime_ms, ctime_ms, birthtime_ms, ino, etag, visible) VALUES ('a.md', 'a.md', '', 'a.md', 'a', 1, 1, 1, 1, 1, 'e', 1)",
  ).run();
  db.close();
  return file;
}

function sqliteError(code: string): Error {
  return Object.assign(
    new Error(code.startsWith('SQLITE_BUSY') ? 'database is locked' : 'database disk image is malformed'),
    {
      code,
    },
  );
}

/** Opens for real after `failures` refusals with `code`; counts the opens and the waits. */
function flaky(failures: number, code: string) {
  const seen = { opens: 0, waits: 0 };
  const open = (file: string): Db => {
    seen.opens++;
    if (seen.opens <= failures) throw sqliteError(code);
    return openIndexDatabase(file).db;
  };
  return { seen, open, wait: () => void seen.waits++ };
}

const notes = (db: Db) => (db.prepare('SELECT count(*) AS n FROM notes').get() as { n: number }).n;

describe('opening an index another process holds', () => {
  it('waits while the file is busy and opens it as it is', () => {
    const file = indexFile();
    const { seen, open, wait } = flaky(3, 'SQLITE_BUSY');
    const opened = openIndexWith(file, open, wait);
    try {
      expect(opened.rebuiltBecause).toBeNull();
      expect(notes(opened.db)).toBe(1);
      expect(seen).toEqual({ opens: 4, waits: 3 });
    } finally {
      opened.db.close();
    }
  });

  it('gives up after a while with the busy error, and leaves the file alone', () => {
    const file = indexFile();
    const { seen, open, wait } = flaky(Number.POSITIVE_INFINITY, 'SQLITE_BUSY_RECOVERY');
    expect(() => openIndexWith(file, open, wait)).toThrow(/locked/);
    expect(seen.waits).toBe(seen.opens - 1);
    expect(seen.opens).toBeGreaterThan(10);
    const { db } = openIndexDatabase(file);
    expect(notes(db)).toBe(1);
    db.close();
  });

  it('still deletes and rebuilds a damaged file', () => {
    const file = indexFile();
    const { seen, open, wait } = flaky(1, 'SQLITE_CORRUPT');
    const opened = openIndexWith(file, open, wait);
    try {
      expect(opened.rebuiltBecause).toMatch(/unreadable \(database disk image is malformed\)/);
      expect(notes(opened.db)).toBe(0);
      expect(seen).toEqual({ opens: 2, waits: 0 });
    } finally {
      opened.db.close();
    }
  });
});
