import { describe, expect, it } from 'vitest';
import { fileNamesForKey, foldName, keysForFile, linkKey } from '../../src/markdown/link-key.js';
import { createLinkResolver } from '../../src/markdown/resolve.js';

describe('link keys (OBSIDIAN.md §1.2 rule 2)', () => {
  it('files a link under its folded file name, .md added when the name has no dot', () => {
    expect(linkKey('Projects/Plan', '.md')).toBe('plan.md');
    expect(linkKey('Plan.md', '.md')).toBe('plan.md');
    expect(linkKey('My.Note', '.md')).toBe('my.note');
    expect(linkKey('img/Photo.PNG', '.md')).toBe('photo.png');
    expect(linkKey('Cafe\u0301', '.md')).toBe('café.md');
    expect(linkKey('', '.md')).toBe('');
  });

  it('every file a link resolves to is among the names its key reaches, and the file finds the key back', () => {
    const files = ['My.Note.md', 'My.Note', 'Plan.md', 'a/Plan.md', 'img/Photo.png', 'v1.2.md', 'x.md.md'];
    const resolver = createLinkResolver(files, undefined, '.md');
    const links = ['My.Note', 'My.Note.md', 'plan', 'a/plan.md', 'Photo.png', 'Photo', 'v1.2', 'x.md', 'x'];
    for (const link of links) {
      const target = resolver.resolve(link, 'src.md');
      if (target === null) continue;
      const file = foldName(target.slice(target.lastIndexOf('/') + 1));
      expect(fileNamesForKey(linkKey(link, '.md'), '.md')).toContain(file);
      expect(keysForFile(file, '.md')).toContain(linkKey(link, '.md'));
    }
  });
});
