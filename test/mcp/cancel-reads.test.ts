/**
 * Issue 36.4: a cancelled search_notes or export_notes stops at its next safe point instead of running
 * to the end and answering anyway. Through the gate, a cancelled Work stops the read (a search by the
 * index alone, one checked note by note, an export page part way); through a real client, the
 * cancelled call gets no result and its outcome, `cancelled`, arrives as a log message.
 */
import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentSession } from '../../src/access/types.js';
import { createWork, isCancelled, type Work } from '../../src/common/work.js';
import { createMcpServer } from '../../src/mcp/server.js';
import { openTestVault, type TestVault, type VaultFiles, within } from '../helpers/vault.js';

let v: TestVault | undefined;
let closeMore: (() => Promise<void>) | undefined;
afterEach(async () => {
  await closeMore?.();
  closeMore = undefined;
  await v?.close();
  v = undefined;
});

const ME: AgentSession = { id: 'test-session', clientName: () => 'cancel-test' };

function notes(count: number): VaultFiles {
  const files: VaultFiles = {};
  const filler = 'lorem ipsum dolor sit amet '.repeat(60);
  for (let i = 0; i < count; i++) {
    const n = String(i).padStart(4, '0');
    files[`notes/n${n}.md`] = `# Note ${n}\n\nalpha beta ${filler}\n\ngamma line ${n}\n`;
  }
  return files;
}

function abortedWork() {
  const controller = new AbortController();
  controller.abort('stopped by the test');
  return createWork({ signal: controller.signal });
}

async function cancelledOrNull(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => null,
    (err: unknown) => err,
  );
}

describe('cancelling a read through the gate', () => {
  it('a cancelled search stops, whether the index answers it or notes are checked one by one', async () => {
    v = await openTestVault(notes(20));
    for (const query of ['alpha', 'line:(gamma line)', '/gam+a/']) {
      const err = await cancelledOrNull(v.opened.access.search(ME, { query }, abortedWork()));
      expect(isCancelled(err), `${query}: ${String(err)}`).toBe(true);
    }
    // Not cancelled, the same searches answer.
    expect((await v.opened.access.search(ME, { query: 'line:(gamma line)' })).total).toBe(20);
  });

  it('a plain-word search over more than 2,000 notes stops part way through its matches when cancelled, and pages them all when not', async () => {
    const files: VaultFiles = {};
    for (let i = 0; i < 2_100; i++) {
      const n = String(i).padStart(4, '0');
      files[`w/n${n}.md`] = `${'word '.repeat((i % 9) + 1)}note ${n}\n`;
    }
    v = await openTestVault(files);
    const controller = new AbortController();
    const inner = createWork({ signal: controller.signal });
    let safePoints = 0;
    const work: Work = {
      report: () => undefined,
      get cancelled() {
        return inner.cancelled;
      },
      // The first safe point is before the index is read; the cancel comes at the second, inside
      // the steps through the 2,100 matches (one every 256 rows).
      checkpoint: () => {
        if (++safePoints === 2) controller.abort('stopped by the test');
        return inner.checkpoint();
      },
    };
    const err = await cancelledOrNull(v.opened.access.search(ME, { query: 'word' }, work));
    expect(isCancelled(err), String(err)).toBe(true);
    expect(safePoints).toBe(2);
    // Not cancelled, its safe points: one before the index is read, one every 256 matches, one
    // after, and one per hit of the page (each reads its note for the excerpt).
    let counted = 0;
    const counting = createWork();
    const hits = await v.opened.access.search(
      ME,
      { query: 'word', maxResults: 10 },
      {
        report: () => undefined,
        cancelled: false,
        checkpoint: () => {
          counted++;
          return counting.checkpoint();
        },
      },
    );
    expect(hits.results.length).toBe(10);
    expect(counted).toBe(1 + Math.floor(2_100 / 256) + 1 + 10);
    // Not cancelled: every note once, pages in order of score, the cursor going on where a page ended.
    const seen: string[] = [];
    let cursor: string | undefined;
    let last = Number.POSITIVE_INFINITY;
    do {
      const page = await v.opened.access.search(ME, {
        query: 'word',
        maxResults: 500,
        ...(cursor ? { cursor } : {}),
      });
      expect(page.total).toBe(2_100);
      for (const hit of page.results) {
        expect(hit.score).toBeLessThanOrEqual(last);
        last = hit.score;
        seen.push(hit.name);
      }
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    expect(seen.length).toBe(2_100);
    expect(new Set(seen).size).toBe(2_100);
  });

  it('a cancelled export stops before the next note: no page, and no note read after the stop', async () => {
    v = await openTestVault(notes(20));
    const controller = new AbortController();
    const added: number[] = [];
    const work = createWork({
      signal: controller.signal,
      onProgress: (done) => {
        added.push(done);
        if (done === 3) controller.abort('stopped by the test');
      },
    });
    const err = await cancelledOrNull(v.opened.access.exportNotes(ME, { format: 'json' }, work));
    expect(isCancelled(err), String(err)).toBe(true);
    expect(added).toEqual([1, 2, 3]);
    expect((await v.opened.access.exportNotes(ME, { format: 'json' })).count).toBe(20);
  });

  it('a cancel that comes once every note is in the page still stops the export: its shaping has safe points', async () => {
    v = await openTestVault(notes(20));
    for (const format of ['json', 'markdown', 'html'] as const) {
      const controller = new AbortController();
      const work = createWork({
        signal: controller.signal,
        onProgress: (done) => {
          if (done === 20) controller.abort('stopped by the test');
        },
      });
      const err = await cancelledOrNull(v.opened.access.exportNotes(ME, { format }, work));
      expect(isCancelled(err), `${format}: ${String(err)}`).toBe(true);
    }
    // Not cancelled, the html page is whole, its links between notes still in-page anchors.
    const page = await v.opened.access.exportNotes(ME, { format: 'html' });
    expect(page.count).toBe(20);
    expect(page.document).toContain('<article id="note-');
  });
});

describe('cancelling a read through a client', () => {
  /** A second client on the vault's access, with a hook on each request the server receives. */
  async function clientWithHook(onRequest: (method: string) => void): Promise<Client> {
    const opened = v!.opened;
    const server = createMcpServer(opened.access, { name: 'noted-mcp', version: 'test' });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const deliver = serverSide.onmessage;
    serverSide.onmessage = (message, extra) => {
      deliver?.(message, extra);
      if ('method' in message && 'id' in message) onRequest(message.method);
    };
    const client = new Client({ name: 'cancel-test', version: '0' });
    await client.connect(clientSide);
    closeMore = async () => {
      await client.close();
      await server.close();
    };
    return client;
  }

  it('a cancelled search_notes gets no result, and its outcome is told as cancelled', async () => {
    v = await openTestVault(notes(600));
    const controller = new AbortController();
    const client = await clientWithHook((method) => {
      if (method === 'tools/call') controller.abort('cancelled by the test');
    });
    const logs: { data?: { tool?: string; outcome?: Record<string, unknown> } }[] = [];
    client.setNotificationHandler('notifications/message', (n) => void logs.push(n.params as never));
    const call = client.callTool(
      { name: 'search_notes', arguments: { query: '/lorem.*amet/ gamma' } },
      { signal: controller.signal },
    );
    await expect(call).rejects.toThrow();
    const told = await within(20_000, () => logs.some((l) => l.data?.tool === 'search_notes'));
    expect(told, 'the outcome of the cancelled search is told').not.toBeNull();
    expect(logs.find((l) => l.data?.tool === 'search_notes')?.data?.outcome).toMatchObject({
      code: 'cancelled',
      committed: false,
    });
  });

  it('a cancelled export_notes stops once it has begun (its progress says so) and is told as cancelled', async () => {
    v = await openTestVault(notes(600));
    const client = await clientWithHook(() => undefined);
    const logs: { data?: { tool?: string; outcome?: Record<string, unknown> } }[] = [];
    client.setNotificationHandler('notifications/message', (n) => void logs.push(n.params as never));
    const controller = new AbortController();
    const call = client.callTool(
      { name: 'export_notes', arguments: { format: 'markdown' } },
      {
        signal: controller.signal,
        onprogress: (p) => {
          if (p.message?.startsWith('exporting notes')) controller.abort('enough');
        },
      },
    );
    await expect(call).rejects.toThrow();
    const told = await within(20_000, () => logs.some((l) => l.data?.tool === 'export_notes'));
    expect(told, 'the outcome of the cancelled export is told').not.toBeNull();
    expect(logs.find((l) => l.data?.tool === 'export_notes')?.data?.outcome).toMatchObject({
      code: 'cancelled',
    });
  });
});

describe('list_links walks the vault in pages of notes, with safe points', () => {
  it('answers across pages of notes, and a cancelled one stops', async () => {
    const files: VaultFiles = {};
    // 1,200 notes: more than two pages of the walk (500 notes a page).
    for (let i = 0; i < 1200; i++) {
      const n = String(i).padStart(4, '0');
      files[`n/${n}.md`] = `links to [[n/${String((i + 1) % 1200).padStart(4, '0')}]] and [[gone ${n}]]\n`;
    }
    files['alone.md'] = 'nothing links here\n';
    v = await openTestVault(files);
    const unresolved = await v.opened.access.listLinks(ME, { kind: 'unresolved', limit: 5 });
    expect(unresolved.total).toBe(1200);
    expect(unresolved.items.map((u) => ('target' in u ? u.target : null))).toEqual([
      'gone 0000',
      'gone 0001',
      'gone 0002',
      'gone 0003',
      'gone 0004',
    ]);
    const orphans = await v.opened.access.listLinks(ME, { kind: 'orphans' });
    expect(orphans.items.map((o) => ('name' in o ? o.name : null))).toEqual(['alone.md']);
    const err = await cancelledOrNull(v.opened.access.listLinks(ME, { kind: 'unresolved' }, abortedWork()));
    expect(isCancelled(err), String(err)).toBe(true);
  });
});

describe('list_bases reads the bases with safe points', () => {
  it('lists them, and a cancelled one stops', async () => {
    v = await openTestVault({
      'Reading.base': 'views:\n  - type: table\n    name: All\n',
      'notes/with block.md': '# Plan\n\n```base\nviews:\n  - type: list\n    name: Mine\n```\n',
      'notes/plain.md': 'a base camp, no block\n',
    });
    const found = await v.opened.access.listBases(ME, {});
    expect(found.bases.map((b) => b.name)).toEqual(['Reading.base', 'notes/with block.md']);
    const err = await cancelledOrNull(v.opened.access.listBases(ME, {}, abortedWork()));
    expect(isCancelled(err), String(err)).toBe(true);
  });
});
