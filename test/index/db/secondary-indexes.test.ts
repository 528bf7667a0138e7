/**
 * The secondary indexes a large build drops and creates again (index/db/secondary-indexes.ts): every
 * one of the schema's is covered, a build ends with all of them, a failed build too, and a server
 * started after a build was killed midway puts them back before it syncs. The indexes by note id
 * stay throughout, so a re-sync of notes already indexed finds their old rows without a scan.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, expect, it } from 'vitest';
import { openVault } from '../../../src/access/open.js';
import { type Db, openIndexDatabase } from '../../../src/index/db/database.js';
import {
  dropSecondaryIndexes,
  ensureSecondaryIndexes,
  NOTE_ID_INDEXES,
} from '../../../src/index/db/secondary-indexes.js';
import { restoreFtsDefaults } from '../../../src/index/store/fts-merge.js';
import type { parseNoteFile } from '../../../src/index/sync/parse-note.js';
import { type ParserPool, parseHere } from '../../../src/index/sync/parser-pool.js';
import { syncAll, syncAllParallel } from '../../../src/index/sync/sync.js';
import type { FormatName } from '../../../src/vault/format-name.js';
import { makeVault, testJournalKey } from '../../helpers/vault.js';

let base: string | undefined;
let db: Db | undefined;
afterEach(() => {
  db?.close();
  if (base !== undefined) fs.rmSync(base, { recursive: true, force: true });
  base = undefined;
  db = undefined;
});

/** The indexes SQLite did not make by itself for a primary key or UNIQUE constraint. */
const declaredIndexes = (d: Db) =>
  (
    d
      .prepare<[], { name: string }>(
        "SELECT name FROM sqlite_master WHERE type = 'index' AND name NOT LIKE 'sqlite_autoindex%' ORDER BY name",
      )
      .all() as { name: string }[]
  ).map((r) => r.name);

function vault(count: number): { dir: string; db: Db } {
  base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'noted-indexes-')));
  const dir = path.join(base, 'vault');
  fs.mkdirSync(dir);
  for (let i = 0; i < count; i++) {
    const name = `n${String(i).padStart(4, '0')}.md`;
    fs.writeFileSync(
      path.join(dir, name),
      `---\ntags: [t${i % 5}]\naliases: [a${i}]\nstatus: s${i % 3}\n---\n# Note ${i}\n[[n${String((i + 1) % count).padStart(4, '0')}]] #topic/x${i % 4}\n- [ ] task ${i} 📅 2026-12-0${1 + (i % 9)}\n`,
    );
  }
  db = openIndexDatabase(path.join(base, 'index.sqlite')).db;
  return { dir, db };
}

/** A parser pool on this thread that records which indexes exist each time it is asked. */
function recordingPool(d: Db, seen: string[][], failAt?: number): ParserPool {
  let calls = 0;
  return {
    parse: async (root: string, batch: Parameters<typeof parseNoteFile>[1][]) => {
      calls++;
      seen.push(declaredIndexes(d));
      if (calls === failAt) throw new Error('index parser thread failed: boom');
      return parseHere(root, batch);
    },
    close: async () => undefined,
  } as unknown as ParserPool;
}

const ALL = [
  'attachments_file',
  'change_claims_path',
  'changes_at',
  'changes_from',
  'changes_path',
  'note_aliases_alias',
  'note_links_key',
  'note_props_note',
  'note_tag_prefixes_tag',
  'note_tags_note',
  'note_tags_tag',
  'note_tasks_due',
  'notes_file',
  'notes_folder',
  'notes_ino',
  'notes_mtime',
  'notes_path_lower',
  'notes_uid',
  'notes_visible_mtime',
];

/** What a bulk load leaves in place: the lookups by note id of the per-note deletes. */
const KEPT = ['note_props_note', 'note_tags_note'];

it('covers every index the schema declares: dropping leaves only those by note id, ensuring puts all back once', () => {
  const { db: d } = vault(0);
  expect(declaredIndexes(d)).toEqual(ALL);
  expect([...NOTE_ID_INDEXES].sort()).toEqual(KEPT);
  dropSecondaryIndexes(d);
  expect(declaredIndexes(d)).toEqual(KEPT);
  expect(ensureSecondaryIndexes(d)).toBe(ALL.length - KEPT.length);
  expect(declaredIndexes(d)).toEqual(ALL);
  // The sort spilled to a file; the connection's own setting (memory) is back.
  expect(d.pragma('temp_store', { simple: true })).toBe(2);
  expect(ensureSecondaryIndexes(d)).toBe(0);
});

it('a creation that cannot get the write lock fails whole: none created, temp_store put back', () => {
  const { db: d } = vault(0);
  dropSecondaryIndexes(d);
  const other = new Database(path.join(base as string, 'index.sqlite'));
  other.prepare('BEGIN IMMEDIATE').run();
  d.pragma('busy_timeout = 0');
  try {
    expect(() => ensureSecondaryIndexes(d)).toThrow(/locked|busy/i);
    expect(d.pragma('temp_store', { simple: true })).toBe(2);
  } finally {
    other.prepare('ROLLBACK').run();
    other.close();
  }
  expect(declaredIndexes(d)).toEqual(KEPT);
  expect(ensureSecondaryIndexes(d)).toBe(ALL.length - KEPT.length);
});

it('a build of most of the vault runs without them and ends with all of them, answering as a sequential build', async () => {
  const { dir, db: d } = vault(1200);
  const seen: string[][] = [];
  await syncAllParallel(d, dir, () => recordingPool(d, seen));
  // The first batch is asked for before the writes start; every later one while they run.
  expect(seen.slice(1).every((names) => names.join() === KEPT.join())).toBe(true);
  expect(declaredIndexes(d)).toEqual(ALL);
  expect(d.pragma('integrity_check', { simple: true })).toBe('ok');

  const sequentialDb = openIndexDatabase(path.join(base as string, 'sequential.sqlite')).db;
  try {
    syncAll(sequentialDb, dir);
    for (const sql of [
      "SELECT n.path FROM note_links l JOIN notes n ON n.id = l.note_id WHERE l.key_lower = 'n0007.md' ORDER BY 1",
      "SELECT n.path FROM note_tag_prefixes t JOIN notes n ON n.id = t.note_id WHERE tag_lower = 'topic' ORDER BY 1",
      "SELECT n.path FROM note_aliases a JOIN notes n ON n.id = a.note_id WHERE alias_lower = 'a17'",
      "SELECT n.path, t.line FROM note_tasks t JOIN notes n ON n.id = t.note_id WHERE done = 0 AND due <= '2026-12-03' ORDER BY 1",
      "SELECT n.path FROM note_props p JOIN notes n ON n.id = p.note_id WHERE key_lower = 'status' AND value_json = '\"s1\"' ORDER BY 1",
      "SELECT path FROM notes WHERE file_lower = 'n0042.md'",
    ]) {
      expect(d.prepare(sql).all()).toEqual(sequentialDb.prepare(sql).all());
      expect(d.prepare(sql).all().length).toBeGreaterThan(0);
    }
  } finally {
    sequentialDb.close();
  }
});

it('the parser threads are let go once everything is parsed, before the indexes are created', async () => {
  const { dir, db: d } = vault(1200);
  const atClose: string[][] = [];
  const pool = recordingPool(d, []);
  const closeRecorded = { ...pool, close: async () => void atClose.push(declaredIndexes(d)) } as ParserPool;
  await syncAllParallel(d, dir, () => closeRecorded);
  // Closed once, while the indexes were still missing.
  expect(atClose).toEqual([KEPT]);
  expect(declaredIndexes(d)).toEqual(ALL);
});

it('a large sync of a small part of the vault keeps them while it writes', async () => {
  const { dir, db: d } = vault(2500);
  syncAll(d, dir);
  const later = new Date(Date.now() + 10_000);
  for (let i = 0; i < 1100; i++) {
    fs.utimesSync(path.join(dir, `n${String(i).padStart(4, '0')}.md`), later, later);
  }
  const seen: string[][] = [];
  await syncAllParallel(d, dir, () => recordingPool(d, seen));
  expect(seen.length).toBeGreaterThan(1);
  expect(seen.every((names) => names.length === ALL.length)).toBe(true);
});

it('a build that fails midway still ends with all of them', async () => {
  const { dir, db: d } = vault(2500);
  const seen: string[][] = [];
  await expect(syncAllParallel(d, dir, () => recordingPool(d, seen, 18))).rejects.toThrow('boom');
  expect(seen.at(-1)).toEqual(KEPT);
  expect(declaredIndexes(d)).toEqual(ALL);
});

// issue 19: with the note-id indexes dropped, every per-note delete scanned its whole table, so a
// re-sync of a vault whose every file changed was quadratic (30k notes: 137 s against 5.9 s cold).
it('a re-sync of a vault whose every note changed finds each old row by note id, never by a scan', async () => {
  const { dir, db: d } = vault(1200);
  syncAll(d, dir);
  const later = new Date(Date.now() + 10_000);
  for (const name of fs.readdirSync(dir)) fs.utimesSync(path.join(dir, name), later, later);
  const tables = ['note_tags', 'note_tag_prefixes', 'note_links', 'note_tasks', 'note_aliases', 'note_props'];
  const plans: string[] = [];
  const pool = recordingPool(d, []);
  const planning = {
    ...pool,
    parse: (root: string, batch: Parameters<typeof parseNoteFile>[1][], format: FormatName) => {
      for (const table of tables) {
        const rows = d.prepare(`EXPLAIN QUERY PLAN DELETE FROM ${table} WHERE note_id = ?`).all(1) as {
          detail: string;
        }[];
        plans.push(`${table}: ${rows.map((r) => r.detail).join('; ')}`);
      }
      return pool.parse(root, batch, format);
    },
  } as ParserPool;
  const stats = await syncAllParallel(d, dir, () => planning);
  expect(stats.reindexed).toBe(1200);
  expect(plans.length).toBeGreaterThan(tables.length);
  expect(plans.filter((p) => /\bSCAN\b/.test(p))).toEqual([]);
  expect(declaredIndexes(d)).toEqual(ALL);
});

it('a build whose bulk-load settings fail ends with all of them, FTS5 options and syncing as they were', async () => {
  const { dir, db: d } = vault(1200);
  // The last of the build's settings (FTS5's 64 MiB hash size) is refused, after the drop and after
  // the settings before it took effect.
  const failing = new Proxy(d, {
    get(target, key) {
      if (key === 'prepare') {
        return (sql: string) => {
          if (sql.includes("'hashsize', 67108864")) throw new Error('disk I/O error: boom');
          return target.prepare(sql);
        };
      }
      const value = Reflect.get(target, key);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  const seen: string[][] = [];
  await expect(syncAllParallel(failing, dir, () => recordingPool(d, seen))).rejects.toThrow('boom');
  expect(seen).toEqual([]);
  expect(declaredIndexes(d)).toEqual(ALL);
  expect(restoreFtsDefaults(d)).toBe(false);
  expect(d.pragma('synchronous', { simple: true })).toBe(1);
  expect(d.prepare('SELECT count(*) AS n FROM notes').get()).toEqual({ n: 0 });
});

it('a server started after a build was killed midway puts them back before it syncs, and says so', async () => {
  const files: Record<string, string> = { 'a.md': '[[b]] #x', 'b.md': 'b' };
  const made = makeVault(files);
  try {
    const first = await openVault({
      vaultDir: made.dir,
      trashRetentionDays: 30,
      watch: false,
      journalKey: testJournalKey(),
    });
    // What a build killed after its drop leaves behind.
    dropSecondaryIndexes(first.index.db);
    await first.close();
    const warnings: string[] = [];
    const again = await openVault({
      vaultDir: made.dir,
      trashRetentionDays: 30,
      watch: false,
      log: { warn: (m) => warnings.push(m) },
      journalKey: testJournalKey(),
    });
    try {
      expect(declaredIndexes(again.index.db)).toEqual(ALL);
      expect(warnings).toContain('Recreated 17 lookup indexes that a stopped index build left missing.');
    } finally {
      await again.close();
    }
  } finally {
    fs.rmSync(made.base, { recursive: true, force: true });
  }
});
