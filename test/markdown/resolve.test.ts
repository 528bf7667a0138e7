import { describe, expect, it } from 'vitest';
import { createLinkResolver, linkTextFor } from '../../src/markdown/resolve.js';
import { scanBody } from '../../src/markdown/scan.js';

describe('link resolution order (OBSIDIAN.md §1.2)', () => {
  it('rule 1: an empty linkpath ([[#Heading]]) resolves to the source note', () => {
    const r = createLinkResolver(['a/Note.md'], undefined, '.md');
    expect(r.resolve('', 'a/Note.md')).toBe('a/Note.md');
  });

  it('rule 2 / LNK-20: matching is case-insensitive', () => {
    const r = createLinkResolver(['Projects/Three laws of motion.md'], undefined, '.md');
    for (const text of ['three laws of motion', 'THREE LAWS OF MOTION', 'Three laws of motion']) {
      expect(r.resolve(text, 'x.md')).toBe('Projects/Three laws of motion.md');
    }
  });

  it('rule 2 / LNK-01: .md is optional', () => {
    const r = createLinkResolver(['Note.md'], undefined, '.md');
    expect(r.resolve('Note', 'x.md')).toBe('Note.md');
    expect(r.resolve('Note.md', 'x.md')).toBe('Note.md');
  });

  it('rule 2: [[My.Note]] finds My.Note.md (nothing is called my.note, so .md is appended)', () => {
    const r = createLinkResolver(['My.Note.md'], undefined, '.md');
    expect(r.resolve('My.Note', 'x.md')).toBe('My.Note.md');
  });

  it('rule 2 / LNK-04: [[Image]] does not find Image.png, [[Image.png]] does; [[Note.pdf]] finds Note.pdf', () => {
    const r = createLinkResolver(['img/Image.png', 'Note.pdf', 'Note.md'], undefined, '.md');
    expect(r.resolve('Image', 'x.md')).toBeNull();
    expect(r.resolve('Image.png', 'x.md')).toBe('img/Image.png');
    expect(r.resolve('Note.pdf', 'x.md')).toBe('Note.pdf');
  });

  it('rule 2: a name with a dot that matches a file is not retried with .md', () => {
    const r = createLinkResolver(['v1.2.md', 'v1.2'], undefined, '.md');
    expect(r.resolve('v1.2', 'x.md')).toBe('v1.2');
    expect(r.resolve('v1.2.md', 'x.md')).toBe('v1.2.md');
  });

  it('rule 3: a bare name with exactly one file resolves wherever the file lives', () => {
    const r = createLinkResolver(['deep/down/here/Unique.md', 'other/Thing.md'], undefined, '.md');
    expect(r.resolve('unique', 'other/Thing.md')).toBe('deep/down/here/Unique.md');
  });

  it('rule 4: ./ and ../ resolve against the source folder', () => {
    const r = createLinkResolver(['a/b/Note.md', 'a/Note.md', 'Note.md'], undefined, '.md');
    expect(r.resolve('./Note', 'a/b/Src.md')).toBe('a/b/Note.md');
    expect(r.resolve('../Note', 'a/b/Src.md')).toBe('a/Note.md');
    expect(r.resolve('../../Note.md', 'a/b/Src.md')).toBe('Note.md');
  });

  it('rule 4: a relative path with no file there, or above the root, is unresolved', () => {
    const r = createLinkResolver(['a/Note.md', 'b/Note.md'], undefined, '.md');
    expect(r.resolve('./Note', 'c/Src.md')).toBeNull();
    expect(r.resolve('../../Note', 'a/Src.md')).toBeNull();
  });

  it('rule 5 / LNK-02: an exact vault path resolves, with one leading / stripped', () => {
    const r = createLinkResolver(['Projects/Plan.md', 'Archive/Plan.md'], undefined, '.md');
    expect(r.resolve('Projects/Plan', 'Archive/x.md')).toBe('Projects/Plan.md');
    expect(r.resolve('/Projects/Plan', 'Archive/x.md')).toBe('Projects/Plan.md');
  });

  it('rule 5: for duplicated names the vault-root file beats the same-folder file', () => {
    const r = createLinkResolver(['a/Note.md', 'Note.md'], undefined, '.md');
    expect(r.resolve('Note', 'a/Src.md')).toBe('Note.md');
  });

  it('rule 6: a leading / with no exact match is unresolved, with no fallback to a name match', () => {
    const r = createLinkResolver(['a/Note.md', 'b/Note.md', 'a/Only.md'], undefined, '.md');
    expect(r.resolve('/Note', 'a/Src.md')).toBeNull();
    expect(r.resolve('/Only', 'x.md')).toBeNull();
  });

  it('rule 7: the same-folder file wins over a shorter path elsewhere', () => {
    const r = createLinkResolver(['x/Note.md', 'projects/alpha/Note.md'], undefined, '.md');
    expect(r.resolve('Note', 'projects/alpha/Src.md')).toBe('projects/alpha/Note.md');
  });

  it('rule 7: files in sub-folders of the source folder count as same-folder', () => {
    const r = createLinkResolver(['b/Note.md', 'a/sub/deeper/Note.md'], undefined, '.md');
    expect(r.resolve('Note', 'a/Src.md')).toBe('a/sub/deeper/Note.md');
  });

  it('rule 7: the same-folder prefix test needs a trailing /, so proj/ does not prefer project/', () => {
    const r = createLinkResolver(['project/Note.md', 'zz/Note.md'], undefined, '.md');
    expect(r.resolve('Note', 'proj/Src.md')).toBe('zz/Note.md');
  });

  it('rule 7: otherwise the shortest path (in characters) wins, not the shallowest', () => {
    const r = createLinkResolver(['aaaaaaaaaa/Note.md', 'b/c/Note.md'], undefined, '.md');
    expect(r.resolve('Note', 'x/Src.md')).toBe('b/c/Note.md');
  });

  it('rule 7: equal lengths keep path order', () => {
    const r = createLinkResolver(['c/Note.md', 'b/Note.md', 'd/Note.md'], undefined, '.md');
    expect(r.resolve('Note', 'x/Src.md')).toBe('b/Note.md');
  });

  it('LNK-21: [[folder/Note]] is a partial path: any file ending in folder/note.md', () => {
    const r = createLinkResolver(
      ['work/folder/Note.md', 'home/folder/Note.md', 'folder2/Note.md'],
      undefined,
      '.md',
    );
    expect(r.resolve('folder/Note', 'x.md')).toBe('home/folder/Note.md');
    expect(r.resolve('Folder/note', 'work/y.md')).toBe('work/folder/Note.md');
  });

  it('LNK-21: a folder-qualified link with a wrong folder is unresolved even if the name is unique', () => {
    const r = createLinkResolver(['a/Unique.md'], undefined, '.md');
    expect(r.resolve('b/Unique', 'x.md')).toBeNull();
  });

  it('rule 7: the suffix must start on a whole folder name, so older/Note does not find folder/Note.md', () => {
    const r = createLinkResolver(['folder/Note.md', 'x/Note.md'], undefined, '.md');
    expect(r.resolve('older/Note', 'y.md')).toBeNull();
  });

  it('LNK-23: links to a missing heading or block still resolve (the subpath is ignored)', () => {
    const r = createLinkResolver(['Note.md'], undefined, '.md');
    const [link] = scanBody('[[Note#No such heading]] ').links;
    expect(link?.heading).toBe('No such heading');
    expect(r.resolve(link?.linkpath ?? '?', 'x.md')).toBe('Note.md');
  });

  it('LNK-03: a Markdown link resolves by its decoded path', () => {
    const r = createLinkResolver(['Folder/My Note.md'], undefined, '.md');
    const [link] = scanBody('[x](Folder/My%20Note.md)').links;
    expect(r.resolve(link?.linkpath ?? '?', 'x.md')).toBe('Folder/My Note.md');
  });

  it('NFC: a file name stored decomposed matches a composed link', () => {
    const r = createLinkResolver(['Cafe\u0301.md'], undefined, '.md');
    expect(r.resolve('Caf\u00e9', 'x.md')).toBe('Cafe\u0301.md');
  });
});

describe('aliases, Noted’s fallback (OBSIDIAN.md top; LNK-22 differs)', () => {
  const files = ['Artificial Intelligence.md', 'Machine Learning.md', 'Other.md', 'AI.md'];

  it('a link that matches no file resolves to the one note whose aliases hold it, case-insensitively', () => {
    const r = createLinkResolver(
      files.slice(0, 3),
      new Map([['Artificial Intelligence.md', ['AI', 'A.I.']]]),
      '.md',
    );
    expect(r.resolve('ai', 'x.md')).toBe('Artificial Intelligence.md');
    expect(r.resolve('A.I.', 'x.md')).toBe('Artificial Intelligence.md');
  });

  it('two notes with the same alias leave the link unresolved', () => {
    const r = createLinkResolver(
      files.slice(0, 3),
      new Map([
        ['Artificial Intelligence.md', ['AI']],
        ['Machine Learning.md', ['ai']],
      ]),
      '.md',
    );
    expect(r.resolve('AI', 'x.md')).toBeNull();
  });

  it('a file match always wins over an alias', () => {
    const r = createLinkResolver(files, new Map([['Artificial Intelligence.md', ['AI']]]), '.md');
    expect(r.resolve('AI', 'x.md')).toBe('AI.md');
  });

  it('aliases follow add, setAliases and remove', () => {
    const r = createLinkResolver(['Other.md'], undefined, '.md');
    r.add('Artificial Intelligence.md', ['AI']);
    expect(r.resolve('AI', 'x.md')).toBe('Artificial Intelligence.md');
    r.setAliases('Artificial Intelligence.md', ['KI']);
    expect(r.resolve('AI', 'x.md')).toBeNull();
    expect(r.resolve('KI', 'x.md')).toBe('Artificial Intelligence.md');
    r.remove('Artificial Intelligence.md');
    expect(r.resolve('KI', 'x.md')).toBeNull();
  });
});

describe('incremental updates', () => {
  it('add and remove change the answer like a rebuild would', () => {
    const r = createLinkResolver(['a/Note.md'], undefined, '.md');
    expect(r.resolve('Note', 'b/x.md')).toBe('a/Note.md');
    r.add('b/Note.md');
    expect(r.resolve('Note', 'b/x.md')).toBe('b/Note.md');
    expect(r.filesNamed('note.MD')).toEqual(['a/Note.md', 'b/Note.md']);
    r.remove('b/Note.md');
    r.remove('missing.md');
    expect(r.resolve('Note', 'b/x.md')).toBe('a/Note.md');
    r.remove('a/Note.md');
    expect(r.resolve('Note', 'b/x.md')).toBeNull();
  });

  it('added files keep path order for equal-length ties', () => {
    const r = createLinkResolver([], undefined, '.md');
    for (const p of ['d/Note.md', 'b/Note.md', 'c/Note.md']) r.add(p);
    expect(r.resolve('Note', 'x/y.md')).toBe('b/Note.md');
  });
});

describe('linkTextFor (LNK-28, shortest path when possible)', () => {
  it('a unique note gets its bare name without .md', () => {
    expect(
      linkTextFor(
        'deep/folder/Plans.md',
        createLinkResolver(['deep/folder/Plans.md', 'Other.md'], undefined, '.md'),
        '.md',
      ),
    ).toBe('Plans');
  });

  it('a duplicated name gets the full vault path without .md', () => {
    const r = createLinkResolver(['a/Plans.md', 'b/Plans.md'], undefined, '.md');
    expect(linkTextFor('a/Plans.md', r, '.md')).toBe('a/Plans');
    expect(r.resolve('a/Plans', 'b/x.md')).toBe('a/Plans.md');
  });

  it('a duplicated name at the vault root is its bare name, which rule 5 finds first', () => {
    expect(
      linkTextFor('Plans.md', createLinkResolver(['a/Plans.md', 'Plans.md'], undefined, '.md'), '.md'),
    ).toBe('Plans');
  });

  it('attachments keep their extension', () => {
    expect(linkTextFor('img/Photo.png', createLinkResolver(['img/Photo.png'], undefined, '.md'), '.md')).toBe(
      'Photo.png',
    );
    expect(
      linkTextFor(
        'img/Photo.png',
        createLinkResolver(['img/Photo.png', 'old/Photo.png'], undefined, '.md'),
        '.md',
      ),
    ).toBe('img/Photo.png');
  });

  it('.md stays when dropping it would find another file (My.Note next to My.Note.md)', () => {
    const r = createLinkResolver(['My.Note', 'My.Note.md'], undefined, '.md');
    expect(linkTextFor('My.Note.md', r, '.md')).toBe('My.Note.md');
    expect(r.resolve('My.Note.md', 'x.md')).toBe('My.Note.md');
  });

  it('the text resolves back to the target from every folder', () => {
    const files = ['Note.md', 'a/Note.md', 'a/b/Note.md', 'c/Note.md', 'c/Unique.md'];
    const r = createLinkResolver(files, undefined, '.md');
    const sources = ['x.md', 'a/x.md', 'a/b/x.md', 'c/x.md', 'z/x.md'];
    for (const target of files) {
      const text = linkTextFor(target, r, '.md');
      for (const source of sources) expect(r.resolve(text, source), `${text} from ${source}`).toBe(target);
    }
  });
});
