import { describe, expect, it } from 'vitest';
import { frontmatterTags } from '../../src/markdown/frontmatter/fields.js';
import { parseFrontmatter } from '../../src/markdown/frontmatter/frontmatter.js';
import { addTags, inlineTagsLeft, removeTags } from '../../src/markdown/tags-edit.js';
import { refusal } from '../helpers/refusal.js';

function tagsOf(text: string): string[] {
  const fm = parseFrontmatter(text);
  expect(fm.error).toBeUndefined();
  return frontmatterTags(fm.data);
}

describe('add_tags (SPEC 13.1)', () => {
  it('appends missing tags after the last item, in the list’s own layout, keeping the others’ bytes', () => {
    const note = '---\ntitle: x # t\ntags:\n    - "#a"   # first\n    - b\nz: 1\n---\nBody\n';
    expect(addTags(note, ['c', '#d/e'])).toBe(note.replace('    - b\n', '    - b\n    - c\n    - d/e\n'));
    expect(addTags('---\ntags: [a, b]\n---\n', ['c'])).toBe('---\ntags: [a, b, c]\n---\n');
    expect(addTags('---\ntags: [ a ]\n---\n', ['c'])).toBe('---\ntags: [ a, c ]\n---\n');
    expect(addTags('---\ntags: []\n---\n', ['c'])).toBe('---\ntags: [c]\n---\n');
  });

  it('does not add a tag already there in any letter case or with #, nor one given twice', () => {
    const note = '---\ntags:\n  - Project\n---\n';
    expect(addTags(note, ['#project', 'PROJECT'])).toBe(note);
    expect(tagsOf(addTags(note, ['x', 'X', '#x']))).toEqual(['Project', 'x']);
    // Every key Obsidian reads as tags counts (TAG-11).
    expect(addTags('---\nTags: [a]\n---\n', ['a'])).toBe('---\nTags: [a]\n---\n');
  });

  it('creates the list, and the block, when missing; turns a single tag into a list', () => {
    expect(addTags('Body\n', ['a'])).toBe('---\ntags:\n  - a\n---\nBody\n');
    expect(addTags('---\nx: 1\n---\n', ['a'])).toBe('---\nx: 1\ntags:\n  - a\n---\n');
    expect(addTags('---\ntags: solo\n---\n', ['a'])).toBe('---\ntags:\n  - solo\n  - a\n---\n');
    expect(addTags('---\ntags:\n---\n', ['a'])).toBe('---\ntags:\n  - a\n---\n');
    expect(addTags('---\r\ntags:\r\n  - x\r\n---\r\n', ['a'])).toBe(
      '---\r\ntags:\r\n  - x\r\n  - a\r\n---\r\n',
    );
  });

  it('refuses tags Obsidian would not read as one tag, and a tags property that is a mapping', () => {
    for (const bad of ['', '#', 'two words', '2024', 'a,b', 'v1.2', 'x#y']) {
      expect(refusal(() => addTags('x\n', [bad])).code, bad).toBe('validation_error');
    }
    expect(refusal(() => addTags('---\ntags: {a: 1}\n---\n', ['b'])).code).toBe('validation_error');
    expect(refusal(() => addTags('---\ntags: [a\n---\n', ['b'])).message).toMatch(/does not parse/);
  });
});

describe('remove_tags (SPEC 13.1)', () => {
  it('takes out exactly the named tags, any case, # optional; nested tags stay', () => {
    const note = '---\ntags:\n  - a # mine\n  - "#B"\n  - b/c\n---\n';
    expect(removeTags(note, ['b'])).toBe('---\ntags:\n  - a # mine\n  - b/c\n---\n');
    expect(removeTags('---\ntags: [a, "b", c]\nTags: B\n---\n', ['#b'])).toBe(
      '---\ntags: [a, c]\nTags: []\n---\n',
    );
  });

  it('leaves tags: [] when the last one goes, and changes nothing when the tag is not there', () => {
    expect(removeTags('---\ntags:\n  - a\nx: 1\n---\n', ['a'])).toBe('---\ntags: []\nx: 1\n---\n');
    expect(removeTags('---\ntags: a\n---\n', ['A'])).toBe('---\ntags: []\n---\n');
    const note = '---\ntags: [a]\n---\n';
    expect(removeTags(note, ['z'])).toBe(note);
    expect(removeTags('no frontmatter #a\n', ['a'])).toBe('no frontmatter #a\n');
  });

  it('names the inline #tags it left: the tag and those nested below it, with their lines', () => {
    const note = '---\ntags: [a]\n---\nSee #a and #A/b, not #ab.\n`#a` in code\n```\n#a\n```\n%% #a %%\n';
    expect(inlineTagsLeft(removeTags(note, ['a']), ['a'])).toEqual({
      tags: [
        { tag: '#a', line: 4 },
        { tag: '#A/b', line: 4 },
      ],
      total: 2,
    });
  });

  it('lists at most 100 inline tags and says how many there are', () => {
    const body = Array.from({ length: 150 }, (_, i) => `line ${i} #t`).join('\n');
    const left = inlineTagsLeft(body, ['t']);
    expect(left.tags).toHaveLength(100);
    expect(left.total).toBe(150);
  });
});
