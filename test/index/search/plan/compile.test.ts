import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { escapeLike } from '../../../../src/index/db/like.js';
import { MAX_GROUP_DEPTH } from '../../../../src/index/search/parse/limits.js';
import { parseSearchQuery } from '../../../../src/index/search/parse/query.js';
import { compileSearch } from '../../../../src/index/search/plan/compile.js';
import type { CompiledSearch } from '../../../../src/index/search/plan/compiled.js';
import { ftsString } from '../../../../src/index/search/plan/fts.js';
import type { SearchSqlOptions } from '../../../../src/index/search/plan/sql.js';
import { searchSql } from '../../../../src/index/search/plan/sql.js';
import { registerSearchFunctions } from '../../../../src/index/search/run/functions.js';
import { rankedNow } from '../../../../src/index/search/run/phrase-scores.js';
import { segmentCjk } from '../../../../src/index/words/cjk.js';

const compile = (q: string): CompiledSearch => compileSearch(parseSearchQuery(q));

/** Every FTS5 expression we emit is quoted strings joined by AND / OR / NOT and parentheses, nothing else. */
const FTS_ONLY_STRINGS = /^(?:\s*(?:\(|\)|AND|OR|NOT|"(?:[^"]|"")*"))+\s*$/;

function ftsExpressions(c: CompiledSearch): string[] {
  const fromWhere = c.params.filter((_, i) => {
    // The i-th '?' of `where` belongs to a MATCH when the SQL just before it ends with MATCH.
    const before = c.where
      .split('?')
      .slice(0, i + 1)
      .join('?');
    return /MATCH $/.test(before);
  });
  return [...(c.rankMatch ? [c.rankMatch] : []), ...(fromWhere as string[])];
}

describe('compileSearch: shapes', () => {
  it('sends a text-only query whole to rankMatch, with where = 1', () => {
    expect(compile('budget review')).toEqual({
      where: '1',
      params: [],
      rankMatch: '"budget" AND "review"',
      highlightTerms: ['budget', 'review'],
    });
  });

  it('writes exclusion as FTS5 binary NOT and OR as OR', () => {
    expect(compile('a b -c -"d e"').rankMatch).toBe('("a" AND "b") NOT ("c" OR "d e")');
    expect(compile('a OR b').rankMatch).toBe('"a" OR "b"');
    expect(compile('a b OR c').rankMatch).toBe('("a" AND "b") OR "c"');
    expect(compile('a (b OR c)').rankMatch).toBe('"a" AND ("b" OR "c")');
    expect(compile('a -(b OR c)').rankMatch).toBe('"a" NOT ("b" OR "c")');
  });

  it('quotes every word and doubles quotes inside it', () => {
    expect(ftsString('don"t')).toBe('"don""t"');
    expect(compile('don"t').rankMatch).toBe('"don""t"');
  });

  it('turns a CJK word into a phrase of single characters', () => {
    expect(compile('東京').rankMatch).toBe('" 東  京 "');
  });

  it('ranks by the text conjuncts and leaves the fields in where', () => {
    const c = compile('budget -draft tag:#Work path:Projects');
    expect(c.rankMatch).toBe('"budget" NOT "draft"');
    expect(c.where).toBe(
      "EXISTS (SELECT 1 FROM note_tags t WHERE t.note_id = n.id AND (t.tag_lower = ? OR t.tag_lower LIKE ? ESCAPE '\\')) AND instr(n.path_lower, ?) > 0",
    );
    expect(c.params).toEqual(['work', 'work/%', 'projects']);
    expect(c.highlightTerms).toEqual(['budget']);
  });

  it('leaves a query with an OR over a field unranked', () => {
    const c = compile('budget OR file:Plan');
    expect(c.rankMatch).toBeNull();
    expect(c.where).toBe(
      'n.id IN (SELECT rowid FROM notes_fts WHERE notes_fts MATCH ?) OR instr(n.file_lower, ?) > 0',
    );
    expect(c.params).toEqual(['"budget"', 'plan']);
  });

  it('writes a purely negative text part as NOT (n.id IN …) in SQL', () => {
    const c = compile('tag:x -a -b');
    expect(c.rankMatch).toBeNull();
    expect(c.where).toBe(
      "NOT (n.id IN (SELECT rowid FROM notes_fts WHERE notes_fts MATCH ?)) AND EXISTS (SELECT 1 FROM note_tags t WHERE t.note_id = n.id AND (t.tag_lower = ? OR t.tag_lower LIKE ? ESCAPE '\\'))",
    );
    expect(c.params).toEqual(['"a" OR "b"', 'x', 'x/%']);
  });

  it('writes an OR with an excluded side in SQL, one MATCH per text part', () => {
    const c = compile('a OR -b');
    expect(c.rankMatch).toBeNull();
    expect(c.where).toBe(
      'n.id IN (SELECT rowid FROM notes_fts WHERE notes_fts MATCH ?) OR NOT (n.id IN (SELECT rowid FROM notes_fts WHERE notes_fts MATCH ?))',
    );
    expect(c.params).toEqual(['"a"', '"b"']);
  });

  it('parenthesizes nested groups so SQL precedence cannot regroup them', () => {
    const c = compile('tag:a (file:b OR path:c)');
    expect(c.where).toMatch(
      /^EXISTS .* AND \(instr\(n\.file_lower, \?\) > 0 OR instr\(n\.path_lower, \?\) > 0\)$/,
    );
  });

  it('lower-cases field values, drops one leading # from tags, escapes LIKE wildcards', () => {
    expect(compile('tag:#Big_Deal%').params).toEqual(['big_deal%', 'big\\_deal\\%/%']);
    expect(compile('path:"My Folder"').params).toEqual(['my folder']);
    expect(escapeLike('a\\b%c_d')).toBe('a\\\\b\\%c\\_d');
  });

  it('highlights wanted words and phrases only, once each', () => {
    expect(compile('a "b c" -d a OR tag:e OR -(f)').highlightTerms).toEqual(['a', 'b c']);
  });
});

describe('compileSearch: user text never reaches FTS5 as syntax', () => {
  const attacks = [
    "'); DROP TABLE notes; --",
    'budget*',
    '*',
    'NEAR(a b)',
    'a AND b',
    'NOT a',
    '^start',
    'title:budget',
    'body:x -tags:y',
    'a"b',
    '" OR "x"',
    '"a"" OR ""b"',
    '{title body}:x',
    '-a +b',
  ];
  for (const q of attacks) {
    it(`quotes everything in ${JSON.stringify(q)}`, () => {
      let c: CompiledSearch;
      try {
        c = compile(q);
      } catch (err) {
        // Refused outright is safe too, as long as it is a NotedError naming the problem.
        expect((err as Error).name).toBe('NotedError');
        return;
      }
      const exprs = ftsExpressions(c);
      expect(exprs.length).toBeGreaterThan(0);
      for (const e of exprs) expect(e).toMatch(FTS_ONLY_STRINGS);
      expect(c.where).not.toContain(q);
    });
  }
});

// ---------------------------------------------------------------------------------------------
// End to end on the real schema.

interface TestNote {
  path: string;
  title: string;
  tags?: string[];
  body: string;
  mtime: number;
}

const NOTES: TestNote[] = [
  {
    path: 'Projects/Plan 2026.md',
    title: 'Plan 2026',
    tags: ['work', 'planning'],
    body: 'Budget review and roadmap for the team.',
    mtime: 100,
  },
  {
    path: 'Projects/Sub/Budget.md',
    title: 'Budget',
    tags: ['work/finance'],
    body: 'Quarterly numbers.',
    mtime: 90,
  },
  {
    path: 'Notes/Meeting.md',
    title: 'Meeting',
    body: 'We talked about the budget and the hiring plan.',
    mtime: 80,
  },
  {
    path: 'Notes/Lunch.md',
    title: 'Lunch',
    tags: ['food'],
    body: 'Met at the café near the station.',
    mtime: 70,
  },
  { path: 'Notes/Coffee.md', title: 'Coffee', body: 'A cafe with good espresso.', mtime: 60 },
  {
    path: 'Travel/東京.md',
    title: '東京旅行',
    tags: ['travel'],
    body: '東京都の渋谷に行きました。',
    mtime: 50,
  },
  { path: 'Travel/Seoul.md', title: 'Seoul', body: '서울에서 맛있는 음식을 먹었어요.', mtime: 40 },
  { path: 'Travel/Japan.md', title: 'Japan', body: 'カタカナとひらがな: コーヒーを飲む。', mtime: 30 },
  { path: 'Work/Tagged.md', title: 'Tagged note', tags: ['Work/X'], body: 'Alpha beta.', mtime: 20 },
  { path: 'Work/MyJob.md', title: 'Other job', tags: ['myjob/work'], body: 'Alpha gamma.', mtime: 10 },
  {
    path: 'Archive/Old plan.md',
    title: 'Old plan',
    tags: ['archive'],
    body: 'alpha beta gamma delta, draft version',
    mtime: 5,
  },
  { path: 'My Folder/Readme.md', title: 'Readme', body: 'The quick brown fox.', mtime: 4 },
  { path: 'Notes/Fox.md', title: 'Fox', body: 'Brown is the fox; quick it is.', mtime: 3 },
  { path: 'Ranking/Title.md', title: 'Zebra', body: 'one two three four', mtime: 2 },
  { path: 'Ranking/Tag.md', title: 'Stripes', tags: ['zebra'], body: 'one two three four', mtime: 1.5 },
  { path: 'Ranking/Body.md', title: 'Animals', body: 'one two zebra four', mtime: 1 },
];

let db: Database.Database;

/** The index schema exactly as the indexer creates it, filled the way the indexer fills it. */
function openIndex(notes: readonly TestNote[]): Database.Database {
  const d = new Database(':memory:');
  d.exec(`
    CREATE TABLE notes(id INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE, path_lower TEXT NOT NULL,
      folder_lower TEXT NOT NULL, file_lower TEXT NOT NULL, title TEXT NOT NULL, mtime_ms REAL NOT NULL,
      visible INTEGER NOT NULL DEFAULT 1);
    CREATE TABLE note_tags(note_id INTEGER NOT NULL, tag_lower TEXT NOT NULL);
    CREATE VIRTUAL TABLE notes_fts USING fts5(title, tags, body, content='', contentless_delete=1,
      tokenize='unicode61 remove_diacritics 2');
    INSERT INTO notes_fts(notes_fts, rank) VALUES('rank', 'bm25(3.0, 2.0, 1.0)');
  `);
  const insNote = d.prepare(
    'INSERT INTO notes(id, path, path_lower, folder_lower, file_lower, title, mtime_ms) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  const insTag = d.prepare('INSERT INTO note_tags VALUES (?, ?)');
  const insFts = d.prepare('INSERT INTO notes_fts(rowid, title, tags, body) VALUES (?, ?, ?, ?)');
  notes.forEach((n, i) => {
    const id = i + 1;
    const lower = n.path.toLowerCase();
    const slash = lower.lastIndexOf('/');
    insNote.run(
      id,
      n.path,
      lower,
      slash < 0 ? '' : lower.slice(0, slash),
      lower.slice(slash + 1),
      n.title,
      n.mtime,
    );
    const tags = (n.tags ?? []).map((t) => t.toLowerCase());
    for (const t of tags) insTag.run(id, t);
    insFts.run(id, segmentCjk(n.title), segmentCjk(tags.join(' ')), segmentCjk(n.body));
  });
  return d;
}

interface Row {
  id: number;
  path: string;
  title: string;
  mtime_ms: number;
  score: number;
}

function search(
  query: string,
  opts: Partial<SearchSqlOptions> = {},
): { paths: string[]; rows: Row[]; total: number } {
  const s = searchSql(compile(query), { limit: 50, ...opts });
  registerSearchFunctions(db);
  // A text of several phrases ranks by scores set up first (search/run/phrase-scores.ts).
  const rows = rankedNow(db, s.phraseRank, () => db.prepare(s.sql).all(...s.params) as Row[]);
  const { total } = db.prepare(s.countSql).get(...s.countParams) as { total: number };
  return { paths: rows.map((r) => r.path), rows, total };
}

const paths = (query: string, opts: Partial<SearchSqlOptions> = {}): string[] =>
  [...search(query, opts).paths].sort();

describe('search end to end', () => {
  beforeAll(() => {
    db = openIndex(NOTES);
  });
  afterAll(() => db.close());

  it('requires all plain words (AND)', () => {
    expect(paths('budget')).toEqual(['Notes/Meeting.md', 'Projects/Plan 2026.md', 'Projects/Sub/Budget.md']);
    expect(paths('budget hiring')).toEqual(['Notes/Meeting.md']);
    expect(paths('budget nonexistentword')).toEqual([]);
  });

  it('matches a phrase only in that order, separate words in any order', () => {
    expect(paths('"quick brown"')).toEqual(['My Folder/Readme.md']);
    expect(paths('quick brown')).toEqual(['My Folder/Readme.md', 'Notes/Fox.md']);
  });

  it('excludes -term, -"phrase" and -(group)', () => {
    expect(paths('alpha -gamma')).toEqual(['Work/Tagged.md']);
    expect(paths('fox -"quick brown"')).toEqual(['Notes/Fox.md']);
    expect(paths('alpha -(beta OR delta)')).toEqual(['Work/MyJob.md']);
  });

  it('matches either side of OR', () => {
    expect(paths('espresso OR station')).toEqual(['Notes/Coffee.md', 'Notes/Lunch.md']);
  });

  it('binds AND tighter than OR: a b OR c is (a b) OR c', () => {
    expect(paths('alpha beta OR fox')).toEqual([
      'Archive/Old plan.md',
      'My Folder/Readme.md',
      'Notes/Fox.md',
      'Work/Tagged.md',
    ]);
    expect(paths('alpha (beta OR fox)')).toEqual(['Archive/Old plan.md', 'Work/Tagged.md']);
  });

  it('ranks a title match above a tag match above a body match', () => {
    const { rows } = search('zebra');
    expect(rows.map((r) => r.path)).toEqual(['Ranking/Title.md', 'Ranking/Tag.md', 'Ranking/Body.md']);
    expect(rows.every((r) => r.score > 0)).toBe(true);
    expect(rows[0]!.score).toBeGreaterThan(rows[1]!.score);
    expect(rows[1]!.score).toBeGreaterThan(rows[2]!.score);
  });

  it('ignores accents both ways', () => {
    expect(paths('cafe')).toEqual(['Notes/Coffee.md', 'Notes/Lunch.md']);
    expect(paths('café')).toEqual(['Notes/Coffee.md', 'Notes/Lunch.md']);
    expect(paths('CAFÉ')).toEqual(['Notes/Coffee.md', 'Notes/Lunch.md']);
  });

  it('finds Chinese, Japanese and Korean words inside longer runs', () => {
    expect(paths('東京')).toEqual(['Travel/東京.md']);
    expect(paths('渋谷')).toEqual(['Travel/東京.md']);
    expect(paths('京都')).toEqual(['Travel/東京.md']);
    expect(paths('大阪')).toEqual([]);
    expect(paths('コーヒー')).toEqual(['Travel/Japan.md']);
    expect(paths('ひらがな')).toEqual(['Travel/Japan.md']);
    expect(paths('서울')).toEqual(['Travel/Seoul.md']);
    expect(paths('음식')).toEqual(['Travel/Seoul.md']);
    expect(paths('"東京 渋谷"')).toEqual([]);
  });

  it('tag: matches the tag and its nested tags, in any case, never a later segment (TAG-21)', () => {
    expect(paths('tag:#Work')).toEqual(['Projects/Plan 2026.md', 'Projects/Sub/Budget.md', 'Work/Tagged.md']);
    expect(paths('tag:work/x')).toEqual(['Work/Tagged.md']);
    expect(paths('tag:WORK/X')).toEqual(['Work/Tagged.md']);
    expect(paths('tag:wor')).toEqual([]);
    expect(paths('tag:x')).toEqual([]);
    expect(paths('tag:myjob')).toEqual(['Work/MyJob.md']);
  });

  it('path: and file: match case-insensitive substrings', () => {
    expect(paths('path:PROJECTS/')).toEqual(['Projects/Plan 2026.md', 'Projects/Sub/Budget.md']);
    expect(paths('path:"my folder"')).toEqual(['My Folder/Readme.md']);
    expect(paths('file:plan')).toEqual(['Archive/Old plan.md', 'Projects/Plan 2026.md']);
    expect(paths('file:projects')).toEqual([]);
    expect(paths('file:"plan 2026.md"')).toEqual(['Projects/Plan 2026.md']);
  });

  it('treats % and _ in a field value literally', () => {
    expect(paths('path:%')).toEqual([]);
    expect(paths('tag:w_rk')).toEqual([]);
  });

  it('combines fields with OR, newest first and unranked', () => {
    const { rows } = search('tag:food OR file:coffee');
    expect(rows.map((r) => r.path)).toEqual(['Notes/Lunch.md', 'Notes/Coffee.md']);
    expect(rows.every((r) => r.score === 0)).toBe(true);
  });

  it('combines fields with text, ranked by the text', () => {
    const { rows } = search('budget path:projects');
    expect(rows.map((r) => r.path)).toEqual(['Projects/Sub/Budget.md', 'Projects/Plan 2026.md']);
    expect(rows[0]!.score).toBeGreaterThan(0);
    expect(paths('alpha -tag:archive')).toEqual(['Work/MyJob.md', 'Work/Tagged.md']);
    expect(paths('-path:projects budget')).toEqual(['Notes/Meeting.md']);
    expect(paths('budget OR tag:travel')).toEqual([
      'Notes/Meeting.md',
      'Projects/Plan 2026.md',
      'Projects/Sub/Budget.md',
      'Travel/東京.md',
    ]);
    expect(paths('tag:work -budget')).toEqual(['Work/Tagged.md']);
    expect(paths('alpha OR -tag:work')).toHaveLength(NOTES.length - 2);
  });

  it('ranks by the plain text and checks a text group with an exclusion inside it in SQL', () => {
    const c = compile('alpha (beta OR -gamma)');
    expect(c.rankMatch).toBe('"alpha"');
    const { rows, total } = search('alpha (beta OR -gamma)');
    expect(rows.map((r) => r.path).sort()).toEqual(['Archive/Old plan.md', 'Work/Tagged.md']);
    expect(total).toBe(2);
    expect(rows.every((r) => r.score > 0)).toBe(true);
  });

  it('counts every match in total, beyond the page', () => {
    const r = search('budget', { limit: 1 });
    expect(r.rows).toHaveLength(1);
    expect(r.total).toBe(3);
    const u = search('path:notes', { limit: 2 });
    expect(u.paths).toEqual(['Notes/Meeting.md', 'Notes/Lunch.md']);
    expect(u.total).toBe(4);
  });

  it('scopes to a folder and its sub-folders, not to a folder with a longer name', () => {
    expect(paths('budget', { folderLower: 'projects' })).toEqual([
      'Projects/Plan 2026.md',
      'Projects/Sub/Budget.md',
    ]);
    expect(paths('budget', { folderLower: 'projects/sub' })).toEqual(['Projects/Sub/Budget.md']);
    expect(paths('budget', { folderLower: 'proj' })).toEqual([]);
    expect(search('budget', { folderLower: 'projects' }).total).toBe(2);
    expect(paths('budget', { folderLower: '' })).toHaveLength(3);
  });

  it('scopes to a tag and its nested tags', () => {
    expect(paths('alpha', { tagLower: 'work' })).toEqual(['Work/Tagged.md']);
    expect(paths('budget', { tagLower: '#work' })).toEqual([
      'Projects/Plan 2026.md',
      'Projects/Sub/Budget.md',
    ]);
    expect(search('alpha OR budget', { tagLower: 'work', folderLower: 'work' }).total).toBe(1);
  });

  it('refuses a tag scope that names no tag', () => {
    for (const tagLower of ['', '#', '/']) {
      expect(() => search('budget', { tagLower })).toThrow(
        expect.objectContaining({ code: 'validation_error' }),
      );
    }
  });

  it('adds the caller’s own condition', () => {
    const extra = { where: 'n.path NOT LIKE ?', params: ['Notes/%'] };
    expect(paths('budget', { extra })).toEqual(['Projects/Plan 2026.md', 'Projects/Sub/Budget.md']);
    expect(paths('tag:food OR file:coffee', { extra })).toEqual([]);
  });

  it('breaks rank ties by newest first', () => {
    const local = openIndex([
      { path: 'a.md', title: 'x', body: 'same words here', mtime: 1 },
      { path: 'b.md', title: 'x', body: 'same words here', mtime: 3 },
      { path: 'c.md', title: 'x', body: 'same words here', mtime: 2 },
    ]);
    const s = searchSql(compile('words'), { limit: 2 });
    const rows = local.prepare(s.sql).all(...s.params) as Row[];
    expect(rows.map((r) => r.path)).toEqual(['b.md', 'c.md']);
    local.close();
  });

  it('runs injection attempts as plain searches and leaves the index intact', () => {
    const attacks = [
      '"\'); DROP TABLE notes; --"',
      "x'; DROP TABLE notes; --",
      'NEAR(a b)',
      'a AND NOT b',
      '^budget',
      '"title:budget"',
      'budget*',
      'x"y',
    ];
    for (const q of attacks) expect(() => search(q)).not.toThrow();
    // Unbalanced, it is refused before any SQL exists.
    expect(() => search("'); DROP TABLE notes; --")).toThrow(
      expect.objectContaining({ code: 'validation_error' }),
    );
    // `title:` is no operator: refused, naming the ones that exist (never an FTS5 column filter);
    // quoted, it is the phrase "title budget".
    expect(() => search('title:budget')).toThrow(expect.objectContaining({ code: 'validation_error' }));
    expect(paths('"title:budget"')).toEqual([]);
    // `budget*` is the word budget, not a prefix query.
    expect(paths('budget*')).toEqual(paths('budget'));
    expect((db.prepare('SELECT COUNT(*) AS c FROM notes').get() as { c: number }).c).toBe(NOTES.length);
  });

  it('runs every query nested to the group limit through FTS5 without overflowing its parser', () => {
    // FTS5's expression parser has a fixed stack: before the limit, `a (b OR (c (d OR …` 17 groups deep
    // failed with "fts5: parser stack overflow" instead of an answer.
    const n = MAX_GROUP_DEPTH;
    const shapes = [
      `a ${'-(b '.repeat(n)}c${')'.repeat(n)}`,
      `a x ${'-(b y '.repeat(n)}c${')'.repeat(n)}`,
      `${'a (b OR '.repeat(n)}c${')'.repeat(n)}`,
      `${'(a OR (b '.repeat(n / 2)}c${'))'.repeat(n / 2)}`,
      `(a b) ${'-((c d) '.repeat(n - 1)}e${')'.repeat(n - 1)}`,
      `${'a OR (b -(c OR '.repeat(n / 2)}d${'))'.repeat(n / 2)}`,
      `${'a (b OR c -('.repeat(n / 2)}d${'))'.repeat(n / 2)}`,
      `a ${'-(path:x b '.repeat(n)}c${')'.repeat(n)}`,
    ];
    for (const q of shapes) expect(() => search(q), q).not.toThrow();
  });

  it('searches a word or phrase with a NUL in it, which FTS5 would read as the end of the query', () => {
    // FTS5 reads its expression as a C string: a NUL ended it early ("unterminated string").
    expect(ftsString('a\u0000b')).toBe('"a b"');
    expect(paths('"alpha\u0000beta"')).toEqual(paths('"alpha beta"'));
    expect(paths('alpha\u0000beta')).toEqual(paths('"alpha beta"'));
    expect(paths('"alpha beta"').length).toBeGreaterThan(0);
  });

  it('refuses a limit that is not a positive integer as a bug', () => {
    expect(() => searchSql(compile('a'), { limit: 0 })).toThrow(/limit/);
    expect(() => searchSql(compile('a'), { limit: 1.5 })).toThrow(/limit/);
  });
});
