/**
 * Issue 34: the pages cut from a ranking's kept best rows (search/run/top-rows.ts) are the pages the
 * full ranking gives, on a generated vault of 3,000 notes: first and next pages through the cursors
 * past the rows kept, runs of equal scores (equal times too, where the path decides), hidden notes,
 * the operators and arguments that combine with plain words, and after every kind of write.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSearchQuery } from '../../../../src/index/search/parse/query.js';
import { compileSearch } from '../../../../src/index/search/plan/compile.js';
import {
  type SearchPosition,
  type SearchSqlOptions,
  searchSql,
} from '../../../../src/index/search/plan/sql.js';
import { runSearch, type SearchPage } from '../../../../src/index/search/run/run.js';
import {
  forgetKeptRows,
  ftsStamp,
  KEPT_FROM,
  KEPT_ROWS,
  keptRankings,
  topRows,
} from '../../../../src/index/search/run/top-rows.js';
import { EVERYTHING_VISIBLE } from '../../../../src/index/store/visibility.js';
import { syncPaths } from '../../../../src/index/sync/sync-paths.js';
import { type IndexedVault, indexedVault } from '../../indexed-vault.js';

const NOTES = 3_000;
const WORDS = ['river', 'stone', 'lamp', 'orbit', 'cedar', 'pixel', 'harbor', 'quartz', 'meadow', 'ember'];

/** A small deterministic generator, so the vault is the same on every run. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Every note holds `common`; most hold `usual` and the phrase "open sky"; words from a short list
 * follow a skewed distribution, so scores spread. 60 notes share one text (one score), in two groups
 * of equal times; `secret/` holds notes the rules below hide, some of them the best matches there are.
 */
function vaultFiles(): Record<string, string> {
  const rand = random(34);
  const files: Record<string, string> = {};
  for (let i = 0; i < NOTES; i++) {
    const words: string[] = ['common'];
    const length = 20 + Math.floor(rand() * 200);
    for (let w = 0; w < length; w++) {
      const r = rand();
      if (r < 0.05) words.push('common');
      else if (r < 0.08) words.push('usual');
      else if (r < 0.1) words.push('open sky');
      else words.push(WORDS[Math.floor(rand() ** 2 * WORDS.length)] as string);
    }
    if (rand() < 0.3) words.push('zebra');
    if (rand() < 0.55) words.push('plateau');
    const tags = rand() < 0.3 ? 'tags: [alpha]\n' : '';
    const status = rand() < 0.5 ? 'status: draft\n' : 'status: done\n';
    files[`f${i % 7}/n${i}.md`] = `---\n${tags}${status}---\n# Note ${i}\n\n${words.join(' ')}\n`;
  }
  for (let i = 0; i < 60; i++)
    files[`tie/t${String(i).padStart(2, '0')}.md`] = 'common usual usual usual usual open sky\n';
  // More equal best scores than a ranking keeps: the edge of what is kept falls inside their run.
  for (let i = 0; i < KEPT_ROWS + 100; i++)
    files[`flat/p${String(i).padStart(3, '0')}.md`] = 'plateau plateau\n';
  for (let i = 0; i < 40; i++)
    files[`secret/s${i}.md`] = `# common common\n\ncommon usual common open sky ${i}\n`;
  return files;
}

const HIDE_SECRET = { key: 'no-secret', visible: (p: string) => !p.startsWith('secret/') };

let v: IndexedVault;
beforeAll(() => {
  v = indexedVault(vaultFiles(), HIDE_SECRET);
  // Two groups of 30 equal times among the tied notes: within each, the path decides.
  const tied = Array.from({ length: 60 }, (_, i) => `tie/t${String(i).padStart(2, '0')}.md`);
  tied.forEach((name, i) => {
    const t = new Date(1_700_000_000_000 + (i % 2) * 60_000);
    fs.utimesSync(path.join(v.dir, name), t, t);
  });
  syncPaths(v.db, v.dir, tied, { visibility: HIDE_SECRET });
}, 120_000);
afterAll(() => v?.close());

type Options = Omit<SearchSqlOptions, 'limit' | 'after'>;

/** One page, through the kept rows where the search may use them (`kept`), or by full scoring. */
async function page(
  query: string,
  limit: number,
  after: SearchPosition | undefined,
  kept: boolean,
  opts: Options = {},
) {
  const node = parseSearchQuery(query);
  const sql = searchSql(compileSearch(node), { ...opts, limit: limit + 1, ...(after ? { after } : {}) });
  if (!kept) delete sql.top;
  return (await runSearch(v.db, node, sql, HIDE_SECRET.key, limit)) as SearchPage;
}

/** Every page of `limit` rows up to `pages` of them, each after the last row of the one before. */
async function walk(
  query: string,
  limit: number,
  pages: number,
  kept: boolean,
  opts: Options = {},
): Promise<SearchPage[]> {
  const out: SearchPage[] = [];
  let after: SearchPosition | undefined;
  for (let i = 0; i < pages; i++) {
    const p = await page(query, limit, after, kept, opts);
    out.push(p);
    const last = p.rows.at(-1);
    if (!p.more || last === undefined) break;
    after = { s: last.score, m: last.mtime_ms, p: last.path };
  }
  return out;
}

async function expectSamePages(
  query: string,
  limit: number,
  pages: number,
  opts: Options = {},
): Promise<SearchPage[]> {
  const full = await await walk(query, limit, pages, false, opts);
  const kept = await await walk(query, limit, pages, true, opts);
  expect(kept, `${query} by ${limit}`).toEqual(full);
  return kept;
}

/** Whether the first page of `query` is served from kept rows (not ranked by SQL again). */
function servedFromKept(query: string, limit = 10): boolean {
  const sql = searchSql(compileSearch(parseSearchQuery(query)), { limit: limit + 1 });
  if (!sql.top) return false;
  return v.db.transaction(() => topRows(v.db, sql.top!, () => 0, false).rows !== null)();
}

const RANKED_ALONE = [
  'common',
  'usual',
  'sky',
  '"open sky"',
  'common usual',
  'usual OR river',
  'common -zebra',
  'content:common',
];

describe('pages from kept rows after the average length and the idf change', () => {
  it('let long notes left out overtake the short ones kept, as the full ranking does', async () => {
    // `needle` is in every one of 2,200 notes (idf at FTS5's floor); 2,100 short notes lead it, and
    // 100 long ones holding it 20 times are left out. 5,000 notes without it then make it rare (its
    // idf 840,000 times larger) and the average length about 5 times larger: bm25() weighs length
    // against the average, and the long notes now lead.
    const files: Record<string, string> = {};
    for (let i = 0; i < 2_100; i++) files[`short/s${i}.md`] = `needle ${'pebble '.repeat(i % 20)}\n`;
    const long = `${'needle '.repeat(20)}${'gravel '.repeat(980)}\n`;
    for (let i = 0; i < 100; i++) files[`long/l${i}.md`] = long;
    const w = indexedVault(files);
    try {
      const first = async (kept: boolean) => {
        const node = parseSearchQuery('needle');
        const sql = searchSql(compileSearch(node), { limit: 11 });
        if (!kept) delete sql.top;
        return (await runSearch(w.db, node, sql, 'all', 10)) as SearchPage;
      };
      expect((await first(true)).rows[0]?.path.startsWith('short/')).toBe(true);
      const ranked = keptRankings();
      const fillers = Array.from({ length: 5_000 }, (_, i) => `filler/f${i}.md`);
      fs.mkdirSync(path.join(w.dir, 'filler'));
      for (const f of fillers) fs.writeFileSync(path.join(w.dir, f), `${'sand '.repeat(400)}\n`);
      syncPaths(w.db, w.dir, fillers, { visibility: EVERYTHING_VISIBLE });
      expect((await first(false)).rows[0]?.path.startsWith('long/')).toBe(true);
      expect(await first(true)).toEqual(await first(false));
      // Scored again from the kept rows, which could not settle the page: it was ranked in full, by
      // the pass stepped through the matches in a vault this size, whose best rows are kept anew.
      expect(keptRankings()).toBe(ranked + 1);
    } finally {
      w.close();
    }
  }, 120_000);
});

describe('pages from kept rows', () => {
  it('match the full ranking page by page, through ties and past the rows kept', async () => {
    for (const query of RANKED_ALONE) {
      forgetKeptRows(v.db);
      for (const limit of [1, 7, 50]) {
        const pages = await expectSamePages(query, limit, limit === 50 ? 14 : 6);
        expect(pages[0]?.total, query).toBeGreaterThanOrEqual(KEPT_FROM);
      }
      expect(servedFromKept(query), query).toBe(true);
    }
    // Walking 14 pages of 50 goes past the rows kept (ranked by SQL there), and still agrees.
    expect(14 * 50).toBeGreaterThan(KEPT_ROWS);
  });

  it('page through a run of equal scores and equal times in path order', async () => {
    forgetKeptRows(v.db);
    // Short, the 60 tied notes lead `usual`; pages of 7 cut through their run.
    const pages = await expectSamePages('usual', 7, 12);
    expect(servedFromKept('usual', 7)).toBe(true);
    const tied = pages.flatMap((p) => p.rows).filter((r) => r.path.startsWith('tie/'));
    expect(tied.length).toBeGreaterThan(20);
    expect(new Set(tied.map((r) => r.score)).size).toBe(1);
    // Newer first, then by path: the odd names (a minute newer) in name order, then the even ones.
    const odd = tied.filter((r) => Number(r.path.slice(5, 7)) % 2 === 1);
    expect(tied.slice(0, odd.length)).toEqual(odd);
    expect(odd.map((r) => r.path)).toEqual(odd.map((r) => r.path).sort());
    expect(new Set(tied.map((r) => r.mtime_ms)).size).toBe(2);
  });

  it('are not served where the run of equal scores goes on past what was kept', async () => {
    forgetKeptRows(v.db);
    const pages = await expectSamePages('plateau', 50, 14);
    expect(pages.flatMap((p) => p.rows).filter((r) => r.path.startsWith('flat/')).length).toBe(
      KEPT_ROWS + 100,
    );
    expect(servedFromKept('plateau')).toBe(false);
  });

  it('never name a hidden note, and rank as if hidden notes were not there', async () => {
    forgetKeptRows(v.db);
    for (const query of ['common', '"open sky"']) {
      const rows = (await walk(query, 50, 12, true)).flatMap((p) => p.rows);
      expect(rows.some((r) => r.path.startsWith('secret/'))).toBe(false);
    }
    v.useVisibility({ key: 'all', visible: () => true });
    try {
      // Shown again, the secret notes (the best matches) lead; the kept rows of before are not used.
      const shown = async (query: string) => {
        const node = parseSearchQuery(query);
        return (await runSearch(
          v.db,
          node,
          searchSql(compileSearch(node), { limit: 11 }),
          'all',
          10,
        )) as SearchPage;
      };
      expect((await shown('common')).rows[0]?.path.startsWith('secret/')).toBe(true);
    } finally {
      v.useVisibility(HIDE_SECRET);
    }
    await expectSamePages('common', 50, 3);
  });

  it('leave the operators, folder and tag that combine with words to the full ranking, with the same pages', async () => {
    for (const [query, opts] of [
      ['common tag:alpha', {}],
      ['common path:f3', {}],
      ['common [status:draft]', {}],
      ['common', { folderLower: 'f2' }],
      ['common', { tagLower: 'alpha' }],
      ['usual', { extra: { where: "n.path NOT LIKE 'f1/%'", params: [] } }],
    ] as [string, Options][]) {
      const sql = searchSql(compileSearch(parseSearchQuery(query)), { ...opts, limit: 11 });
      expect(sql.top, query).toBeUndefined();
      await expectSamePages(query, 20, 4, opts);
    }
  });

  it('follow every write: a new best note, an edit with the same word counts, a removal', async () => {
    forgetKeptRows(v.db);
    await expectSamePages('common', 10, 2);
    await expectSamePages('common usual', 10, 2);
    const ranked = keptRankings();
    v.write('f0/new-best.md', '# common common common\n\ncommon common\n');
    expect((await page('common', 10, undefined, true)).rows[0]?.path).toBe('f0/new-best.md');
    // One word: its kept rows and the new row scored again, nothing ranked anew. Two: ranked anew.
    expect(keptRankings()).toBe(ranked);
    await page('common usual', 10, undefined, true);
    expect(keptRankings()).toBe(ranked + 1);
    await expectSamePages('common', 10, 2);
    await expectSamePages('common usual', 10, 2);
    // Same number of words in each column: FTS5's totals stay as they were, its structure does not.
    v.write('f0/new-best.md', '# common common lamp\n\ncommon common\n');
    await expectSamePages('common', 10, 2);
    v.remove('f0/new-best.md');
    await expectSamePages('common', 10, 2);
    expect((await page('common', 10, undefined, true)).rows.some((r) => r.path === 'f0/new-best.md')).toBe(
      false,
    );
  });

  it('score a phrase in the body alone (content:) again after a write, as one word is, with the same pages', async () => {
    forgetKeptRows(v.db);
    await expectSamePages('content:common', 10, 2);
    const ranked = keptRankings();
    v.write('f0/body-best.md', 'common common common common common\n');
    expect((await page('content:common', 10, undefined, true)).rows[0]?.path).toBe('f0/body-best.md');
    expect(keptRankings()).toBe(ranked);
    await expectSamePages('content:common', 10, 2);
    v.remove('f0/body-best.md');
    await expectSamePages('content:common', 10, 2);
  });

  it('rank anew once the log of rows written no longer reaches back to them', async () => {
    forgetKeptRows(v.db);
    await expectSamePages('common', 10, 2);
    v.write('f2/logged.md', '# common common common common\n');
    v.db.prepare('DELETE FROM fts_added').run();
    const ranked = keptRankings();
    expect((await page('common', 10, undefined, true)).rows[0]?.path).toBe('f2/logged.md');
    expect(keptRankings()).toBe(ranked + 1);
    await expectSamePages('common', 10, 3);
    v.remove('f2/logged.md');
  });

  it('are told apart by the stamp of the full-text index after each kind of write', async () => {
    const stamps = [ftsStamp(v.db)];
    v.write('f1/stamp.md', 'common lamp\n');
    stamps.push(ftsStamp(v.db));
    v.write('f1/stamp.md', 'common ember\n');
    stamps.push(ftsStamp(v.db));
    v.remove('f1/stamp.md');
    stamps.push(ftsStamp(v.db));
    v.useVisibility({ key: 'all', visible: () => true });
    stamps.push(ftsStamp(v.db));
    v.useVisibility(HIDE_SECRET);
    stamps.push(ftsStamp(v.db));
    for (let i = 1; i < stamps.length; i++)
      expect(stamps[i]?.equals(stamps[i - 1] as Buffer), `write ${i}`).toBe(false);
  });

  it('are neither kept nor used inside a write of the same connection', async () => {
    forgetKeptRows(v.db);
    const sql = searchSql(compileSearch(parseSearchQuery('common')), { limit: 11 });
    const counted = v.db.transaction(() => topRows(v.db, sql.top!, () => 7, true))();
    expect(counted).toEqual({ rows: null, total: 7 });
    expect(servedFromKept('common')).toBe(false);
  });
});
