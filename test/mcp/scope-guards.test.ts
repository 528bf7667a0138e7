/**
 * Scope guards, all three forms (SPEC 17.1, issue 32): besides in_folder, `exact_folder` (directly in
 * that folder) and `not_in_folders` (refused when inside any) on every tool that writes, moves or
 * deletes, refused with `out_of_scope` and nothing written.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { openTestVault, snapshot, type TestVault } from '../helpers/vault.js';

let vaults: TestVault[] = [];
afterEach(async () => {
  for (const v of vaults) await v.close();
  vaults = [];
});

const FILES = {
  'inbox/idea.md': 'idea\n',
  'inbox/sub/deep.md': 'deep\n',
  'archive/old.md': 'old\n',
  'archive/2024/older.md': 'older\n',
  'top.md': 'top\n',
};

async function open(): Promise<TestVault> {
  const v = await openTestVault(FILES);
  vaults.push(v);
  return v;
}

async function refused(v: TestVault, tool: string, args: Record<string, unknown>, guard: string) {
  const before = snapshot(v.dir);
  const r = await v.call(tool, args);
  expect(r.isError, `${tool}: ${r.text}`).toBe(true);
  expect(r.structured.code, `${tool}: ${r.text}`).toBe('out_of_scope');
  expect(r.structured.committed).toBe(false);
  expect(r.structured.guard).toBe(guard);
  expect(r.text).toContain(guard);
  expect(snapshot(v.dir), `${tool} wrote nothing`).toEqual(before);
}

describe('exact_folder', () => {
  it('a note directly in the folder may be written; one in a sub-folder or elsewhere is refused', async () => {
    const v = await open();
    const ok = await v.call('update_note', { name: 'inbox/idea', content: 'new\n', exact_folder: 'inbox' });
    expect(ok.isError, ok.text).toBe(false);
    await refused(v, 'update_note', { name: 'deep', content: 'x', exact_folder: 'inbox' }, 'exact_folder');
    await refused(v, 'delete_note', { name: 'old', exact_folder: 'inbox' }, 'exact_folder');
    await refused(
      v,
      'create_note',
      { name: 'inbox/sub/new', content: 'x', exact_folder: 'Inbox/' },
      'exact_folder',
    );
    const created = await v.call('create_note', { name: 'inbox/new', content: 'x', exact_folder: 'Inbox/' });
    expect(created.isError, created.text).toBe(false);
  });

  it('"" or "/" is the top of the vault', async () => {
    const v = await open();
    expect((await v.call('update_note', { name: 'top', content: 't\n', exact_folder: '/' })).isError).toBe(
      false,
    );
    await refused(v, 'update_note', { name: 'idea', content: 'x', exact_folder: '' }, 'exact_folder');
  });

  it('a move needs both ends directly in the folder', async () => {
    const v = await open();
    await refused(
      v,
      'move_note',
      { name: 'inbox/idea', new_name: 'inbox/sub/idea', exact_folder: 'inbox' },
      'exact_folder',
    );
    const moved = await v.call('move_note', {
      name: 'inbox/idea',
      new_name: 'inbox/idea2',
      exact_folder: 'inbox',
    });
    expect(moved.isError, moved.text).toBe(false);
  });
});

describe('not_in_folders', () => {
  it('refuses a write inside any of the folders, at any depth, and allows the rest', async () => {
    const v = await open();
    const guard = { not_in_folders: ['archive', 'private'] };
    await refused(v, 'update_note', { ...guard, name: 'older', content: 'x' }, 'not_in_folders');
    await refused(v, 'delete_note', { ...guard, name: 'archive/old' }, 'not_in_folders');
    await refused(v, 'create_note', { ...guard, name: 'ARCHIVE/new', content: 'x' }, 'not_in_folders');
    const ok = await v.call('update_note', { ...guard, name: 'idea', content: 'fine\n' });
    expect(ok.isError, ok.text).toBe(false);
  });

  it('a move into one of the folders is refused, and a batch with one item inside is refused whole', async () => {
    const v = await open();
    await refused(
      v,
      'move_note',
      { name: 'inbox/idea', new_name: 'archive/idea', not_in_folders: ['archive'] },
      'not_in_folders',
    );
    await refused(
      v,
      'delete_notes',
      { items: [{ name: 'inbox/idea' }, { name: 'archive/old' }], not_in_folders: ['archive'] },
      'not_in_folders',
    );
  });

  it('whole segments only: archive does not keep out archived/', async () => {
    const v = await open();
    const r = await v.call('create_note', { name: 'archived/x', content: 'x', not_in_folders: ['archive'] });
    expect(r.isError, r.text).toBe(false);
  });

  it('the vault root cannot be kept out of: refused with a clear error, nothing written', async () => {
    const v = await open();
    const before = snapshot(v.dir);
    const r = await v.call('update_note', { name: 'idea', content: 'x', not_in_folders: ['/'] });
    expect(r.structured.code).toBe('validation_error');
    expect(r.text).toContain('not_in_folders cannot name the vault root');
    expect(snapshot(v.dir)).toEqual(before);
  });
});

it('in_folder, exact_folder and not_in_folders together: each must hold', async () => {
  const v = await open();
  const guards = { in_folder: 'archive', exact_folder: 'archive/2024', not_in_folders: ['archive/2024'] };
  await refused(v, 'update_note', { ...guards, name: 'older', content: 'x' }, 'not_in_folders');
});

describe('delete_note copied_to (SPEC 17.1)', () => {
  it('deletes when the copy exists with the same body (its frontmatter may differ)', async () => {
    const v = await openTestVault({
      'a.md': '---\ntags: [x]\n---\nThe text.\n',
      'b.md': '---\nmoved: true\n---\nThe text.\n',
    });
    vaults.push(v);
    const r = await v.call('delete_note', { name: 'a', copied_to: 'b' });
    expect(r.isError, r.text).toBe(false);
    expect(r.structured.trashId).toBeTypeOf('string');
  });

  it('is refused with conflict, nothing deleted, when the copy is missing, hidden, differs or is the note itself', async () => {
    const v = await openTestVault({
      'a.md': 'The text.\n',
      'other.md': 'Another text.\n',
      'private/b.md': 'The text.\n',
      '.noted/mcp-policy.yaml': 'default: read-write\nfolders:\n  private: hidden\n',
    });
    vaults.push(v);
    for (const copied_to of ['nowhere', 'private/b', 'other', 'a']) {
      const before = snapshot(v.dir);
      const r = await v.call('delete_note', { name: 'a', copied_to });
      expect(r.isError, copied_to).toBe(true);
      expect(r.structured.code, r.text).toBe('conflict');
      expect(r.structured.committed).toBe(false);
      expect(r.text).toContain('was not deleted');
      // A hidden copy answers exactly as a missing one.
      if (copied_to === 'private/b') expect(r.text).toContain('its copy "private/b" does not exist');
      expect(snapshot(v.dir)).toEqual(before);
    }
  });
});
