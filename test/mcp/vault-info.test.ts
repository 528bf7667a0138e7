/**
 * get_vault_info (SPEC 12.4): counts as this agent may see the vault, its access per folder with
 * hidden folders never named, pending changes, the journal's state, the index state and the limits.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { openTestVault, type TestVault } from '../helpers/vault.js';

let vaults: TestVault[] = [];
afterEach(async () => {
  for (const v of vaults) await v.close();
  vaults = [];
});

it('orients an agent without naming what is hidden', async () => {
  const v = await openTestVault({
    'a.md': '#t1\n- [ ] one\n',
    'docs/b.md': '- [ ] two\n- [x] done\n#t2',
    'docs/img.png': 'png',
    'drafts/c.md': 'c',
    'secret-project/s.md': '#hiddentag - [ ] hidden task',
    'secret-project/s.png': 'png',
    '.noted/mcp-policy.yaml':
      'default: read-write\nfolders:\n  secret-project: hidden\n  docs: read-only\n  drafts: staged\n',
  });
  vaults.push(v);
  await v.call('update_note', { name: 'drafts/c', content: 'staged' });
  const r = await v.call('get_vault_info');
  expect(r.isError, r.text).toBe(false);
  const info = r.structured;
  expect(info.server).toEqual({ name: 'noted-mcp', version: 'test' });
  expect(info.protocolVersion).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  expect(info.vault).toEqual({ name: 'vault', format: 'markdown' });
  expect(info.counts).toEqual({ notes: 3, attachments: 1, folders: 2, tags: 2, openTasks: 2 });
  expect(info.index).toEqual({ state: 'ready' });
  expect(info.access).toEqual({
    policyFile: true,
    default: 'read-write',
    folders: [
      { folder: 'docs', access: 'read-only' },
      { folder: 'drafts', access: 'staged' },
    ],
  });
  expect(info.pendingChanges).toBe(1);
  expect(info.journal).toEqual({ verifies: true, entries: 0 });
  expect(info.limits.noteBytes).toBe(5 * 1024 * 1024);
  expect(JSON.stringify(info) + r.text).not.toMatch(/secret|hiddentag/);
});

it('counts a vault whose rules hide nothing the same way: nested, same-named and accented folders, attachments alone in theirs', async () => {
  // Counted by SQLite when nothing is hidden (issue 34), as they were counted from every path before.
  const v = await openTestVault({
    'top.md': '- [ ] one\n- [x] done\n#t1',
    'A/x.md': '- [ ] two',
    'a/y.md': 'y #t2',
    'a/b/c/deep.md': '- [ ] three\n- [ ] four',
    'Café/été/n.md': 'n',
    'media/only/pic.png': 'png',
    'top.png': 'png',
  });
  vaults.push(v);
  const r = await v.call('get_vault_info');
  expect(r.isError, r.text).toBe(false);
  // Folders: A, a, a/b, a/b/c, Café, Café/été, media, media/only.
  expect(r.structured.counts).toEqual({ notes: 5, attachments: 2, folders: 8, tags: 2, openTasks: 4 });
});

it('counts folders in every letter case, and the same with a folder hidden (counted by SQLite from the folder index, issue 34)', async () => {
  const files = {
    'top.md': '- [ ] one\n- [x] done\n#t1',
    'A/x.md': '- [ ] two',
    'a/y.md': 'y #t2',
    'a/b/c/deep.md': '- [ ] three\n- [ ] four',
    'a/B/q.md': 'q',
    'a/b/r.md': 'r',
    'a/b/s.md': 's',
    'Café/été/n.md': 'n',
    'media/only/pic.png': 'png',
    'top.png': 'png',
  };
  const open = await openTestVault(files);
  vaults.push(open);
  // Folders: A, a, a/b, a/B, a/b/c, Café, Café/été, media, media/only.
  const expected = { notes: 8, attachments: 2, folders: 9, tags: 2, openTasks: 4 };
  expect((await open.call('get_vault_info')).structured.counts).toEqual(expected);
  const hiding = await openTestVault({
    ...files,
    'secret/a/B/x.md': '- [ ] hidden #t3',
    'secret/Z/pic.png': 'png',
    '.noted/mcp-policy.yaml': 'default: read-write\nfolders:\n  secret: hidden\n',
  });
  vaults.push(hiding);
  // Twice: the first call may find the index's rows following no rules yet, the second finds them in line.
  for (let i = 0; i < 2; i++)
    expect((await hiding.call('get_vault_info')).structured.counts).toEqual(expected);
});

it('says when the journal does not verify', async () => {
  const v = await openTestVault({ 'a.md': 'a' });
  vaults.push(v);
  await v.call('update_note', { name: 'a', content: 'b' });
  const dir = path.join(v.dir, '.noted/journal');
  const day = fs.readdirSync(dir).find((f) => f.endsWith('.jsonl')) as string;
  const file = path.join(dir, day);
  fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('"update_note"', '"create_note"'));
  const r = await v.call('get_vault_info');
  expect(r.structured.journal.verifies).toBe(false);
  expect(r.text).toContain('does NOT verify');
});

it('counts only journal entries about notes the agent may see: a deletion in a folder hidden since is not counted (issue 32)', async () => {
  const v = await openTestVault({ 'private/old.md': 'old', 'a.md': 'a' });
  vaults.push(v);
  expect((await v.call('delete_note', { name: 'private/old' })).isError).toBe(false);
  expect((await v.call('update_note', { name: 'a', content: 'b' })).isError).toBe(false);
  expect((await v.call('get_vault_info')).structured.journal.entries).toBe(2);
  // The owner hides the folder afterwards: the policy file is read again on the next call.
  fs.writeFileSync(
    path.join(v.dir, '.noted/mcp-policy.yaml'),
    'default: read-write\nfolders:\n  private: hidden\n',
  );
  const r = await v.call('get_vault_info');
  expect(r.structured.journal).toEqual({ verifies: true, entries: 1 });
  expect(r.text).toContain('verifies (1 entries)');
});

it('a broken journal counts the same entries with a folder hidden as without: those intact before the break', async () => {
  const v = await openTestVault({ 'private/old.md': 'old', 'a.md': 'a' });
  vaults.push(v);
  expect((await v.call('update_note', { name: 'a', content: 'b' })).isError).toBe(false);
  expect((await v.call('delete_note', { name: 'private/old' })).isError).toBe(false);
  const dir = path.join(v.dir, '.noted/journal');
  const day = fs.readdirSync(dir).find((f) => f.endsWith('.jsonl')) as string;
  const file = path.join(dir, day);
  // The first entry altered: nothing is intact before the break.
  fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('"update_note"', '"create_note"'));
  const open = (await v.call('get_vault_info')).structured.journal;
  expect(open).toMatchObject({ verifies: false, entries: 0 });
  fs.writeFileSync(
    path.join(v.dir, '.noted/mcp-policy.yaml'),
    'default: read-write\nfolders:\n  private: hidden\n',
  );
  // Before, every readable entry about a visible note was counted here (1), past the break.
  expect((await v.call('get_vault_info')).structured.journal).toEqual(open);
});
