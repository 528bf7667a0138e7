/**
 * The cold build of a large vault runs on parser threads, which hand the full-text bodies to the
 * writer as UTF-8 bytes (src/index/parser-pool.ts); a small vault is indexed on the main thread from
 * strings. Both must index the same text: the built server over a vault past the parallel threshold
 * answers every search exactly as an in-process server that indexed the same files sequentially,
 * names, order and scores — accents, CJK, emoji, empty bodies and frontmatter-only notes included.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
let server: ServerProcess;
let sequential: TestVault;

beforeAll(async () => {
  await ensureBuilt();
  const made = makeVault(files(1200));
  base = made.base;
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
