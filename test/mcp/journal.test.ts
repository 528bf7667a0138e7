import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Journal } from '../../src/journal/journal.js';
import { openTestVault, readBytes, type TestVault, testJournalKey } from '../helpers/vault.js';

let vault: TestVault;
afterEach(async () => vault?.close());

function journalOf(v: TestVault): Journal {
  return new Journal(v.opened.vault, { now: () => new Date(), key: testJournalKey() });
}

describe('every agent write is journaled before it is made (SPEC 6.1)', () => {
  it('records create, update, edit, delete and restore with the client, tool and both texts', async () => {
    vault = await openTestVault({ 'a.md': 'alpha\n' });
    const created = await vault.call('create_note', { name: 'b', content: 'bravo\n' });
    const read = await vault.call('read_note', { name: 'a' });
    await vault.call('update_note', { name: 'a', content: 'alpha 2\n', expected_etag: read.structured.etag });
    const again = await vault.call('read_note', { name: 'a' });
    await vault.call('edit_note', {
      name: 'a',
      operation: 'replace',
      old_text: 'alpha 2',
      new_text: 'alpha 3',
      expected_etag: again.structured.etag,
    });
    await vault.call('delete_note', { name: 'b', expected_etag: created.structured.etag });
    await vault.call('restore_note', { name: 'b' });

    const journal = journalOf(vault);
    const entries = journal.list().reverse();
    expect(entries.map((e) => [e.tool, e.kind, e.note])).toEqual([
      ['create_note', 'create', 'b.md'],
      ['update_note', 'update', 'a.md'],
      ['edit_note', 'update', 'a.md'],
      ['delete_note', 'delete', 'b.md'],
      ['restore_note', 'restore', 'b.md'],
    ]);
    for (const e of entries) expect(e.client).toBe('noted-test');
    expect(new Set(entries.map((e) => e.session)).size).toBe(1);
    const edit = entries[2];
    expect(journal.textOf(edit?.beforeSha256 as string)).toBe('alpha 2\n');
    expect(journal.textOf(edit?.afterSha256 as string)).toBe('alpha 3\n');
    expect(journal.verify()).toMatchObject({ ok: true, entries: 5 });
  });

  it('does not record reads, refused writes or writes that change nothing', async () => {
    vault = await openTestVault({ 'a.md': 'alpha\n' });
    const read = await vault.call('read_note', { name: 'a' });
    await vault.call('search_notes', { query: 'alpha' });
    await vault.call('update_note', { name: 'a', content: 'alpha\n', expected_etag: read.structured.etag });
    await vault.call('update_note', { name: 'a', content: 'x', expected_etag: 'sha256:stale' });
    await vault.call('create_note', { name: 'a', content: 'dup' });
    await vault.call('edit_note', {
      name: 'a',
      operation: 'replace',
      old_text: 'nowhere',
      new_text: 'x',
      expected_etag: read.structured.etag,
    });
    expect(journalOf(vault).list()).toEqual([]);
  });

  it('when the journal cannot be written, the note is not changed and the agent is told why', async () => {
    vault = await openTestVault({ 'a.md': 'alpha\n' });
    const journalDir = path.join(vault.dir, '.noted', 'journal');
    fs.rmSync(journalDir, { recursive: true, force: true });
    // A file where the journal folder should be: every append fails, as on a full or read-only disk.
    fs.writeFileSync(journalDir, 'not a folder');
    const read = await vault.call('read_note', { name: 'a' });
    const update = await vault.call('update_note', {
      name: 'a',
      content: 'changed\n',
      expected_etag: read.structured.etag,
    });
    expect(update.isError).toBe(true);
    expect(update.structured.committed).toBe(false);
    expect(update.structured.message).toMatch(/journal could not be written/i);
    expect(readBytes(vault.dir, 'a.md')?.toString()).toBe('alpha\n');
    const created = await vault.call('create_note', { name: 'new', content: 'x' });
    expect(created.isError).toBe(true);
    expect(fs.existsSync(path.join(vault.dir, 'new.md'))).toBe(false);
    const deleted = await vault.call('delete_note', { name: 'a' });
    expect(deleted.isError).toBe(true);
    expect(readBytes(vault.dir, 'a.md')?.toString()).toBe('alpha\n');
  });

  it('an agent change can be undone from the journal, and the undo is journaled too', async () => {
    vault = await openTestVault({ 'a.md': 'alpha\n' });
    const read = await vault.call('read_note', { name: 'a' });
    await vault.call('update_note', {
      name: 'a',
      content: 'rewritten\n',
      expected_etag: read.structured.etag,
    });
    const journal = journalOf(vault);
    const [entry] = journal.list();
    const result = await journal.undo({ entry: entry?.id as string }, { session: 'cli', client: 'owner' });
    expect(result.outcomes.map((o) => o.outcome)).toEqual(['undone']);
    expect(readBytes(vault.dir, 'a.md')?.toString()).toBe('alpha\n');
    expect(journal.list()[0]).toMatchObject({ kind: 'undo', undoOf: entry?.id });
  });
});

describe('a journal that cannot be written names no path of this machine (SPEC 17.7, issue 32)', () => {
  const day = () => {
    const d = new Date();
    const pad = (n: number) => String(n).padStart(2, '0');
    return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
  };
  const breakages: [string, (dir: string) => void][] = [
    [
      "the day's journal file is a folder",
      (dir) => {
        for (const d of [day(), new Date().toISOString().slice(0, 10)])
          fs.mkdirSync(path.join(dir, '.noted/journal', `${d}.jsonl`), { recursive: true });
      },
    ],
    [
      'the journal folder is a file',
      (dir) => {
        fs.rmSync(path.join(dir, '.noted/journal'), { recursive: true, force: true });
        fs.writeFileSync(path.join(dir, '.noted/journal'), 'not a folder');
      },
    ],
  ];
  for (const [what, breakIt] of breakages) {
    it(`${what}: create_note is refused, committed false, with the journal named inside the vault`, async () => {
      vault = await openTestVault({ 'a.md': 'a' });
      breakIt(vault.dir);
      const r = await vault.call('create_note', { name: 'b', content: 'b' });
      expect(r.isError).toBe(true);
      expect(r.structured.committed).toBe(false);
      expect(r.text).toContain('.noted/journal');
      const everything = r.text + JSON.stringify(r.structured);
      expect(everything).not.toContain(vault.base);
      expect(everything).not.toContain(fs.realpathSync(vault.base));
      expect(fs.existsSync(path.join(vault.dir, 'b.md'))).toBe(false);
    });
  }
});
