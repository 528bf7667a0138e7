/**
 * Issue 26, the differential test: a fixed vault and a fixed set of queries covering every operator of
 * Obsidian's search and their combinations, each with the notes Obsidian's documented rules give,
 * worked out by hand from the texts below (not by running this code), as docs/search.md reads those
 * rules: words are whole words, case and accents ignored, in the title, tags and body; line:, block:
 * and section: look inside one line, block (paragraph, list, quote, fenced code) or section (heading
 * to next heading of any level) of the body; task…: inside one task; [property:value] over the
 * frontmatter values. `private/` is hidden by policy, and its note would match most of these queries:
 * it must never be in an answer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestVault, type TestVault } from '../helpers/vault.js';

/** Each note with its line numbers in the comment, so the expected lines can be checked by eye. */
const NOTES: Record<string, string> = {
  // 1 ---, 2-6 properties, 7 ---, 8 # Bread, 10-11 paragraph, 13 ## Bake, 15 paragraph, 16-17 tasks
  'kitchen/bread.md':
    '---\ntags: [food, food/baking]\nstatus: draft\nservings: 4\nrating: 4.5\naliases: [Loaf]\n---\n# Bread\n\nMix flour and water.\nAdd salt and yeast.\n\n## Bake\n\nBake the dough at 220 degrees.\n- [ ] buy flour\n- [x] call the baker\n',
  // 6 # Soup, 8-9 paragraph, 11-12 tasks ([-] counts as done, TSK-02)
  'kitchen/soup.md':
    '---\ntags: [food]\nstatus: published\nservings: 2\n---\n# Soup\n\nChop the onion.\nMix the flour later with butter.\n\n- [ ] buy onion\n- [-] cancel the order\n',
  // 1 # Animals, 3-4 paragraph, 6 paragraph, 8 ## Birds, 10 paragraph
  'pets/animals.md':
    '# Animals\n\nThe dog sleeps.\nThe cat plays.\n\nThe dog and the cat share a bowl.\n\n## Birds\n\nA parrot talks.\n',
  // 2 status: null, 3 owner: (empty), 5 # Dogs, 7 dog, 9 ## Cats, 11 cat
  'pets/dogs.md': '---\nstatus: null\nowner:\n---\n# Dogs\n\nThe dog barks.\n\n## Cats\n\nThe cat sleeps.\n',
  // 6 # Meeting Notes, 8-9 paragraph, 11-12 tasks
  'work/Meeting Notes.md':
    '---\ntags: [work]\nattendees: [Ann, Bob]\ndate: 2024-03-15\n---\n# Meeting Notes\n\nDiscussed the Budget with Ann.\nThe budget review is next week.\n\n- [ ] email Bob about the budget\n- [x] send the agenda\n',
  // 1 # Daily, 3-4 paragraph, 5-6 tasks (a list right under a paragraph starts a block of its own)
  'work/2024-01-05 Daily.md':
    '# Daily\n\nCall HappyCat support at 10:30.\nTicket 2024-01-05 closed.\n- [x] call support\n- [ ] write report\n',
  'archive/old.md':
    '---\ntags: [food/baking, archive]\nstatus: draft\n---\n# Old recipe\n\nMix flour with water and salt.\n',
  'café/crème.md': '# Crème brûlée\n\nNaïve café notes.\n',
  // 1 # Snippets, 3-7 one fenced block (a blank line inside), 9 paragraph
  'code/snippets.md':
    '# Snippets\n\n```js\nconst dog = 1;\n\nconst cat = 2;\n```\n\nPlain text with dog only.\n',
  'projects/Plan.md':
    '---\ntags: [project/alpha]\npriority: 2\ndue: 2024-06-01\n---\n# Plan\n\nProject kickoff with the team.\nRisks: budget and time.\n',
  // Hidden: matches flour, dog cat, [status:draft], task:flour, line:(mix flour)…
  'private/secret.md':
    '---\nstatus: draft\nservings: 9\n---\n# Secret\n\nMix flour secretly. The dog and cat. Budget 2024-01-05.\n- [ ] buy flour\n- [x] call the baker\n',
};

const B = 'kitchen/bread.md';
const S = 'kitchen/soup.md';
const A = 'pets/animals.md';
const D = 'pets/dogs.md';
const M = 'work/Meeting Notes.md';
const Y = 'work/2024-01-05 Daily.md';
const O = 'archive/old.md';
const C = 'café/crème.md';
const K = 'code/snippets.md';
const P = 'projects/Plan.md';
const ALL_VISIBLE = [B, S, A, D, M, Y, O, C, K, P];

/** Query → the notes Obsidian's rules give, worked out by hand. */
const EXPECTED: [string, string[]][] = [
  // Words, phrases, AND, OR, exclusion, accents
  ['flour', [B, S, O]],
  ['flour salt', [B, O]],
  ['dog cat', [A, D, K]],
  ['budget', [M, P]],
  ['budget -review', [P]],
  ['"budget review"', [M]],
  ['"review budget"', []],
  ['(onion OR parrot) -cat', [S]],
  ['"Meeting Notes"', [M]],
  ['café', [C]],
  ['cafe', [C]],
  ['food', [B, S, O]],
  // line:
  ['line:(mix flour)', [B, S, O]],
  ['LINE:(mix flour)', [B, S, O]],
  ['line:(flour water)', [B, O]],
  ['line:(flour salt)', [O]],
  ['line:(dog cat)', [A]],
  ['line:("the dog" cat)', [A]],
  ['line:(dog -cat)', [A, D, K]],
  ['line:(naive cafe)', [C]],
  ['flour -line:(dog)', [B, S, O]],
  ['line:(/\\d{2}:\\d{2}/ support)', [Y]],
  // block:
  ['block:(flour salt)', [B, O]],
  ['block:(dog cat)', [A, K]],
  ['block:(bake degrees)', [B]],
  ['block:(degrees baker)', []],
  ['block:(buy baker)', [B]],
  // section:
  ['section:(dog cat)', [A, K]],
  ['section:(birds parrot)', [A]],
  ['section:(animals parrot)', []],
  ['-section:(dog cat) dog', [D]],
  ['section:(bake dough flour)', [B]],
  ['section:(bread bake)', []],
  ['section:(section:(parrot))', [A]],
  ['section:(animals line:(dog cat))', [A]],
  ['section:(birds line:(dog cat))', []],
  // task:, task-todo:, task-done:
  ['task:flour', [B]],
  ['task-todo:flour', [B]],
  ['task-done:flour', []],
  ['task-done:call', [B, Y]],
  ['Task-Done:call', [B, Y]],
  ['task-todo:call', []],
  ['task:call', [B, Y]],
  ['task:""', [B, S, M, Y]],
  ['task-done:""', [B, S, M, Y]],
  ['task-todo:""', [B, S, M, Y]],
  ['task-done:cancel', [S]],
  ['task-todo:cancel', []],
  ['task:(email budget)', [M]],
  ['task:(email agenda)', []],
  ['task:(buy OR send)', [B, S, M]],
  ['task:/^call/', [B, Y]],
  // Properties
  ['[status]', [B, S, D, O]],
  ['[status:draft]', [B, O]],
  ['[STATUS:DRAFT]', [B, O]],
  ['[status:draft OR published]', [B, S, O]],
  ['[status:(draft OR published)]', [B, S, O]],
  ['[status:null]', [D]],
  ['[owner:null]', [D]],
  ['[owner]', [D]],
  ['[servings:>3]', [B]],
  ['[servings:<3]', [S]],
  ['[servings:>=2]', [B, S]],
  ['[rating:>4]', [B]],
  ['[attendees:bob]', [M]],
  ['[attendees:(ann bob)]', [M]],
  ['[attendees:-carol]', [M]],
  ['[date:<2024-06-01]', [M]],
  ['[due:>2024-01-01]', [P]],
  ['[aliases:loaf]', [B]],
  ['[/^serv/]', [B, S]],
  ['[/^(owner|priority)$/]', [D, P]],
  ['-[status] dog', [A, K]],
  // Regular expressions
  ['/\\d{4}-\\d{2}-\\d{2}/', [Y]],
  ['path:/\\d{4}-\\d{2}/', [Y]],
  ['file:/^\\d{4}/', [Y]],
  ['/happycat/', [Y]],
  ['match-case:/happycat/', []],
  ['content:/^# /', ALL_VISIBLE],
  ['/(a|aa)*b/ flour', [B, S, O]],
  // match-case:, ignore-case:, content:
  ['match-case:HappyCat', [Y]],
  ['match-case:happycat', []],
  ['match-case:Budget', [M]],
  ['ignore-case:BUDGET', [M, P]],
  ['match-case:(Budget review)', [M]],
  ['match-case:café', [C]],
  ['match-case:cafe', []],
  ['content:bread', [B]],
  ['content:food', []],
  // tag:, file:, path:
  ['tag:food', [B, S, O]],
  ['tag:#food/baking', [B, O]],
  ['tag:baking', []],
  ['tag:(work OR archive)', [M, O]],
  ['tag:project', [P]],
  ['tag:/^proj/', [P]],
  ['tag:/baking$/', [B, O]],
  ['-tag:food tag:work', [M]],
  ['file:bread', [B]],
  ['file:.md tag:work', [M]],
  ['path:kitchen', [B, S]],
  ['path:kitchen -[status:draft]', [S]],
  // Combinations
  ['path:(kitchen OR pets) line:(dog cat)', [A]],
  ['[status:draft] line:(mix flour)', [B, O]],
  ['[status:draft] OR task-done:cancel', [B, S, O]],
  ['task:flour OR [servings:<3]', [B, S]],
  ['(tag:food OR tag:work) task-todo:buy', [B, S]],
];

let vault: TestVault;

beforeAll(async () => {
  vault = await openTestVault({ ...NOTES, '.noted/mcp-policy.yaml': 'folders:\n  private: hidden\n' });
});
afterAll(async () => {
  await vault.close();
});

async function names(query: string): Promise<string[]> {
  const r = await vault.call('search_notes', { query, max_results: 50 });
  expect(r.isError, `${query}: ${r.text}`).toBeFalsy();
  expect(r.structured.total, query).toBe(r.structured.results.length);
  return (r.structured.results as { name: string }[]).map((h) => h.name).sort();
}

describe('search_notes answers as Obsidian would (issue 26, differential)', () => {
  it('holds at least 60 queries over every operator', () => {
    expect(EXPECTED.length).toBeGreaterThanOrEqual(60);
    const ops = [
      'line:',
      'block:',
      'section:',
      'task:',
      'task-todo:',
      'task-done:',
      'content:',
      'match-case:',
      'ignore-case:',
      'tag:',
      'file:',
      'path:',
      '[',
      '/',
    ];
    for (const op of ops)
      expect(
        EXPECTED.some(([q]) => q.toLowerCase().includes(op)),
        op,
      ).toBe(true);
  });

  for (const [query, expected] of EXPECTED) {
    it(`${query} → ${expected.length === 0 ? 'nothing' : expected.join(', ')}`, async () => {
      expect(await names(query)).toEqual([...expected].sort());
    });
  }
});

describe('where each hit matched', () => {
  async function hit(query: string, name: string) {
    const r = await vault.call('search_notes', { query, max_results: 50 });
    return (
      r.structured.results as { name: string; matched: string[]; lines?: unknown[]; excerpt: string }[]
    ).find((h) => h.name === name)!;
  }

  it('gives the line numbers of line:, block:, section: and task…: matches, in the file', async () => {
    expect((await hit('line:(mix flour)', B)).lines).toEqual([{ scope: 'line', from: 10, to: 10 }]);
    expect((await hit('block:(flour salt)', B)).lines).toEqual([{ scope: 'block', from: 10, to: 11 }]);
    expect((await hit('section:(bake dough)', B)).lines).toEqual([{ scope: 'section', from: 13, to: 17 }]);
    expect((await hit('task-done:call', B)).lines).toEqual([{ scope: 'task', from: 17, to: 17 }]);
    expect((await hit('task:""', M)).lines).toEqual([
      { scope: 'task', from: 11, to: 11 },
      { scope: 'task', from: 12, to: 12 },
    ]);
    expect((await hit('block:(dog cat)', K)).lines).toEqual([{ scope: 'block', from: 3, to: 7 }]);
  });

  it('names the places: title, tags, body, file, path, properties, tasks', async () => {
    expect((await hit('bread', B)).matched).toEqual(['title', 'body']);
    expect((await hit('food', S)).matched).toEqual(['tags']);
    expect((await hit('file:bread [status:draft]', B)).matched).toEqual(['file', 'property:status']);
    expect((await hit('path:kitchen task:flour', B)).matched).toEqual(['path', 'task']);
    expect((await hit('[/^serv/]', B)).matched).toEqual(['property:servings']);
    // An excluded term is not where a hit matched.
    expect((await hit('flour -line:(dog)', B)).matched).toEqual(['body']);
  });

  it('marks what a regex matched in the excerpt', async () => {
    expect((await hit('/happy\\w+/', Y)).excerpt).toContain('**HappyCat**');
    expect((await hit('line:(/\\d{2}:\\d{2}/ support)', Y)).excerpt).toBe(
      'Call HappyCat **support** at **10:30**.',
    );
  });

  it('takes the excerpt from the first place that matched', async () => {
    expect((await hit('line:(mix flour)', B)).excerpt).toBe('**Mix** **flour** and water.');
    expect((await hit('task-done:call', B)).excerpt).toBe('**call** the baker');
  });
});

describe('pages of a search', () => {
  it('pages through every hit once with cursor and nextCursor, total counting them all', async () => {
    for (const query of ['flour OR dog OR budget', 'content:/^# /', '[status] OR task:""']) {
      const all = await names(query);
      const seen: string[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < 20; page++) {
        const r = await vault.call('search_notes', { query, max_results: 3, ...(cursor ? { cursor } : {}) });
        expect(r.structured.total).toBe(all.length);
        seen.push(...(r.structured.results as { name: string }[]).map((h) => h.name));
        expect(r.structured.more).toBe(r.structured.nextCursor !== undefined);
        cursor = r.structured.nextCursor;
        if (!cursor) break;
      }
      expect([...seen].sort(), query).toEqual(all);
      expect(new Set(seen).size).toBe(seen.length);
    }
  });

  it('refuses a cursor given with another query', async () => {
    const first = await vault.call('search_notes', { query: 'flour', max_results: 1 });
    const r = await vault.call('search_notes', { query: 'dog', cursor: first.structured.nextCursor });
    expect(r.structured.code).toBe('validation_error');
    expect(r.structured.message).toContain('same query');
  });
});

describe('malformed operator queries say what is wrong', () => {
  for (const [query, says] of [
    ['titel:x', 'Did you mean file: or [title]?'],
    ['[servngs:>3]', ''],
    ['line:', 'has no value'],
    ['line: (a b)', 'has no value'],
    ['[status', 'never closed'],
    ['[]', 'names no property'],
    ['[status:]', 'nothing after the colon'],
    ['/(?=a)b/', 'lookaround'],
    ['/a\\1/', 'Backreferences'],
    ['line:(file:x)', 'cannot stand inside line:'],
    ['[status:line:(a)]', 'inside a property value'],
    ['line:([status])', 'cannot stand inside'],
    ['a ""', 'Empty quotes'],
  ] as const) {
    it(`${query}`, async () => {
      const r = await vault.call('search_notes', { query });
      if (query === '[servngs:>3]') {
        // A property no note has is no error: it matches nothing, as in Obsidian.
        expect(r.structured.total).toBe(0);
        return;
      }
      expect(r.isError).toBe(true);
      expect(r.structured.code).toBe('validation_error');
      expect(r.structured.message).toContain(says);
    });
  }

  it('never suggests a property only hidden notes have', async () => {
    const r = await vault.call('search_notes', { query: 'servingz:3' });
    // servings is held by visible notes: suggested; a name only the hidden note holds never is.
    expect(r.structured.message).toContain('[servings]');
    const hiddenOnly = await openTestVault({
      'open/a.md': 'text\n',
      'private/b.md': '---\nsecretkey: 1\n---\ntext\n',
      '.noted/mcp-policy.yaml': 'folders:\n  private: hidden\n',
    });
    try {
      const refused = await hiddenOnly.call('search_notes', { query: 'secretkez:1' });
      expect(refused.structured.code).toBe('validation_error');
      expect(refused.structured.message).not.toContain('secretkey');
    } finally {
      await hiddenOnly.close();
    }
  });
});
