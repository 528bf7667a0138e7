import { afterEach, describe, expect, it } from 'vitest';
import { type IndexedVault, indexedVault } from '../indexed-vault.js';

const TABLES = ['note_tags', 'note_tag_prefixes', 'note_links', 'note_tasks', 'note_aliases', 'note_props'];

let vault: IndexedVault | undefined;
afterEach(() => {
  vault?.close();
  vault = undefined;
});

function rows(v: IndexedVault): Record<string, number> {
  return Object.fromEntries(
    TABLES.map((t) => [t, (v.db.prepare(`SELECT count(*) AS n FROM ${t}`).get() as { n: number }).n]),
  );
}

describe('IndexWriter keeps the derived tables in step with the note', () => {
  const text = '---\ntags: [a/b]\naliases: [Al]\nup: "[[X]]"\n---\n#c [[Y]]\n- [ ] task 📅 2026-01-01\n';

  it('writes one row set per note, replaces it on change and removes it with the note', () => {
    vault = indexedVault({ 'n.md': text });
    expect(rows(vault)).toEqual({
      note_tags: 2,
      note_tag_prefixes: 3,
      note_links: 2,
      note_tasks: 1,
      note_aliases: 1,
      note_props: 3,
    });
    vault.write('n.md', '---\ntags: [a/b]\n---\nplain text now, longer than before\n');
    expect(rows(vault)).toEqual({
      note_tags: 1,
      note_tag_prefixes: 2,
      note_links: 0,
      note_tasks: 0,
      note_aliases: 0,
      note_props: 1,
    });
    vault.remove('n.md');
    expect(Object.values(rows(vault))).toEqual([0, 0, 0, 0, 0, 0]);
  });

  it('stores a task as done for any status but a space (TSK-02)', () => {
    vault = indexedVault({ 'n.md': '- [ ] a\n- [x] b\n- [-] c\n' });
    expect(vault.db.prepare('SELECT status, done FROM note_tasks ORDER BY line').all()).toEqual([
      { status: ' ', done: 0 },
      { status: 'x', done: 1 },
      { status: '-', done: 1 },
    ]);
  });
});

describe('IndexWriter stores folded names', () => {
  it('stores the folded path, folder and file name of a note and an attachment, and folded task text', () => {
    // NFD accents, a final sigma before the slash, a dotted capital I (lower-cased to two code units).
    const folder = 'Straße/ΟΔΟΣ/İlk';
    vault = indexedVault({
      [`${folder}/Cafe\u0301 NOTE.md`]: '- [ ] Call İSTANBUL Cafe\u0301\n',
      [`${folder}/Pic\u0301.PNG`]: 'binary',
    });
    const fold = (s: string) => s.normalize('NFC').toLowerCase();
    expect(vault.db.prepare('SELECT path_lower, folder_lower, file_lower FROM notes').all()).toEqual([
      {
        path_lower: fold(`${folder}/Cafe\u0301 NOTE.md`),
        folder_lower: fold(folder),
        file_lower: fold('Cafe\u0301 NOTE.md'),
      },
    ]);
    expect(fold(folder)).toBe('straße/οδος/i̇lk');
    expect(vault.db.prepare('SELECT path_lower, file_lower FROM attachments').all()).toEqual([
      { path_lower: fold(`${folder}/Pic\u0301.PNG`), file_lower: fold('Pic\u0301.PNG') },
    ]);
    expect(vault.db.prepare('SELECT text_fold FROM note_tasks').all()).toEqual([
      { text_fold: fold('Call İSTANBUL Cafe\u0301') },
    ]);
  });
});
