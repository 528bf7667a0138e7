/**
 * Note ids (SPEC 17.3) in the results the first pass left without them: query_notes rows ($id, beside
 * the columns, so a frontmatter property called id stays a column), query_base rows, export_notes,
 * list_links, deletions and restores, move_folder's notes, and the links a move made resolve
 * (nowResolved). And a batch given an id that names no note refuses that item alone.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { noteIdAt } from '../../src/index/store/note-ids.js';
import { openTestVault, type TestVault } from '../helpers/vault.js';

let vaults: TestVault[] = [];
afterEach(async () => {
  for (const v of vaults) await v.close();
  vaults = [];
});

async function open(files: Record<string, string>): Promise<TestVault> {
  const v = await openTestVault(files);
  vaults.push(v);
  return v;
}

async function idOf(v: TestVault, name: string): Promise<string> {
  const r = await v.call('read_note', { name });
  expect(r.isError, r.text).toBe(false);
  expect(r.structured.id).toMatch(/^n[0-9a-z]{5,15}$/);
  return r.structured.id as string;
}

const BASE = ['views:', '  - type: table', '    name: all', '    order: [file.name, status]', ''].join('\n');

describe('ids in every result that names a note', () => {
  it('query_notes rows carry $id beside the columns; a frontmatter id stays a column', async () => {
    const v = await open({
      'a.md': '---\nstatus: active\nid: my-own-id\n---\nalpha\n',
      'b.md': '---\nstatus: done\n---\nbeta\n',
    });
    const a = await idOf(v, 'a');
    const b = await idOf(v, 'b');
    const r = await v.call('query_notes', { columns: ['status', 'id'] });
    expect(r.isError, r.text).toBe(false);
    expect(r.structured.rows).toEqual([
      { name: 'a.md', $id: a, status: 'active', id: 'my-own-id' },
      { name: 'b.md', $id: b, status: 'done', id: null },
    ]);
    // $id is no column to ask for: it is on every row already.
    const asked = await v.call('query_notes', { columns: ['$id'] });
    expect(asked.structured.code).toBe('validation_error');
  });

  it('query_base rows and export_notes give each note its id; a row that is no note has none', async () => {
    const v = await open({
      'a.md': '---\nstatus: active\n---\nalpha\n',
      'b.md': 'beta\n',
      'Reading.base': BASE,
    });
    const a = await idOf(v, 'a');
    const b = await idOf(v, 'b');
    const base = await v.call('query_base', { base: 'Reading.base' });
    expect(base.isError, base.text).toBe(false);
    const rows = base.structured.groups.flatMap((g: { rows: { name: string; id?: string }[] }) => g.rows);
    expect(rows.map((r: { name: string; id?: string }) => [r.name, r.id])).toEqual([
      ['a.md', a],
      ['b.md', b],
      ['Reading.base', undefined],
    ]);
    for (const format of ['json', 'markdown', 'html']) {
      const out = await v.call('export_notes', { format });
      expect(out.isError, out.text).toBe(false);
      expect(
        out.structured.notes.map((n: { name: string; id: string }) => [n.name, n.id]),
        format,
      ).toEqual([
        ['a.md', a],
        ['b.md', b],
      ]);
    }
  });

  it('list_links names the note holding an unresolved link, and each orphan, with its id', async () => {
    const v = await open({ 'a.md': 'see [[nowhere]]\n', 'b.md': '[[a]]\n' });
    const a = await idOf(v, 'a');
    const b = await idOf(v, 'b');
    const unresolved = await v.call('list_links', { kind: 'unresolved' });
    expect(unresolved.structured.links).toMatchObject([{ source: 'a.md', sourceId: a, target: 'nowhere' }]);
    const orphans = await v.call('list_links', { kind: 'orphans' });
    expect(orphans.structured.notes).toEqual([{ name: 'b.md', id: b }]);
  });

  it('a deletion gives the id the note had; a restored note gets a new one', async () => {
    const v = await open({ 'a.md': 'alpha\n', 'b.md': 'beta\n', 'c.md': 'gamma\n' });
    const a = await idOf(v, 'a');
    const b = await idOf(v, 'b');
    const gone = await v.call('delete_note', { id: a });
    expect(gone.isError, gone.text).toBe(false);
    expect(gone.structured).toMatchObject({ name: 'a.md', id: a });
    const batch = await v.call('delete_notes', { items: [{ id: b }, { name: 'c' }] });
    expect(batch.structured.results).toMatchObject([
      { name: 'b.md', id: b, committed: true },
      { name: 'c.md', committed: true },
    ]);
    expect(batch.structured.results[1].id).toMatch(/^n/);
    const back = await v.call('restore_note', { name: 'a' });
    expect(back.isError, back.text).toBe(false);
    expect(back.structured.id).toMatch(/^n/);
    expect(back.structured.id).not.toBe(a);
    expect((await v.call('read_note', { id: back.structured.id })).structured.name).toBe('a.md');
    expect((await v.call('read_note', { id: a })).structured.code).toBe('not_found');
  });

  it('move_folder lists the moved notes with their ids; nowResolved names both notes by id', async () => {
    const v = await open({
      'dir/c.md': 'gamma [[later]]\n',
      'x.md': 'see [[b2]]\n',
      'b.md': 'beta [[b2]]\n',
    });
    const c = await idOf(v, 'dir/c');
    const x = await idOf(v, 'x');
    const b = await idOf(v, 'b');
    const plan = await v.call('move_folder', { folder: 'dir', new_folder: 'place', dry_run: true });
    expect(plan.structured.notes).toEqual([{ name: 'dir/c.md', id: c, newName: 'place/c.md' }]);
    const folder = await v.call('move_folder', { folder: 'dir', new_folder: 'place' });
    expect(folder.structured.notes).toEqual([{ name: 'dir/c.md', newName: 'place/c.md', id: c }]);
    // Two links that named nothing find b once it is b2, one of them in b itself (named as it was).
    const moved = await v.call('move_note', { id: b, new_name: 'b2' });
    expect(moved.isError, moved.text).toBe(false);
    const resolved = [...moved.structured.nowResolved].sort((p: { note: string }, q: { note: string }) =>
      p.note < q.note ? -1 : 1,
    );
    expect(resolved).toMatchObject([
      { note: 'b.md', noteId: b, target: 'b2.md', targetId: b },
      { note: 'x.md', noteId: x, target: 'b2.md', targetId: b },
    ]);
    // In a batch, a note named before its move is followed through the moves after it.
    const later = await v.call('create_note', { name: 'y', content: 'see [[b3]]\n' });
    const y = later.structured.id;
    const batch = await v.call('move_notes', {
      items: [
        { id: b, new_name: 'b3' },
        { id: y, new_name: 'y2' },
      ],
    });
    expect(batch.structured.results[0].nowResolved).toMatchObject([
      { note: 'y.md', noteId: y, target: 'b3.md', targetId: b },
    ]);
  });

  it('a batch given an id that names no note, or a hidden one, refuses that item alone', async () => {
    const v = await open({
      'a.md': 'alpha\n',
      'b.md': 'beta\n',
      'private/s.md': 'secret\n',
      '.noted/mcp-policy.yaml': 'folders:\n  private: hidden\n',
    });
    const a = await idOf(v, 'a');
    const b = await idOf(v, 'b');
    const deleted = await v.call('delete_notes', { items: [{ id: a }] });
    expect(deleted.structured.results[0].committed).toBe(true);
    // An item giving both name and id, or neither, is a mistaken call: refused whole, nothing done.
    for (const item of [{ name: 'b', id: b }, {}]) {
      const wrong = await v.call('delete_notes', { items: [{ id: b }, item] });
      expect(wrong.structured.code).toBe('validation_error');
      expect(wrong.structured.message).toContain('items[1]');
      expect(wrong.structured.message).toContain('Nothing was done');
    }
    expect((await v.call('read_note', { id: b })).structured.name).toBe('b.md');
    // a's id names nothing now, nor does the third; the others are fine.
    const r = await v.call('delete_notes', { items: [{ id: a }, { id: 'nzzzzzzzz' }, { id: b }] });
    expect(r.isError, r.text).toBe(false);
    expect(r.structured.results).toMatchObject([
      { id: a, committed: false, code: 'not_found' },
      { id: 'nzzzzzzzz', committed: false, code: 'not_found' },
      { name: 'b.md', id: b, committed: true },
    ]);
    expect(r.structured.results[0].name).toBeUndefined();
    expect(r.text).toContain(`- ${a}: refused (not_found)`);
    // A hidden note's id is refused in the very words of an id no note has.
    const secret = noteIdAt(v.opened.access.ctx.index.db, 'private/s.md') as string;
    expect(secret).toMatch(/^n/);
    const moves = await v.call('move_notes', {
      items: [
        { id: secret, new_name: 'z' },
        { id: 'nzzzzzzzz', new_name: 'z' },
      ],
    });
    expect(moves.structured.results).toMatchObject([
      { id: secret, committed: false, code: 'not_found' },
      { id: 'nzzzzzzzz', committed: false, code: 'not_found' },
    ]);
    const [hidden, unknown] = moves.structured.results as { message: string }[];
    expect(hidden?.message.replace(secret, 'X')).toBe(unknown?.message.replace('nzzzzzzzz', 'X'));
    expect(JSON.stringify(moves.structured) + moves.text).not.toContain('private');
  });
});
