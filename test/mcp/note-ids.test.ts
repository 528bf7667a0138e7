/**
 * Note ids (SPEC 17.3): every result naming a note gives its id, every tool taking a note's name takes
 * its id instead, and the id follows the note through the server's moves, renames made outside (the
 * watcher pairs them as list_changes does), and restarts; a rebuilt index answers an old id not_found
 * saying ids were reset, and a hidden note's id answers exactly like an unknown one.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { noteIdAt } from '../../src/index/store/note-ids.js';
import { type Connection, connect, openTestVault, type TestVault, within } from '../helpers/vault.js';

let vaults: TestVault[] = [];
let extra: Connection[] = [];
afterEach(async () => {
  for (const c of extra) await c.close();
  extra = [];
  for (const v of vaults) await v.close();
  vaults = [];
});

async function open(files: Record<string, string>, watch = false): Promise<TestVault> {
  const v = await openTestVault(files, { watch });
  vaults.push(v);
  return v;
}

async function idOf(c: Connection, name: string): Promise<string> {
  const r = await c.call('read_note', { name });
  expect(r.isError, r.text).toBe(false);
  expect(r.structured.id).toMatch(/^n[0-9a-z]{5,15}$/);
  return r.structured.id as string;
}

async function readById(c: Connection, id: string) {
  return c.call('read_note', { id });
}

describe('note ids', () => {
  it('results give ids; a note is read, outlined and written by id', async () => {
    const v = await open({ 'a.md': '# A\n\nalpha [[b]]\n', 'b.md': 'beta\n' });
    const a = await idOf(v, 'a');
    const b = await idOf(v, 'b');
    expect(a).not.toBe(b);
    const listed = await v.call('list_notes', {});
    const pairs = listed.structured.notes.map((n: { name: string; id: string }) => [n.name, n.id]);
    expect(pairs.sort()).toEqual([
      ['a.md', a],
      ['b.md', b],
    ]);
    const read = await readById(v, a);
    expect(read.isError, read.text).toBe(false);
    expect(read.structured.name).toBe('a.md');
    expect(read.structured.body).toContain('alpha');
    const outline = await v.call('get_note_outline', { id: a });
    expect(outline.isError, outline.text).toBe(false);
    const written = await v.call('update_note', { id: b, content: 'beta two\n' });
    expect(written.isError, written.text).toBe(false);
    expect(written.structured).toMatchObject({ name: 'b.md', id: b });
    expect(fs.readFileSync(path.join(v.dir, 'b.md'), 'utf8')).toBe('beta two\n');
  });

  it('every result that names a note gives its id', async () => {
    const v = await open({
      'a.md': '---\ntags: [t]\n---\nalpha [[b]]\n- [ ] task one\n',
      'b.md': 'beta\n',
    });
    const a = await idOf(v, 'a');
    const b = await idOf(v, 'b');
    const cursor = (await v.call('list_changes', {})).structured.nextCursor;
    const hits = await v.call('search_notes', { query: 'alpha' });
    expect(hits.structured.results.map((h: { id: string }) => h.id)).toEqual([a]);
    const tagged = await v.call('list_by_tag', { tag: 't' });
    expect(tagged.structured.notes[0]).toMatchObject({ name: 'a.md', id: a });
    const back = await v.call('get_backlinks', { id: b });
    expect(back.structured).toMatchObject({ name: 'b.md', id: b, backlinks: [{ name: 'a.md', id: a }] });
    const out = await v.call('get_outgoing_links', { id: a });
    expect(out.structured).toMatchObject({ name: 'a.md', id: a, links: [{ target: 'b.md', targetId: b }] });
    const props = await v.call('get_properties', { id: a });
    expect(props.structured).toMatchObject({ name: 'a.md', id: a });
    const tasks = await v.call('list_tasks', {});
    expect(tasks.structured.tasks[0]).toMatchObject({ note: 'a.md', noteId: a });
    const ticked = await v.call('update_task', {
      id: tasks.structured.tasks[0].noteId,
      line: tasks.structured.tasks[0].line,
      done: true,
      expected_etag: tasks.structured.tasks[0].etag,
    });
    expect(ticked.isError, ticked.text).toBe(false);
    expect(ticked.structured).toMatchObject({ name: 'a.md', id: a });
    const created = await v.call('create_note', { name: 'c', content: 'gamma\n' });
    expect(created.structured.id).toMatch(/^n/);
    const plan = await v.call('move_note', { id: b, new_name: 'b2', dry_run: true });
    expect(plan.structured).toMatchObject({ dryRun: true, id: b });
    const moved = await v.call('move_note', { id: b, new_name: 'b2' });
    expect(moved.structured).toMatchObject({ name: 'b.md', newName: 'b2.md', id: b });
    const batch = await v.call('move_notes', { items: [{ id: b, new_name: 'b3' }] });
    expect(batch.structured.results[0]).toMatchObject({ newName: 'b3.md', id: b });
    const changes = await v.call('list_changes', { cursor });
    const entries = changes.structured.changes as { kind: string; name: string; id?: string }[];
    expect(entries.filter((c) => c.kind === 'moved').map((c) => [c.name, c.id])).toEqual([
      ['b2.md', undefined],
      ['b3.md', b],
    ]);
    expect(entries.find((c) => c.name === 'c.md')?.id).toBe(created.structured.id);
  });

  it('list_bases gives the id of a note holding a base block, none for a .base file', async () => {
    const v = await open({
      'books.base': 'views:\n  - type: table\n    name: All\n',
      'reading.md': '# Reading\n\n```base\nviews:\n  - type: list\n    name: Now\n```\n',
    });
    const bases = (await v.call('list_bases', {})).structured.bases as { name: string; id?: string }[];
    expect(bases.map((b) => [b.name, b.id])).toEqual([
      ['books.base', undefined],
      ['reading.md', await idOf(v, 'reading')],
    ]);
    expect((await v.call('list_bases', { folder: 'nowhere' })).text).toContain('No bases in "nowhere".');
  });

  it('the id survives move_note, move_folder and a restart', async () => {
    const v = await open({ 'a.md': 'alpha\n', 'dir/c.md': 'gamma\n', 'dir/d.md': 'delta\n' });
    const a = await idOf(v, 'a');
    const c = await idOf(v, 'dir/c');
    const moved = await v.call('move_note', { id: a, new_name: 'archive/a2' });
    expect(moved.isError, moved.text).toBe(false);
    expect((await readById(v, a)).structured.name).toBe('archive/a2.md');
    const folder = await v.call('move_folder', { folder: 'dir', new_folder: 'place' });
    expect(folder.isError, folder.text).toBe(false);
    expect((await readById(v, c)).structured.name).toBe('place/c.md');
    await v.opened.close();
    const again = await connect(v.dir);
    extra.push(again);
    expect((await readById(again, a)).structured.name).toBe('archive/a2.md');
    expect((await readById(again, c)).structured.name).toBe('place/c.md');
    expect(await idOf(again, 'place/d')).not.toBe(c);
  });

  it('the id follows a rename made outside while the server runs (the watcher pairs it)', async () => {
    const v = await open({ 'a.md': 'alpha\n', 'other.md': 'o\n' }, true);
    const a = await idOf(v, 'a');
    fs.mkdirSync(path.join(v.dir, 'elsewhere'));
    fs.renameSync(path.join(v.dir, 'a.md'), path.join(v.dir, 'elsewhere/renamed.md'));
    let name = '';
    const seen = await within(15_000, async () => {
      const r = await readById(v, a);
      name = r.isError ? '' : r.structured.name;
      return name === 'elsewhere/renamed.md';
    });
    expect(seen, name).not.toBeNull();
  });

  it('a rename made while no server ran keeps the id at the next start', async () => {
    const v = await open({ 'a.md': 'alpha\n' });
    const a = await idOf(v, 'a');
    await v.opened.close();
    fs.renameSync(path.join(v.dir, 'a.md'), path.join(v.dir, 'a-renamed.md'));
    const again = await connect(v.dir);
    extra.push(again);
    expect((await readById(again, a)).structured.name).toBe('a-renamed.md');
  });

  it('an index rebuilt from nothing gives new ids; an old one answers not_found saying ids were reset', async () => {
    const v = await open({ 'a.md': 'alpha\n' });
    const a = await idOf(v, 'a');
    await v.opened.close();
    for (const f of fs.readdirSync(path.join(v.dir, '.noted'))) {
      if (f.startsWith('index.sqlite')) fs.rmSync(path.join(v.dir, '.noted', f));
    }
    const again = await connect(v.dir);
    extra.push(again);
    const r = await readById(again, a);
    expect(r.isError).toBe(true);
    expect(r.structured.code).toBe('not_found');
    expect(r.structured.message).toContain('rebuilt');
    expect(r.structured.message).toContain('search_notes');
    expect(await idOf(again, 'a')).not.toBe(a);
  });

  it("a hidden note's id answers exactly like an unknown one", async () => {
    const v = await open({
      'open/a.md': 'a\n',
      'private/s.md': 'secret\n',
      '.noted/mcp-policy.yaml': 'folders:\n  private: hidden\n',
    });
    const a = await idOf(v, 'open/a');
    const secret = noteIdAt(v.opened.access.ctx.index.db, 'private/s.md') as string;
    expect(secret).toMatch(/^n/);
    // The owner moves the note the agent knew into the hidden folder.
    fs.renameSync(path.join(v.dir, 'open/a.md'), path.join(v.dir, 'private/a.md'));
    v.opened.access.ctx.index.touched(['open/a.md', 'private/a.md']);
    for (const id of [secret, a]) {
      for (const tool of ['read_note', 'get_note_outline', 'get_backlinks', 'get_properties']) {
        const r = await v.call(tool, { id });
        expect(r.isError).toBe(true);
        expect(r.structured).toEqual({
          code: 'not_found',
          message: expect.stringContaining(`No note has the id "${id}"`),
          id,
        });
        expect(JSON.stringify(r.structured) + r.text).not.toContain('private');
      }
    }
    // Byte for byte as an id no note has (the same id shape, the note's key far past any made).
    const unknown = await readById(v, 'nzzzzzzzz');
    const hidden = await readById(v, secret);
    expect(hidden.structured.message.replace(secret, 'X')).toBe(
      unknown.structured.message.replace('nzzzzzzzz', 'X'),
    );
  });

  it('bad ids and bad combinations get clear errors', async () => {
    const v = await open({ 'a.md': 'alpha\n' });
    const a = await idOf(v, 'a');
    const both = await v.call('read_note', { name: 'a', id: a });
    expect(both.structured.code).toBe('validation_error');
    expect(both.structured.message).toContain('not both');
    const neither = await v.call('read_note', {});
    expect(neither.structured.code).toBe('validation_error');
    expect(neither.structured.message).toContain('pass name');
    for (const bad of ['', 'garbage!', 'N12345', 'n1', `n${'a'.repeat(20)}`]) {
      const r = await v.call('read_note', { id: bad });
      expect(r.isError, bad).toBe(true);
      expect(r.structured.code, bad).toBe('validation_error');
      expect(r.structured.message, bad).toContain('not a note id');
    }
    const huge = await v.call('read_note', { id: 'n'.repeat(100_000) });
    expect(huge.isError).toBe(true);
    expect(huge.text.length).toBeLessThan(2000);
    const typed = await v.call('read_note', { id: 12345 });
    expect(typed.isError).toBe(true);
    expect(typed.text).toMatch(/id/);
    // A well-formed id with the wrong tag is no note of this index.
    const wrongTag = `${a.slice(0, -4)}${a.endsWith('zzzz') ? 'yyyy' : 'zzzz'}`;
    const r = await readById(v, wrongTag);
    expect(r.structured.code).toBe('not_found');
  });

  it('the id of a link into a folder that became hidden answers as the id of a deleted note', async () => {
    const v = await openTestVault(
      { 'private/secret.md': 'secret words\n', 'open/gone.md': 'gone\n' },
      { prepare: (dir) => fs.symlinkSync('../private/secret.md', path.join(dir, 'open', 'link.md')) },
    );
    vaults.push(v);
    const link = await idOf(v, 'open/link');
    const gone = await idOf(v, 'open/gone');
    expect((await v.call('delete_note', { name: 'open/gone' })).isError).toBe(false);
    fs.writeFileSync(path.join(v.dir, '.noted', 'mcp-policy.yaml'), 'folders:\n  private: hidden\n');
    const hidden = await readById(v, link);
    const deleted = await readById(v, gone);
    expect(deleted.structured.code).toBe('not_found');
    expect(hidden.structured.code).toBe('not_found');
    expect(hidden.text.replaceAll(link, 'ID')).toBe(deleted.text.replaceAll(gone, 'ID'));
    expect(hidden.text).not.toContain('private');
  });
});
