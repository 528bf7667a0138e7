/**
 * The events a 2025-era session keeps for resumable SSE streams (transport/event-store.ts): replayed
 * after an id on its own stream only, priming events never sent again, and kept within bounds — the
 * last 16, 1 MB, 5 minutes — so a busy session's memory stays flat.
 */
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { SessionEventStore } from '../../src/transport/event-store.js';

const message = (id: number, text = 'x'): JSONRPCMessage =>
  ({ jsonrpc: '2.0', id, result: { text } }) as JSONRPCMessage;

async function replay(store: SessionEventStore, after: string) {
  const sent: [string, JSONRPCMessage][] = [];
  const stream = await store.replayEventsAfter(after, {
    send: async (id, m) => {
      sent.push([id, m]);
    },
  });
  return { stream, sent };
}

describe('SessionEventStore', () => {
  it('replays what came after an id on the same stream, and never a priming event', async () => {
    const store = new SessionEventStore();
    const priming = await store.storeEvent('a', {} as JSONRPCMessage);
    const other = await store.storeEvent('b', message(9));
    const first = await store.storeEvent('a', message(1));
    await store.storeEvent('a', {} as JSONRPCMessage);
    const second = await store.storeEvent('a', message(2));
    expect(store.streamOf(other)).toBe('b');
    const { stream, sent } = await replay(store, priming);
    expect(stream).toBe('a');
    expect(sent).toEqual([
      [first, message(1)],
      [second, message(2)],
    ]);
    await expect(replay(store, '999')).rejects.toThrow(/Unknown event id/);
  });

  it('keeps the last 16 events, at most 1 MB, none older than 5 minutes', async () => {
    let now = 0;
    const store = new SessionEventStore(undefined, undefined, undefined, () => now);
    const ids: string[] = [];
    for (let i = 0; i < 100; i++) ids.push(await store.storeEvent('s', message(i)));
    expect(store.streamOf(ids[83] as string)).toBeUndefined();
    expect(store.streamOf(ids[84] as string)).toBe('s');
    // Two events of 0.75 MB: the older one goes.
    const big = 'y'.repeat(0.75 * 1024 * 1024);
    const a = await store.storeEvent('s', message(200, big));
    const b = await store.storeEvent('s', message(201, big));
    expect(store.streamOf(a)).toBeUndefined();
    expect(store.streamOf(b)).toBe('s');
    // Five minutes later, what was there is gone once the next event comes.
    now += 5 * 60 * 1000 + 1;
    const late = await store.storeEvent('s', message(300));
    expect(store.streamOf(b)).toBeUndefined();
    expect(store.streamOf(late)).toBe('s');
  });
});
