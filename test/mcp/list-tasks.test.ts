import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { etagOf } from '../../src/vault/etag.js';
import { openTestVault, readBytes, type Structured, type TestVault } from '../helpers/vault.js';

/** Noon UTC: the same calendar day in every time zone from UTC−11 to UTC+11. */
const NOW = new Date('2026-05-10T12:00:00Z');

const FILES = {
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
  'home.md':
    '1. [ ] Groceries\n- [X] Laundry ✅ 2026-05-01\n- [ ] pay rent 📅 2026-06-01 ^rent\n-[ ] not a task\n',
  'workshop.md': '- [ ] sharpen 📅 2026-05-09\n',
};

let vault: TestVault;
beforeAll(async () => {
  vault = await openTestVault(FILES, { now: () => NOW });
});
afterAll(async () => {
  await vault.close();
});

async function tasks(args: Record<string, unknown> = {}): Promise<string[]> {
  const r = await vault.call('list_tasks', args);
  expect(r.isError, JSON.stringify(r.structured)).toBe(false);
  return r.structured.tasks.map((t: Structured) => `${t.note}:${t.line} [${t.status}] ${t.text}`);
}

async function refused(args: Record<string, unknown>): Promise<Structured> {
  const r = await vault.call('list_tasks', args);
  expect(r.isError, JSON.stringify(args)).toBe(true);
  return r.structured;
}

describe('list_tasks', () => {
  it('lists open tasks by default, soonest due first, undated last, then note and line', async () => {
    const r = await vault.call('list_tasks');
    expect(r.structured.today).toBe('2026-05-10');
    expect(r.structured.tasks[0]).toMatchObject({
      note: 'work/sub/deep.md',
      etag: etagOf(readBytes(vault.dir, 'work/sub/deep.md')!),
      line: 1,
      text: 'Deep Work 📅 2026-04-01 #later',
      done: false,
      status: ' ',
      due: '2026-04-01',
    });
    expect(await tasks()).toEqual([
      'work/sub/deep.md:1 [ ] Deep Work 📅 2026-04-01 #later',
      'work/plan.md:6 [ ] review [due:: 2026-05-05]',
      'workshop.md:1 [ ] sharpen 📅 2026-05-09',
      'work/plan.md:4 [ ] ship 📅 2026-05-20',
      'work/plan.md:9 [ ] nested call Bo 📅 2026-05-20',
      'home.md:3 [ ] pay rent 📅 2026-06-01 ^rent',
      'home.md:1 [ ] Groceries',
    ]);
    expect(r.text.split('\n').slice(0, 3)).toEqual([
      '7 tasks, soonest due first (today is 2026-05-10):',
      '- [ ] Deep Work 📅 2026-04-01 #later — work/sub/deep.md:1 (due 2026-04-01)',
      '- [ ] review [due:: 2026-05-05] — work/plan.md:6 (due 2026-05-05)',
    ]);
  });

  it('reads both due-date forms: the Tasks emoji and Dataview [due:: …] / (due:: …) (OBSIDIAN.md §4.3)', async () => {
    const r = await vault.call('list_tasks', { status: 'all', folder: 'work' });
    const byLine = (line: number) =>
      r.structured.tasks.find((t: Structured) => t.note === 'work/plan.md' && t.line === line);
    expect(byLine(4).due).toBe('2026-05-20');
    expect(byLine(6).due).toBe('2026-05-05');
    expect(byLine(7)).toMatchObject({ status: '-', done: true, due: '2026-05-02' });
    expect(byLine(8)).toMatchObject({ status: '/', done: true, due: null });
  });

  it('status: done is any character but a space (TSK-02); all; or one status character exactly', async () => {
    expect(await tasks({ status: 'done' })).toEqual([
      'work/plan.md:5 [x] draft 📅 2026-05-01',
      'work/plan.md:7 [-] dropped (due:: 2026-05-02)',
      'home.md:2 [X] Laundry ✅ 2026-05-01',
      'work/plan.md:8 [/] halfway',
      'work/sub/deep.md:2 [?] asked',
    ]);
    expect(await tasks({ status: '-' })).toEqual(['work/plan.md:7 [-] dropped (due:: 2026-05-02)']);
    expect(await tasks({ status: 'X' })).toEqual(['home.md:2 [X] Laundry ✅ 2026-05-01']);
    expect(await tasks({ status: 'all' })).toHaveLength(12);
    expect(await tasks({ status: 'open' })).toHaveLength(7);
  });

  it('folder includes sub-folders, case-insensitively, on whole segments', async () => {
    expect(await tasks({ folder: 'Work/' })).toEqual([
      'work/sub/deep.md:1 [ ] Deep Work 📅 2026-04-01 #later',
      'work/plan.md:6 [ ] review [due:: 2026-05-05]',
      'work/plan.md:4 [ ] ship 📅 2026-05-20',
      'work/plan.md:9 [ ] nested call Bo 📅 2026-05-20',
    ]);
    expect(await tasks({ folder: 'work/sub' })).toEqual([
      'work/sub/deep.md:1 [ ] Deep Work 📅 2026-04-01 #later',
    ]);
    expect(await tasks({ folder: 'wor' })).toEqual([]);
  });

  it('tag finds the notes with the tag or one nested below it (frontmatter or inline)', async () => {
    expect(await tasks({ tag: '#project' })).toHaveLength(3);
    expect(await tasks({ tag: 'Project/Alpha' })).toHaveLength(3);
    expect(await tasks({ tag: 'later' })).toEqual(['work/sub/deep.md:1 [ ] Deep Work 📅 2026-04-01 #later']);
    expect(await tasks({ tag: 'proj' })).toEqual([]);
  });

  it('due_from and due_to are inclusive and leave undated tasks out', async () => {
    expect(await tasks({ due_from: '2026-05-05', due_to: '2026-05-20' })).toEqual([
      'work/plan.md:6 [ ] review [due:: 2026-05-05]',
      'workshop.md:1 [ ] sharpen 📅 2026-05-09',
      'work/plan.md:4 [ ] ship 📅 2026-05-20',
      'work/plan.md:9 [ ] nested call Bo 📅 2026-05-20',
    ]);
    expect(await tasks({ due_from: '2026-05-21' })).toEqual(['home.md:3 [ ] pay rent 📅 2026-06-01 ^rent']);
    expect(await tasks({ due_to: '2026-05-01', status: 'all' })).toEqual([
      'work/sub/deep.md:1 [ ] Deep Work 📅 2026-04-01 #later',
      'work/plan.md:5 [x] draft 📅 2026-05-01',
    ]);
  });

  it('overdue: open tasks due before today, the clock’s day', async () => {
    expect(await tasks({ overdue: true })).toEqual([
      'work/sub/deep.md:1 [ ] Deep Work 📅 2026-04-01 #later',
      'work/plan.md:6 [ ] review [due:: 2026-05-05]',
      'workshop.md:1 [ ] sharpen 📅 2026-05-09',
    ]);
    expect(await tasks({ overdue: true, folder: 'work' })).toHaveLength(2);
  });

  it('no_due keeps only undated tasks', async () => {
    expect(await tasks({ no_due: true, status: 'all' })).toEqual([
      'home.md:1 [ ] Groceries',
      'home.md:2 [X] Laundry ✅ 2026-05-01',
      'work/plan.md:8 [/] halfway',
      'work/sub/deep.md:2 [?] asked',
    ]);
  });

  it('text is a case-insensitive substring; limit cuts the ordered list and says so', async () => {
    expect(await tasks({ text: 'DEEP work' })).toEqual([
      'work/sub/deep.md:1 [ ] Deep Work 📅 2026-04-01 #later',
    ]);
    expect(await tasks({ text: 'bo', status: 'all' })).toEqual([
      'work/plan.md:9 [ ] nested call Bo 📅 2026-05-20',
    ]);
    const r = await vault.call('list_tasks', { limit: 2 });
    expect(r.structured.tasks).toHaveLength(2);
    expect(r.structured.more).toBe(true);
    expect(r.text).toContain(`More tasks follow: call again with cursor "${r.structured.nextCursor}".`);
    const none = await vault.call('list_tasks', { text: 'zzz' });
    expect(none.structured.tasks).toEqual([]);
    expect(none.text).toBe('No tasks match.');
  });

  it('refuses what it cannot understand, naming the argument, instead of answering more widely', async () => {
    expect(await refused({ due_from: '2026-5-1' })).toMatchObject({
      code: 'validation_error',
      argument: 'due_from',
      message: expect.stringMatching(/^due_from must be a date written YYYY-MM-DD/),
    });
    expect((await refused({ due_to: '2026-02-30' })).message).toMatch(/^due_to must be a date/);
    expect((await refused({ due_from: '2026-06-01', due_to: '2026-05-01' })).message).toMatch(
      /is after due_to/,
    );
    expect((await refused({ status: 'todo' })).message).toMatch(/^status is "todo"/);
    expect((await refused({ overdue: true, status: 'done' })).message).toMatch(/open tasks only/);
    expect((await refused({ no_due: true, due_to: '2026-01-01' })).message).toMatch(/without a due date/);
    expect((await refused({ tag: 'two words' })).message).toMatch(/contains a space/);
    expect((await refused({ folder: '../up' })).code).toBe('invalid_name');
    // A misspelt filter is an error, not a filter silently dropped.
    const typo = await refused({ due_before: '2026-05-01' });
    expect(typo.code).toBe('validation_error');
    expect(typo.message).toMatch(/due_before/);
    expect((await refused({ limit: 0 })).code).toBe('validation_error');
  });
});

describe('"today" is the local calendar day of the server clock', () => {
  let v: TestVault | undefined;
  const savedTz = process.env.TZ;
  afterEach(async () => {
    await v?.close();
    v = undefined;
    process.env.TZ = savedTz;
    if (savedTz === undefined) delete process.env.TZ;
  });

  const overdue = async (tz: string, now: string) => {
    process.env.TZ = tz;
    v = await openTestVault(
      { 't.md': '- [ ] due on the first 📅 2026-05-01\n' },
      { now: () => new Date(now) },
    );
    const r = await v.call('list_tasks', { overdue: true });
    const result = { today: r.structured.today, overdue: r.structured.tasks.length };
    await v.close();
    v = undefined;
    return result;
  };

  it('an evening in California is still that day there, though UTC has moved on', async () => {
    // 2026-05-02T03:00Z is 20:00 on 1 May in Los Angeles.
    expect(await overdue('America/Los_Angeles', '2026-05-02T03:00:00Z')).toEqual({
      today: '2026-05-01',
      overdue: 0,
    });
    expect(await overdue('UTC', '2026-05-02T03:00:00Z')).toEqual({ today: '2026-05-02', overdue: 1 });
  });

  it('a morning in New Zealand is already the next day there', async () => {
    // 2026-05-01T13:00Z is 01:00 on 2 May in Auckland.
    expect(await overdue('Pacific/Auckland', '2026-05-01T13:00:00Z')).toEqual({
      today: '2026-05-02',
      overdue: 1,
    });
    expect(await overdue('UTC', '2026-05-01T13:00:00Z')).toEqual({ today: '2026-05-01', overdue: 0 });
  });
});

describe('an HTML note whose checkbox items share a line (issue 32)', () => {
  it('lists the checked items like the unchecked ones, and pages through them without losing one', async () => {
    const v = await openTestVault({
      'list.html':
        '<html><body><ul><li><input type="checkbox"> open one</li><li><input type="checkbox" checked> closed one</li><li><input type="checkbox" checked="checked"> closed two</li></ul></body></html>',
    });
    try {
      const all = await v.call('list_tasks', { status: 'all' });
      expect(all.isError, all.text).toBe(false);
      expect(all.structured.tasks.map((t: Structured) => [t.text, t.done, t.line])).toEqual([
        ['open one', false, 1],
        ['closed one', true, 1],
        ['closed two', true, 1],
      ]);
      const done = await v.call('list_tasks', { status: 'done' });
      expect(done.structured.tasks.map((t: Structured) => t.text)).toEqual(['closed one', 'closed two']);
      const seen: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await v.call('list_tasks', { status: 'all', limit: 1, ...(cursor ? { cursor } : {}) });
        seen.push(...page.structured.tasks.map((t: Structured) => t.text));
        cursor = page.structured.nextCursor;
      } while (cursor !== undefined);
      expect(seen).toEqual(['open one', 'closed one', 'closed two']);
    } finally {
      await v.close();
    }
  });
});
