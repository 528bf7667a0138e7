import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Journal } from '../../src/journal/journal.js';
import { readBytes, writeFiles } from '../helpers/vault.js';
import { type ConsoleFixture, startFixture } from './console-fixture.js';

/**
 * SPEC 5.2 and 6 through the console's API: staged changes approved whole or in part, rejected,
 * refused when stale; agent activity by session, undone one change or one session at a time, with
 * the refusal reason when a note changed since; every decision journaled as the CLI journals it.
 */
let f: ConsoleFixture;
afterEach(async () => f?.close());

const BASE = 'title line\nalpha\n\nmiddle 1\nmiddle 2\nmiddle 3\nmiddle 4\nmiddle 5\n\nomega\n';
const STAGED = { 'drafts/plan.md': BASE, '.noted/mcp-policy.yaml': 'folders:\n  drafts: staged\n' };

async function stageEdit(): Promise<string> {
  const read = await f.vault.call('read_note', { name: 'drafts/plan' });
  const staged = await f.vault.call('update_note', {
    name: 'drafts/plan',
    content: BASE.replace('alpha', 'ALPHA').replace('omega', 'OMEGA'),
    expected_etag: read.structured.etag,
  });
  expect(staged.structured.staged).toBe(true);
  return staged.structured.pendingId as string;
}

function journal() {
  return new Journal(f.vault.opened.vault, { now: () => new Date() });
}

describe('pending changes API', () => {
  it('lists a staged change with its self-declared client and shows its hunks with marked words', async () => {
    f = await startFixture(STAGED);
    const id = await stageEdit();
    const { cookie } = await f.signIn();
    const session = await f.request('/api/session', { cookie });
    expect(session.json.pending).toBe(1);
    const list = await f.request('/api/pending', { cookie });
    expect(list.json.changes).toMatchObject([
      { id, note: 'drafts/plan.md', kind: 'update', client: 'noted-test' },
    ]);
    const detail = await f.request(`/api/pending/${id}`, { cookie });
    expect(detail.json.diff.kind).toBe('update');
    expect(detail.json.diff.hunks).toHaveLength(2);
    expect(detail.json.diff.hunks[0].words).toEqual([
      { kind: 'removed', text: 'alpha' },
      { kind: 'added', text: 'ALPHA' },
    ]);
    expect(detail.json.change.baseText).toBeUndefined();
  });

  it('approves 1 of 2 hunks: only the kept hunk is written, journaled under the agent', async () => {
    f = await startFixture(STAGED);
    const id = await stageEdit();
    const { cookie, csrf } = await f.signIn();
    const approved = await f.request(`/api/pending/${id}/approve`, {
      method: 'POST',
      cookie,
      csrf,
      body: { keep: [2] },
    });
    expect(approved.status).toBe(200);
    expect(approved.json.result).toMatchObject({ outcome: 'updated', hunks: { total: 2, kept: [2] } });
    expect(readBytes(f.vault.dir, 'drafts/plan.md')?.toString()).toBe(BASE.replace('omega', 'OMEGA'));
    expect(journal().list()).toMatchObject([
      { note: 'drafts/plan.md', kind: 'update', client: 'noted-test', tool: 'update_note' },
    ]);
    expect((await f.request('/api/pending', { cookie })).json.changes).toEqual([]);
  });

  it('rejects a change without touching the note', async () => {
    f = await startFixture(STAGED);
    const id = await stageEdit();
    const { cookie, csrf } = await f.signIn();
    const rejected = await f.request(`/api/pending/${id}/reject`, { method: 'POST', cookie, csrf });
    expect(rejected.json.result).toEqual({ id, note: 'drafts/plan.md' });
    expect(readBytes(f.vault.dir, 'drafts/plan.md')?.toString()).toBe(BASE);
    expect(journal().list()).toEqual([]);
  });

  it('refuses a stale approval with the reason, writes nothing and keeps the change', async () => {
    f = await startFixture(STAGED);
    const id = await stageEdit();
    writeFiles(f.vault.dir, { 'drafts/plan.md': `${BASE}edited by hand\n` });
    const { cookie, csrf } = await f.signIn();
    const refused = await f.request(`/api/pending/${id}/approve`, { method: 'POST', cookie, csrf });
    expect(refused.status).toBe(409);
    expect(refused.json.error.code).toBe('conflict');
    expect(refused.json.error.message).toMatch(/was changed since the agent saw it/);
    expect(readBytes(f.vault.dir, 'drafts/plan.md')?.toString()).toBe(`${BASE}edited by hand\n`);
    expect((await f.request('/api/pending', { cookie })).json.changes).toHaveLength(1);
  });

  it('refuses keeping no hunk, an unknown hunk, and an unknown id', async () => {
    f = await startFixture(STAGED);
    const id = await stageEdit();
    const { cookie, csrf } = await f.signIn();
    const none = await f.request(`/api/pending/${id}/approve`, {
      method: 'POST',
      cookie,
      csrf,
      body: { keep: [] },
    });
    expect(none.status).toBe(400);
    const unknown = await f.request(`/api/pending/${id}/approve`, {
      method: 'POST',
      cookie,
      csrf,
      body: { keep: [7] },
    });
    expect(unknown.status).toBe(400);
    const missing = await f.request('/api/pending/20260101-000000-000-abcdef/approve', {
      method: 'POST',
      cookie,
      csrf,
    });
    expect(missing.status).toBe(404);
    const traversal = await f.request('/api/pending/..%2F..%2Fetc/reject', { method: 'POST', cookie, csrf });
    expect(traversal.status).toBe(404);
    expect(readBytes(f.vault.dir, 'drafts/plan.md')?.toString()).toBe(BASE);
  });

  it('approves all and rejects all', async () => {
    f = await startFixture({ ...STAGED, 'drafts/other.md': 'one\n' });
    await stageEdit();
    await f.vault.call('create_note', { name: 'drafts/new', content: 'brand new\n' });
    const { cookie, csrf } = await f.signIn();
    const all = await f.request('/api/pending-all/approve', { method: 'POST', cookie, csrf });
    expect(all.json.outcomes.map((o: { ok: boolean }) => o.ok)).toEqual([true, true]);
    expect(readBytes(f.vault.dir, 'drafts/new.md')?.toString()).toBe('brand new\n');
    const read = await f.vault.call('read_note', { name: 'drafts/other' });
    await f.vault.call('update_note', {
      name: 'drafts/other',
      content: 'two\n',
      expected_etag: read.structured.etag,
    });
    const rejected = await f.request('/api/pending-all/reject', { method: 'POST', cookie, csrf });
    expect(rejected.json.rejected).toHaveLength(1);
    expect(readBytes(f.vault.dir, 'drafts/other.md')?.toString()).toBe('one\n');
  });
});

describe('agent activity API', () => {
  async function agentWrites() {
    for (const [name, text] of [
      ['notes/a', 'A changed\n'],
      ['notes/b', 'B changed\n'],
    ] as const) {
      const read = await f.vault.call('read_note', { name });
      const done = await f.vault.call('update_note', {
        name,
        content: text,
        expected_etag: read.structured.etag,
      });
      expect(done.isError).toBe(false);
    }
  }

  it('shows sessions newest first with the integrity of the chain, filters, and a diff on demand', async () => {
    f = await startFixture({ 'notes/a.md': 'A\n', 'notes/b.md': 'B\n' });
    await agentWrites();
    const { cookie } = await f.signIn();
    const activity = await f.request('/api/activity', { cookie });
    expect(activity.json.integrity).toEqual({ ok: true, entries: 2 });
    expect(activity.json.clients).toEqual(['noted-test']);
    expect(activity.json.sessions).toHaveLength(1);
    const [session] = activity.json.sessions;
    expect(session.client).toBe('noted-test');
    expect(session.entries.map((e: { note: string }) => e.note)).toEqual(['notes/b.md', 'notes/a.md']);
    const byNote = await f.request('/api/activity?note=A.MD', { cookie });
    expect(byNote.json.sessions[0].entries).toHaveLength(1);
    expect((await f.request('/api/activity?client=someone-else', { cookie })).json.sessions).toEqual([]);
    expect((await f.request('/api/activity?kind=create', { cookie })).json.sessions).toEqual([]);
    expect((await f.request('/api/activity?kind=bogus', { cookie })).status).toBe(400);
    const diff = await f.request(`/api/activity/entries/${session.entries[1].id}`, { cookie });
    expect(diff.json.diff.hunks[0].words).toEqual([
      { kind: 'same', text: 'A' },
      { kind: 'added', text: ' changed' },
    ]);
  });

  it('reports the first broken entry when the journal was tampered with', async () => {
    f = await startFixture({ 'notes/a.md': 'A\n', 'notes/b.md': 'B\n' });
    await agentWrites();
    const dir = path.join(f.vault.dir, '.noted', 'journal');
    const day = fs.readdirSync(dir).find((n) => n.endsWith('.jsonl')) as string;
    const file = path.join(dir, day);
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('notes/a.md', 'notes/z.md'));
    const { cookie } = await f.signIn();
    const { integrity } = (await f.request('/api/activity', { cookie })).json;
    expect(integrity).toMatchObject({ ok: false, entries: 0, brokenAt: { file: day, line: 1 } });
    expect(integrity.reason).toMatch(/hash does not match/);
  });

  it('undoes one change, journaled as the console; a second undo of it is refused with the reason', async () => {
    f = await startFixture({ 'notes/a.md': 'A\n', 'notes/b.md': 'B\n' });
    await agentWrites();
    const { cookie, csrf } = await f.signIn();
    const [newest] = journal().list();
    const undone = await f.request('/api/activity/undo', {
      method: 'POST',
      cookie,
      csrf,
      body: { entry: newest?.id },
    });
    expect(undone.json.outcomes).toMatchObject([{ note: 'notes/b.md', outcome: 'undone' }]);
    expect(readBytes(f.vault.dir, 'notes/b.md')?.toString()).toBe('B\n');
    expect(journal().list()[0]).toMatchObject({
      kind: 'undo',
      client: 'noted-mcp-console',
      undoOf: newest?.id,
    });
    const again = await f.request('/api/activity/undo', {
      method: 'POST',
      cookie,
      csrf,
      body: { entry: newest?.id },
    });
    expect(again.json.outcomes[0]).toMatchObject({ outcome: 'refused' });
    expect(again.json.outcomes[0].reason).toMatch(/already undone/);
    const activity = (await f.request('/api/activity', { cookie })).json;
    const agentSession = activity.sessions.find((s: { client: string }) => s.client === 'noted-test');
    expect(agentSession.entries[0].undoneBy).toMatch(/\S/);
  });

  it('undoes a session newest first, refusing (and leaving alone) a note changed since', async () => {
    f = await startFixture({ 'notes/a.md': 'A\n', 'notes/b.md': 'B\n' });
    await agentWrites();
    writeFiles(f.vault.dir, { 'notes/a.md': 'A changed\nand edited by hand\n' });
    const { cookie, csrf } = await f.signIn();
    const session = journal().list()[0]?.session;
    const result = await f.request('/api/activity/undo-session', {
      method: 'POST',
      cookie,
      csrf,
      body: { session },
    });
    expect(result.status).toBe(200);
    expect(result.json.outcomes).toMatchObject([
      { note: 'notes/b.md', outcome: 'undone' },
      { note: 'notes/a.md', outcome: 'refused' },
    ]);
    expect(result.json.outcomes[1].reason).toMatch(/changed since the agent wrote it/);
    expect(readBytes(f.vault.dir, 'notes/b.md')?.toString()).toBe('B\n');
    expect(readBytes(f.vault.dir, 'notes/a.md')?.toString()).toBe('A changed\nand edited by hand\n');
    const missing = await f.request('/api/activity/undo-session', {
      method: 'POST',
      cookie,
      csrf,
      body: { session: 'nope' },
    });
    expect(missing.status).toBe(404);
  });
});
