import { describe, expect, it } from 'vitest';
import { replaceMarkdownPath, replaceWikilinkPath, rewriteLinks } from '../../src/markdown/link-rewrite.js';
import { countStringWork } from '../helpers/string-work.js';

describe('replaceWikilinkPath', () => {
  it('replaces only the linkpath: subpath, display text, embed and spacing stay', () => {
    expect(replaceWikilinkPath('[[Old]]', 'New')).toBe('[[New]]');
    expect(replaceWikilinkPath('![[Old#^blk|shown]]', 'a/New')).toBe('![[a/New#^blk|shown]]');
    expect(replaceWikilinkPath('[[ Old # H1 # H2 | x ]]', 'New')).toBe('[[ New # H1 # H2 | x ]]');
    expect(replaceWikilinkPath('[[Old\\|alias]]', 'New')).toBe('[[New\\|alias]]');
  });

  it('refuses a linkpath the syntax cannot carry', () => {
    expect(replaceWikilinkPath('[[Old]]', 'C# notes')).toBeNull();
    expect(replaceWikilinkPath('[[Old]]', 'a|b')).toBeNull();
    expect(replaceWikilinkPath('[[Old]]', 'a]]b')).toBeNull();
    expect(replaceWikilinkPath('[[#Heading]]', 'New')).toBeNull();
  });
});

describe('replaceMarkdownPath', () => {
  it('keeps the destination style: percent-encoded, angle brackets, title, image', () => {
    expect(replaceMarkdownPath('[x](Old%20Note.md#Part "t")', 'b/New Note.md')).toBe(
      '[x](b/New%20Note.md#Part "t")',
    );
    expect(replaceMarkdownPath('[x](<Old Note.md>)', 'New Note.md')).toBe('[x](<New Note.md>)');
    expect(replaceMarkdownPath('![i](old.png)', 'img/new (1).png')).toBe('![i](img/new%20%281%29.png)');
    expect(replaceMarkdownPath('[x](Caf%C3%A9.md)', 'Thé.md')).toBe('[x](Th%C3%A9.md)');
    expect(replaceMarkdownPath('[x](Café.md)', 'Thé.md')).toBe('[x](Thé.md)');
    expect(replaceMarkdownPath('[x](a.md)', '50%.md')).toBe('[x](50%25.md)');
  });

  it('refuses a name with # (it would read as a heading)', () => {
    expect(replaceMarkdownPath('[x](a.md)', 'C#.md')).toBeNull();
  });
});

describe('rewriteLinks', () => {
  it('offers every link of body and frontmatter, and splices only the answers', () => {
    const note = [
      '---',
      'up: "[[Old]]"',
      "list: ['[[Old#A]]', '[[Keep]]']",
      'text: "see [[Old]] here"',
      '---',
      'Body [[Old]] `[[Old]]` [m](Old.md) %%[[Old]]%%',
      '```',
      '[[Old]]',
      '```',
      '',
    ].join('\n');
    const seen: string[] = [];
    const r = rewriteLinks(note, (l) => {
      seen.push(`${l.kind}:${l.line}:${l.raw}`);
      return l.linkpath.startsWith('Old') ? (l.kind === 'markdown' ? "It's new.md" : "It's new") : null;
    });
    expect(seen).toEqual([
      'frontmatter:2:[[Old]]',
      'frontmatter:3:[[Old#A]]',
      'frontmatter:3:[[Keep]]',
      'wikilink:6:[[Old]]',
      'markdown:6:[m](Old.md)',
    ]);
    expect(r.text).toBe(
      [
        '---',
        `up: "[[It's new]]"`,
        "list: ['[[It''s new#A]]', '[[Keep]]']",
        'text: "see [[Old]] here"',
        '---',
        "Body [[It's new]] `[[Old]]` [m](It's%20new.md) %%[[Old]]%%",
        '```',
        '[[Old]]',
        '```',
        '',
      ].join('\n'),
    );
    expect(r.edits.map((e) => [e.kind, e.line, e.before, e.after])).toEqual([
      ['frontmatter', 2, '[[Old]]', "[[It's new]]"],
      ['frontmatter', 3, '[[Old#A]]', "[[It's new#A]]"],
      ['wikilink', 6, '[[Old]]', "[[It's new]]"],
      ['markdown', 6, '[m](Old.md)', "[m](It's%20new.md)"],
    ]);
  });

  it('reports links whose syntax cannot hold the answer, and leaves them', () => {
    const r = rewriteLinks('[[Old]] [[Other]]\n', (l) => (l.linkpath === 'Old' ? 'A#B' : null));
    expect(r.text).toBe('[[Old]] [[Other]]\n');
    expect(r.unwritable.map((u) => u.raw)).toEqual(['[[Old]]']);
  });
});

// Issue 25 item 1: the note was copied once per link, so 200k links took minutes and froze the server.
describe('rewriteLinks grows linearly with the links of a note', () => {
  const work = (text: string, budget: number, count?: 'searches') =>
    countStringWork(() => rewriteLinks(text, (l) => (l.linkpath === 't' ? 'x/t' : null)), {
      budget,
      ...(count === undefined ? {} : { count }),
    });

  it('200,000 wikilinks in the body cost about ten times 20,000', () => {
    const small = work('[[t]] '.repeat(20_000), 50_000_000);
    const large = work('[[t]] '.repeat(200_000), 20 * small.work);
    expect(small.result.edits).toHaveLength(20_000);
    expect(large.result.edits).toHaveLength(200_000);
    expect(large.result.text === '[[x/t]] '.repeat(200_000), 'every link rewritten').toBe(true);
    expect(large.work / small.work).toBeLessThan(12);
  });

  it('20,000 frontmatter links cost about ten times 2,000', () => {
    const note = (n: number) => `---\nlinks:\n${'  - "[[t]]"\n'.repeat(n)}---\nbody\n`;
    const small = work(note(2_000), 1_000_000, 'searches');
    const large = work(note(20_000), 20 * small.work, 'searches');
    expect(large.result.edits).toHaveLength(20_000);
    expect(large.result.edits.at(-1)?.line).toBe(20_002);
    expect(
      large.result.text === `---\nlinks:\n${'  - "[[x/t]]"\n'.repeat(20_000)}---\nbody\n`,
      'every link rewritten',
    ).toBe(true);
    expect(large.work / small.work).toBeLessThan(12);
  });
});
