/**
 * Lucene's BM25 for a text of several phrases (SPEC 17.7), scored phrase by phrase: the parts must add
 * up to what bm25() gives the whole text, for every shape the planner writes (AND, OR, NOT, groups,
 * phrases, `content:`, CJK, a word named twice), and the search must then rank and page by Lucene's
 * BM25, the same whether it runs in one piece or stepped through on a reader.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { createWork } from '../../../../src/common/work.js';
import { parseSearchQuery } from '../../../../src/index/search/parse/query.js';
import { compileSearch } from '../../../../src/index/search/plan/compile.js';
import { phrasesOf } from '../../../../src/index/search/plan/phrases.js';
import { BM25, searchSql } from '../../../../src/index/search/plan/sql.js';
import { lucene, phraseRanking } from '../../../../src/index/search/run/phrase-scores.js';
import { runSearch } from '../../../../src/index/search/run/run.js';
import { fts5Idf, luceneIdf } from '../../../../src/index/search/run/score.js';
import { type IndexedVault, indexedVault } from '../../indexed-vault.js';

let vaults: IndexedVault[] = [];
afterEach(() => {
  for (const v of vaults) v.close();
  vaults = [];
});

const WORDS = ['budget', 'meeting', 'plan', 'review', 'zebra', 'quarter', 'draft', 'team'];

/** Notes where `budget` is in most (bm25() gives it an idf of 1e-6) and the rest are rarer. */
function files(count: number): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < count; i++) {
    const words: string[] = [];
    if (i % 5 !== 0) words.push(...Array(1 + (i % 4)).fill('budget'));
    for (let k = 0; k < 3 + (i % 6); k++) words.push(WORDS[(i * 3 + k * 5) % WORDS.length] as string);
    if (i % 7 === 0) words.push('東京会議');
    const tags = i % 4 === 0 ? '---\ntags: [plan]\n---\n' : '';
    const title = i % 3 === 0 ? `# Meeting ${i}\n\n` : '';
    out[`f${i % 4}/n${String(i).padStart(3, '0')}.md`] = `${tags}${title}${words.join(' ')} filler words\n`;
  }
  return out;
}

const QUERIES = [
  'budget meeting',
  'budget OR meeting',
  'budget meeting -zebra',
  '(budget OR plan) review',
  '"budget meeting" team',
  'content:budget meeting',
  'budget budget meeting',
  'meeting OR (plan quarter) OR zebra',
  '東京会議 budget',
  'budget -meeting -zebra',
  'line:(budget meeting)',
  '(budget meeting) OR (plan -zebra) OR team',
  '((budget OR zebra) quarter) OR (draft (team OR plan))',
  'budget -(meeting OR zebra) review',
];

/**
 * bm25() of each phrase alone where it counts (phrasesOf), × how often the text names it, computed
 * here with SQL of its own: what the search's scoring must agree with.
 */
function phraseParts(db: IndexedVault['db'], rankMatch: string): Map<string, Map<number, number>> {
  const parts = new Map<string, Map<number, number>>();
  for (const phrase of phrasesOf(rankMatch).phrases) {
    const narrowed =
      phrase.within === null ? '' : ' AND rowid IN (SELECT rowid FROM notes_fts WHERE notes_fts MATCH ?)';
    const rows = db
      .prepare<string[], { id: number; s: number }>(
        `SELECT rowid AS id, -${BM25} AS s FROM notes_fts WHERE notes_fts MATCH ?${narrowed}`,
      )
      .all(...(phrase.within === null ? [phrase.expr] : [phrase.expr, phrase.within]));
    parts.set(`${phrase.expr} within ${phrase.within}`, new Map(rows.map((r) => [r.id, phrase.times * r.s])));
  }
  return parts;
}

/** Lucene's BM25 of every row the text matches, as the search puts it together. */
function luceneScores(v: IndexedVault, rankMatch: string): Map<number, number> {
  const ranking = phraseRanking(v.db, rankMatch);
  const rows = v.db
    .prepare<[string], { id: number; score: number }>(
      `SELECT rowid AS id, -${BM25} AS score FROM notes_fts WHERE notes_fts MATCH ?`,
    )
    .all(rankMatch);
  return new Map(rows.map((r) => [r.id, lucene(ranking, r.id, r.score)]));
}

/**
 * Checks the search's Lucene's BM25 of `rankMatch` on every row it matches against the phrases'
 * parts put together here: Σ tᵢ·ρᵢ·sᵢ, each phrase where its group matched. For a flat text the
 * parts must also add up to bm25() of the whole text. Returns how many rows matched.
 */
function checkText(v: IndexedVault, rankMatch: string): number {
  const rows = v.db
    .prepare<[string], { id: number; score: number }>(
      `SELECT rowid AS id, -${BM25} AS score FROM notes_fts WHERE notes_fts MATCH ?`,
    )
    .all(rankMatch);
  const total = v.db.prepare('SELECT count(*) AS n FROM notes_fts_docsize').get() as { n: number };
  const sum = new Map<number, number>();
  const expected = new Map<number, number>();
  for (const [key, part] of phraseParts(v.db, rankMatch)) {
    const expr = key.slice(0, key.indexOf(' within '));
    const n = (
      v.db.prepare('SELECT count(*) AS n FROM notes_fts WHERE notes_fts MATCH ?').get(expr) as { n: number }
    ).n;
    const ratio = luceneIdf(total.n, n) / fts5Idf(total.n, n);
    for (const [id, score] of part) {
      sum.set(id, (sum.get(id) ?? 0) + score);
      expected.set(id, (expected.get(id) ?? 0) + ratio * score);
    }
  }
  const ids = rows.map((r) => r.id).sort((a, b) => a - b);
  expect([...expected.keys()].sort((a, b) => a - b)).toEqual(ids);
  const got = luceneScores(v, rankMatch);
  for (const row of rows) {
    expect(Math.abs(got.get(row.id)! - expected.get(row.id)!)).toBeLessThanOrEqual(
      1e-12 * expected.get(row.id)!,
    );
    if (phrasesOf(rankMatch).flat)
      expect(Math.abs(sum.get(row.id)! - row.score)).toBeLessThanOrEqual(1e-12 * row.score);
  }
  return rows.length;
}

function rankMatchOf(query: string): string {
  const compiled = compileSearch(parseSearchQuery(query));
  if (compiled.rankMatch === null) throw new Error(`${query} has no text to rank`);
  return compiled.rankMatch;
}

describe('a text of several phrases, scored phrase by phrase', () => {
  it.each(QUERIES)('%j: each phrase counts where its group matched, with Lucene’s idf', (query) => {
    const v = indexedVault(files(120));
    vaults.push(v);
    const rankMatch = rankMatchOf(query);
    expect(phrasesOf(rankMatch).phrases.length).toBeGreaterThan(0);
    expect(checkText(v, rankMatch)).toBeGreaterThan(0);
  });

  it('leaves out a phrase where its group did not match, and anything after NOT', () => {
    const v = indexedVault({
      'a.md': 'meeting plan notes\n',
      'b.md': 'plan quarter notes\n',
      'c.md': 'zebra words\n',
    });
    vaults.push(v);
    const parts = phraseParts(v.db, rankMatchOf('meeting OR (plan quarter) -zebra'));
    const id = (name: string) =>
      (v.db.prepare('SELECT id FROM notes WHERE path = ?').get(name) as { id: number }).id;
    const plan = [...parts].find(([key]) => key.startsWith('"plan"'))![1];
    // a.md holds plan, but not quarter: plan did not help it match.
    expect([...plan.keys()]).toEqual([id('b.md')]);
    expect([...parts.keys()].some((key) => key.startsWith('"zebra"'))).toBe(false);
  });

  it('gives each phrase Lucene’s idf in place of bm25()’s: a common word counts again', () => {
    const v = indexedVault(files(120));
    vaults.push(v);
    const rankMatch = rankMatchOf('budget meeting');
    const alone = (word: string) =>
      new Map(
        v.db
          .prepare<[string], { id: number; score: number }>(
            `SELECT rowid AS id, -${BM25} AS score FROM notes_fts WHERE notes_fts MATCH ?`,
          )
          .all(`"${word}"`)
          .map((r) => [r.id, r.score]),
      );
    const total = 120;
    const budget = alone('budget');
    const meeting = alone('meeting');
    // budget is in most notes: bm25() clamps its idf, Lucene's does not.
    expect(budget.size).toBeGreaterThan(total / 2);
    expect(fts5Idf(total, budget.size)).toBe(1e-6);
    const scores = luceneScores(v, rankMatch);
    expect(scores.size).toBeGreaterThan(10);
    for (const [id, score] of scores) {
      const expected =
        ((budget.get(id) ?? 0) * luceneIdf(total, budget.size)) / 1e-6 +
        ((meeting.get(id) ?? 0) * luceneIdf(total, meeting.size)) / fts5Idf(total, meeting.size);
      expect(score / expected).toBeCloseTo(1, 12);
    }
  });

  it('ranks and pages by Lucene’s BM25, in one piece and stepped through alike', async () => {
    const v = indexedVault(files(2_400));
    vaults.push(v);
    for (const query of ['budget meeting', 'budget OR zebra', 'content:budget plan -zebra']) {
      const node = parseSearchQuery(query);
      const compiled = compileSearch(node);
      const scores = luceneScores(v, compiled.rankMatch!);
      const expected = [...scores.values()].sort((a, b) => b - a);
      // Past 2,000 notes the search steps through on a reader; with a higher threshold, in one piece.
      for (const stepFrom of [2_000, 1_000_000]) {
        const seen: number[] = [];
        let after: { s: number; m: number; p: string } | undefined;
        for (let page = 0; page < 3; page++) {
          const sql = searchSql(compiled, { limit: 25, ...(after ? { after } : {}) });
          const found = (await runSearch(v.db, node, sql, 'all', 25, createWork(), stepFrom))!;
          expect(found.total).toBe(scores.size);
          seen.push(...found.rows.map((r) => r.score));
          for (const row of found.rows) expect(row.score).toBe(scores.get(row.id));
          const last = found.rows[found.rows.length - 1]!;
          after = { s: last.score, m: last.mtime_ms, p: last.path };
        }
        expect(seen).toEqual(expected.slice(0, 75));
      }
    }
  });

  it('any query of words, phrases, groups, OR and exclusions scores as its phrases add up (and as bm25() when flat)', () => {
    const v = indexedVault(files(120));
    vaults.push(v);
    const word = fc.constantFrom(...WORDS, '東京会議', 'absent');
    const { query } = fc.letrec((tie) => ({
      term: fc.oneof(
        word,
        fc.tuple(word, word).map(([a, b]) => `"${a} ${b}"`),
        word.map((w) => `content:${w}`),
        fc.tuple(word, word).map(([a, b]) => `line:(${a} ${b})`),
      ),
      atom: fc.oneof(
        { depthSize: 'small' },
        tie('term'),
        tie('term').map((t) => `-${t}`),
        tie('query').map((q) => `(${q})`),
      ),
      conj: fc.array(tie('atom'), { minLength: 1, maxLength: 3 }).map((atoms) => atoms.join(' ')),
      query: fc.array(tie('conj'), { minLength: 1, maxLength: 3 }).map((conjs) => conjs.join(' OR ')),
    }));
    let checked = 0;
    fc.assert(
      fc.property(query as fc.Arbitrary<string>, (text) => {
        let rankMatch: string | null;
        try {
          rankMatch = compileSearch(parseSearchQuery(text)).rankMatch;
        } catch {
          return; // Refused as a query (nothing but exclusions, too many terms): nothing to rank.
        }
        if (rankMatch !== null && checkText(v, rankMatch) > 0) checked++;
      }),
      { numRuns: 300, seed: 32 },
    );
    // Most generated queries match something: the property was tested, not skipped.
    expect(checked).toBeGreaterThan(100);
  });
});
