/**
 * in_folder (SPEC 12.5): every tool that writes, moves or deletes takes it; a note (for moves: the
 * source and the destination; for batches: every item) outside the folder is refused with
 * `out_of_scope`, and nothing is written.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openTestVault, snapshot, type TestVault } from '../helpers/vault.js';

let vaults: TestVault[] = [];
afterEach(async () => {
  for (const v of vaults) await v.close();
  vaults = [];
});

const FILES = {
  'projects/alpha/plan.md': '# Plan\n\n## Risks\n\nnone\n',
  'inbox/todo.md': '- [ ] call Ann\n',
  'projects/alpha/other.md': 'other\n',
  'inbox/idea.md': 'idea\n',
  'projectsX/near.md': 'near\n',
};

async function open(): Promise<TestVault> {
  const v = await openTestVault(FILES);
  vaults.push(v);
  return v;
}

async function etag(v: TestVault, name: string): Promise<string> {
  return (await v.call('read_note', { name })).structured.etag;
}

async function refusedOutOfScope(v: TestVault, tool: string, args: Record<string, unknown>) {
  const before = snapshot(v.dir);
  const r = await v.call(tool, args);
  expect(r.isError, `${tool}: ${r.text}`).toBe(true);
  expect(r.structured.code, `${tool}: ${r.text}`).toBe('out_of_scope');
  expect(r.structured.committed).toBe(false);
  expect(r.text).toContain('in_folder');
  expect(snapshot(v.dir), `${tool} wrote nothing`).toEqual(before);
}

describe('in_folder', () => {
  it('a bare name that resolves outside the folder is refused by every single-note write', async () => {
    const v = await open();
    const ideaEtag = await etag(v, 'inbox/idea');
    const scope = { in_folder: 'projects' };
    await refusedOutOfScope(v, 'update_note', { ...scope, name: 'idea', content: 'x' });
    await refusedOutOfScope(v, 'edit_note', {
      ...scope,
      name: 'idea',
      expected_etag: ideaEtag,
      operation: 'replace',
      old_text: 'idea',
      new_text: 'x',
    });
    await refusedOutOfScope(v, 'delete_note', { ...scope, name: 'idea' });
    await refusedOutOfScope(v, 'create_note', { ...scope, name: 'inbox/new', content: 'x' });
    await refusedOutOfScope(v, 'create_note', { ...scope, title: 'At the root', content: 'x' });
    await refusedOutOfScope(v, 'create_agent_workflow', {
      ...scope,
      title: 'Flow',
      name: 'inbox/flow',
      states: ['a', 'b'],
    });
  });

  it('update_task and get_daily_note (SPEC 13.2, 13.3) are guarded like every other write', async () => {
    const v = await open();
    const todo = await etag(v, 'inbox/todo');
    await refusedOutOfScope(v, 'update_task', {
      in_folder: 'projects',
      name: 'todo',
      line: 1,
      expected_etag: todo,
      done: true,
    });
    // The daily note lives at the vault root by default: outside projects/.
    await refusedOutOfScope(v, 'get_daily_note', { in_folder: 'projects', create: true });
    const inside = await v.call('update_task', {
      in_folder: 'inbox',
      name: 'todo',
      line: 1,
      expected_etag: todo,
      done: true,
    });
    expect(inside.isError, inside.text).toBe(false);
    expect(fs.readFileSync(path.join(v.dir, 'inbox/todo.md'), 'utf8')).toBe('- [x] call Ann\n');
  });

  it('whole path segments only, case and separators as in the policy: projectsX is not in projects', async () => {
    const v = await open();
    await refusedOutOfScope(v, 'update_note', { in_folder: 'projects', name: 'near', content: 'x' });
    const r = await v.call('update_note', {
      in_folder: 'Projects\\Alpha\\',
      name: 'plan',
      content: '# Plan\n',
    });
    expect(r.isError, r.text).toBe(false);
    expect(fs.readFileSync(path.join(v.dir, 'projects/alpha/plan.md'), 'utf8')).toBe('# Plan\n');
  });

  it('inside the folder every write works as before', async () => {
    const v = await open();
    const scope = { in_folder: 'projects/alpha' };
    expect(
      (await v.call('create_note', { ...scope, name: 'projects/alpha/new', content: 'n' })).isError,
    ).toBe(false);
    const e = await etag(v, 'projects/alpha/plan');
    const edit = await v.call('edit_note', {
      ...scope,
      name: 'plan',
      expected_etag: e,
      operation: 'append_to_section',
      heading: 'Risks',
      content: 'one',
    });
    expect(edit.isError, edit.text).toBe(false);
    const moved = await v.call('move_note', {
      ...scope,
      name: 'other',
      new_name: 'projects/alpha/sub/other',
    });
    expect(moved.isError, moved.text).toBe(false);
    const deleted = await v.call('delete_note', { ...scope, name: 'projects/alpha/new' });
    expect(deleted.isError, deleted.text).toBe(false);
    const restored = await v.call('restore_note', { ...scope, name: 'projects/alpha/new' });
    expect(restored.isError, restored.text).toBe(false);
  });

  it('a move needs both ends inside: a destination outside is refused, and a source outside', async () => {
    const v = await open();
    await refusedOutOfScope(v, 'move_note', {
      in_folder: 'projects',
      name: 'projects/alpha/plan',
      new_name: 'inbox/plan',
    });
    await refusedOutOfScope(v, 'move_note', {
      in_folder: 'projects',
      name: 'idea',
      new_name: 'projects/idea',
    });
    await refusedOutOfScope(v, 'move_folder', {
      in_folder: 'projects',
      folder: 'projects/alpha',
      new_folder: 'archive/alpha',
    });
    await refusedOutOfScope(v, 'move_folder', {
      in_folder: 'projects',
      folder: 'inbox',
      new_folder: 'projects/inbox',
    });
    await refusedOutOfScope(v, 'create_folder', { in_folder: 'projects', folder: 'inbox/sub' });
    await refusedOutOfScope(v, 'delete_folder', {
      in_folder: 'projects',
      folder: 'projectsX',
      dry_run: true,
    });
  });

  it('a batch with one item outside is refused whole: the items inside are not done either', async () => {
    const v = await open();
    await refusedOutOfScope(v, 'delete_notes', {
      in_folder: 'projects',
      items: [{ name: 'projects/alpha/other' }, { name: 'idea' }],
    });
    await refusedOutOfScope(v, 'move_notes', {
      in_folder: 'projects',
      items: [
        { name: 'projects/alpha/other', new_name: 'projects/b/other' },
        { name: 'projects/alpha/plan', new_name: 'inbox/plan' },
      ],
    });
    const ok = await v.call('delete_notes', {
      in_folder: 'projects',
      items: [{ name: 'projects/alpha/other' }],
    });
    expect(ok.structured.committedCount).toBe(1);
  });

  it('a symbolic link inside the folder that leads outside is outside', async () => {
    const v = await open();
    fs.symlinkSync(path.join(v.dir, 'inbox/idea.md'), path.join(v.dir, 'projects/link.md'));
    await refusedOutOfScope(v, 'update_note', {
      in_folder: 'projects',
      name: 'projects/link.md',
      content: 'overwritten through a link',
    });
  });

  it('a hidden note is still reported as missing, not as out of scope', async () => {
    const v = await openTestVault({
      ...FILES,
      'private/secret.md': 's\n',
      '.noted/mcp-policy.yaml': 'folders:\n  private: hidden\n',
    });
    vaults.push(v);
    const r = await v.call('update_note', { in_folder: 'projects', name: 'secret', content: 'x' });
    expect(r.structured.code).toBe('not_found');
  });

  it('an invalid in_folder is refused before anything is read', async () => {
    const v = await open();
    const r = await v.call('update_note', { in_folder: '../outside', name: 'plan', content: 'x' });
    expect(r.structured.code).toBe('invalid_name');
  });
});
