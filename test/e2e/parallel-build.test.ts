/**
 * The cold build of a large vault runs on parser threads, which hand the full-text bodies to the
 * writer as UTF-8 bytes (src/index/sync/parser-pool.ts); a small vault is indexed on the main thread from
 * strings. Both must index the same text: the built server over a vault past the parallel threshold
 * answers every search exactly as an in-process server that indexed the same files sequentially,
 * names, order and scores — accents, CJK, emoji, empty bodies and frontmatter-only notes included.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCHEMA_SQL } from '../../src/index/db/schema.js';
import { ensureBuilt, type ServerProcess, spawnServer } from '../helpers/server-process.js';
import { makeVault, openTestVault, type TestVault, type VaultFiles } from '../helpers/vault.js';

const WORDS = ['café', 'naïve', 'über', 'straße', '東京', '会議', '🙂', 'plain', 'zebra', 'résumé', 'Ωmega'];

function files(count: number): VaultFiles {
  const out: VaultFiles = {};
  for (let i = 0; i < count; i++) {
    const words = Array.from({ length: 5 + (i % 17) }, (_, k) => WORDS[(i * 7 + k * 3) % WORDS.length]);
    // Words in a few dozen notes each, so that searches rank a short list with distinct scores.
    words.splice(i % 5, 0, `rare${i % 50}`, i % 3 === 0 ? `東京rare${i % 40}` : `mot${i % 45}`);
    const body =
      i % 97 === 0 ? '' : i % 89 === 0 ? '---\ntags: [only]\n---\n' : `# Note ${i}\n\n${words.join(' ')}\n`;
    out[`f${i % 13}/n${String(i).padStart(4, '0')}.md`] = body;
  }
  return out;
}

const QUERIES = [
  'rare7',
  'rare7 café',
  'mot12 OR rare3',
  'rare9 -zebra',
  '"café straße" rare11',
  'rare1*',
  '東京rare5',
  'naive rare20',
  'RESUME rare30',
  'über mot7',
];

let base: string;
let vaultDir: string;
let server: ServerProcess;
let sequential: TestVault;

beforeAll(async () => {
  await ensureBuilt();
  const made = makeVault(files(1200));
  base = made.base;
  vaultDir = made.dir;
  server = await spawnServer(made.dir);
  sequential = await openTestVault(files(1200));
}, 120_000);

afterAll(async () => {
  await server?.close();
  await sequential?.close();
  fs.rmSync(base, { recursive: true, force: true });
});

describe('a parallel cold build indexes what a sequential one does', () => {
  it('the vault is past the threshold where the build goes to parser threads (1,000 notes)', async () => {
    let cursor: string | undefined;
    let count = 0;
    do {
      const page = await server.call('list_notes', {
        limit: 500,
        ...(cursor === undefined ? {} : { cursor }),
      });
      count += page.structured.notes.length;
      cursor = page.structured.nextCursor ?? undefined;
    } while (cursor !== undefined);
    expect(count).toBe(1200);
  });

  it.each(QUERIES)('search_notes %j: same notes, order and scores', async (query) => {
    const a = await server.call('search_notes', { query, max_results: 50 });
    const b = await sequential.call('search_notes', { query, max_results: 50 });
    expect(a.isError, a.text).toBe(false);
    const rows = (r: typeof a) =>
      r.structured.results.map((x: { name: string; score: number }) => [x.name, x.score.toPrecision(10)]);
    expect(rows(a).length).toBeGreaterThan(0);
    expect(rows(a)).toEqual(rows(b));
    expect(a.structured.total).toBe(b.structured.total);
  });
});

/** The index's own indexes, apart from those SQLite makes for keys (secondary-indexes.ts drops them during a build). */
function declaredIndexes(dir: string): string[] {
  const db = new Database(path.join(dir, '.noted', 'index.sqlite'), { readonly: true });
  try {
    return (
      db
        .prepare(
          "SELECT name FROM sqlite_master WHERE type = 'index' AND name NOT LIKE 'sqlite_autoindex%' ORDER BY name",
        )
        .all() as { name: string }[]
    ).map((r) => r.name);
  } finally {
    db.close();
  }
}

/** Every secondary index the schema declares. */
const DECLARED = [...SCHEMA_SQL.matchAll(/^CREATE INDEX /gm)].length;

describe('the indexes a large build drops', () => {
  it('are all back once the built server has answered', () => {
    expect(declaredIndexes(vaultDir)).toHaveLength(DECLARED);
  });

  it('are all back, and both answer alike, when two servers build the same new index at once', async () => {
    const made = makeVault(files(1200));
    const [a, b] = await Promise.all([
      spawnServer(made.dir, { name: 'a' }),
      spawnServer(made.dir, { name: 'b' }),
    ]);
    try {
      for (const query of ['rare7', 'mot12 OR rare3', '東京rare5']) {
        const fromA = await a.call('search_notes', { query, max_results: 50 });
        const fromB = await b.call('search_notes', { query, max_results: 50 });
        const c = await server.call('search_notes', { query, max_results: 50 });
        expect(fromA.isError, fromA.text).toBe(false);
        expect(fromA.structured.total).toBe(c.structured.total);
        expect(fromB.structured.total).toBe(c.structured.total);
        const names = (r: typeof fromA) => r.structured.results.map((x: { name: string }) => x.name);
        expect(names(fromA)).toEqual(names(c));
        expect(names(fromB)).toEqual(names(c));
      }
      expect(declaredIndexes(made.dir)).toHaveLength(DECLARED);
    } finally {
      await Promise.all([a.close(), b.close()]);
      fs.rmSync(made.base, { recursive: true, force: true });
    }
  }, 120_000);
});
