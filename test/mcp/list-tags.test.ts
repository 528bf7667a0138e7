import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FormatName } from '../../src/vault/format-name.js';
import { FORMATS, openTestVaultIn } from '../helpers/formats.js';
import type { TestVault } from '../helpers/vault.js';

/** The format of the vault each test runs on (the suite runs on both, SPEC 11). */
let format: FormatName = 'markdown';
let vault: TestVault | undefined;
afterEach(async () => {
  await vault?.close();
  vault = undefined;
});

async function open(files: Record<string, string>): Promise<TestVault> {
  vault = await openTestVaultIn(format, files);
  return vault;
}

describe.each(FORMATS)('list_tags counts as Obsidian’s Tags view (OBSIDIAN.md §2) (%s vault)', (f) => {
  beforeEach(() => {
    format = f;
  });
  it('a nested tag counts once per note toward itself and each parent; most used first, then by tag (TAG-22)', async () => {
    const v = await open({
      'a.md': '#a/b/c and #a/b/d and #a\n',
      'b.md': '#a/b\n',
      'c.md': '#other\n',
    });
    const r = await v.call('list_tags');
    expect(r.isError).toBe(false);
    expect(r.structured).toEqual({
      tags: [
        { tag: 'a', count: 2 },
        { tag: 'a/b', count: 2 },
        { tag: 'a/b/c', count: 1 },
        { tag: 'a/b/d', count: 1 },
        { tag: 'other', count: 1 },
      ],
      total: 5,
      more: false,
    });
    expect(r.text).toBe(
      '5 tags, most used first:\n- #a (2 notes)\n- #a/b (2 notes)\n- #a/b/c (1 note)\n- #a/b/d (1 note)\n- #other (1 note)',
    );
  });

  it('is case-insensitive and shows the casing most notes use (TAG-20)', async () => {
    const v = await open({ 'a.md': '#Work\n', 'b.md': '#work\n', 'c.md': '#work #WORK\n' });
    expect((await v.call('list_tags')).structured.tags).toEqual([{ tag: 'work', count: 3 }]);
  });

  it('reads frontmatter tags (list or string, # optional) with inline ones; not bad YAML, code or text properties', async () => {
    const v = await open({
      'list.md': '---\ntags: [alpha, "#beta"]\n---\n#gamma\n',
      'string.md': '---\nTags: alpha\n---\n',
      'spaced.md': '---\ntags: "alpha, beta"\n---\n',
      'bad.md': '---\ntags: [delta\n---\n#inline\n',
      'code.md': '`#nope` and\n\n```\n#nope\n```\n',
      'text.md': '---\nnote: "a #hash in text"\n---\nword#notatag (#nor) #1984 #y1984\n',
    });
    expect((await v.call('list_tags')).structured.tags).toEqual([
      { tag: 'alpha', count: 2 },
      { tag: 'beta', count: 1 },
      { tag: 'gamma', count: 1 },
      { tag: 'inline', count: 1 },
      { tag: 'y1984', count: 1 },
    ]);
  });

  it('limit keeps the most used, total still counts every tag, and the text says how to read on', async () => {
    const v = await open({ 'a.md': '#x #y #z\n', 'b.md': '#y\n' });
    const r = await v.call('list_tags', { limit: 1 });
    expect(r.structured).toMatchObject({ tags: [{ tag: 'y', count: 2 }], total: 3, more: true });
    expect(r.text).toBe(
      `3 tags; 1 of them here, most used first:\n- #y (2 notes)\nMore tags follow: call again with cursor "${r.structured.nextCursor}".`,
    );
    expect((await v.call('list_tags', { limit: 0 })).structured.code).toBe('validation_error');
  });

  it('follows writes: a tag added by create_note counts at once', async () => {
    const v = await open({ 'a.md': '#x\n' });
    await v.call('create_note', { name: 'b', content: 'body #x/y\n', tags: ['fresh'] });
    expect((await v.call('list_tags')).structured.tags).toEqual([
      { tag: 'x', count: 2 },
      { tag: 'fresh', count: 1 },
      { tag: 'x/y', count: 1 },
    ]);
  });

  it('an empty vault has no tags', async () => {
    const v = await open({});
    const r = await v.call('list_tags');
    expect(r.structured).toEqual({ tags: [], total: 0, more: false });
    expect(r.text).toBe('No tags in the vault.');
  });
});
