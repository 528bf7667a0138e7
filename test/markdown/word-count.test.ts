/**
 * Words as Obsidian's core word count counts them (docs/obsidian.md, "Word count"): runs of letters,
 * numbers, hyphens and apostrophes in spaced scripts; one word per CJK ideograph or kana; link syntax,
 * code and URLs counted as the text they are; the frontmatter left out by the caller.
 */
import { describe, expect, it } from 'vitest';
import { outlineOf } from '../../src/markdown/outline.js';
import { countCharacters, countWords } from '../../src/markdown/word-count.js';

describe('countWords', () => {
  it.each([
    ['Hello, world', 2],
    ["don't stop — it’s fine", 4],
    ['e-mail 3.14 1,000,000 476x559', 4],
    ['version 1.2.3', 2],
    ['Привет мир', 2],
    ['Ελληνικά κείμενα', 2],
    ['', 0],
    ['— – … !!! ???', 0],
    ['😀 🎉 emoji', 1],
  ])('%j has %i words', (text, words) => {
    expect(countWords(text)).toBe(words);
  });

  it('CJK: each Chinese ideograph and each kana is one word; Hangul is spaced and runs', () => {
    expect(countWords('你好世界')).toBe(4);
    expect(countWords('你好 world')).toBe(3);
    expect(countWords('日本語のテキスト')).toBe(8);
    expect(countWords('中文，标点。')).toBe(4);
    expect(countWords('한국어 텍스트')).toBe(2);
    expect(countWords('Obsidian是一个笔记软件')).toBe(8);
  });

  it('links count as the text they are written with', () => {
    expect(countWords('[[Project Plan|the plan]]')).toBe(4);
    expect(countWords('[text](https://example.com/a-page)')).toBe(5);
    expect(countWords('![[diagram.png]]')).toBe(2);
  });

  it('a list marker "-" counts as a word, as in Obsidian (a hyphen alone is a run)', () => {
    expect(countWords('- item')).toBe(2);
    expect(countWords('* item')).toBe(1);
  });

  it('code counts like any text', () => {
    expect(countWords('```js\nconst answer = 42;\n```')).toBe(4);
    expect(countWords('use `npm test` here')).toBe(4);
  });

  it('characters are UTF-16 code units, whitespace included', () => {
    expect(countCharacters('ab c\n')).toBe(5);
    expect(countCharacters('😀')).toBe(2);
  });
});

describe('outlineOf counts the body only', () => {
  it('the frontmatter is left out of words and characters, but counted in lines', () => {
    const text = '---\ntitle: Many many words here\ntags: [a, b]\n---\nTwo words\n';
    const o = outlineOf(text);
    expect(o.words).toBe(2);
    expect(o.characters).toBe('Two words\n'.length);
    expect(o.lines).toBe(5);
  });
});
