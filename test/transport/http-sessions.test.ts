/**
 * Sessions of 2025-era clients (SPEC 8.2): at most 20 at once, ended by DELETE, closed after 30 idle
 * minutes; an ended or unknown id answers 404. Time is a fake clock, so half an hour takes no time.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { SessionTable } from '../../src/transport/http-sessions.js';
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

describe('at most 20 sessions', () => {
  it('the 21st initialize gets 503 with a JSON-RPC error, and the 20 open ones go on working', async () => {
    f = await startFixture();
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) ids.push(await openRawSession(f, `client-${i}`));
    expect(new Set(ids).size).toBe(20);
    expect(f.http.sessions.size).toBe(20);

    const refused = await f.raw({ headers: f.authed(), body: initializeBody(21) });
    expect(refused.status).toBe(503);
    expect(refused.headers['mcp-session-id']).toBeUndefined();
    expect(refused.headers['retry-after']).toBe('60');
    const body = JSON.parse(refused.body);
    expect(body).toMatchObject({ jsonrpc: '2.0', id: 21, error: { code: -32000 } });
    expect(body.error.message).toMatch(/Too many sessions: 20/);
    expect(f.http.sessions.size).toBe(20);

    for (const id of [ids[0] as string, ids[19] as string])
      expect((await listToolsRaw(f, id)).status).toBe(200);
    // The SDK client sees a clear failure, not a hang.
    await expect(f.connect('legacy')).rejects.toThrow();

    // Ending one frees its slot.
    const del = await f.raw({ method: 'DELETE', headers: f.authed({ 'mcp-session-id': ids[3] as string }) });
    expect(del.status).toBe(200);
    expect(f.http.sessions.size).toBe(19);
    await openRawSession(f, 'client-after');
    expect(f.http.sessions.size).toBe(20);
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
    expect(answers.filter((a) => a.status === 200)).toHaveLength(3);
    expect(answers.filter((a) => a.status === 503)).toHaveLength(5);
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
