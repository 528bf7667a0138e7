import { afterEach, describe, expect, it } from 'vitest';
import { listTags, notesByTag } from '../../../src/index/queries/tags.js';
import { type IndexedVault, indexedVault } from '../indexed-vault.js';

let vault: IndexedVault | undefined;
afterEach(() => {
  vault?.close();
  vault = undefined;
});

function open(files: Record<string, string>): IndexedVault {
  vault = indexedVault(files);
  return vault;
}

describe('listTags (TAG-20..22)', () => {
  it('a nested tag counts toward each parent, once per note', () => {
    const v = open({
      'a.md': '#a/b/c and #a/b/d and #a\n',
      'b.md': '#a/b\n',
      'c.md': '#other\n',
    });
    expect(listTags(v.db)).toEqual([
      { tag: 'a', count: 2 },
      { tag: 'a/b', count: 2 },
      { tag: 'a/b/c', count: 1 },
      { tag: 'a/b/d', count: 1 },
      { tag: 'other', count: 1 },
    ]);
  });

  it('tags are case-insensitive; the casing most notes use is shown', () => {
    const v = open({
      'a.md': '#Work\n',
      'b.md': '#work\n',
      'c.md': '#work #WORK\n',
    });
    expect(listTags(v.db)).toEqual([{ tag: 'work', count: 3 }]);
  });

  it('a tie in casing goes to the casing seen first (the note indexed first)', () => {
    const v = open({ 'a.md': '#Zed\n', 'b.md': '#zed\n' });
    const first = (v.db.prepare('SELECT path FROM notes ORDER BY id LIMIT 1').get() as { path: string }).path;
    expect(listTags(v.db)).toEqual([{ tag: first === 'a.md' ? 'Zed' : 'zed', count: 2 }]);
  });

  it('frontmatter tags as a list or a string, with # or without, add to inline ones (TAG-11)', () => {
    const v = open({
      'list.md': '---\ntags: [alpha, "#beta"]\n---\n#gamma\n',
      'string.md': '---\nTags: alpha\n---\n',
      'spaced.md': '---\ntags: "alpha, beta"\n---\n',
    });
    expect(listTags(v.db)).toEqual([
      { tag: 'alpha', count: 2 },
      { tag: 'beta', count: 1 },
      { tag: 'gamma', count: 1 },
    ]);
  });

  it('invalid YAML gives no frontmatter tags (PROP-20), and code gives no tags (TAG-04)', () => {
    const v = open({
      'bad.md': '---\ntags: [a\n---\n#inline\n',
      'code.md': '`#nope`\n\n```\n#nope\n```\n',
    });
    expect(listTags(v.db)).toEqual([{ tag: 'inline', count: 1 }]);
  });

  it('limit keeps the most used', () => {
    const v = open({ 'a.md': '#x #y\n', 'b.md': '#y\n' });
    expect(listTags(v.db, { limit: 1 })).toEqual([{ tag: 'y', count: 2 }]);
  });

  it('a hidden note sways neither count nor display casing', () => {
    const v = open({ 'a.md': '#Zed\n', 'b.md': '#zed\n', 'private/c.md': '#zed\n' });
    expect(listTags(v.db)).toEqual([{ tag: 'zed', count: 3 }]);
    const first = (
      v.db.prepare('SELECT path FROM notes WHERE path NOT LIKE ? ORDER BY id LIMIT 1').get('private/%') as {
        path: string;
      }
    ).path;
    expect(listTags(v.db, { visible: (p) => !p.startsWith('private/') })).toEqual([
      { tag: first === 'a.md' ? 'Zed' : 'zed', count: 2 },
    ]);
  });

  it('hidden notes count nowhere', () => {
    const v = open({ 'private/a.md': '#secret #shared\n', 'b.md': '#shared\n' });
    expect(listTags(v.db, { visible: (p) => !p.startsWith('private/') })).toEqual([
      { tag: 'shared', count: 1 },
    ]);
  });

  it('follows edits and deletions', () => {
    const v = open({ 'a.md': '#one\n' });
    v.write('a.md', '#two and more text\n');
    expect(listTags(v.db)).toEqual([{ tag: 'two', count: 1 }]);
    v.remove('a.md');
    expect(listTags(v.db)).toEqual([]);
  });
});

describe('notesByTag', () => {
  it('finds the tag and the tags nested below it, case-insensitively, # optional, newest first', () => {
    const v = open({
      'old.md': '# Old\n#Project\n',
      'new.md': '---\ntags: [project/alpha]\n---\n',
      'other.md': '#projects #work/project\n',
    });
    // Modification times as the index recorded them, set directly so the order is certain.
    v.db.prepare("UPDATE notes SET mtime_ms = 1000 WHERE path = 'old.md'").run();
    v.db.prepare("UPDATE notes SET mtime_ms = 2000 WHERE path = 'new.md'").run();
    const found = notesByTag(v.db, '#PROJECT', { limit: 10 });
    expect(found.map((n) => [n.name, n.title, n.modified])).toEqual([
      ['new.md', 'new', '1970-01-01T00:00:02.000Z'],
      ['old.md', 'Old', '1970-01-01T00:00:01.000Z'],
    ]);
    expect(notesByTag(v.db, 'project/alpha', { limit: 10 }).map((n) => n.name)).toEqual(['new.md']);
    expect(notesByTag(v.db, 'project', { limit: 1 }).map((n) => n.name)).toEqual(['new.md']);
    expect(
      notesByTag(v.db, 'project', { limit: 10, visible: (p) => p !== 'new.md' }).map((n) => n.name),
    ).toEqual(['old.md']);
  });

  it('refuses an empty tag or one with a space', () => {
    const v = open({ 'a.md': '#a\n' });
    expect(() => notesByTag(v.db, '#', { limit: 5 })).toThrow(/tag is empty/);
    expect(() => notesByTag(v.db, 'a b', { limit: 5 })).toThrow(/contains a space/);
  });
});
