import { describe, expect, it } from 'vitest';
import { findHeadings } from '../../src/markdown/headings.js';

const summary = (text: string) => findHeadings(text).map((h) => [h.level, h.text]);

describe('findHeadings: ATX (HDG-01)', () => {
  it('reads levels 1 to 6 with their text trimmed', () => {
    expect(summary('# One\n## Two  \n###   Three\n#### 4\n##### 5\n###### 6\n')).toEqual([
      [1, 'One'],
      [2, 'Two'],
      [3, 'Three'],
      [4, '4'],
      [5, '5'],
      [6, '6'],
    ]);
  });

  it('seven # is not a heading', () => {
    expect(summary('####### Seven\n')).toEqual([]);
  });

  it('#tag (no space after the #) is a tag, not a heading (TAG-05)', () => {
    expect(summary('#tag\n#5\n##nospace\n')).toEqual([]);
  });

  it('a tab after the # run counts as the space; a lone # run is an empty heading', () => {
    expect(summary('#\tTabbed\n##\n')).toEqual([
      [1, 'Tabbed'],
      [2, ''],
    ]);
  });

  it('up to three spaces of indentation; four is indented code', () => {
    expect(summary('   ### Three spaces\n\n    # Four spaces\n')).toEqual([[3, 'Three spaces']]);
  });

  it('removes a closing # run preceded by a space, but not # glued to the text or escaped', () => {
    expect(summary('## Title ##\n# Trailing #####   \n# C#\n# Escaped \\#\n### ###\n')).toEqual([
      [2, 'Title'],
      [1, 'Trailing'],
      [1, 'C#'],
      [1, 'Escaped \\#'],
      [3, ''],
    ]);
  });

  it('keeps tags and links inside heading text', () => {
    expect(summary('## Plans #project [[Note]]\n')).toEqual([[2, 'Plans #project [[Note]]']]);
  });

  it('a heading in a quote or a list is not a top-level heading (HDG-03)', () => {
    expect(summary('> # Quoted\n- # Listed\n1. # Numbered\n')).toEqual([]);
  });
});

describe('findHeadings: setext (HDG-02)', () => {
  it('a paragraph line over === is level 1, over --- is level 2', () => {
    expect(summary('Title\n=====\n\nSub\n---\n')).toEqual([
      [1, 'Title'],
      [2, 'Sub'],
    ]);
  });

  it('a --- after a blank line is a thematic break, not a heading', () => {
    expect(summary('Para\n\n---\n\nMore\n')).toEqual([]);
  });

  it('a --- at the start of the body is a thematic break', () => {
    expect(summary('---\ntext\n')).toEqual([]);
  });

  it('a spaced - - - after a paragraph is a thematic break, not an underline', () => {
    expect(summary('Para\n- - -\n')).toEqual([]);
  });

  it('a list item, quote, heading or fence line is not setext heading text', () => {
    expect(summary('- item\n---\n\n> quote\n---\n\n# Atx\n---\n\n```\ncode\n```\n---\n')).toEqual([
      [1, 'Atx'],
    ]);
  });

  it('lazy text after a list item is not setext heading text either', () => {
    expect(summary('- item\ncontinued\n---\n')).toEqual([]);
  });

  it('a multi-line paragraph becomes one heading that starts at its first line', () => {
    const text = 'first\nsecond\n===\nafter\n';
    const [h] = findHeadings(text);
    expect(h).toEqual({
      level: 1,
      text: 'first second',
      line: 0,
      start: 0,
      contentStart: text.indexOf('after'),
    });
  });

  it('=== without a paragraph above is plain text', () => {
    expect(summary('===\n\n===\n')).toEqual([]);
  });

  it('an underline indented four spaces is paragraph text, not an underline', () => {
    expect(summary('Para\n    ---\n')).toEqual([]);
  });
});

describe('findHeadings: code fences (HDG-03)', () => {
  it('ignores headings inside fenced code, backticks or tildes', () => {
    const text = '# Real\n```\n# not\nSetext\n---\n```\n~~~md\n## not either\n~~~\n## Also real\n';
    expect(summary(text)).toEqual([
      [1, 'Real'],
      [2, 'Also real'],
    ]);
  });

  it('an unclosed fence hides everything after it', () => {
    expect(summary('# A\n```\n# B\n')).toEqual([[1, 'A']]);
  });

  it('a paragraph before a fence does not become a heading through the fence', () => {
    expect(summary('Para\n```\n```\n---\n')).toEqual([]);
  });
});

describe('findHeadings: positions', () => {
  it('line, start and contentStart refer to the full text', () => {
    const text = 'intro\n\n## Two\nbody\n';
    expect(findHeadings(text)).toEqual([{ level: 2, text: 'Two', line: 2, start: 7, contentStart: 14 }]);
  });

  it('contentStart of a heading on the last line without a line break is the end of the text', () => {
    expect(findHeadings('# End')).toEqual([{ level: 1, text: 'End', line: 0, start: 0, contentStart: 5 }]);
  });

  it('CRLF: contentStart is after the \\r\\n, text has no \\r', () => {
    const text = '# A\r\nx\r\n\r\nB\r\n---\r\ny';
    expect(findHeadings(text)).toEqual([
      { level: 1, text: 'A', line: 0, start: 0, contentStart: 5 },
      { level: 2, text: 'B', line: 3, start: 10, contentStart: 18 },
    ]);
  });

  it('skips frontmatter but reports lines and offsets in the full text', () => {
    const text = '---\ntitle: x\n# not a heading\n---\n# First\n';
    expect(findHeadings(text)).toEqual([{ level: 1, text: 'First', line: 4, start: 33, contentStart: 41 }]);
  });

  it('the --- that closes frontmatter does not underline the last YAML line', () => {
    expect(summary('---\ntitle: x\n---\ntext\n')).toEqual([]);
  });

  it('a code fence opened inside frontmatter does not leak into the body', () => {
    expect(summary('---\nx: |\n  ```\n---\n# Body heading\n')).toEqual([[1, 'Body heading']]);
  });

  it('skips frontmatter after a BOM; offsets count the BOM', () => {
    const text = '\uFEFF---\na: 1\n---\n# H\n';
    expect(findHeadings(text)).toEqual([{ level: 1, text: 'H', line: 3, start: 14, contentStart: 18 }]);
  });

  it('an empty text has no headings', () => {
    expect(findHeadings('')).toEqual([]);
  });
});
