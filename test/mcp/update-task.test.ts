/**
 * update_task through a real client (SPEC 13.2): the task list_tasks reported, changed on its line
 * only, under the note's etag, staged, journaled and undoable like every write.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Journal } from '../../src/journal/journal.js';
import { PendingStore } from '../../src/staging/pending-store.js';
import { etagOf } from '../../src/vault/etag.js';
import {
  openTestVault,
  readBytes,
  type Structured,
  type TestVault,
  testJournalKey,
} from '../helpers/vault.js';

let vault: TestVault | undefined;
afterEach(async () => {
  await vault?.close();
  vault = undefined;
});

const TODO = [
  '---',
  'tags: [home]',
  '---',
  '# Today',
  '',
  '- [ ] call Bo',
  '- [ ] pay rent 📅 2026-05-01 #money ^rent',
  '  - [x] sub step [due:: 2026-04-01]',
  '',
].join('\n');

async function open(): Promise<TestVault> {
  return openTestVault({
    'todo.md': TODO,
    'drafts/todo.md': TODO,
    'archive/todo.md': TODO,
    'private/todo.md': TODO,
    '.noted/mcp-policy.yaml': 'folders:\n  drafts: staged\n  archive: read-only\n  private: hidden\n',
  });
}

function stored(v: TestVault, rel = 'todo.md'): string {
  return readBytes(v.dir, rel)?.toString('utf8') ?? '';
}

async function taskNamed(v: TestVault, text: string): Promise<Structured> {
  const r = await v.call('list_tasks', { status: 'all', text });
  const inTodo = r.structured.tasks.filter((t: Structured) => t.note === 'todo.md');
  expect(inTodo).toHaveLength(1);
  return inTodo[0];
}

describe('update_task', () => {
  it('ticks the task list_tasks gave, with the note, line and etag it gave, changing only that line', async () => {
    vault = await open();
    const task = await taskNamed(vault, 'call Bo');
    expect(task).toMatchObject({ note: 'todo.md', line: 6, etag: etagOf(TODO) });
    const r = await vault.call('update_task', {
      name: task.note,
      line: task.line,
      expected_etag: task.etag,
      done: true,
    });
    expect(r.isError).toBe(false);
    const expected = TODO.replace('- [ ] call Bo', '- [x] call Bo');
    expect(stored(vault)).toBe(expected);
    expect(r.structured).toMatchObject({
      name: 'todo.md',
      etag: etagOf(expected),
      changed: true,
      task: { line: 6, status: 'x', done: true, text: 'call Bo', due: null },
    });
    expect(r.text).toMatch(/Line 6 now reads: - \[x\] call Bo/);
    const after = await taskNamed(vault, 'call Bo');
    expect(after).toMatchObject({ done: true, status: 'x', etag: etagOf(expected) });
  });

  it('sets a status, the text and the due date in the form the line uses', async () => {
    vault = await open();
    let etag = etagOf(TODO);
    const call = async (args: Record<string, unknown>) => {
      const r = await vault!.call('update_task', { name: 'todo', expected_etag: etag, ...args });
      expect(r.isError, JSON.stringify(r.structured)).toBe(false);
      etag = r.structured.etag;
      return r;
    };
    await call({ line: 7, due: '2026-06-01' });
    await call({ line: 8, due: '2026-06-02', status: '-' });
    await call({ line: 6, text: 'call Bo and Al', due: '2026-06-03' });
    expect(stored(vault)).toBe(
      TODO.replace('📅 2026-05-01 #money', '📅 2026-06-01 #money')
        .replace('[x] sub step [due:: 2026-04-01]', '[-] sub step [due:: 2026-06-02]')
        .replace('- [ ] call Bo', '- [ ] call Bo and Al 📅 2026-06-03'),
    );
    const removed = await call({ line: 7, due: null, done: false });
    expect(removed.structured.task).toEqual({
      line: 7,
      status: ' ',
      done: false,
      text: 'pay rent #money ^rent',
      due: null,
    });
    const listed = await vault.call('list_tasks', { status: 'all', due_from: '2026-06-01' });
    expect(listed.structured.tasks.map((t: Structured) => t.line)).toEqual([8, 6]);
  });

  it('refuses as conflict, writing nothing, when the note changed or the line is no longer a task', async () => {
    vault = await open();
    const task = await taskNamed(vault, 'call Bo');
    // An editor adds a line above: the etag no longer matches.
    fs.writeFileSync(path.join(vault.dir, 'todo.md'), TODO.replace('# Today\n', '# Today\nNew line\n'));
    const stale = await vault.call('update_task', {
      name: 'todo',
      line: 6,
      expected_etag: task.etag,
      done: true,
    });
    expect(stale.structured).toMatchObject({ code: 'conflict', committed: false });
    // With the new etag but the old line number, line 6 is now a blank line, not a task.
    const now = stored(vault);
    const moved = await vault.call('update_task', {
      name: 'todo',
      line: 6,
      expected_etag: etagOf(now),
      done: true,
    });
    expect(moved.structured).toMatchObject({
      code: 'conflict',
      committed: false,
      line: 6,
      currentLine: '',
      currentEtag: etagOf(now),
      currentText: now,
    });
    expect(moved.structured.message).toMatch(/no longer a task/);
    expect(stored(vault)).toBe(now);
  });

  it('refuses bad arguments with what to do', async () => {
    vault = await open();
    const base = { name: 'todo', line: 6, expected_etag: etagOf(TODO) };
    const cases: [Record<string, unknown>, RegExp][] = [
      [{}, /Nothing to change/],
      [{ done: true, status: '-' }, /done or status, not both/],
      [{ status: 'done' }, /one character/],
      [{ due: '01/06/2026' }, /YYYY-MM-DD/],
      [{ text: 'a\nb' }, /one line/],
    ];
    for (const [args, message] of cases) {
      const r = await vault.call('update_task', { ...base, ...args });
      expect(r.structured.code, JSON.stringify(args)).toBe('validation_error');
      expect(r.structured.message).toMatch(message);
    }
    const noEtag = await vault.call('update_task', { name: 'todo', line: 6, done: true });
    expect(noEtag.structured.code).toBe('validation_error');
    expect(stored(vault)).toBe(TODO);
  });

  it('is journaled as update_task and undoable; staged, read-only and hidden folders answer as for any write', async () => {
    vault = await open();
    await vault.call('update_task', { name: 'todo', line: 6, expected_etag: etagOf(TODO), done: true });
    const journal = new Journal(vault.opened.vault, { now: () => new Date(), key: testJournalKey() });
    const [entry] = journal.list();
    expect(entry).toMatchObject({ tool: 'update_task', kind: 'update', note: 'todo.md' });
    await journal.undo({ entry: entry!.id }, { session: 'cli', client: 'owner' });
    expect(stored(vault)).toBe(TODO);

    const staged = await vault.call('update_task', {
      name: 'drafts/todo',
      line: 6,
      expected_etag: etagOf(TODO),
      done: true,
    });
    expect(staged.structured).toMatchObject({ staged: true, kind: 'update', note: 'drafts/todo.md' });
    const pending = new PendingStore(vault.opened.vault).get(staged.structured.pendingId);
    expect(pending).toMatchObject({
      tool: 'update_task',
      newText: TODO.replace('[ ] call Bo', '[x] call Bo'),
    });
    expect(stored(vault, 'drafts/todo.md')).toBe(TODO);

    const ro = await vault.call('update_task', {
      name: 'archive/todo',
      line: 6,
      expected_etag: etagOf(TODO),
      done: true,
    });
    expect(ro.structured.code).toBe('read_only');
    const hidden = await vault.call('update_task', {
      name: 'private/todo',
      line: 6,
      expected_etag: etagOf(TODO),
      done: true,
    });
    expect(hidden.structured.code).toBe('not_found');
    expect(stored(vault, 'private/todo.md')).toBe(TODO);
  });
});
