import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FORMATS, openTestVaultIn } from '../helpers/formats.js';
import type { Structured, TestVault } from '../helpers/vault.js';

/** Notes without the search words, so that BM25's document frequencies mean something. */
const FILLER = Object.fromEntries(
  Array.from({ length: 12 }, (_, i) => [
    `filler/f${i}.md`,
    `# Filler ${i}\n\nNothing to see here, just words ${i}.\n`,
  ]),
);

const FILES = {
  ...FILLER,
  'animals/title-hit.md': '---\ntitle: Zebra migration\n---\nA long walk across the plains, every year.\n',
  'animals/tag-hit.md': '---\ntags: [zebra]\n---\nStripes and savannah, a field note.\n',
  'animals/body-hit.md': '# Field day\n\nWe saw one zebra at the waterhole today.\n',
  'words/both.md': 'alpha and beta together\n',
  'words/alpha-only.md': 'only alpha here\n',
  'words/beta-only.md': 'only beta here\n',
  'phrases/ordered.md': 'the quick brown fox jumps\n',
  'phrases/reversed.md': 'the brown quick fox sleeps\n',
  'accents/cafe.md': 'Meeting at the Café de Flore on Monday.\n',
  'accents/plain.md': 'The cafe downstairs is closed.\n',
  'cjk/tokyo.md': '私は東京に住んでいます。\n',
  'cjk/kyoto.md': '京都の寺はきれいです。\n',
  'tags/nested.md': 'Work on #project/apollo continues.\n',
  'tags/top.md': '---\ntags: [project]\n---\nThe project plan.\n',
  'tags/projection.md': 'A #projection of sales.\n',
  '.obsidian/hidden.md': 'zebra hidden in a dot folder\n',
  'many/unused.md': 'x',
  ...Object.fromEntries(
    Array.from({ length: 15 }, (_, i) => [`many/m${i}.md`, `repeated marker word ${i}\n`]),
  ),
};

let vault: TestVault;

async function search(args: Record<string, unknown>): Promise<Structured> {
  const { structured, isError } = await vault.call('search_notes', args);
  expect(isError, JSON.stringify(structured)).toBe(false);
  return structured;
}

function names(result: Structured): string[] {
  return result.results.map((r: { name: string }) => r.name);
}

// The whole suite runs on the same notes in both formats (SPEC 11.4).
describe.each(FORMATS)('search_notes (%s vault)', (format) => {
  beforeAll(async () => {
    vault = await openTestVaultIn(format, FILES);
  });
  afterAll(async () => {
    await vault.close();
  });
  // Markdown only: an HTML note's tags are #tags in its text (SPEC 11.4), so a tag match is a body
  // match too and outranks a title match; the Markdown note here has its tag in the frontmatter.
  it.skipIf(format === 'html')('ranks a title match above a tag match above a body match', async () => {
    const result = await search({ query: 'zebra' });
    expect(names(result)).toEqual(['animals/title-hit.md', 'animals/tag-hit.md', 'animals/body-hit.md']);
    const scores = result.results.map((r: { score: number }) => r.score);
    expect(scores[0]).toBeGreaterThan(scores[1]);
    expect(scores[1]).toBeGreaterThan(scores[2]);
    expect(result.total).toBe(3);
  });

  it('gives each hit its name, title (frontmatter, else first heading, else file name) and an excerpt', async () => {
    const result = await search({ query: 'zebra' });
    const byName = Object.fromEntries(result.results.map((r: { name: string }) => [r.name, r]));
    expect(byName['animals/title-hit.md'].title).toBe('Zebra migration');
    expect(byName['animals/body-hit.md'].title).toBe('Field day');
    expect(byName['animals/tag-hit.md'].title).toBe('tag-hit');
    expect(byName['animals/body-hit.md'].excerpt).toContain('**zebra**');
  });

  it('plain words must all match (AND)', async () => {
    expect(names(await search({ query: 'alpha beta' }))).toEqual(['words/both.md']);
  });

  it('"exact phrase" matches the words in that order only', async () => {
    expect(names(await search({ query: '"quick brown"' }))).toEqual(['phrases/ordered.md']);
    expect(names(await search({ query: '"brown quick"' }))).toEqual(['phrases/reversed.md']);
    expect((await search({ query: 'brown quick' })).total).toBe(2);
  });

  it('-word excludes notes that have it', async () => {
    expect(names(await search({ query: 'alpha -beta' }))).toEqual(['words/alpha-only.md']);
    expect(names(await search({ query: 'fox -"quick brown"' }))).toEqual(['phrases/reversed.md']);
  });

  it('OR matches either side', async () => {
    const result = await search({ query: 'alpha OR beta' });
    expect(names(result).sort()).toEqual(['words/alpha-only.md', 'words/beta-only.md', 'words/both.md']);
    expect(result.total).toBe(3);
  });

  it('ignores accents in both directions and marks the accented word in the excerpt', async () => {
    const plain = await search({ query: 'cafe' });
    expect(names(plain).sort()).toEqual(['accents/cafe.md', 'accents/plain.md']);
    const accented = await search({ query: 'café' });
    expect(names(accented).sort()).toEqual(['accents/cafe.md', 'accents/plain.md']);
    const hit = plain.results.find((r: { name: string }) => r.name === 'accents/cafe.md');
    expect(hit.excerpt).toContain('**Café**');
  });

  it('finds CJK text without spaces, by a word inside a sentence', async () => {
    const tokyo = await search({ query: '東京' });
    expect(names(tokyo)).toEqual(['cjk/tokyo.md']);
    expect(tokyo.results[0].excerpt).toContain('東京');
    // 京都 must not match 東京 (the characters are in another order).
    expect(names(await search({ query: '京都' }))).toEqual(['cjk/kyoto.md']);
  });

  it('tag:#name matches the tag and its nested tags, not a longer tag', async () => {
    const result = await search({ query: 'tag:#project' });
    expect(names(result).sort()).toEqual(['tags/nested.md', 'tags/top.md']);
    expect(result.total).toBe(2);
    expect(names(await search({ query: 'tag:project/apollo' }))).toEqual(['tags/nested.md']);
  });

  it('the folder parameter includes sub-folders; the tag parameter works like tag:', async () => {
    expect(names(await search({ query: 'alpha', folder: 'words' })).sort()).toEqual([
      'words/alpha-only.md',
      'words/both.md',
    ]);
    expect(names(await search({ query: 'alpha', folder: 'phrases' }))).toEqual([]);
    const tagged = await search({ query: 'plan OR continues', tag: '#project' });
    expect(names(tagged).sort()).toEqual(['tags/nested.md', 'tags/top.md']);
    expect(names(await search({ query: 'zebra', tag: 'zebra' }))).toEqual(['animals/tag-hit.md']);
  });

  it('path: and file: match the vault-relative path and the file name', async () => {
    expect(names(await search({ query: 'path:phrases' })).sort()).toEqual([
      'phrases/ordered.md',
      'phrases/reversed.md',
    ]);
    expect(names(await search({ query: 'file:ordered' }))).toEqual(['phrases/ordered.md']);
    expect(names(await search({ query: 'fox file:reversed' }))).toEqual(['phrases/reversed.md']);
  });

  it('total counts every match while max_results caps the results', async () => {
    const result = await search({ query: 'marker', max_results: 5 });
    expect(result.results.length).toBe(5);
    expect(result.total).toBe(15);
    expect((await search({ query: 'marker' })).results.length).toBe(10);
    expect((await search({ query: 'marker', max_results: 50 })).results.length).toBe(15);
  });

  it('never searches hidden folders', async () => {
    const result = await search({ query: 'hidden dot folder' });
    expect(result.total).toBe(0);
    expect(result.results).toEqual([]);
  });

  it('a query with no match gives total 0, not an error', async () => {
    const result = await search({ query: 'xylophone' });
    expect(result).toEqual({ results: [], total: 0, more: false });
  });

  it('a malformed query is a validation_error that says what and where', async () => {
    for (const [query, position] of [
      ['"unclosed phrase', 1],
      ['zebra ("open group', 8],
    ] as const) {
      const { structured, isError } = await vault.call('search_notes', { query });
      expect(isError).toBe(true);
      expect(structured.code).toBe('validation_error');
      expect(structured.message).toContain('position');
      expect(structured.position).toBe(position);
    }
    const paren = await vault.call('search_notes', { query: '(alpha OR beta' });
    expect(paren.structured.code).toBe('validation_error');
    expect(typeof paren.structured.position).toBe('number');
  });

  it('max_results over 50 and an empty query are refused by the input schema', async () => {
    for (const args of [{ query: 'x', max_results: 51 }, { query: '' }, { query: 'x', max_results: '5' }]) {
      const { structured, isError } = await vault.call('search_notes', args);
      expect(isError).toBe(true);
      expect(structured.code).toBe('validation_error');
    }
  });

  it('sees a note written through the tools at once', async () => {
    await vault.call('create_note', { name: 'fresh/new', content: 'a brand new quokka\n' });
    expect(names(await search({ query: 'quokka' }))).toEqual(['fresh/new.md']);
    await vault.call('update_note', { name: 'fresh/new', content: 'now about a wombat\n' });
    expect((await search({ query: 'quokka' })).total).toBe(0);
    expect(names(await search({ query: 'wombat' }))).toEqual(['fresh/new.md']);
    await vault.call('delete_note', { name: 'fresh/new' });
    expect((await search({ query: 'wombat' })).total).toBe(0);
  });
});
