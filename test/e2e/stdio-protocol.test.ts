/**
 * The whole protocol over stdio with the built server (issue 19): a 2026-07-28 client (server/discover,
 * per-request envelope) is served as over HTTP; JSON-RPC batches are answered for 2025-03-26 and
 * refused with a reason for later versions; logging/setLevel is answered.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { afterEach, beforeAll, expect, it } from 'vitest';
import { noteUri } from '../../src/mcp/resources.js';
import { DIST, ensureBuilt, type ServerProcess, spawnServer } from '../helpers/server-process.js';
import { makeVault, snapshot, within } from '../helpers/vault.js';

beforeAll(async () => {
  await ensureBuilt();
}, 60_000);

let server: ServerProcess | undefined;
let base: string | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  if (base) fs.rmSync(base, { recursive: true, force: true });
  base = undefined;
});

it('a 2026-07-28 client is served over stdio: discover, then a create → read → search round trip', async () => {
  const made = makeVault({ 'n.md': '# N\n\nan aardvark\n' });
  base = made.base;
  server = await spawnServer(made.dir, { client: { versionNegotiation: { mode: { pin: '2026-07-28' } } } });
  expect(server.client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
  expect((await server.call('create_note', { name: 'm', content: 'a manatee\n' })).isError).toBe(false);
  expect((await server.call('read_note', { name: 'm' })).structured.body).toBe('a manatee\n');
  const found = await server.call('search_notes', { query: 'aardvark' });
  expect(found.structured.results.map((r: { name: string }) => r.name)).toEqual(['n.md']);
});

it('a client that negotiates the version itself lands on 2026-07-28 over stdio too', async () => {
  const made = makeVault({ 'n.md': 'negotiated\n' });
  base = made.base;
  server = await spawnServer(made.dir, { client: { versionNegotiation: { mode: 'auto' } } });
  expect(server.client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
  expect((await server.call('read_note', { name: 'n' })).structured.body).toBe('negotiated\n');
});

it('a 2026-07-28 client listening for a note over stdio hears it updated, and only the notes it named (issue 36.2)', async () => {
  const made = makeVault({ 'n.md': 'first\n', 'other.md': 'other\n' });
  base = made.base;
  server = await spawnServer(made.dir, { client: { versionNegotiation: { mode: { pin: '2026-07-28' } } } });
  const updated: string[] = [];
  server.client.setNotificationHandler('notifications/resources/updated', (n) => {
    updated.push(n.params.uri);
  });
  // 2026-07-28 removed resources/subscribe: a client names the resources in its listen filter.
  const subscription = await server.client.listen({ resourceSubscriptions: [noteUri('n.md')] });
  try {
    expect((await server.call('update_note', { name: 'other', content: 'changed\n' })).isError).toBe(false);
    expect((await server.call('update_note', { name: 'n', content: 'second\n' })).isError).toBe(false);
    const heard = await within(20_000, () => updated.includes(noteUri('n.md')));
    expect(heard, 'notifications/resources/updated for n.md').not.toBeNull();
    expect(updated).not.toContain(noteUri('other.md'));
  } finally {
    await subscription.close();
  }
});

it('logging/setLevel is answered over stdio', async () => {
  const made = makeVault({ 'n.md': 'n\n' });
  base = made.base;
  server = await spawnServer(made.dir);
  await expect(server.client.setLoggingLevel('warning')).resolves.toEqual({});
});

/** Raw lines to the built server's stdin; every line it writes, parsed. */
function rawServer(vault: string) {
  const child = spawn(process.execPath, [DIST, '--notes-dir', vault], { stdio: ['pipe', 'pipe', 'pipe'] });
  const out: unknown[] = [];
  let partial = '';
  child.stdout.on('data', (chunk: Buffer) => {
    const lines = (partial + chunk.toString('utf8')).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) out.push(JSON.parse(line));
  });
  return {
    out,
    send: (value: unknown) => child.stdin.write(`${JSON.stringify(value)}\n`),
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.stdin.end();
      }),
  };
}

it('server/discover without its envelope gets a clear error, not "Method not found" (issue 36.9)', async () => {
  const made = makeVault({ 'n.md': 'n\n' });
  base = made.base;
  const raw = rawServer(made.dir);
  try {
    raw.send({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: {} });
    expect(await within(20_000, () => raw.out.length === 1)).not.toBeNull();
    const answer = raw.out[0] as { id: number; error: { code: number; message: string } };
    expect(answer).toMatchObject({ id: 1, error: { code: -32602 } });
    expect(answer.error.message).toContain('envelope');
    expect(answer.error.message).toContain('io.modelcontextprotocol/protocolVersion');
    // The connection is still open to either era: a 2025-era initialize is answered after it.
    raw.send(initialize('2025-11-25'));
    expect(await within(20_000, () => raw.out.length === 2)).not.toBeNull();
    expect(raw.out[1]).toMatchObject({ id: 0, result: { protocolVersion: '2025-11-25' } });
  } finally {
    await raw.stop();
  }
});

const initialize = (version: string) => ({
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});

it('a JSON-RPC batch is answered with one array on 2025-03-26, and refused with a reason on 2025-11-25', async () => {
  const made = makeVault({ 'n.md': 'n\n' });
  base = made.base;
  for (const version of ['2025-03-26', '2025-11-25']) {
    const raw = rawServer(made.dir);
    try {
      raw.send(initialize(version));
      expect(await within(20_000, () => raw.out.length === 1)).not.toBeNull();
      expect(raw.out[0]).toMatchObject({ id: 0, result: { protocolVersion: version } });
      raw.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      raw.send([
        { jsonrpc: '2.0', id: 1, method: 'tools/list' },
        { jsonrpc: '2.0', method: 'notifications/roots/list_changed' },
        { jsonrpc: '2.0', id: 2, method: 'ping' },
      ]);
      expect(await within(20_000, () => raw.out.length >= 2)).not.toBeNull();
      const answer = raw.out.find((m) => Array.isArray(m) || (m as { id?: unknown }).id === null);
      if (version === '2025-03-26') {
        expect(Array.isArray(answer)).toBe(true);
        const byId = new Map(
          (answer as { id: number; result?: { tools?: unknown[] } }[]).map((m) => [m.id, m]),
        );
        expect([...byId.keys()].sort()).toEqual([1, 2]);
        expect(byId.get(1)?.result?.tools?.length ?? 0).toBeGreaterThan(20);
        expect(byId.get(2)).toMatchObject({ result: {} });
      } else {
        expect(answer).toMatchObject({ id: null, error: { code: -32600 } });
        expect((answer as { error: { message: string } }).error.message).toContain('2025-11-25');
      }
    } finally {
      await raw.stop();
    }
  }
});

it('SIGTERM during a long folder move: the server stops within seconds, and the move is undone first', async () => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 200; i++) {
    const n = String(i).padStart(3, '0');
    files[`big/n${n}.md`] = `# ${n}\n\n[[m${n}]]\n`;
    files[`other/m${n}.md`] = `# m${n}\n\n[[big/n${n}]]\n`;
  }
  const made = makeVault(files);
  base = made.base;
  const before = snapshot(made.dir);
  server = await spawnServer(made.dir);
  const pid = server.transport.pid as number;
  let signalled = false;
  const alive = () => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  const move = server.client
    .callTool(
      { name: 'move_folder', arguments: { folder: 'big', new_folder: 'archive/big' } },
      {
        onprogress: (p) => {
          if (!signalled && p.message?.startsWith('moving notes')) {
            signalled = true;
            process.kill(pid, 'SIGTERM');
          }
        },
        timeout: 60_000,
      },
    )
    .catch((err: unknown) => err);
  await move;
  expect(signalled).toBe(true);
  expect(await within(20_000, () => !alive())).not.toBeNull();
  server = undefined;
  expect(snapshot(made.dir)).toEqual(before);
});
