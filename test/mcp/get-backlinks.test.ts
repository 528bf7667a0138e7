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

describe.each(FORMATS)('get_backlinks (%s vault)', (f) => {
  beforeEach(() => {
    format = f;
  });
  // Markdown only: a frontmatter link has no counterpart in an HTML note (SPEC 11.4); html-vault.test.ts counts <a href> and wikilinks.
  it.skipIf(f === 'html')(
    'counts every link, embed and frontmatter link from each note; most first, then by name; no self-links (LNK-25)',
    async () => {
      const v = await open({
        'Target.md': 'self: [[Target]] [[#Top]]\n',
        'b.md': '[[Target]] ![[Target]] [[target#x|y]]\n',
        'a.md': '---\nup: "[[Target]]"\n---\n[[Target]]\n',
        'c.md': '[see](Target.md)\n',
        'd.md': '`[[Target]]` [[Other]] up: [[Target]] in code:\n```\n[[Target]]\n```\n',
      });
      const r = await v.call('get_backlinks', { name: 'target' });
      expect(r.isError).toBe(false);
      expect(r.structured).toMatchObject({
        name: 'Target.md',
        backlinks: [
          { name: 'b.md', count: 3 },
          { name: 'a.md', count: 2 },
          { name: 'c.md', count: 1 },
          { name: 'd.md', count: 1 },
        ],
        total: 4,
        more: false,
      });
      expect(r.text).toBe(
        '4 notes link to Target.md:\n- b.md (3 links)\n- a.md (2 links)\n- c.md (1 link)\n- d.md (1 link)',
      );
    },
  );

  it('only links resolving to this very note count, not links to another note of the same name', async () => {
    const v = await open({
      'Note.md': 'root',
      'a/Note.md': 'in a',
      'a/src.md': '[[Note]] [[a/Note]]\n',
      'b/src.md': '[[Note]]\n',
    });
    expect((await v.call('get_backlinks', { name: 'Note.md' })).structured.backlinks).toMatchObject([
      { name: 'a/src.md', count: 1 },
      { name: 'b/src.md', count: 1 },
    ]);
    expect((await v.call('get_backlinks', { name: 'a/Note' })).structured.backlinks).toMatchObject([
      { name: 'a/src.md', count: 1 },
    ]);
  });

  // Markdown only: aliases are a frontmatter property, which HTML notes do not have (SPEC 11.4).
  it.skipIf(f === 'html')('links through an alias count once no file has that name', async () => {
    const v = await open({
      'Artificial Intelligence.md': '---\naliases: [AI]\n---\n',
      'src.md': '[[AI]] [[Artificial Intelligence|AI]]\n',
    });
    expect(
      (await v.call('get_backlinks', { name: 'Artificial Intelligence' })).structured.backlinks,
    ).toMatchObject([{ name: 'src.md', count: 2 }]);
  });

  it('follows writes made through the tools', async () => {
    const v = await open({ 'T.md': 'x', 'src.md': '[[T]]\n' });
    expect((await v.call('get_backlinks', { name: 'T' })).structured.backlinks).toMatchObject([
      { name: 'src.md', count: 1 },
    ]);
    expect((await v.call('update_note', { name: 'src', content: 'no more links\n' })).isError).toBe(false);
    const none = await v.call('get_backlinks', { name: 'T' });
    expect(none.structured.backlinks).toMatchObject([]);
    expect(none.text).toBe('No notes link to T.md.');
    await v.call('create_note', { name: 'later', content: '[[T]] ![[T]]\n' });
    expect((await v.call('get_backlinks', { name: 'T' })).structured.backlinks).toMatchObject([
      { name: 'later.md', count: 2 },
    ]);
  });

  it('a missing note is not_found; a shared bare name is ambiguous', async () => {
    const v = await open({ 'a/Plan.md': 'x', 'b/Plan.md': 'x' });
    expect((await v.call('get_backlinks', { name: 'Nope' })).structured.code).toBe('not_found');
    const r = await v.call('get_backlinks', { name: 'plan' });
    expect(r.structured.code).toBe('ambiguous');
    expect(r.structured.candidates).toEqual(['a/Plan.md', 'b/Plan.md']);
  });

  it('pages: total says how many in all, and the cursors walk the whole list once, in order', async () => {
    const files: Record<string, string> = { 'Hub.md': 'hub' };
    // 7 notes with 3 links, 5 with 2, 9 with 1: 21 linking notes.
    for (let i = 0; i < 21; i++) {
      const links = i < 7 ? 3 : i < 12 ? 2 : 1;
      files[`src/n${String(i).padStart(2, '0')}.md`] = '[[Hub]] '.repeat(links);
    }
    const v = await open(files);
    const all = (await v.call('get_backlinks', { name: 'Hub' })).structured;
    expect(all.total).toBe(21);
    expect(all.nextCursor).toBeUndefined();
    const seen: { name: string; count: number }[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const r = await v.call('get_backlinks', { name: 'Hub', limit: 4, ...(cursor ? { cursor } : {}) });
      expect(r.isError).toBe(false);
      expect(r.structured.total).toBe(21);
      seen.push(...r.structured.backlinks);
      cursor = r.structured.nextCursor;
      if (cursor) expect(r.text).toContain(`21 notes link to Hub.md; 4 of them here:`);
      pages++;
    } while (cursor);
    expect(pages).toBe(6);
    expect(seen).toEqual(all.backlinks);
  });

  it('a page boundary stays put when a note before it gains or loses links', async () => {
    const v = await open({
      'Hub.md': 'hub',
      'a.md': '[[Hub]] [[Hub]] [[Hub]]',
      'b.md': '[[Hub]] [[Hub]]',
      'c.md': '[[Hub]]',
      'd.md': '[[Hub]]',
    });
    const first = await v.call('get_backlinks', { name: 'Hub', limit: 2 });
    expect(first.structured.backlinks.map((b: { name: string }) => b.name)).toEqual(['a.md', 'b.md']);
    await v.call('update_note', { name: 'a.md', content: 'no links now' });
    const next = await v.call('get_backlinks', {
      name: 'Hub',
      limit: 2,
      cursor: first.structured.nextCursor,
    });
    expect(next.structured.backlinks.map((b: { name: string }) => b.name)).toEqual(['c.md', 'd.md']);
    expect(next.structured.total).toBe(3);
  });

  it('a limit outside 1–5000 or not a whole number is refused, saying which argument', async () => {
    const v = await open({ 'Hub.md': 'hub', 'a.md': '[[Hub]]' });
    for (const limit of [0, 5001, 2.5]) {
      const r = await v.call('get_backlinks', { name: 'Hub', limit });
      expect(r.isError).toBe(true);
      expect(r.text).toMatch(/limit/);
    }
    expect((await v.call('get_backlinks', { name: 'Hub', limit: 5000 })).structured.total).toBe(1);
  });

  it('a cursor this server did not give out is a clear validation error', async () => {
    const v = await open({ 'Hub.md': 'hub', 'a.md': '[[Hub]]' });
    const r = await v.call('get_backlinks', { name: 'Hub', cursor: 'not-a-cursor' });
    expect(r.isError).toBe(true);
    expect(r.structured).toMatchObject({ code: 'validation_error' });
    expect(r.text).toMatch(/cursor is not one this server gave out/);
  });
});
