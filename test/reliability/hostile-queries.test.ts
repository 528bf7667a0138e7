/**
 * Hostile search queries, query_notes filters and edit_note operations (issue 10, "Hostile input"),
 * through a real MCP client within HOSTILE.callLimitMs per call. Where a model of the answer is
 * simple enough it is checked exactly: search over a fixed vocabulary against a boolean model,
 * query_notes against the AND / OR laws its filters promise, edit_note against the bytes it must
 * leave.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isNotedError } from '../../src/common/errors.js';
import { MAX_GROUP_DEPTH, MAX_QUERY_TERMS } from '../../src/index/search/parse/limits.js';
import { MAX_GROUP_DEPTH as MAX_FILTER_DEPTH } from '../../src/index/table/spec.js';
import { applyEdit, type EditOperation } from '../../src/markdown/edit.js';
import { type CallResult, openTestVault, type TestVault } from '../helpers/vault.js';
import { nastyText, PROPERTY_OPTIONS, show, timedCall } from './hostile-shared.js';
import { HOSTILE } from './limits.js';

const HIDDEN_MARK = 'HIDDENMARK9c2e';
const VOCABULARY = ['apple', 'berry', 'cider', 'dates', 'elder', 'figs', 'grape', 'honey'] as const;
type Word = (typeof VOCABULARY)[number];
const NOTE_COUNT = 16;

/** Which words note `i` holds: a fixed, varied pattern. */
function wordsOf(i: number): Word[] {
  return VOCABULARY.filter((_, j) => ((Math.imul(i + 3, 2654435761) >>> (j + 7)) & 1) === 1);
}

const SEARCH_NOTES: Record<string, string> = {};
for (let i = 0; i < NOTE_COUNT; i++) {
  SEARCH_NOTES[`words/n${String(i).padStart(2, '0')}.md`] = `# N${i}\n\nnote ${wordsOf(i).join(' ')}\n`;
}

const PROPERTY_NOTES: Record<string, string> = {
  'props/alpha.md':
    '---\nstatus: Active\npriority: 2\ndue: 2026-05-01\ntags: [project/alpha, urgent]\nowner: Bo\ndone: false\n---\n[[beta]] [[gamma]]\n',
  'props/beta.md':
    '---\nstatus: done\npriority: 10\ndue: 2026-06-15T09:30\ntags: project\nrelated: ["[[alpha]]"]\nempty: ""\n---\nbeta\n',
  'props/old/gamma.md': '---\nstatus: active\npriority: 1\ndue: 2025-12-31\naliases: [G]\n---\n#inline-tag\n',
  'props/delta.md': 'No frontmatter. [[Nowhere]] [[G]]\n',
  'props/epsilon.md': '---\nstatus: [a, b]\npriority: high\nname: Eps\n---\n',
  'props/broken.md': '---\nstatus: [active\n---\n',
};

const HIDDEN_NOTES: Record<string, string> = {
  'private/all.md': `---\nstatus: Active\npriority: 2\ntags: [project, urgent]\n---\n# Hidden\n\n${HIDDEN_MARK} ${VOCABULARY.join(' ')} note [[alpha]]\n`,
};

const EDIT_NOTES: Record<string, string> = {
  'e/plain.md':
    '# Title\n\nIntro text.\n\n## Risks\n\nrisk one\nrisk one\n\n### Sub\n\nsub text\n\n## Risks\n\nsecond risks\n\n## Empty\n## Last\n\nend',
  'e/crlf.md': '# Title\r\n\r\n## Risks\r\n\r\nrisk one\r\n\r\n### Sub\r\n\r\nsub text\r\n',
  'e/fm.md': '---\ntitle: T\ntags: [a]\n---\n# Head\n\nbody --- text\n',
  'e/code.md': '```\n# not a heading\n```\n# Real\n\ntext\n\n~~~\n## fenced\n~~~\n',
  'e/empty.md': '',
  'e/setext.md': 'Title\n=====\n\nSub\n---\n\ntext\n',
};

let vault: TestVault;
beforeAll(async () => {
  vault = await openTestVault({
    ...SEARCH_NOTES,
    ...PROPERTY_NOTES,
    ...HIDDEN_NOTES,
    ...EDIT_NOTES,
    '.noted/mcp-policy.yaml': 'folders:\n  private: hidden\n',
  });
});
afterAll(async () => {
  await vault?.close();
});

const VISIBLE = new Set([
  ...Object.keys(SEARCH_NOTES),
  ...Object.keys(PROPERTY_NOTES),
  ...Object.keys(EDIT_NOTES),
]);

/** A call that must never leak the hidden note. */
async function call(tool: string, args: Record<string, unknown>): Promise<CallResult> {
  const result = await timedCall(vault, tool, args);
  const answer = `${result.text}\n${JSON.stringify(result.structured)}`;
  // (An answer may repeat the arguments, so a mark only counts when they do not hold it.)
  const asked = show(args, Number.POSITIVE_INFINITY);
  for (const mark of [HIDDEN_MARK, 'private/all']) {
    expect(!asked.includes(mark) && answer.includes(mark), `${tool} ${show(args)} leaked ${mark}`).toBe(
      false,
    );
  }
  return result;
}

// ---------------------------------------------------------------------------------------------
// search_notes

type Query =
  | { readonly k: 'w'; readonly w: Word; readonly spelled: string }
  | { readonly k: 'not'; readonly q: Query }
  | { readonly k: 'and' | 'or'; readonly qs: readonly Query[]; readonly paren: boolean };

function serialize(q: Query): string {
  switch (q.k) {
    case 'w':
      return q.spelled;
    case 'not':
      return q.q.k === 'w' ? `-${q.q.spelled}` : `-(${serialize(q.q)})`;
    case 'and': {
      const text = q.qs.map((c) => (c.k === 'or' ? `(${serialize(c)})` : serialize(c))).join(' ');
      return q.paren ? `(${text})` : text;
    }
    case 'or': {
      const text = q.qs.map(serialize).join(' OR ');
      return q.paren ? `(${text})` : text;
    }
  }
}

function holds(q: Query, words: ReadonlySet<string>): boolean {
  switch (q.k) {
    case 'w':
      return words.has(q.w);
    case 'not':
      return !holds(q.q, words);
    case 'and':
      return q.qs.every((c) => holds(c, words));
    case 'or':
      return q.qs.some((c) => holds(c, words));
  }
}

/** The parser's rule: an excluded term inside an excluded group is wanted again. */
function hasPositive(q: Query, negated: boolean): boolean {
  if (q.k === 'w') return !negated;
  if (q.k === 'not') return hasPositive(q.q, !negated);
  return q.qs.some((c) => hasPositive(c, negated));
}

function parenDepth(text: string): number {
  let depth = 0;
  let max = 0;
  for (const ch of text) {
    if (ch === '(') max = Math.max(max, ++depth);
    else if (ch === ')') depth--;
  }
  return max;
}

/**
 * Distinct terms, as the limit counts them (SPEC 3.3a: a repeated term counts once): in every AND and
 * OR an operand equal to an earlier one is dropped, a group of the parent's kind joins it, and equal
 * means the same word (any case) or groups and exclusions of equal parts.
 */
function termCount(q: Query): number {
  return reduced(q).count;
}

interface Reduced {
  readonly node: Query;
  readonly key: string;
  readonly count: number;
}

function reduced(q: Query): Reduced {
  if (q.k === 'w') return { node: q, key: q.w, count: 1 };
  if (q.k === 'not') {
    const inner = reduced(q.q);
    return { node: { k: 'not', q: inner.node }, key: `-(${inner.key})`, count: inner.count };
  }
  const kept = new Map<string, Reduced>();
  const add = (r: Reduced) => {
    if (!kept.has(r.key)) kept.set(r.key, r);
  };
  for (const c of q.qs) {
    const r = reduced(c);
    // A group that reduces to the parent's own kind joins the parent.
    if (r.node.k === q.k) for (const inner of r.node.qs) add(reduced(inner));
    else add(r);
  }
  const parts = [...kept.values()];
  if (parts.length === 1) return parts[0]!;
  return {
    node: { k: q.k, qs: parts.map((p) => p.node), paren: true },
    key: `${q.k}(${[...kept.keys()].sort().join(',')})`,
    count: parts.reduce((n, p) => n + p.count, 0),
  };
}

/** What search_notes must answer: an error code, or exactly these notes. */
function expectedSearch(q: Query, text: string): { code: string } | { notes: Set<string> } {
  if (text.length > 2000) return { code: 'too_large' };
  if (termCount(q) > MAX_QUERY_TERMS) return { code: 'too_large' };
  if (parenDepth(text) > MAX_GROUP_DEPTH) return { code: 'too_large' };
  if (!hasPositive(q, false)) return { code: 'validation_error' };
  const notes = new Set<string>();
  for (let i = 0; i < NOTE_COUNT; i++) {
    if (holds(q, new Set(wordsOf(i)))) notes.add(`words/n${String(i).padStart(2, '0')}.md`);
  }
  return { notes };
}

const wordNode: fc.Arbitrary<Query> = fc
  .tuple(fc.constantFrom(...VOCABULARY), fc.constantFrom('lower', 'upper', 'title'))
  .map(([w, style]) => ({
    k: 'w' as const,
    w,
    spelled: style === 'lower' ? w : style === 'upper' ? w.toUpperCase() : w[0]!.toUpperCase() + w.slice(1),
  }));

const queryTree: fc.Memo<Query> = fc.memo((n: number): fc.Arbitrary<Query> => {
  if (n <= 1) return wordNode;
  return fc.oneof(
    { weight: 3, arbitrary: wordNode },
    { weight: 2, arbitrary: queryTree(n - 1).map((q): Query => ({ k: 'not', q })) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(fc.array(queryTree(n - 1), { minLength: 2, maxLength: 3 }), fc.boolean())
        .map(([qs, paren]): Query => ({ k: 'and', qs, paren })),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(fc.array(queryTree(n - 1), { minLength: 2, maxLength: 3 }), fc.boolean())
        .map(([qs, paren]): Query => ({ k: 'or', qs, paren })),
    },
  );
});

/** A query wrapped in a chain of groups, to reach and pass the nesting limit. */
const deepQuery: fc.Arbitrary<Query> = fc
  .tuple(
    queryTree(3),
    fc.array(fc.tuple(fc.constantFrom<'not' | 'and' | 'or'>('not', 'and', 'or'), wordNode), {
      minLength: 6,
      maxLength: 24,
    }),
  )
  .map(([inner, chain]) =>
    chain.reduce<Query>((q, [kind, w]) => {
      if (kind === 'not') return { k: 'not', q: { k: 'and', qs: [q], paren: true } };
      return { k: kind as 'and' | 'or', qs: [w, q], paren: true };
    }, inner),
  );

/**
 * Around the term limit: one word repeated (as typed past the limit, yet one term), or an OR of
 * different (word -other) pairs: with eight words, up to 56 pairs, 112 distinct terms.
 */
const PAIRS = VOCABULARY.flatMap((a) => VOCABULARY.filter((b) => b !== a).map((b) => [a, b] as const));
const wideQuery: fc.Arbitrary<Query> = fc.oneof(
  fc
    .tuple(fc.integer({ min: MAX_QUERY_TERMS - 5, max: MAX_QUERY_TERMS + 10 }), wordNode)
    .map(([n, w]): Query => ({ k: 'and', qs: Array.from({ length: n }, () => w), paren: false })),
  fc.integer({ min: MAX_QUERY_TERMS / 2 - 5, max: PAIRS.length }).map(
    (n): Query => ({
      k: 'or',
      qs: PAIRS.slice(0, n).map(([a, b]) => ({
        k: 'and' as const,
        qs: [
          { k: 'w' as const, w: a, spelled: a },
          { k: 'not' as const, q: { k: 'w' as const, w: b, spelled: b } },
        ],
        paren: true,
      })),
      paren: false,
    }),
  ),
);

describe('search_notes', () => {
  it(
    'boolean queries over a known vocabulary: exactly the model notes, or a clear refusal',
    async () => {
      const query = fc.oneof(
        { weight: 6, arbitrary: queryTree(5) },
        { weight: 2, arbitrary: deepQuery },
        { weight: 1, arbitrary: wideQuery },
      );
      await fc.assert(
        fc.asyncProperty(query, fc.integer({ min: 1, max: 50 }), async (q, max) => {
          const text = serialize(q);
          const expected = expectedSearch(q, text);
          // Scoped to the folder of the model's notes: an exclusion alone matches every other note too.
          const result = await call('search_notes', { query: text, max_results: max, folder: 'words' });
          if ('code' in expected) {
            expect(result.isError, `${show(text)}: ${show(result.structured)}`).toBe(true);
            expect(result.structured.code, show(text)).toBe(expected.code);
            return;
          }
          expect(result.isError, `${show(text)}: ${show(result.structured)}`).toBe(false);
          const names = (result.structured.results as { name: string }[]).map((r) => r.name);
          expect(result.structured.total, show(text)).toBe(expected.notes.size);
          expect(names.length, show(text)).toBe(Math.min(max, expected.notes.size));
          for (const name of names)
            expect(expected.notes.has(name), `${show(text)} found ${name}`).toBe(true);
        }),
        PROPERTY_OPTIONS,
      );
    },
    HOSTILE.timeLimitMs,
  );

  it(
    'any string, FTS5 syntax included, is answered with visible notes or validation_error / too_large',
    async () => {
      const fts = fc.constantFrom(
        '"',
        '*',
        'NEAR(',
        'NEAR(apple berry, 2)',
        '^',
        'AND',
        'OR',
        'NOT',
        'title:',
        'body:apple',
        '{title body}:apple',
        '(',
        ')',
        '-',
        '+',
        'tag:',
        'tag:#project',
        'path:',
        'path:words',
        'file:n0',
        'apple',
        'note',
        ' ',
      );
      const text = fc
        .array(fc.tuple(fc.oneof(fts, nastyText(2)), fc.constantFrom(' ', ' ', '')), { maxLength: 20 })
        .map((parts) => parts.map(([piece, gap]) => piece + gap).join(''));
      const folder = fc.option(fc.constantFrom('words', 'props', 'private', '', 'nowhere', '..', 'a\u0000'));
      const tag = fc.option(fc.oneof(fc.constantFrom('project', '#urgent', '#', '', 'a b'), nastyText(2)));
      await fc.assert(
        fc.asyncProperty(text, folder, tag, fc.integer({ min: 1, max: 50 }), async (query, f, t, max) => {
          const args: Record<string, unknown> = { query, max_results: max };
          if (f !== null) args.folder = f;
          if (t !== null && t.length <= 200) args.tag = t;
          const result = await call('search_notes', args);
          if (result.isError) {
            expect(['validation_error', 'too_large', 'invalid_name'], show(args)).toContain(
              result.structured.code,
            );
            return;
          }
          const results = result.structured.results as { name: string }[];
          expect(results.length).toBeLessThanOrEqual(max);
          expect(result.structured.total).toBeGreaterThanOrEqual(results.length);
          for (const r of results) expect(VISIBLE.has(r.name), `${show(args)} found ${r.name}`).toBe(true);
        }),
        PROPERTY_OPTIONS,
      );
    },
    HOSTILE.timeLimitMs,
  );

  it('long and wide queries are answered at once: a 10,000-term query is refused, 100 terms are searched', async () => {
    const cases: [string, string | null][] = [
      [Array.from({ length: 10_000 }, (_, i) => VOCABULARY[i % 8]).join(' '), 'too_large'],
      [Array.from({ length: 10_000 }, () => 'a').join(' '), 'too_large'],
      // A repeated term counts once (SPEC 3.3a): 999 copies of one word are one term.
      [Array.from({ length: 999 }, () => 'a').join(' '), null],
      [Array.from({ length: 999 }, () => 'a').join(' OR '), 'too_large'],
      [Array.from({ length: MAX_QUERY_TERMS }, (_, i) => VOCABULARY[i % 8]).join(' OR '), null],
      [Array.from({ length: MAX_QUERY_TERMS }, () => 'apple').join(' '), null],
      [Array.from({ length: MAX_QUERY_TERMS + 1 }, (_, i) => `w${i}`).join(' '), 'too_large'],
      ['('.repeat(1999), 'too_large'],
      [`${'('.repeat(990)}apple${')'.repeat(990)}`, 'too_large'],
      [`apple ${'-(berry '.repeat(MAX_GROUP_DEPTH)}cider${')'.repeat(MAX_GROUP_DEPTH)}`, null],
      [`"${'apple '.repeat(330)}"`, null],
      [`${'apple (berry OR '.repeat(17)}cider${')'.repeat(17)}`, 'too_large'],
      [`apple ${'-(berry '.repeat(40)}cider${')'.repeat(40)}`, 'too_large'],
      ['apple\u0000berry', null],
      ['"apple\u0000"', null],
    ];
    for (const [query, code] of cases) {
      const result = await call('search_notes', { query });
      if (code === null) expect(result.isError, `${show(query)}: ${show(result.structured)}`).toBe(false);
      else expect(result.structured.code, show(query)).toBe(code);
    }
  });
});

// ---------------------------------------------------------------------------------------------
// query_notes

const OPS = [
  'equals',
  'not_equals',
  'contains',
  'not_contains',
  'is_empty',
  'is_not_empty',
  'gt',
  'lt',
  'gte',
  'lte',
  'before',
  'after',
  'has_tag',
  'has_link',
];

const filterValue = fc.oneof(
  fc.constantFrom(
    'active',
    'Active',
    'done',
    'today',
    '2026-05-01',
    '2026-05-01T10:00',
    '2026-13-45',
    '1e309',
    'NaN',
    '',
    ' ',
    'project',
    '#project',
    'urgent',
    '[[alpha]]',
    'alpha',
    'props/alpha',
    'private/all',
    'G',
    'beta',
  ),
  fc.integer({ min: -3, max: 12 }),
  fc.double({ noNaN: false }),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.constantFrom('a', 'b', 1, true), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 3 }), fc.string({ maxLength: 3 }), { maxKeys: 2 }),
  nastyText(3),
);

const knownProperty = fc.constantFrom(
  'status',
  'priority',
  'due',
  'tags',
  'done',
  'owner',
  'missing',
  'empty',
  'related',
  'aliases',
  'name',
  'note.name',
  'STATUS',
  '$name',
  '$folder',
  '$modified',
  '$created',
  '$tags',
);

const leafValue = fc.oneof(
  {
    weight: 5,
    arbitrary: filterValue.filter((v) => typeof v === 'string' && v.length < 20 && !/[^\x20-\x7e]/.test(v)),
  },
  { weight: 2, arbitrary: fc.integer({ min: -3, max: 12 }) },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 2, arbitrary: filterValue },
);

/** A filter as the grammar wants it: the keys its op takes, with values of every kind. */
const wellFormedLeaf = fc.oneof(
  fc.tuple(fc.constantFrom('has_tag', 'has_link'), leafValue).map(([op, value]) => ({ op, value })),
  fc
    .tuple(knownProperty, fc.constantFrom('is_empty', 'is_not_empty'))
    .map(([property, op]) => ({ property, op })),
  fc
    .tuple(knownProperty, fc.constantFrom(...OPS.slice(0, 4), ...OPS.slice(6, 12)), leafValue)
    .map(([property, op, value]) => ({ property, op, value })),
);

/** Anything shaped roughly like a filter: keys missing, extra, misspelt, of the wrong type. */
const roughLeaf = fc.record(
  {
    property: fc.oneof(
      knownProperty,
      fc.constantFrom('$bogus', '', '__proto__', 'constructor'),
      nastyText(2),
    ),
    op: fc.oneof(
      { weight: 6, arbitrary: fc.constantFrom(...OPS) },
      { weight: 1, arbitrary: fc.constantFrom('eq', '==', 'EQUALS', '', 'has') },
    ),
    value: filterValue,
    negate: fc.boolean(),
  },
  { requiredKeys: [] },
);

const filterLeaf = fc.oneof({ weight: 4, arbitrary: wellFormedLeaf }, { weight: 1, arbitrary: roughLeaf });

const filterTree: fc.Memo<unknown> = fc.memo((n: number): fc.Arbitrary<unknown> => {
  if (n <= 1) return filterLeaf;
  return fc.oneof(
    { weight: 4, arbitrary: filterLeaf },
    { weight: 1, arbitrary: fc.array(filterTree(n - 1), { maxLength: 3 }).map((any) => ({ any })) },
    { weight: 1, arbitrary: fc.array(filterTree(n - 1), { maxLength: 3 }).map((all) => ({ all })) },
    { weight: 1, arbitrary: fc.oneof(fc.string(), fc.integer(), fc.constant(null), fc.array(fc.string())) },
  );
});

/** A filter wrapped in 0–20 groups, to reach and pass the nesting limit. */
const deepFilter = fc
  .tuple(filterLeaf, fc.array(fc.constantFrom('any', 'all'), { maxLength: 20 }))
  .map(([leaf, groups]) => groups.reduce<unknown>((f, g) => ({ [g]: [f] }), leaf));

function groupDepth(filter: unknown): number {
  if (filter === null || typeof filter !== 'object' || Array.isArray(filter)) return 0;
  const record = filter as Record<string, unknown>;
  for (const key of ['any', 'all']) {
    if (Array.isArray(record[key])) return 1 + Math.max(0, ...(record[key] as unknown[]).map(groupDepth));
  }
  return 0;
}

async function rowsOf(args: Record<string, unknown>): Promise<CallResult & { names: Set<string> }> {
  const result = await call('query_notes', { limit: 500, ...args });
  if (result.isError) {
    expect(['validation_error', 'too_large', 'ambiguous', 'not_found', 'invalid_name'], show(args)).toContain(
      result.structured.code,
    );
    return { ...result, names: new Set() };
  }
  const rows = result.structured.rows as { name: string }[];
  expect(result.structured.total, show(args)).toBe(rows.length);
  for (const row of rows) expect(VISIBLE.has(row.name), `${show(args)} answered ${row.name}`).toBe(true);
  return { ...result, names: new Set(rows.map((r) => r.name)) };
}

describe('query_notes', () => {
  it(
    'filters in and out of the schema: AND is the intersection, {any} the union, a refusal is never widened',
    async () => {
      const filter = fc.oneof({ weight: 3, arbitrary: filterTree(4) }, { weight: 1, arbitrary: deepFilter });
      await fc.assert(
        fc.asyncProperty(filter, filter, async (f1, f2) => {
          const one = await rowsOf({ filters: [f1] });
          const two = await rowsOf({ filters: [f2] });
          const both = await rowsOf({ filters: [f1, f2] });
          const either = await rowsOf({ filters: [{ any: [f1, f2] }] });
          const what = show([f1, f2]);
          if (one.isError || two.isError) {
            expect(both.isError, `AND of a refused filter was answered: ${what}`).toBe(true);
            expect(either.isError, `OR of a refused filter was answered: ${what}`).toBe(true);
            return;
          }
          expect(both.isError, `${what}: ${show(both.structured)}`).toBe(false);
          expect([...both.names].sort(), what).toEqual([...one.names].filter((n) => two.names.has(n)).sort());
          if (Math.max(groupDepth(f1), groupDepth(f2)) + 1 > MAX_FILTER_DEPTH) {
            expect(either.structured.code, what).toBe('too_large');
          } else {
            expect(either.isError, `${what}: ${show(either.structured)}`).toBe(false);
            expect([...either.names].sort(), what).toEqual([...new Set([...one.names, ...two.names])].sort());
          }
        }),
        PROPERTY_OPTIONS,
      );
    },
    HOSTILE.timeLimitMs,
  );

  it('groups nested 3,000 deep are refused as too_large, at once', async () => {
    let filter: unknown = { property: 'status', op: 'equals', value: 'done' };
    for (let i = 0; i < 3000; i++) filter = { [i % 2 === 0 ? 'any' : 'all']: [filter] };
    const result = await call('query_notes', { filters: [filter] });
    expect(result.structured.code).toBe('too_large');
  });

  it(
    'any JSON for folder, tag, filters, sort, columns and limit is a result or a clear refusal',
    async () => {
      const anyJson = fc.oneof(fc.jsonValue({ maxDepth: 3 }), nastyText(3));
      const request = fc.record(
        {
          folder: fc.oneof(fc.constantFrom('props', 'private', 'Props/', '..', '/'), anyJson),
          tag: fc.oneof(fc.constantFrom('project', '#urgent', 'inline-tag', '#'), anyJson),
          filters: fc.oneof(fc.array(fc.oneof(filterLeaf, anyJson), { maxLength: 4 }), anyJson),
          sort: fc.oneof(
            fc.array(
              fc.record(
                {
                  property: fc.oneof(fc.constantFrom('priority', 'due', '$name', '$tags', 'status'), anyJson),
                  direction: fc.oneof(fc.constantFrom('asc', 'desc', 'DESC', 'up'), anyJson),
                },
                { requiredKeys: [] },
              ),
              { maxLength: 3 },
            ),
            anyJson,
          ),
          columns: fc.oneof(
            fc.array(
              fc.oneof(fc.constantFrom('status', 'due', '$tags', 'name', 'note.name', '__proto__'), anyJson),
              {
                maxLength: 4,
              },
            ),
            anyJson,
          ),
          limit: fc.oneof(fc.integer({ min: -1, max: 600 }), anyJson),
        },
        { requiredKeys: [] },
      );
      await fc.assert(
        fc.asyncProperty(request, async (args) => {
          const result = await call('query_notes', args);
          if (result.isError) {
            expect(
              ['validation_error', 'too_large', 'ambiguous', 'not_found', 'invalid_name'],
              show(args),
            ).toContain(result.structured.code);
            return;
          }
          const rows = result.structured.rows as { name: string }[];
          for (const row of rows)
            expect(VISIBLE.has(row.name), `${show(args)} answered ${row.name}`).toBe(true);
          expect(result.structured.total).toBeGreaterThanOrEqual(rows.length);
        }),
        PROPERTY_OPTIONS,
      );
    },
    HOSTILE.timeLimitMs,
  );
});

// ---------------------------------------------------------------------------------------------
// edit_note

const editText = fc.oneof(
  { weight: 2, arbitrary: fc.constantFrom('new line of text', 'one more\nand another', 'X') },
  fc.constantFrom(
    '',
    'X',
    'risk one',
    '---',
    '---\nbad: [\n',
    'title: [unclosed',
    '# New heading',
    '## Risks',
    '\r\n',
    '\n\n\n',
    'line\r\nline',
    '   ',
  ),
  nastyText(4),
);

const HEADINGS = ['Risks', '## Risks', '# Risks', '### Sub', 'Sub', 'Empty', 'Last', 'Title', 'Head', 'Real'];

const editOp = fc.record({
  note: fc.constantFrom(...Object.keys(EDIT_NOTES)),
  operation: fc.oneof(
    { weight: 12, arbitrary: fc.constantFrom('replace', 'replace_section', 'append_to_section') },
    { weight: 1, arbitrary: fc.constantFrom('delete', '') },
  ),
  // old_text: mostly a piece of the note as it is then (start, length); else given text; else none.
  slice: fc.option(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 30 })), { freq: 4 }),
  oldText: fc.option(editText, { freq: 10 }),
  newText: fc.option(editText, { freq: 10 }),
  replaceAll: fc.option(fc.boolean()),
  heading: fc.option(
    fc.oneof(
      { weight: 6, arbitrary: fc.constantFrom(...HEADINGS) },
      {
        weight: 2,
        arbitrary: fc.constantFrom(
          'not a heading',
          'fenced',
          'Nope',
          '',
          '#',
          'risks',
          'Risks ',
          'New heading',
        ),
      },
      { weight: 1, arbitrary: nastyText(2) },
    ),
    { freq: 10 },
  ),
  content: fc.option(editText, { freq: 10 }),
  occurrence: fc.oneof({ weight: 3, arbitrary: fc.constant(null) }, fc.integer({ min: 1, max: 3 })),
  // When set, the heading is one of the note's own at that moment (this one, level kept or not).
  ownHeading: fc.option(fc.tuple(fc.nat(), fc.boolean()), { freq: 3 }),
  whole: fc.option(fc.boolean()),
  version: fc.constantFrom('etag', 'etag', 'etag', 'etag', 'etag', 'modified', 'stale', 'none'),
});

type EditStep = typeof editOp extends fc.Arbitrary<infer T> ? T : never;

/** The note's line break, as edit_note gives inserted text (null: the note has none). */
function lineBreakOf(text: string): string | null {
  const nl = text.indexOf('\n');
  if (nl === -1) return null;
  return nl > 0 && text[nl - 1] === '\r' ? '\r\n' : '\n';
}

/** The operation the tool builds from its arguments, or the validation_error it answers first. */
function operationOf(args: Record<string, unknown>): EditOperation | 'validation_error' {
  const op = args.operation;
  if (op === 'replace') {
    if (typeof args.old_text !== 'string' || typeof args.new_text !== 'string') return 'validation_error';
    return {
      kind: 'replace',
      oldText: args.old_text,
      newText: args.new_text,
      ...(typeof args.replace_all === 'boolean' ? { replaceAll: args.replace_all } : {}),
    };
  }
  if (op !== 'replace_section' && op !== 'append_to_section') return 'validation_error';
  if (typeof args.heading !== 'string' || typeof args.content !== 'string') return 'validation_error';
  return {
    kind: op,
    heading: args.heading,
    content: args.content,
    ...(typeof args.occurrence === 'number' ? { occurrence: args.occurrence } : {}),
    ...(typeof args.whole === 'boolean' ? { whole: args.whole } : {}),
  };
}

describe('edit_note', () => {
  it(
    'random operations on random notes are applied exactly or refused with the file unchanged',
    async () => {
      let ops = 0;
      await fc.assert(
        fc.asyncProperty(fc.array(editOp, { minLength: 1, maxLength: 5 }), async (steps: EditStep[]) => {
          // Every sequence starts from the same notes.
          for (const [rel, text] of Object.entries(EDIT_NOTES)) {
            fs.writeFileSync(path.join(vault.dir, rel), text);
          }
          vault.opened.index.touched(Object.keys(EDIT_NOTES));
          for (const step of steps) {
            ops++;
            const abs = path.join(vault.dir, step.note);
            const before = fs.readFileSync(abs);
            const text = before.toString('utf8');
            const etag = `sha256:${createHash('sha256').update(before).digest('hex')}`;
            const read = await call('read_note', { name: step.note });
            expect(read.isError).toBe(false);
            expect(read.structured.frontmatterRaw + read.structured.body).toBe(text);
            expect(read.structured.etag).toBe(etag);

            const args: Record<string, unknown> = { name: step.note, operation: step.operation };
            if (step.slice) {
              const start = text.length === 0 ? 0 : step.slice[0] % text.length;
              args.old_text = text.slice(start, start + step.slice[1]);
            } else if (step.oldText !== null) args.old_text = step.oldText;
            if (step.newText !== null) args.new_text = step.newText;
            if (step.replaceAll !== null) args.replace_all = step.replaceAll;
            const own = text
              .split('\n')
              .map((line) => line.replace(/\r$/, ''))
              .filter((line) => /^#{1,6} /.test(line));
            if (step.ownHeading !== null && own.length > 0) {
              const line = own[step.ownHeading[0] % own.length]!;
              args.heading = step.ownHeading[1] ? line : line.replace(/^#+ /, '');
            } else if (step.heading !== null && step.heading.length <= 1000) args.heading = step.heading;
            if (step.content !== null) args.content = step.content;
            if (step.occurrence !== null) args.occurrence = step.occurrence;
            if (step.whole !== null) args.whole = step.whole;
            if (step.version === 'etag') args.expected_etag = etag;
            if (step.version === 'modified') args.expected_modified = read.structured.modified;
            if (step.version === 'stale') args.expected_etag = `sha256:${'0'.repeat(64)}`;

            const result = await call('edit_note', args);
            const after = fs.readFileSync(abs);
            const what = `${step.note} ${show(args)} → ${show(result.structured)}`;
            if (result.isError) expect(after.equals(before), `refused but changed: ${what}`).toBe(true);

            const op = operationOf(args);
            if (
              step.operation !== 'replace' &&
              step.operation !== 'replace_section' &&
              step.operation !== 'append_to_section'
            ) {
              expect(result.structured.code, what).toBe('validation_error');
              continue;
            }
            if (op === 'validation_error' || step.version === 'none') {
              expect(result.structured.code, what).toBe('validation_error');
              continue;
            }
            if (step.version === 'stale') {
              expect(result.structured.code, what).toBe('conflict');
              expect(result.structured.currentEtag, what).toBe(etag);
              expect(result.structured.currentText, what).toBe(text);
              continue;
            }
            let next: string | null = null;
            let code: string | null = null;
            try {
              next = applyEdit(text, op);
            } catch (err) {
              if (!isNotedError(err)) throw err;
              code = err.code;
            }
            if (code !== null) {
              expect(result.structured.code, what).toBe(code);
              continue;
            }
            expect(result.isError, what).toBe(false);
            // As UTF-8, where a lone surrogate can only be stored as U+FFFD.
            expect(after.equals(Buffer.from(next as string, 'utf8')), what).toBe(true);
            expect(result.structured.etag, what).toBe(
              `sha256:${createHash('sha256').update(after).digest('hex')}`,
            );
            if (op.kind === 'replace') {
              // Independently of applyEdit: the one place (or every place) replaced, nothing else.
              const eol = lineBreakOf(text);
              const replacement = eol === null ? op.newText : op.newText.replace(/\r?\n/g, eol);
              const expected = op.replaceAll
                ? text.split(op.oldText).join(replacement)
                : text.replace(op.oldText, () => replacement);
              expect(after.equals(Buffer.from(expected, 'utf8')), what).toBe(true);
            }
          }
        }),
        PROPERTY_OPTIONS,
      );
      expect(ops).toBeGreaterThanOrEqual(HOSTILE.runs);
    },
    HOSTILE.timeLimitMs,
  );
});
