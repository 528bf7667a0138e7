/**
 * Sessions of 2025-era clients (SPEC 8.2): at most 20 at once (a new one takes the slot of the least
 * recently used idle one), ended by DELETE, closed after 30 idle minutes; an ended or unknown id
 * answers 404. Time is a fake clock, so half an hour takes no time.
 */

import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { type Eviction, SessionTable } from '../../src/transport/http-sessions.js';
import {
  type HttpFixture,
  initializeBody,
  listToolsRaw,
  openRawSession,
  startFixture,
} from './http-fixture.js';

let f: HttpFixture;
afterEach(async () => f?.close());

const MINUTE = 60_000;

/**
 * Opens the session's standalone SSE stream (GET) and waits until the server holds it (a second one
 * is then refused 409); returns how to drop it as a client that vanished would.
 */
async function openStream(fx: HttpFixture, session: string): Promise<() => void> {
  const headers = {
    host: fx.url.host,
    ...fx.authed({ 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' }),
    accept: 'text/event-stream',
  };
  // Node sends a response's headers with its first byte, and this stream has none to send yet.
  const req = http.request({ host: '127.0.0.1', port: fx.url.port, method: 'GET', path: '/mcp', headers });
  req.on('error', () => undefined);
  req.end();
  const deadline = Date.now() + 20_000;
  for (;;) {
    const second = await fx.raw({ method: 'GET', headers });
    if (second.status === 409) return () => req.destroy();
    if (Date.now() > deadline) throw new Error(`the stream of ${session} was not opened: ${second.status}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('at most 20 sessions', () => {
  it('clients that never end their session do not lock others out: the least recently used idle one makes room, and the log says so (issue 36.6)', async () => {
    const evicted: Eviction[] = [];
    f = await startFixture({ onevict: (e) => evicted.push(e) });
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) ids.push(await openRawSession(f, `client-${i}`));
    expect(f.http.sessions.size).toBe(20);
    // client-0 is used again, so client-1 is now the least recently used.
    expect((await listToolsRaw(f, ids[0] as string)).status).toBe(200);

    // Ten more clients that never send DELETE, as the Inspector CLI and the conformance suite do.
    for (let i = 20; i < 30; i++) ids.push(await openRawSession(f, `client-${i}`));
    expect(f.http.sessions.size).toBe(20);
    expect(evicted.map((e) => e.id)).toEqual(ids.slice(1, 11));
    expect(evicted[0]).toMatchObject({ kind: 'streamable', idleMs: expect.any(Number) });
    expect((await listToolsRaw(f, ids[1] as string)).status).toBe(404);
    for (const id of [ids[0] as string, ids[11] as string, ids[29] as string])
      expect((await listToolsRaw(f, id)).status).toBe(200);
    // An SDK client gets in as well.
    const sdk = await f.connect('legacy');
    expect((await sdk.call('list_notes')).isError).toBe(false);
  });

  it('a session with a stream open is not closed to make room; when every one is busy, a new one gets 503', async () => {
    f = await startFixture({ limits: { max: 2 } });
    const ids = [await openRawSession(f, 'a'), await openRawSession(f, 'b')];
    const streams = await Promise.all(ids.map((id) => openStream(f, id)));
    const refused = await f.raw({ headers: f.authed(), body: initializeBody(21) });
    expect(refused.status).toBe(503);
    expect(refused.headers['retry-after']).toBe('60');
    const body = JSON.parse(refused.body);
    expect(body).toMatchObject({ jsonrpc: '2.0', id: 21, error: { code: -32000 } });
    expect(body.error.message).toMatch(/Too many sessions: 2 .*every one has a request or stream open/);
    for (const id of ids) expect((await listToolsRaw(f, id)).status).toBe(200);

    // The client of b goes away without DELETE: its stream closes, b is idle and makes room.
    streams[1]?.();
    const deadline = Date.now() + 20_000;
    let status = 0;
    while (status !== 200 && Date.now() < deadline) {
      status = (await f.raw({ headers: f.authed(), body: initializeBody(22) })).status;
      if (status !== 200) await new Promise((r) => setTimeout(r, 50));
    }
    expect(status).toBe(200);
    expect((await listToolsRaw(f, ids[0] as string)).status).toBe(200);
    expect((await listToolsRaw(f, ids[1] as string)).status).toBe(404);
    streams[0]?.();
  });

  it('stateless (2026-07-28) requests take no session slot', async () => {
    f = await startFixture({ limits: { max: 1 } });
    await openRawSession(f);
    const modern = await f.connect('modern');
    expect((await modern.call('list_notes')).isError).toBe(false);
    expect(f.http.sessions.size).toBe(1);
  });

  it('concurrent initializes cannot pass the limit together', async () => {
    f = await startFixture({ limits: { max: 3 } });
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => f.raw({ headers: f.authed(), body: initializeBody(i) })),
    );
    // Each gets in (making room from an idle one) or, while all are busy being set up, 503.
    for (const a of answers) expect([200, 503]).toContain(a.status);
    expect(answers.filter((a) => a.status === 200).length).toBeGreaterThanOrEqual(3);
    expect(f.http.sessions.size).toBe(3);
  });
});

describe('ending sessions', () => {
  it('DELETE ends a session; reusing its id answers 404', async () => {
    f = await startFixture();
    const id = await openRawSession(f);
    expect((await listToolsRaw(f, id)).status).toBe(200);
    const del = await f.raw({ method: 'DELETE', headers: f.authed({ 'mcp-session-id': id }) });
    expect(del.status).toBe(200);
    expect(f.http.sessions.size).toBe(0);

    const reused = await listToolsRaw(f, id);
    expect(reused.status).toBe(404);
    expect(JSON.parse(reused.body)).toMatchObject({ jsonrpc: '2.0', error: { code: -32001 } });
    const again = await f.raw({ method: 'DELETE', headers: f.authed({ 'mcp-session-id': id }) });
    expect(again.status).toBe(404);
  });

  it('the SDK client ends its session with terminateSession (DELETE)', async () => {
    f = await startFixture();
    const c = await f.connect('legacy');
    const id = c.transport.sessionId as string;
    await c.transport.terminateSession();
    expect(f.http.sessions.size).toBe(0);
    expect((await listToolsRaw(f, id)).status).toBe(404);
  });

  it('an unknown session id answers 404; a request without one (not initialize) answers 400', async () => {
    f = await startFixture();
    expect((await listToolsRaw(f, '00000000-0000-4000-8000-000000000000')).status).toBe(404);
    const bare = await f.raw({
      headers: f.authed(),
      body: { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} },
    });
    expect(bare.status).toBe(400);
  });

  it('a session idle for 30 minutes is closed; one used meanwhile is not', async () => {
    let now = 1_000_000;
    f = await startFixture({ limits: { now: () => now } });
    const idle = await openRawSession(f, 'idle');
    const busy = await openRawSession(f, 'busy');
    now += 20 * MINUTE;
    expect((await listToolsRaw(f, busy)).status).toBe(200);
    now += 10 * MINUTE + 1;
    expect(await f.http.sweep()).toEqual([idle]);
    expect(f.http.sessions.ids()).toEqual([busy]);
    expect((await listToolsRaw(f, idle)).status).toBe(404);
    expect((await listToolsRaw(f, busy)).status).toBe(200);
  });

  it('an expired session answers 404 even before the sweep comes round', async () => {
    let now = 0;
    f = await startFixture({ limits: { now: () => now } });
    const id = await openRawSession(f);
    now += 30 * MINUTE + 1;
    expect((await listToolsRaw(f, id)).status).toBe(404);
    expect(f.http.sessions.size).toBe(0);
  });
});

describe('the session table', () => {
  it('counts reserved slots, so a slot is never handed out twice', async () => {
    const closed: string[] = [];
    const table = new SessionTable({ max: 2 });
    expect(table.reserve()).toBe(true);
    expect(table.reserve()).toBe(true);
    expect(table.reserve()).toBe(false);
    table.add({ id: 'a', kind: 'streamable', close: async () => void closed.push('a') });
    expect(table.size).toBe(1);
    expect(table.reserve()).toBe(false);
    await table.close('a');
    await table.close('a');
    expect(closed).toEqual(['a']);
    expect(table.reserve()).toBe(true);
  });
});
