import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Journal } from '../../src/journal/journal.js';
import { openTestVault, readBytes, testJournalKey, writeFiles } from '../helpers/vault.js';
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
  return new Journal(f.vault.opened.vault, { now: () => new Date(), key: testJournalKey() });
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
    expect(list.json.changes[0]).toMatchObject({ added: 2, removed: 2, outdated: null });
    const detail = await f.request(`/api/pending/${id}`, { cookie });
    expect(detail.json.diff.kind).toBe('update');
    expect(detail.json.diff.baseLines).toBe(10);
    expect(detail.json.diff.hunks).toHaveLength(2);
    // Numbered lines: context around, the removed line with the word taken out, the added line with the word put in.
    expect(detail.json.diff.hunks[0].lines).toEqual([
      { kind: 'context', old: 1, new: 1, pieces: [{ text: 'title line', changed: false }] },
      { kind: 'removed', old: 2, new: null, pieces: [{ text: 'alpha', changed: false }] },
      { kind: 'added', old: null, new: 2, pieces: [{ text: 'ALPHA', changed: false }] },
      { kind: 'context', old: 3, new: 3, pieces: [{ text: '', changed: false }] },
      { kind: 'context', old: 4, new: 4, pieces: [{ text: 'middle 1', changed: false }] },
      { kind: 'context', old: 5, new: 5, pieces: [{ text: 'middle 2', changed: false }] },
    ]);
    expect(detail.json.change.baseText).toBeUndefined();
    const batch = await f.request(`/api/pending/details?ids=${id},20260101-000000-000-abcdef`, { cookie });
    expect(batch.json.details[0]).toMatchObject({ id, diff: { kind: 'update' } });
    expect(batch.json.details[1]).toMatchObject({ error: { code: 'not_found' } });
    const more = await f.request(`/api/pending/${id}/lines?side=base&from=6&count=2`, { cookie });
    expect(more.json).toEqual({ side: 'base', from: 6, lines: ['middle 3', 'middle 4'], total: 10 });
    for (const q of ['side=old', 'from=0', 'count=100000']) {
      expect((await f.request(`/api/pending/${id}/lines?${q}`, { cookie })).status, q).toBe(400);
    }
  });

  it('marks a change outdated as soon as its note changes, before anyone approves it', async () => {
    f = await startFixture(STAGED);
    await stageEdit();
    const { cookie } = await f.signIn();
    expect((await f.request('/api/pending', { cookie })).json.changes[0].outdated).toBeNull();
    writeFiles(f.vault.dir, { 'drafts/plan.md': `${BASE}by hand\n` });
    expect((await f.request('/api/pending', { cookie })).json.changes[0].outdated).toMatch(
      /changed since the agent saw it/,
    );
    fs.rmSync(path.join(f.vault.dir, 'drafts', 'plan.md'));
    expect((await f.request('/api/pending', { cookie })).json.changes[0].outdated).toMatch(
      /deleted or moved/,
    );
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

  it('rejects a change without touching the note, keeps it, journals the decision, and puts it back', async () => {
    f = await startFixture(STAGED);
    const id = await stageEdit();
    const { cookie, csrf } = await f.signIn();
    const rejected = await f.request(`/api/pending/${id}/reject`, {
      method: 'POST',
      cookie,
      csrf,
      body: { reason: 'not this week' },
    });
    expect(rejected.json.result).toEqual({ id, note: 'drafts/plan.md' });
    expect(readBytes(f.vault.dir, 'drafts/plan.md')?.toString()).toBe(BASE);
    const entries = journal().list();
    expect(entries.map((e) => [e.kind, e.note, e.decision])).toEqual([
      ['decision', 'drafts/plan.md', { by: 'owner', action: 'reject', pending: id, reason: 'not this week' }],
    ]);
    expect(journal().verify().ok).toBe(true);
    const kept = await f.request('/api/rejected', { cookie });
    expect(kept.json.changes).toEqual([
      expect.objectContaining({ id, note: 'drafts/plan.md', reason: 'not this week' }),
    ]);
    const one = await f.request(`/api/rejected/${id}`, { cookie });
    expect(one.json.diff.kind).toBe('update');
    const back = await f.request(`/api/rejected/${id}/put-back`, { method: 'POST', cookie, csrf });
    expect(back.json.result).toEqual({ id, note: 'drafts/plan.md' });
    expect(
      (await f.request('/api/pending', { cookie })).json.changes.map((c: { id: string }) => c.id),
    ).toEqual([id]);
    expect((await f.request('/api/rejected', { cookie })).json.changes).toEqual([]);
    expect(journal().list()[0]?.decision).toEqual({ by: 'owner', action: 'put_back', pending: id });
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

  it('approves all the listed changes with the hunks each keeps, and nothing it does not list', async () => {
    f = await startFixture({ ...STAGED, 'drafts/other.md': 'one\n' });
    const id = await stageEdit();
    const created = (await f.vault.call('create_note', { name: 'drafts/new', content: 'brand new\n' }))
      .structured.pendingId as string;
    const read = await f.vault.call('read_note', { name: 'drafts/other' });
    await f.vault.call('update_note', {
      name: 'drafts/other',
      content: 'two\n',
      expected_etag: read.structured.etag,
    });
    const { cookie, csrf } = await f.signIn();
    const post = (body: unknown) =>
      f.request('/api/pending-all/approve', { method: 'POST', cookie, csrf, body });
    for (const body of [
      {},
      { changes: 'all' },
      { changes: [{ id }, { id }] },
      { changes: [{ id, keep: [0] }] },
    ]) {
      expect((await post(body)).status, JSON.stringify(body)).toBe(400);
    }
    const all = await post({ changes: [{ id, keep: [2] }, { id: created }] });
    expect(all.json.outcomes.map((o: { ok: boolean }) => o.ok)).toEqual([true, true]);
    expect(all.json.stillPending).toBe(1);
    expect(readBytes(f.vault.dir, 'drafts/plan.md')?.toString()).toBe(BASE.replace('omega', 'OMEGA'));
    expect(readBytes(f.vault.dir, 'drafts/new.md')?.toString()).toBe('brand new\n');
    expect(readBytes(f.vault.dir, 'drafts/other.md')?.toString()).toBe('one\n');
    const again = await post({ changes: [{ id }] });
    expect(again.json.outcomes[0]).toMatchObject({ ok: false, error: { code: 'not_found' } });
  });

  it('rejects all the listed changes, and nothing it does not list', async () => {
    f = await startFixture({ ...STAGED, 'drafts/other.md': 'one\n' });
    const id = await stageEdit();
    const read = await f.vault.call('read_note', { name: 'drafts/other' });
    await f.vault.call('update_note', {
      name: 'drafts/other',
      content: 'two\n',
      expected_etag: read.structured.etag,
    });
    const { cookie, csrf } = await f.signIn();
    const post = (body: unknown) =>
      f.request('/api/pending-all/reject', { method: 'POST', cookie, csrf, body });
    expect((await post({})).status).toBe(400);
    const rejected = await post({ ids: [id, '20260101-000000-000-abcdef'] });
    expect(rejected.json).toMatchObject({
      rejected: [{ id }],
      missing: ['20260101-000000-000-abcdef'],
      stillPending: 1,
    });
    expect(readBytes(f.vault.dir, 'drafts/plan.md')?.toString()).toBe(BASE);
    expect((await f.request('/api/pending', { cookie })).json.changes).toHaveLength(1);
  });

  it('pages a change: the next hunks and the rest of a hunk on request, with clear refusals (issue 30.1)', async () => {
    f = await startFixture(STAGED);
    const id = await stageEdit();
    const { cookie } = await f.signIn();
    const hunks = await f.request(`/api/pending/${id}/hunks?from=2&count=5`, { cookie });
    expect(hunks.json).toMatchObject({ hunkCount: 2, hunks: [{ index: 2 }] });
    const lines = await f.request(`/api/pending/${id}/hunk-lines?hunk=1&from=2&count=2`, { cookie });
    expect(lines.json).toMatchObject({ hunk: 1, from: 2, total: 6 });
    expect(lines.json.lines.map((l: { kind: string }) => l.kind)).toEqual(['removed', 'added']);
    const none = await f.request(`/api/pending/${id}/hunk-lines?hunk=3`, { cookie });
    expect(none.status).toBe(400);
    expect(none.json.error.message).toBe('This change has no hunk 3.');
    const bad = await f.request(`/api/pending/${id}/hunks?count=0`, { cookie });
    expect(bad.json.error.message).toBe('"count" is 1 to 200.');
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
    expect(activity.json.integrity).toMatchObject({ ok: true, entries: 2, unverified: null });
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
    expect(diff.json.diff.hunks[0].lines).toEqual([
      { kind: 'removed', old: 1, new: null, pieces: [{ text: 'A', changed: false }] },
      {
        kind: 'added',
        old: null,
        new: 1,
        pieces: [
          { text: 'A', changed: false },
          { text: ' changed', changed: true },
        ],
      },
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

  it("issue 35 finding 4: a journal replaced wholesale by another vault's lists no entry as proven, and none is undone", async () => {
    f = await startFixture({ 'notes/a.md': 'A\n', 'notes/b.md': 'B\n' });
    await agentWrites();
    // Another vault of the same user (the same key signs its journal), where an agent deleted a note.
    const other = await openTestVault({ 'notes/x.md': 'X\n' });
    try {
      expect((await other.call('delete_note', { name: 'notes/x' })).isError).toBe(false);
      const dir = path.join(f.vault.dir, '.noted', 'journal');
      fs.rmSync(dir, { recursive: true });
      fs.cpSync(path.join(other.dir, '.noted', 'journal'), dir, { recursive: true });
    } finally {
      await other.close();
    }
    const { cookie, csrf } = await f.signIn();
    const activity = (await f.request('/api/activity', { cookie })).json;
    expect(activity.integrity).toMatchObject({ ok: false, scope: 'vault' });
    const entries = activity.sessions.flatMap((s: { entries: unknown[] }) => s.entries);
    expect(entries).toMatchObject([{ note: 'notes/x.md', kind: 'delete', verified: false, undoable: false }]);
    const undo = await f.request('/api/activity/undo', {
      method: 'POST',
      cookie,
      csrf,
      body: { entry: entries[0].id },
    });
    expect(undo.status).toBe(409);
    expect(undo.json.message ?? undo.text).toMatch(/does not verify as a whole/);
    expect(readBytes(f.vault.dir, 'notes/x.md')).toBeNull();
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
    // Issue 30, point 10: one plain sentence with what to do, no command and no entry id.
    expect(result.json.outcomes[1].reason).toBe(
      `"notes/a.md" was changed after the agent wrote it, so undoing would lose those later changes; it was left as it is. Edit it by hand if you still want the agent's change gone.`,
    );
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

  it('shows a move as one operation and undoes it whole, removing the folders the move made', async () => {
    f = await startFixture({ 'notes/a.md': 'A\n', 'notes/b.md': 'see [[notes/a]]\n', 'keep/x.md': 'x\n' });
    await f.vault.call('move_note', { name: 'notes/a', new_name: 'archive/2026/a' });
    const { cookie, csrf } = await f.signIn();
    const [session] = (await f.request('/api/activity', { cookie })).json.sessions;
    const group = session.entries[0].group as string;
    expect(
      session.entries.every((e: { group: string; undoable: boolean }) => e.group === group && !e.undoable),
    ).toBe(true);
    expect(session.operations[group]).toEqual({
      group,
      tool: 'move_note',
      entries: 3,
      undoable: true,
      whyNot: null,
    });
    const post = (route: string, body: unknown) =>
      f.request(`/api/activity/${route}`, { method: 'POST', cookie, csrf, body });
    expect((await post('undo-group', { group: 'g-nope' })).status).toBe(404);
    expect((await post('undo-group', {})).status).toBe(400);
    const undone = await post('undo-group', { group });
    expect(undone.json.outcomes.map((o: { outcome: string }) => o.outcome)).toEqual([
      'undone',
      'undone',
      'undone',
    ]);
    expect(readBytes(f.vault.dir, 'notes/a.md')?.toString()).toBe('A\n');
    expect(readBytes(f.vault.dir, 'notes/b.md')?.toString()).toBe('see [[notes/a]]\n');
    // Issue 30, point 10: the folders the move made, empty now, are gone; the others stay.
    expect(fs.existsSync(path.join(f.vault.dir, 'archive'))).toBe(false);
    expect(fs.readdirSync(f.vault.dir).sort()).toEqual(['.noted', 'keep', 'notes']);
    const after = (await f.request('/api/activity', { cookie })).json.sessions;
    const moved = after.find((s: { session: string }) => s.session === session.session);
    expect(moved.operations[group]).toMatchObject({ undoable: false, whyNot: 'already undone' });
  });

  it('undoes exactly the changes and operations the page lists of a session (issue 30.3), and nothing else', async () => {
    f = await startFixture({ 'notes/a.md': 'A\n', 'notes/b.md': 'B\n', 'notes/c.md': 'see [[notes/a]]\n' });
    await agentWrites();
    await f.vault.call('move_note', { name: 'notes/b', new_name: 'archive/b' });
    const { cookie, csrf } = await f.signIn();
    const post = (body: unknown) =>
      f.request('/api/activity/undo-shown', { method: 'POST', cookie, csrf, body });
    const [session] = (await f.request('/api/activity', { cookie })).json.sessions;
    const alone = session.entries.find(
      (e: { note: string; group: string | null }) => e.note === 'notes/a.md' && e.group === null,
    );
    const group = session.entries.find((e: { group: string | null }) => e.group !== null).group as string;

    expect((await post({ session: session.session, entries: [], groups: [] })).status).toBe(400);
    const stranger = await post({ session: 'another-session', entries: [alone.id] });
    expect(stranger.status).toBe(409);
    expect(stranger.json.error.message).toMatch(/not one of this session/);
    expect(readBytes(f.vault.dir, 'notes/a.md')?.toString()).toBe('A changed\n');

    const done = await post({ session: session.session, entries: [alone.id] });
    expect(done.status).toBe(200);
    expect(done.json.outcomes).toMatchObject([{ note: 'notes/a.md', outcome: 'undone' }]);
    expect(readBytes(f.vault.dir, 'notes/a.md')?.toString()).toBe('A\n');
    // The move and the other edit were not listed: they stay.
    expect(readBytes(f.vault.dir, 'archive/b.md')?.toString()).toBe('B changed\n');

    const moved = await post({ session: session.session, groups: [group] });
    expect(moved.json.outcomes.every((o: { outcome: string }) => o.outcome === 'undone')).toBe(true);
    expect(readBytes(f.vault.dir, 'notes/b.md')?.toString()).toBe('B changed\n');
  });
});
