import { describe, expect, it } from 'vitest';
import { NotedError } from '../../src/common/errors.js';
import { parseFrontmatter } from '../../src/markdown/frontmatter/frontmatter.js';
import { noteTitle, titleToFileName } from '../../src/markdown/title.js';

const utf8Bytes = (s: string) => new TextEncoder().encode(s).length;

describe('noteTitle (SPEC 2.3)', () => {
  it('frontmatter title wins', () => {
    const text = '---\ntitle: From YAML\n---\n# From heading\n';
    expect(noteTitle('a/b.md', parseFrontmatter(text).data, text, '.md')).toBe('From YAML');
  });

  it('a numeric title counts, as a string', () => {
    expect(noteTitle('x.md', { title: 2024 }, '', '.md')).toBe('2024');
  });

  it('an empty, blank, null, list or boolean title does not count', () => {
    for (const title of ['', '   ', null, ['a'], true]) {
      expect(noteTitle('dir/File name.md', { title }, '# Heading\n', '.md')).toBe('Heading');
    }
  });

  it('a Title key counts when there is no title key (PROP-14)', () => {
    expect(noteTitle('x.md', { Title: 'Cased' }, '', '.md')).toBe('Cased');
    expect(noteTitle('x.md', { Title: 'Cased', title: 'exact' }, '', '.md')).toBe('exact');
  });

  it('else the first level-1 heading, skipping frontmatter and code', () => {
    const text = '---\nstatus: x\n---\n```\n# In code\n```\n## Level two\n# Real title #\n# Second\n';
    expect(noteTitle('n.md', parseFrontmatter(text).data, text, '.md')).toBe('Real title');
  });

  it('a setext level-1 heading counts', () => {
    expect(noteTitle('n.md', null, 'Setext title\n===\n', '.md')).toBe('Setext title');
  });

  it('else the file name without folder and .md', () => {
    expect(noteTitle('inbox/My idea.md', null, 'no heading\n## Not level one\n', '.md')).toBe('My idea');
    expect(noteTitle('Root.MD', null, '', '.md')).toBe('Root');
    expect(noteTitle('a/b/v1.2 notes.md', {}, '', '.md')).toBe('v1.2 notes');
  });

  it('unparseable frontmatter (data null) falls through to the heading', () => {
    const text = '---\ntitle: [\n---\n# Heading\n';
    expect(noteTitle('n.md', parseFrontmatter(text).data, text, '.md')).toBe('Heading');
  });
});

describe('titleToFileName (create_note)', () => {
  it('removes \\ / : * ? " < > | # ^ [ ] and collapses whitespace', () => {
    expect(titleToFileName('  Q3: plan / #draft ')).toBe('Q3 plan draft');
    expect(titleToFileName('a\\b/c:d*e?f"g<h>i|j#k^l[m]n')).toBe('abcdefghijklmn');
    expect(titleToFileName('[[Link]] to ^block')).toBe('Link to block');
  });

  it('turns tabs and line breaks into spaces and drops other control characters', () => {
    expect(titleToFileName('one\ttwo\nthree\r\nfour')).toBe('one two three four');
    expect(titleToFileName('bell\u0007 and null\u0000 and del\u007f and c1\u0085x')).toBe(
      'bell and null and del and c1x',
    );
  });

  it('strips leading dots so the note is not hidden', () => {
    expect(titleToFileName('.hidden')).toBe('hidden');
    expect(titleToFileName(' . .. config')).toBe('config');
    expect(titleToFileName('v1.2 notes')).toBe('v1.2 notes');
  });

  it('keeps Unicode, emoji and other punctuation', () => {
    expect(titleToFileName('Café – 日本語 🎉 (draft) & co.')).toBe('Café – 日本語 🎉 (draft) & co.');
  });

  it.each(['', '   ', '###', '...', '/\\:*?"<>|#^[]', '\u0000\u0001'])(
    'throws validation_error when nothing is left (%j), naming the removed characters',
    (title) => {
      try {
        titleToFileName(title);
        expect.unreachable();
      } catch (err) {
        expect(err).toBeInstanceOf(NotedError);
        expect((err as NotedError).code).toBe('validation_error');
        expect((err as NotedError).message).toContain('\\ / : * ? " < > | # ^ [ ]');
      }
    },
  );

  it('limits the name to 200 UTF-8 bytes', () => {
    expect(titleToFileName('a'.repeat(300))).toBe('a'.repeat(200));
    const cut = titleToFileName('é'.repeat(150));
    expect(utf8Bytes(cut)).toBe(200);
  });

  it('never splits a character: multi-byte letters, emoji and combined graphemes stay whole', () => {
    const cut = titleToFileName(`a${'日'.repeat(100)}`);
    expect(utf8Bytes(cut)).toBeLessThanOrEqual(200);
    expect(cut).toBe(`a${'日'.repeat(66)}`);
    const family = '👨‍👩‍👧';
    const emoji = titleToFileName(family.repeat(20));
    expect(utf8Bytes(emoji)).toBeLessThanOrEqual(200);
    expect(emoji).toBe(family.repeat(Math.floor(200 / utf8Bytes(family))));
  });

  it('does not end with a space after cutting', () => {
    const cut = titleToFileName(`${'a'.repeat(199)} bcd`);
    expect(cut).toBe('a'.repeat(199));
  });

  it('drops lone surrogates, which no file system stores', () => {
    expect(titleToFileName('ok\uD800name')).toBe('okname');
  });
});
