import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listTasks, type TaskFilters } from '../../../src/index/queries/tasks.js';
import { type IndexedVault, indexedVault } from '../indexed-vault.js';

const TODAY = '2026-05-10';

let vault: IndexedVault;
beforeAll(() => {
  vault = indexedVault({
    'work/plan.md': [
      '---',
      'tags: [project/alpha]',
      '---',
      '- [ ] ship 📅 2026-05-20',
      '- [x] draft 📅 2026-05-01',
      '- [ ] review [due:: 2026-05-05]',
      '- [-] dropped (due:: 2026-05-02)',
      '- [/] halfway',
      '  - [ ] nested call Bo 📅 2026-05-20',
      '```',
      '- [ ] not a task, in code',
      '```',
    ].join('\n'),
    'work/sub/deep.md': '- [ ] Deep Work 📅 2026-04-01 #later\n* [?] asked\n',
    'home.md': '1. [ ] Groceries\n- [X] Laundry ✅ 2026-05-01\n- [ ] pay rent 📅 2026-06-01 ^rent\n',
    'private/secret.md': '- [ ] secret 📅 2026-01-01\n',
  });
});
afterAll(() => vault.close());

function tasks(filters: TaskFilters, today = TODAY): string[] {
  return listTasks(vault.db, filters, today).map((t) => `${t.note}:${t.line} [${t.status}] ${t.text}`);
}

describe('listTasks', () => {
  it('lists open tasks by default: soonest due first, undated last, then note and line', () => {
    expect(tasks({})).toEqual([
      'private/secret.md:1 [ ] secret 📅 2026-01-01',
      'work/sub/deep.md:1 [ ] Deep Work 📅 2026-04-01 #later',
      'work/plan.md:6 [ ] review [due:: 2026-05-05]',
      'work/plan.md:4 [ ] ship 📅 2026-05-20',
      'work/plan.md:9 [ ] nested call Bo 📅 2026-05-20',
      'home.md:3 [ ] pay rent 📅 2026-06-01 ^rent',
      'home.md:1 [ ] Groceries',
    ]);
  });

  it('reports line, status, done and both due-date forms', () => {
    const all = listTasks(vault.db, { status: 'all', folder: 'work' }, TODAY);
    expect(all.find((t) => t.line === 6)).toEqual({
      note: 'work/plan.md',
      etag: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
      line: 6,
      text: 'review [due:: 2026-05-05]',
      done: false,
      status: ' ',
      due: '2026-05-05',
    });
    expect(all.find((t) => t.line === 7)).toMatchObject({ status: '-', done: true, due: '2026-05-02' });
    expect(all.find((t) => t.line === 8)).toMatchObject({ status: '/', done: true, due: null });
  });

  it('done is any status but a space (TSK-02); a single status character filters exactly', () => {
    expect(tasks({ status: 'done' })).toEqual([
      'work/plan.md:5 [x] draft 📅 2026-05-01',
      'work/plan.md:7 [-] dropped (due:: 2026-05-02)',
      'home.md:2 [X] Laundry ✅ 2026-05-01',
      'work/plan.md:8 [/] halfway',
      'work/sub/deep.md:2 [?] asked',
    ]);
    expect(tasks({ status: '-' })).toEqual(['work/plan.md:7 [-] dropped (due:: 2026-05-02)']);
    expect(tasks({ status: 'x' })).toEqual(['work/plan.md:5 [x] draft 📅 2026-05-01']);
    expect(tasks({ status: 'all' })).toHaveLength(12);
  });

  it('folder includes sub-folders, case-insensitively', () => {
    expect(tasks({ folder: 'Work/' }).map((t) => t.split(':')[0])).toEqual([
      'work/sub/deep.md',
      'work/plan.md',
      'work/plan.md',
      'work/plan.md',
    ]);
    expect(tasks({ folder: 'work/sub' })).toEqual(['work/sub/deep.md:1 [ ] Deep Work 📅 2026-04-01 #later']);
    expect(tasks({ folder: 'wor' })).toEqual([]);
  });

  it('tag finds notes with the tag or one nested below it', () => {
    expect(tasks({ tag: '#project' })).toHaveLength(3);
    expect(tasks({ tag: 'project/alpha' })).toHaveLength(3);
    expect(tasks({ tag: 'later' })).toEqual(['work/sub/deep.md:1 [ ] Deep Work 📅 2026-04-01 #later']);
    expect(tasks({ tag: 'proj' })).toEqual([]);
  });

  it('due_from and due_to are inclusive and leave undated tasks out', () => {
    expect(tasks({ due_from: '2026-05-05', due_to: '2026-05-20' })).toEqual([
      'work/plan.md:6 [ ] review [due:: 2026-05-05]',
      'work/plan.md:4 [ ] ship 📅 2026-05-20',
      'work/plan.md:9 [ ] nested call Bo 📅 2026-05-20',
    ]);
  });

  it('overdue is open tasks due before today', () => {
    expect(tasks({ overdue: true })).toEqual([
      'private/secret.md:1 [ ] secret 📅 2026-01-01',
      'work/sub/deep.md:1 [ ] Deep Work 📅 2026-04-01 #later',
      'work/plan.md:6 [ ] review [due:: 2026-05-05]',
    ]);
    expect(tasks({ overdue: true }, '2026-04-01')).toEqual(['private/secret.md:1 [ ] secret 📅 2026-01-01']);
  });

  it('no_due keeps only undated tasks', () => {
    expect(tasks({ no_due: true, status: 'all' })).toEqual([
      'home.md:1 [ ] Groceries',
      'home.md:2 [X] Laundry ✅ 2026-05-01',
      'work/plan.md:8 [/] halfway',
      'work/sub/deep.md:2 [?] asked',
    ]);
  });

  it('text is a case-insensitive substring', () => {
    expect(tasks({ text: 'DEEP work' })).toEqual(['work/sub/deep.md:1 [ ] Deep Work 📅 2026-04-01 #later']);
    expect(tasks({ text: 'bo', status: 'all' })).toEqual(['work/plan.md:9 [ ] nested call Bo 📅 2026-05-20']);
  });

  it('limit cuts the ordered list', () => {
    expect(tasks({ limit: 2 })).toEqual([
      'private/secret.md:1 [ ] secret 📅 2026-01-01',
      'work/sub/deep.md:1 [ ] Deep Work 📅 2026-04-01 #later',
    ]);
    expect(tasks({ limit: 0 })).toEqual([]);
  });

  it('hidden notes give no tasks', () => {
    expect(tasks({ overdue: true, visible: (p) => !p.startsWith('private/') })).toEqual([
      'work/sub/deep.md:1 [ ] Deep Work 📅 2026-04-01 #later',
      'work/plan.md:6 [ ] review [due:: 2026-05-05]',
    ]);
  });

  it('refuses what it cannot understand, naming the argument', () => {
    const refused = (filters: TaskFilters, pattern: RegExp, today = TODAY) => {
      expect(() => listTasks(vault.db, filters, today)).toThrow(pattern);
      try {
        listTasks(vault.db, filters, today);
      } catch (err) {
        expect((err as { code: string }).code).toBe('validation_error');
      }
    };
    refused({ due_from: '2026-5-1' }, /^due_from must be a date written YYYY-MM-DD/);
    refused({ due_to: '2026-02-30' }, /^due_to must be a date/);
    refused({ due_from: '2026-06-01', due_to: '2026-05-01' }, /^due_from .* is after due_to/);
    refused({ status: 'todo' }, /^status is "todo"; use "open", "done", "all"/);
    refused({ status: '' }, /^status is ""/);
    refused({ overdue: true, status: 'done' }, /^overdue applies to open tasks only/);
    refused({ no_due: true, due_to: '2026-01-01' }, /^no_due asks for tasks without a due date/);
    refused({ overdue: true }, /^today must be a date/, 'yesterday');
    refused({ limit: -1 }, /^limit must be a whole number/);
    refused({ tag: 'two words' }, /^tag .* contains a space/);
  });
});
