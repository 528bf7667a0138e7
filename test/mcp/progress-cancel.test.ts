/**
 * Progress and cancellation of long calls (SPEC 14.2, issue 19): move_folder, move_note, move_notes
 * and delete_notes report progress on the request's token; cancelled, a move stops at the next safe
 * point and leaves the vault as it was (nothing changed yet, or what it did undone), saying which, and
 * a batch stops between items; while a long move runs, other clients' requests are answered.
 */
import fs from 'node:fs';
import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentSession } from '../../src/access/types.js';
import { isNotedError, type NotedError } from '../../src/common/errors.js';
import { createWork } from '../../src/common/work.js';
import { createMcpServer } from '../../src/mcp/server.js';
import { runLongTool, workFor } from '../../src/mcp/work.js';
import {
  checkResult,
  openTestVault,
  snapshot,
  type TestVault,
  type VaultFiles,
  within,
} from '../helpers/vault.js';

let v: TestVault | undefined;
afterEach(async () => {
  await v?.close();
  v = undefined;
});

const ME: AgentSession = { id: 'test-session', clientName: () => 'progress-test' };

/** `big/` with `count` notes, and as many notes elsewhere linking to them (so links get rewritten). */
function vaultWith(count: number): VaultFiles {
  const files: VaultFiles = { 'big/pic.png': new Uint8Array([1, 2, 3]) };
  for (let i = 0; i < count; i++) {
    const n = String(i).padStart(3, '0');
    files[`big/n${n}.md`] = `# Note ${n}\n\nSee [[m${n}]].\n`;
    files[`elsewhere/m${n}.md`] = `# M ${n}\n\nPoints at [[big/n${n}]] and ![[pic.png]].\n`;
  }
  return files;
}

/** A Work that aborts itself once a report matches `when`. */
function abortingWork(when: (done: number, message: string) => boolean) {
  const controller = new AbortController();
  const work = createWork({
    signal: controller.signal,
    onProgress: (done, _total, message) => {
      if (!controller.signal.aborted && when(done, message ?? '')) controller.abort('stopped by the test');
    },
  });
  return work;
}

async function rejection(promise: Promise<unknown>): Promise<NotedError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!isNotedError(err)) throw new Error(`expected a NotedError, got ${String(err)}`);
  return err;
}

describe('progress', () => {
  it('move_folder reports progress on the request token, counting up to its total', async () => {
    v = await openTestVault(vaultWith(30));
    const seen: { progress: number; total?: number; message?: string }[] = [];
    const raw = await v.client.callTool(
      { name: 'move_folder', arguments: { folder: 'big', new_folder: 'archive/big' } },
      { onprogress: (p) => seen.push(p) },
    );
    const r = checkResult(raw);
    expect(r.isError).toBe(false);
    expect(r.structured.notesTotal).toBe(30);
    expect(seen.length).toBeGreaterThan(1);
    for (let i = 1; i < seen.length; i++)
      expect((seen[i]?.progress ?? 0) > (seen[i - 1]?.progress ?? 0)).toBe(true);
    const last = seen.at(-1);
    expect(last?.progress).toBe(last?.total);
  });

  it('a long move with a progress token: progress rises through every step and ends at its total (issue 36.3)', async () => {
    // 150 notes moved, 150 linking to them: planning reads 300 notes, then the move counts from 0
    // again (moving notes, rewriting links). Before, every later step was dropped as not increasing.
    v = await openTestVault(vaultWith(150));
    const seen: { progress: number; total?: number; message?: string }[] = [];
    const raw = await v.client.callTool(
      { name: 'move_folder', arguments: { folder: 'big', new_folder: 'archive/big' } },
      { onprogress: (p) => seen.push(p), timeout: 120_000 },
    );
    expect(checkResult(raw).structured.notesTotal).toBe(150);
    for (let i = 1; i < seen.length; i++)
      expect(seen[i]?.progress ?? 0, JSON.stringify(seen)).toBeGreaterThan(seen[i - 1]?.progress ?? 0);
    const steps = new Set(seen.map((p) => p.message?.split(':')[0]));
    for (const step of ['planning', 'moving notes', 'moved'])
      expect(steps.has(step), `${step} in ${JSON.stringify(seen)}`).toBe(true);
    const last = seen.at(-1);
    expect(last?.progress).toBe(last?.total);
    // Every notification's progress stays within the total it announces.
    for (const p of seen) expect(p.progress).toBeLessThanOrEqual(p.total ?? Number.POSITIVE_INFINITY);
  });

  it('after an earlier step that ended high (the wait for the index), every step of the move is still told, and the last at its total', async () => {
    // The request's one Work first waited for an index of 400 notes, then moves: before, nothing of
    // the move counted past 400, so planning, moving and even the final "moved" were all dropped.
    v = await openTestVault(vaultWith(150));
    const opened = v.opened;
    const sent: { progress: number; total?: number; message?: string }[] = [];
    const ctx = {
      mcpReq: {
        _meta: { progressToken: 'tok' },
        signal: new AbortController().signal,
        notify: async (n: { params: { progress: number; total?: number; message?: string } }) => {
          sent.push(n.params);
        },
      },
    } as unknown as Parameters<typeof workFor>[0];
    workFor(ctx).report(400, 400, 'waiting for the index: 400 of 400 notes');
    const result = await runLongTool(ctx, 'move_folder', async (work) => {
      const r = await opened.access.moveFolder(ME, { folder: 'big', newFolder: 'archive/big' }, work);
      return { content: [], structuredContent: { ...r } };
    });
    expect((result.structuredContent as { notesTotal?: number }).notesTotal).toBe(150);
    for (let i = 1; i < sent.length; i++)
      expect(sent[i]?.progress ?? 0, JSON.stringify(sent)).toBeGreaterThan(sent[i - 1]?.progress ?? 0);
    const steps = sent.map((p) => p.message?.split(':')[0]);
    for (const step of ['waiting for the index', 'planning', 'moving notes'])
      expect(steps, JSON.stringify(sent)).toContain(step);
    const last = sent.at(-1);
    expect(last?.message).toBe('moved');
    expect(last?.progress).toBe(last?.total);
  });

  it('the notifications are thinned out: the first, each new step (counted on from the steps before) and the last go', async () => {
    const sent: { progress: number; total?: number; message?: string }[] = [];
    const ctx = {
      mcpReq: {
        _meta: { progressToken: 'tok' },
        signal: new AbortController().signal,
        notify: async (n: { params: { progress: number; total?: number; message?: string } }) => {
          sent.push(n.params);
        },
      },
    } as unknown as Parameters<typeof workFor>[0];
    const work = workFor(ctx);
    expect(workFor(ctx)).toBe(work);
    work.report(0, 10, 'planning: first');
    work.report(3, 10, 'planning: soon after, thinned out');
    work.report(0, 5, 'moving: a new step, counted on from the 10 of planning');
    work.report(2, 5, 'moving: thinned out');
    work.report(5, 5, 'moving: last');
    work.report(5, 5, 'moving: a repeat');
    expect(sent.map((p) => [p.progress, p.total, p.message])).toEqual([
      [0, 10, 'planning: first'],
      [10, 15, 'moving: a new step, counted on from the 10 of planning'],
      [15, 15, 'moving: last'],
    ]);
  });

  it('a call without a progress token gets no progress notifications', async () => {
    v = await openTestVault(vaultWith(5));
    const progress: unknown[] = [];
    v.client.setNotificationHandler('notifications/progress', (n) => void progress.push(n));
    const r = await v.call('move_folder', { folder: 'big', new_folder: 'archive/big' });
    expect(r.isError).toBe(false);
    expect(progress).toEqual([]);
  });
});

describe('cancellation through the gate', () => {
  it('cancelled while planning, a folder move changes nothing and says so', async () => {
    v = await openTestVault(vaultWith(20));
    const before = snapshot(v.dir);
    const controller = new AbortController();
    controller.abort();
    const err = await rejection(
      v.opened.access.moveFolder(
        ME,
        { folder: 'big', newFolder: 'archive/big' },
        createWork({ signal: controller.signal }),
      ),
    );
    expect(err.code).toBe('cancelled');
    expect(err.details).toMatchObject({ committed: false, undone: true });
    expect(err.message).toContain('before anything was changed');
    expect(snapshot(v.dir)).toEqual(before);
    expect(v.opened.access.ctx.journal.list()).toEqual([]);
  });

  it('cancelled after six notes moved, a folder move is undone whole: notes, attachment, links, folders', async () => {
    v = await openTestVault(vaultWith(20));
    const before = snapshot(v.dir);
    const work = abortingWork((done, message) => message.startsWith('moving notes') && done >= 6);
    const err = await rejection(
      v.opened.access.moveFolder(ME, { folder: 'big', newFolder: 'archive/big' }, work),
    );
    expect(err.code).toBe('cancelled');
    expect(err.details).toMatchObject({ committed: false, undone: true });
    expect(err.message).toContain('was undone');
    expect(snapshot(v.dir)).toEqual(before);
    // Six notes moved (a delete and a create each), then undone, every step journaled.
    const journal = v.opened.access.ctx.journal;
    const group = err.details.group as string;
    const moves = journal.list({ group });
    expect(moves).toHaveLength(12);
    const undos = journal.list({ kind: 'undo' });
    expect(undos.map((u) => u.undoOf).sort()).toEqual(moves.map((m) => m.id).sort());
    // The index sees the vault as it is again.
    const found = await v.call('search_notes', { query: 'Note 003' });
    expect(found.structured.results.map((h: { name: string }) => h.name)).toContain('big/n003.md');
  });

  it('cancelled while the links elsewhere are rewritten, a note move is undone, rewrites included', async () => {
    const files: VaultFiles = { 'Plan.md': '# Plan\n' };
    for (let i = 0; i < 450; i++) files[`l/n${String(i).padStart(3, '0')}.md`] = `[[Plan]] ${i}\n`;
    v = await openTestVault(files);
    const before = snapshot(v.dir);
    // After the first batch of 200 rewrites (and the moved note itself).
    const work = abortingWork((done, message) => message.startsWith('rewriting links') && done >= 200);
    const err = await rejection(v.opened.access.moveNote(ME, { name: 'Plan', newName: 'Roadmap' }, { work }));
    expect(err.code).toBe('cancelled');
    expect(err.details).toMatchObject({ undone: true });
    expect(snapshot(v.dir)).toEqual(before);
    expect(v.opened.access.ctx.journal.list({ group: err.details.group as string })).toHaveLength(202);
  });

  it('a note saved by hand while the move ran is not overwritten by the undo; the answer names it', async () => {
    v = await openTestVault(vaultWith(10));
    const dir = v.dir;
    const work = abortingWork((done, message) => {
      if (!(message.startsWith('moving notes') && done >= 3)) return false;
      // An editor saves a note the move had already moved, just before the cancellation.
      fs.writeFileSync(`${dir}/archive/big/n000.md`, 'edited by hand\n');
      return true;
    });
    const err = await rejection(
      v.opened.access.moveFolder(ME, { folder: 'big', newFolder: 'archive/big' }, work),
    );
    expect(err.code).toBe('cancelled');
    expect(err.details).toMatchObject({ committed: true, undone: false });
    expect(err.message).toContain('archive/big/n000.md');
    expect(snapshot(dir).get('archive/big/n000.md')).toBe(Buffer.from('edited by hand\n').toString('base64'));
  });

  it('a cancelled delete_notes stops between items: those done stay done, the rest are not touched', async () => {
    v = await openTestVault({ 'a.md': 'a\n', 'b.md': 'b\n', 'c.md': 'c\n', 'd.md': 'd\n' });
    const work = abortingWork((done) => done >= 2);
    const r = await v.opened.access.deleteNotes(
      ME,
      ['a', 'b', 'c', 'd'].map((name) => ({ name })),
      work,
    );
    expect(r.results.map((x) => [x.name, x.committed, 'code' in x ? x.code : 'done'])).toEqual([
      ['a.md', true, 'done'],
      ['b.md', true, 'done'],
      ['c', false, 'cancelled'],
      ['d', false, 'cancelled'],
    ]);
    expect(Object.keys(Object.fromEntries(snapshot(v.dir))).sort()).toEqual(['c.md', 'd.md']);
  });

  it('a cancelled move_notes keeps the moves it finished and undoes the one it was in', async () => {
    const files: VaultFiles = { 'A.md': 'a\n', 'B.md': 'b\n' };
    for (let i = 0; i < 250; i++) files[`l/n${String(i).padStart(3, '0')}.md`] = `[[B]] ${i}\n`;
    v = await openTestVault(files);
    let items = 0;
    const controller = new AbortController();
    const work = createWork({
      signal: controller.signal,
      onProgress: (done) => {
        items = done;
      },
    });
    // Cancelled while the second move rewrites links: its first checkpoint after a batch sees it.
    const journal = v.opened.access.ctx.journal;
    const real = journal.recordMany.bind(journal);
    journal.recordMany = (inputs) => {
      if (items === 1 && inputs.length > 2) controller.abort();
      return real(inputs);
    };
    const r = await v.opened.access.moveNotes(
      ME,
      {
        items: [
          { name: 'A', newName: 'A2' },
          { name: 'B', newName: 'B2' },
        ],
      },
      work,
    );
    journal.recordMany = real;
    expect(r.results.map((x) => [x.name, x.committed, 'code' in x ? x.code : 'moved'])).toEqual([
      ['A.md', true, 'moved'],
      ['B', false, 'cancelled'],
    ]);
    const files2 = snapshot(v.dir);
    expect(files2.has('A2.md')).toBe(true);
    expect(files2.has('B.md')).toBe(true);
    expect(files2.has('B2.md')).toBe(false);
    expect(files2.get('l/n249.md')).toBe(Buffer.from('[[B]] 249\n').toString('base64'));
  });
});

describe('cancellation over MCP', () => {
  it('a cancelled move_folder leaves the vault as it was, and its outcome arrives as a log message', async () => {
    v = await openTestVault(vaultWith(60));
    const before = snapshot(v.dir);
    const logs: { data: { tool?: string; cancelled?: boolean; outcome?: Record<string, unknown> } }[] = [];
    v.client.setNotificationHandler('notifications/message', (n) => void logs.push(n.params as never));
    const controller = new AbortController();
    const call = v.client.callTool(
      { name: 'move_folder', arguments: { folder: 'big', new_folder: 'archive/big' } },
      {
        signal: controller.signal,
        onprogress: (p) => {
          if (p.message?.startsWith('moving notes')) controller.abort('enough');
        },
      },
    );
    await expect(call).rejects.toThrow();
    const told = await within(20_000, () => logs.some((l) => l.data?.tool === 'move_folder'));
    expect(told).not.toBeNull();
    const outcome = logs.find((l) => l.data?.tool === 'move_folder')?.data.outcome ?? {};
    expect(outcome).toMatchObject({ code: 'cancelled', undone: true });
    expect(snapshot(v.dir)).toEqual(before);
  });

  it('while a long move runs, another client is answered before it ends', async () => {
    v = await openTestVault(vaultWith(150));
    const server = createMcpServer(v.opened.access, { name: 'noted-mcp', version: 'test' });
    const other = new Client({ name: 'other', version: '0' });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await server.connect(b);
    await other.connect(a);
    try {
      let moveDone = false;
      let started: () => void = () => undefined;
      const running = new Promise<void>((resolve) => {
        started = resolve;
      });
      const move = v.client
        .callTool(
          { name: 'move_folder', arguments: { folder: 'big', new_folder: 'archive/big' } },
          {
            onprogress: () => started(),
            timeout: 120_000,
          },
        )
        .then((r) => {
          moveDone = true;
          return r;
        });
      await running;
      const listed = checkResult(await other.callTool({ name: 'list_tags', arguments: {} }));
      expect(listed.isError).toBe(false);
      expect(moveDone).toBe(false);
      expect(checkResult(await move).isError).toBe(false);
    } finally {
      await other.close();
      await server.close();
    }
  });
});
