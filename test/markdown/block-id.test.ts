import { describe, expect, it } from 'vitest';
import { addBlockId } from '../../src/markdown/block-id.js';
import { outlineOf } from '../../src/markdown/outline.js';

/** A random source that spells the given ids in turn. */
function spelling(...ids: string[]): (n: number) => number {
  const chars = ids.join('');
  let i = 0;
  return () => 'abcdefghijklmnopqrstuvwxyz0123456789'.indexOf(chars[i++] as string);
}

describe('addBlockId (LNK-42 placement)', () => {
  it('ends a paragraph’s last line, whichever of its lines is named', () => {
    const text = 'Intro.\n\nA point\nmade here.\n\nAfter.\n';
    for (const line of [3, 4]) {
      const r = addBlockId(text, line, 'point');
      expect(r).toEqual({ text: 'Intro.\n\nA point\nmade here. ^point\n\nAfter.\n', id: 'point', line: 4 });
    }
  });

  it('counts frontmatter lines and keeps CRLF and a missing final line break', () => {
    expect(addBlockId('---\na: 1\n---\nBody', 4, 'x').text).toBe('---\na: 1\n---\nBody ^x');
    expect(addBlockId('one\r\ntwo\r\n', 2, 'x').text).toBe('one\r\ntwo ^x\r\n');
  });

  it('puts a list item’s id on that item, not the list', () => {
    const text = '- first\n- second\n  - nested\n- third\n';
    expect(addBlockId(text, 2, 'b').text).toBe('- first\n- second ^b\n  - nested\n- third\n');
    expect(addBlockId(text, 3, 'n').text).toBe('- first\n- second\n  - nested ^n\n- third\n');
    expect(addBlockId('- a\n  more of a\n- b\n', 2, 'a').text).toBe('- a\n  more of a ^a\n- b\n');
  });

  it('puts a table’s, quote’s and code block’s id alone after it, blank lines around', () => {
    const r = addBlockId('| a | b |\n| - | - |\n| 1 | 2 |\n\nNext para\n', 3, 't');
    expect(r).toEqual({ text: '| a | b |\n| - | - |\n| 1 | 2 |\n\n^t\n\nNext para\n', id: 't', line: 5 });
    // GFM: a line right after a table's rows is one more row; the id goes after it.
    expect(addBlockId('| a |\n| - |\nrow\n', 1, 't').text).toBe('| a |\n| - |\nrow\n\n^t\n');
    expect(addBlockId('> [!note]\n> said\nNext\n', 2, 'q').text).toBe('> [!note]\n> said\nNext\n\n^q\n');
    expect(addBlockId('```js\nx |\n```\ntext', 2, 'c').text).toBe('```js\nx |\n```\n\n^c\n\ntext');
    expect(addBlockId('> end', 1, 'q').text).toBe('> end\n\n^q\n');
  });

  it('gives a fresh six-character id no block of the note has', () => {
    const r = addBlockId('taken ^abc123\n\npara\n', 3, undefined, spelling('abc123', 'zz9zz9'));
    expect(r.id).toBe('zz9zz9');
    expect(r.text).toBe('taken ^abc123\n\npara ^zz9zz9\n');
    const fresh = addBlockId('para\n', 1);
    expect(fresh.id).toMatch(/^[a-z0-9]{6}$/);
    expect(outlineOf(fresh.text).blocks.map((b) => b.id)).toEqual([fresh.id]);
  });

  it('refuses a block that has an id, naming it', () => {
    expect(() => addBlockId('a\nb ^old\n', 1)).toThrow(/already has the id \^old \(line 2\)/);
    expect(() => addBlockId('| a |\n| - |\n| 1 |\n\n^tbl\n', 2)).toThrow(/\^tbl \(line 5\)/);
    expect(() => addBlockId('para\n\n^sep\n', 1)).toThrow(/\^sep/);
  });

  it('refuses lines no block holds and ids Obsidian cannot read', () => {
    const text = '---\na: 1\n---\n# Head\n\n***\npara ^used\n';
    expect(() => addBlockId(text, 2)).toThrow(/frontmatter/);
    expect(() => addBlockId(text, 4)).toThrow(/heading/);
    expect(() => addBlockId(text, 5)).toThrow(/blank/);
    expect(() => addBlockId(text, 6)).toThrow(/thematic break/);
    expect(() => addBlockId(text, 99)).toThrow(/has 7 lines/);
    expect(() => addBlockId('Title\n===\n', 1)).toThrow(/heading/);
    for (const bad of ['has space', 'under_score', 'é', '', '^', '^^x']) {
      expect(() => addBlockId('para\n', 1, bad), bad).toThrow(/letters, digits and dashes/);
    }
    expect(() => addBlockId(text, 7, 'USED')).toThrow(/already has a block \^USED \(line 7\)/);
    expect(() => addBlockId('```\ncode\n', 2, 'c')).toThrow(/never closed/);
    // A shorter fence does not close a longer one, even as the note's last line.
    expect(() => addBlockId('````\ncode\n```', 2, 'c')).toThrow(/never closed/);
    expect(() => addBlockId('~~~~\ncode\n~~~\n', 2, 'c')).toThrow(/never closed/);
    // The blank line between the items of a loose list is no item's.
    expect(() => addBlockId('- a\n\n- b\n', 2, 'c')).toThrow(/blank/);
  });

  it('ends a quote where a heading, list or rule begins, as CommonMark does', () => {
    const added = addBlockId('> quoted\n# Heading\ntext\n', 1, 'q');
    expect(added.text).toBe('> quoted\n\n^q\n\n# Heading\ntext\n');
    expect(addBlockId('> quoted\ncarried on\n\nafter\n', 1, 'q').text).toBe(
      '> quoted\ncarried on\n\n^q\n\nafter\n',
    );
  });

  it('accepts an id given with its ^', () => {
    expect(addBlockId('para\n', 1, '^my-id').id).toBe('my-id');
  });
});
