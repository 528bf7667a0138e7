/**
 * The stdio wire (transport/stdio-batches.ts, issue 19): JSON-RPC batches are answered with one array
 * on a connection whose protocol version has them (2025-03-26), refused with one clear error on one
 * without them (2025-06-18 on) or before initialize, and no line is ever dropped without an answer.
 * The wire is tested alone here over in-memory streams, and end to end with the built server below.
 */
import { PassThrough } from 'node:stream';
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it } from 'vitest';
import { BatchingStdioTransport } from '../../src/transport/stdio-batches.js';
import { within } from '../helpers/vault.js';

interface Wire {
  transport: BatchingStdioTransport;
  /** Writes lines to the transport's stdin. */
  send(...lines: string[]): void;
  /** What the transport wrote to stdout, a parsed value per line. */
  out: unknown[];
  /** What reached the server side. */
  received: JSONRPCMessage[];
}

let wire: Wire | undefined;
afterEach(async () => {
  await wire?.transport.close();
  wire = undefined;
});

async function open(version?: string): Promise<Wire> {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const out: unknown[] = [];
  let partial = '';
  stdout.on('data', (chunk: Buffer) => {
    const lines = (partial + chunk.toString('utf8')).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) out.push(JSON.parse(line));
  });
  const transport = new BatchingStdioTransport(stdin, stdout);
  const received: JSONRPCMessage[] = [];
  transport.onmessage = (m) => received.push(m);
  await transport.start();
  if (version !== undefined) transport.setProtocolVersion(version);
  wire = { transport, out, received, send: (...lines) => stdin.write(`${lines.join('\n')}\n`) };
  return wire;
}

const request = (id: number, method = 'ping') => ({ jsonrpc: '2.0', id, method });
const result = (id: number) => ({ jsonrpc: '2.0', id, result: { n: id } }) as JSONRPCMessage;

describe('batches on 2025-03-26', () => {
  it('a batch of requests is delivered and answered as one array, whatever order the answers come in', async () => {
    const w = await open('2025-03-26');
    w.send(JSON.stringify([request(1), { jsonrpc: '2.0', method: 'notifications/x' }, request(2)]));
    expect(await within(2000, () => w.received.length === 3)).not.toBeNull();
    await w.transport.send(result(2));
    expect(w.out).toEqual([]);
    await w.transport.send(result(1));
    expect(w.out).toEqual([[result(2), result(1)]]);
  });

  it('members that are not messages are answered in the array; a batch of notifications gets nothing', async () => {
    const w = await open('2025-03-26');
    w.send(JSON.stringify([{ jsonrpc: '2.0', id: 7, nonsense: true }, request(8)]));
    expect(await within(2000, () => w.received.length === 1)).not.toBeNull();
    await w.transport.send(result(8));
    expect(w.out).toEqual([
      [
        {
          jsonrpc: '2.0',
          id: 7,
          error: { code: -32600, message: 'Invalid Request: not a JSON-RPC 2.0 message.' },
        },
        result(8),
      ],
    ]);
    w.send(JSON.stringify([{ jsonrpc: '2.0', method: 'notifications/a' }]));
    expect(await within(2000, () => w.received.length === 2)).not.toBeNull();
    expect(w.out).toHaveLength(1);
  });

  it('a cancelled request of a batch is no longer waited for', async () => {
    const w = await open('2025-03-26');
    w.send(JSON.stringify([request(1), request(2)]));
    expect(await within(2000, () => w.received.length === 2)).not.toBeNull();
    await w.transport.send(result(1));
    w.send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 2 } }));
    expect(await within(2000, () => w.out.length === 1)).not.toBeNull();
    expect(w.out).toEqual([[result(1)]]);
  });

  it('an empty batch, a batch over 100 and a repeated id are refused with a reason', async () => {
    const w = await open('2025-03-26');
    w.send('[]', JSON.stringify(Array.from({ length: 101 }, (_, i) => request(i))));
    expect(await within(2000, () => w.out.length === 2)).not.toBeNull();
    expect(w.out).toEqual([
      { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request: an empty batch.' } },
      {
        jsonrpc: '2.0',
        id: null,
        error: { code: -32600, message: 'Invalid Request: a batch may hold at most 100 messages.' },
      },
    ]);
    w.send(JSON.stringify([request(5), request(5)]));
    expect(await within(2000, () => w.received.length === 1)).not.toBeNull();
    await w.transport.send(result(5));
    expect(w.out[2]).toEqual([
      {
        jsonrpc: '2.0',
        id: 5,
        error: { code: -32600, message: 'Invalid Request: the id 5 is used twice.' },
      },
      result(5),
    ]);
  });
});

describe('no batch is dropped without a word', () => {
  it('on 2025-06-18 and later a batch is refused with one error saying why', async () => {
    for (const version of ['2025-06-18', '2025-11-25']) {
      const w = await open(version);
      w.send(JSON.stringify([request(1)]));
      expect(await within(2000, () => w.out.length === 1)).not.toBeNull();
      expect(w.received).toEqual([]);
      const error = (w.out[0] as { error: { code: number; message: string } }).error;
      expect(error.code).toBe(-32600);
      expect(error.message).toContain(`this connection uses ${version}`);
      await w.transport.close();
    }
  });

  it('before initialize a batch is refused; initialize answered, lines held meanwhile come after', async () => {
    const w = await open();
    w.send(JSON.stringify([request(1)]));
    expect(await within(2000, () => w.out.length === 1)).not.toBeNull();
    expect((w.out[0] as { error: { message: string } }).error.message).toContain('initialize');
    w.send(
      JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: {} }),
      JSON.stringify([request(1), request(2)]),
    );
    expect(await within(2000, () => w.received.length === 1)).not.toBeNull();
    // The batch waits until initialize is answered with the version it agrees on.
    w.transport.setProtocolVersion('2025-03-26');
    await w.transport.send(result(0));
    expect(await within(2000, () => w.received.length === 3)).not.toBeNull();
    await w.transport.send(result(1));
    await w.transport.send(result(2));
    expect(w.out.slice(1)).toEqual([result(0), [result(1), result(2)]]);
  });

  it('a line that is not JSON gets a parse error', async () => {
    const w = await open('2025-03-26');
    w.send('{"jsonrpc": "2.0", "id": 1, "method"');
    expect(await within(2000, () => w.out.length === 1)).not.toBeNull();
    expect(w.out[0]).toMatchObject({ id: null, error: { code: -32700 } });
  });
});
