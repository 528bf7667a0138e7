import { describe, expect, it } from 'vitest';
import { frontmatterAliases, frontmatterLinks } from '../../src/markdown/frontmatter/fields.js';
import { type ScannedLink, scanBody } from '../../src/markdown/scan.js';

const linksOf = (body: string): ScannedLink[] => scanBody(body).links;
const one = (body: string): ScannedLink => {
  const links = linksOf(body);
  expect(links).toHaveLength(1);
  return links[0] as ScannedLink;
};

describe('wikilinks (LNK-06, LNK-08, LNK-09)', () => {
  it('LNK-08: [[Note]] gives linkpath, raw text, kind and line', () => {
    expect(one('x\nsee [[Three laws of motion]] here')).toMatchObject({
      raw: '[[Three laws of motion]]',
      linkpath: 'Three laws of motion',
      heading: null,
      block: null,
      alias: null,
      embed: false,
      kind: 'wikilink',
      line: 2,
    });
  });

  it('start and end are offsets of raw in the body', () => {
    const body = 'ab\ncd [[X|y]] e';
    const link = one(body);
    expect(body.slice(link.start, link.end)).toBe(link.raw);
  });

  it('LNK-06: [[Note#Heading]], [[Note#H1#H2]] and [[Note#^id]] split into heading and block', () => {
    expect(one('[[Note#Heading]]')).toMatchObject({ linkpath: 'Note', heading: 'Heading', block: null });
    expect(one('[[Note#H1#H2]]')).toMatchObject({ linkpath: 'Note', heading: 'H1#H2', block: null });
    expect(one('[[Note#^blk-1]]')).toMatchObject({ linkpath: 'Note', heading: null, block: 'blk-1' });
  });

  it('LNK-09: an empty subpath ([[Note#]]) gives no heading; levels are trimmed and empty ones dropped', () => {
    expect(one('[[Note#]]')).toMatchObject({ linkpath: 'Note', heading: null, block: null });
    expect(one('[[Note# H1 ## H2 ]]').heading).toBe('H1#H2');
  });

  it('LNK-09: [[#Heading]] and [[#^id]] have an empty linkpath', () => {
    expect(one('[[#Heading]]')).toMatchObject({ linkpath: '', heading: 'Heading' });
    expect(one('[[#^abc]]')).toMatchObject({ linkpath: '', block: 'abc' });
  });

  it('LNK-08: the inner text is trimmed and split at the first | after index 0, both sides trimmed', () => {
    expect(one('[[ Note#Details | Section | name ]]')).toMatchObject({
      linkpath: 'Note',
      heading: 'Details',
      alias: 'Section | name',
    });
  });

  it('LNK-08: a trailing \\ on the target is removed (table escape [[Note\\|alias]])', () => {
    expect(one('| [[Note\\|alias]] |')).toMatchObject({ linkpath: 'Note', alias: 'alias' });
  });

  it('LNK-08: NBSP in the target becomes a space and the target is NFC-normalised', () => {
    expect(one('[[My\u00a0Note]]').linkpath).toBe('My Note');
    expect(one('[[Cafe\u0301]]').linkpath).toBe('Caf\u00e9');
  });

  it('LNK-08: the content runs lazily to the first ]] and cannot span lines', () => {
    expect(one('[[a]]b]]').linkpath).toBe('a');
    expect(linksOf('[[split\nline]]')).toEqual([]);
  });

  it('LNK-08: a wikilink cannot contain [[; the inner one is the link', () => {
    expect(one('[[outer [[inner]]').linkpath).toBe('inner');
  });

  it('LNK-08: empty [[]] is not a link', () => {
    expect(linksOf('[[]] and [[ ]]')).toEqual([]);
  });

  it('LNK-25: three links to one note are three entries', () => {
    expect(linksOf('[[Foo]] [[Foo]]\n[[foo]]')).toHaveLength(3);
  });
});

describe('embeds (LNK-07)', () => {
  it('LNK-07: ![[Note]] and ![[Note#Heading]] are embeds with raw including !', () => {
    expect(one('![[Note#Intro]]')).toMatchObject({
      raw: '![[Note#Intro]]',
      linkpath: 'Note',
      heading: 'Intro',
      embed: true,
    });
  });

  it('LNK-07: for a non-Markdown embed the part after | is a size, so alias is null', () => {
    expect(one('![[img.png|100x145]]')).toMatchObject({ linkpath: 'img.png', alias: null, embed: true });
    expect(one('![[img.png|100]]').alias).toBeNull();
  });

  it('LNK-07: a note embed keeps its alias; a plain link to an image keeps it too', () => {
    expect(one('![[Note|Shown]]').alias).toBe('Shown');
    expect(one('[[img.png|Photo]]').alias).toBe('Photo');
  });

  it('LNK-07: ![[Doc.pdf#page=3]] keeps the subpath as a heading', () => {
    expect(one('![[Doc.pdf#page=3]]')).toMatchObject({ linkpath: 'Doc.pdf', heading: 'page=3', embed: true });
  });
});

describe('Markdown links (LNK-01, LNK-03)', () => {
  it('LNK-01: [text](dest) is a link with the text as alias', () => {
    expect(one('[Three laws](Three%20laws%20of%20motion.md)')).toMatchObject({
      raw: '[Three laws](Three%20laws%20of%20motion.md)',
      linkpath: 'Three laws of motion.md',
      alias: 'Three laws',
      embed: false,
      kind: 'markdown',
    });
  });

  it('LNK-03: %20 is decoded, %23 is not (decodeURI keeps reserved escapes)', () => {
    expect(one('[x](Folder/My%20Note.md)').linkpath).toBe('Folder/My Note.md');
    expect(one('[x](C%23.md)').linkpath).toBe('C%23.md');
  });

  it('LNK-03: a malformed escape keeps the raw text', () => {
    expect(one('[x](50%.md)').linkpath).toBe('50%.md');
  });

  it('LNK-03: a <…> destination may hold spaces; an unencoded space without <…> is no link', () => {
    expect(one('[x](<My Note.md>)').linkpath).toBe('My Note.md');
    expect(linksOf('[x](My Note.md)')).toEqual([]);
  });

  it('LNK-03: an optional title after the destination is ignored', () => {
    expect(one('[x](Note.md "The title")').linkpath).toBe('Note.md');
    expect(one("[x](<My Note.md> 'title')").linkpath).toBe('My Note.md');
  });

  it('LNK-06: a Markdown link subpath is split: [Section](Example.md#Details)', () => {
    expect(one('[Section name](Example.md#Details)')).toMatchObject({
      linkpath: 'Example.md',
      heading: 'Details',
    });
    expect(one('[b](Example.md#^blk)')).toMatchObject({ linkpath: 'Example.md', block: 'blk' });
  });

  it('LNK-09: a fragment-only destination [x](#Heading) links to the same note, like [[#Heading]]', () => {
    expect(one('[x](#Some%20Heading)')).toMatchObject({ linkpath: '', heading: 'Some Heading' });
  });

  it('LNK-03: destinations with a URI scheme are external and ignored', () => {
    const body =
      '[a](https://x.com/a.md) [b](mailto:me@x.com) [c](obsidian://open?vault=x) ![d](http://x/y.png) [e](//cdn/x)';
    expect(linksOf(body)).toEqual([]);
  });

  it('![alt](dest) is an embed of kind markdown', () => {
    expect(one('![A photo](img/Photo%201.png)')).toMatchObject({
      raw: '![A photo](img/Photo%201.png)',
      linkpath: 'img/Photo 1.png',
      alias: 'A photo',
      embed: true,
      kind: 'markdown',
    });
  });

  it('balanced parentheses in a destination are part of it', () => {
    expect(one('[x](Note%20(draft).md)').linkpath).toBe('Note (draft).md');
  });

  it('[text] with no (dest) and an empty () are not links', () => {
    expect(linksOf('[text] and [x]()')).toEqual([]);
  });
});

describe('where links are not (LNK-10)', () => {
  it('LNK-10: links in fenced code are ignored', () => {
    expect(linksOf('```\n[[InFence]] [x](a.md)\n```\n[[After]]').map((l) => l.linkpath)).toEqual(['After']);
  });

  it('LNK-10: links in inline code spans are ignored, with backtick runs matched by length', () => {
    expect(linksOf('`[[A]]` ``[[B]] ` [[C]]`` [[D]]').map((l) => l.linkpath)).toEqual(['D']);
  });

  it('LNK-10: links in %% and <!-- --> comments, also across lines, are ignored', () => {
    const body = '%% [[A]] %% [[B]]\n%%\n[[C]]\n%% <!-- [[D]]\n[[E]] --> [[F]]';
    expect(linksOf(body).map((l) => l.linkpath)).toEqual(['B', 'F']);
  });

  it('an escaped bracket does not open a link', () => {
    expect(linksOf('\\[[Not]] \\[x](y.md)')).toEqual([]);
  });
});

describe('frontmatter links (LNK-11)', () => {
  it('LNK-11: a string value that is a whole [[…]] is a link, with its key', () => {
    expect(frontmatterLinks({ link: '[[Episode IV]]' })).toEqual([
      { key: 'link', raw: '[[Episode IV]]', linkpath: 'Episode IV', heading: null, block: null, alias: null },
    ]);
  });

  it('LNK-11: lists and objects are walked recursively with keys like links.0 and a.b', () => {
    const data = { links: ['[[A]]', '[[B#Part|b]]'], a: { b: '[[C]]', c: [{ d: '[[D]]' }] } };
    expect(frontmatterLinks(data).map((l) => [l.key, l.linkpath])).toEqual([
      ['links.0', 'A'],
      ['links.1', 'B'],
      ['a.b', 'C'],
      ['a.c.0.d', 'D'],
    ]);
    expect(frontmatterLinks(data)[1]).toMatchObject({ heading: 'Part', alias: 'b' });
  });

  it('LNK-11: a link inside other text, a Markdown link, an embed and an unquoted [[Note]] (a nested list) are not links', () => {
    const data = {
      a: 'see [[A]]',
      b: '[x](y.md)',
      c: '![[img.png]]',
      d: [['Note']],
      e: '[[A]] and [[B]]',
      f: 42,
    };
    expect(frontmatterLinks(data)).toEqual([]);
  });

  it('PROP-20: null frontmatter has no links', () => {
    expect(frontmatterLinks(null)).toEqual([]);
  });
});

describe('aliases (PROP-17)', () => {
  it('PROP-17: a list keeps trimmed strings, drops empties and non-strings', () => {
    expect(frontmatterAliases({ aliases: [' AI ', '', 3, 'Artificial intelligence'] })).toEqual([
      'AI',
      'Artificial intelligence',
    ]);
  });

  it('PROP-17: a string is one alias, with no comma splitting; the key is case-insensitive', () => {
    expect(frontmatterAliases({ Aliases: 'AI, ML' })).toEqual(['AI, ML']);
    expect(frontmatterAliases({ alias: ['old key'] })).toEqual([]);
  });
});
