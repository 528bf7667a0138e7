/**
 * Start at once (SPEC 14.1, issue 19): while the index is built in the background, initialize,
 * tools/list, prompts and the tools that do not need the index answer at once; a tool that needs it
 * waits, with the build's progress on its progress token, and is answered `busy` with that progress
 * when the build takes longer than the wait; the gate tells the index state (ready, or building with
 * how far). A build is held midway here by a parser pool that waits for the test.
 */

import fs from 'node:fs';
import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { afterEach, expect, it } from 'vitest';
import { type StartingVault, startVault } from '../../src/access/open.js';
import type { ParserPool } from '../../src/index/sync/parser-pool.js';
import { parseHere } from '../../src/index/sync/parser-pool.js';
import { createMcpServer } from '../../src/mcp/server.js';
import { checkResult, makeVault, testJournalKey, within } from '../helpers/vault.js';

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

/** A vault of `count` notes (enough for a parallel build), its index held after the first batch. */
async function heldBuild(count: number, indexWaitMs?: number) {
  const files: Record<string, string> = { 'prompts/Hello.md': 'Say hello to {{selection}}\n' };
  for (let i = 0; i < count; i++)
    files[`n/${String(i).padStart(4, '0')}.md`] = `# Note ${i}\n\nA pangolin ${i}.\n`;
  const made = makeVault(files);
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  let batches = 0;
  const pool = {
    parse: async (root: string, batch: Parameters<typeof parseHere>[1]) => {
      if (batches++ > 0) await held;
      return parseHere(root, batch);
    },
    close: async () => undefined,
  } as unknown as ParserPool;
  const opened: StartingVault = await startVault({
    vaultDir: made.dir,
    trashRetentionDays: 30,
    watch: false,
    log: { warn: () => undefined },
    parserPool: () => pool,
    journalKey: testJournalKey(),
  });
  const server = createMcpServer(
    opened.access,
    { name: 'noted-mcp', version: 'test' },
    indexWaitMs === undefined ? {} : { indexWaitMs },
  );
  const client = new Client({ name: 'start-test', version: '0' });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(b);
  await client.connect(a);
  cleanup = async () => {
    release();
    await client.close();
    await server.close();
    await opened.close();
    fs.rmSync(made.base, { recursive: true, force: true });
  };
  return { opened, client, release };
}

it('answers initialize, tools/list, prompts and index-free tools while the index is built', async () => {
  const { opened, client } = await heldBuild(1200);
  expect(opened.access.indexState()).toMatchObject({ state: 'building' });
  const { tools } = await client.listTools();
  expect(tools.length).toBeGreaterThan(20);
  const { prompts } = await client.listPrompts();
  expect(prompts.map((p) => p.name)).toEqual([
    'hello',
    'find-note',
    'weekly-review',
    'new-meeting-note',
    'tidy-links',
  ]);
  const trash = checkResult(await client.callTool({ name: 'list_trash', arguments: {} }));
  expect(trash.isError).toBe(false);
  const made = checkResult(await client.callTool({ name: 'create_folder', arguments: { folder: 'new' } }));
  expect(made.structured).toMatchObject({ folder: 'new', created: true });
  // Still building: all of these were answered meanwhile. Held after its first batch, it gets that far.
  expect(opened.access.indexState().state).toBe('building');
  const held = await within(10_000, () => {
    const now = opened.access.indexState();
    return now.state === 'building' && now.step === 'reading notes' && now.progress?.total === 1201;
  });
  expect(held).not.toBeNull();
});

it('get_vault_info answers while the index is built, with how far it is, and its counts once it is ready', async () => {
  const { client, release, opened } = await heldBuild(1200);
  expect(
    await within(10_000, () => {
      const now = opened.access.indexState();
      return now.state === 'building' && now.progress?.total === 1201;
    }),
  ).not.toBeNull();
  const during = checkResult(await client.callTool({ name: 'get_vault_info', arguments: {} }));
  expect(during.isError).toBe(false);
  expect(during.structured.index).toMatchObject({
    state: 'building',
    step: 'reading notes',
    progress: { total: 1201 },
  });
  expect(during.structured.counts).toBeUndefined();
  expect(during.text).toContain('The search index is being built (reading notes,');
  release();
  await opened.ready;
  const after = checkResult(await client.callTool({ name: 'get_vault_info', arguments: {} }));
  expect(after.structured.index).toEqual({ state: 'ready' });
  expect(after.structured.counts).toMatchObject({ notes: 1201 });
});

it('a tool that needs the index waits with the build progress, then answers', async () => {
  const { opened, client, release } = await heldBuild(1200);
  const seen: { progress: number; total?: number; message?: string }[] = [];
  let answered = false;
  const search = client
    .callTool({ name: 'search_notes', arguments: { query: 'pangolin' } }, { onprogress: (p) => seen.push(p) })
    .then((r) => {
      answered = true;
      return checkResult(r);
    });
  // Once the files are listed, the build reads them: held after its first batch, it stays there.
  expect(await within(10_000, () => seen.some((p) => p.total === 1201))).not.toBeNull();
  expect(answered).toBe(false);
  const reading = seen.find((p) => p.total === 1201);
  expect(reading?.message).toMatch(/^Building the search index: reading notes, \d+ of 1,201/);
  const state = opened.access.indexState();
  expect(state.state === 'building' && (state.progress?.done ?? 1201) < 1201).toBe(true);
  release();
  const r = await search;
  expect(r.isError).toBe(false);
  expect(r.structured.total).toBe(1200);
  expect(opened.access.indexState()).toEqual({ state: 'ready' });
});

it('after the wait a tool is answered busy, with how far the build is, and nothing is changed', async () => {
  const { opened, client, release } = await heldBuild(1200, 300);
  const r = checkResult(
    await client.callTool({ name: 'create_note', arguments: { name: 'late', content: 'x' } }),
  );
  expect(r.isError).toBe(true);
  expect(r.structured).toMatchObject({
    code: 'busy',
    committed: false,
    index: { state: 'building', step: 'reading notes', total: 1201 },
  });
  expect(r.structured.message).toMatch(/Building the search index: reading notes, \d+ of 1,201 \(\d+%\)/);
  expect(fs.existsSync(`${opened.vault.root}/late.md`)).toBe(false);
  // Resources wait the same way, and say busy as a protocol error.
  await expect(client.listResources()).rejects.toThrow(/Building the search index/);
  release();
  await opened.ready;
  const again = checkResult(
    await client.callTool({ name: 'create_note', arguments: { name: 'late', content: 'x' } }),
  );
  expect(again.isError).toBe(false);
});

it('a request cancelled while it waits for the index stops waiting', async () => {
  const { client } = await heldBuild(1200);
  const controller = new AbortController();
  const call = client.callTool(
    { name: 'list_notes', arguments: {} },
    { signal: controller.signal, onprogress: () => controller.abort('no time') },
  );
  await expect(call).rejects.toThrow();
});
