/**
 * The deprecated HTTP+SSE transport (SPEC 8.3): absent unless asked for; when on, the SDK's own
 * `SSEClientTransport` works through it, and `?token=` is taken on the `/sse` handshake only.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { checkResult } from '../helpers/vault.js';
import { type HttpFixture, initializeBody, startFixture, TOKEN } from './http-fixture.js';

let f: HttpFixture;
afterEach(async () => f?.close());

describe('legacy HTTP+SSE', () => {
  it('is off by default: /sse and /messages answer 404, and ?token= opens nothing', async () => {
    f = await startFixture();
    const sse = await f.raw({ method: 'GET', path: '/sse', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(sse.status).toBe(404);
    const messages = await f.raw({
      path: '/messages?sessionId=x',
      headers: f.authed(),
      body: initializeBody(),
    });
    expect(messages.status).toBe(404);
    const byQuery = await f.raw({ method: 'GET', path: `/sse?token=${TOKEN}` });
    expect(byQuery.status).toBe(401);
  });

  it('when on, an SSE client connects, writes and reads; its writes are journaled under its session', async () => {
    f = await startFixture({ legacySse: true });
    const client = await f.connectSse('old-client');
    expect(f.http.sessions.size).toBe(1);
    const [sessionId] = f.http.sessions.ids();
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain('create_note');
    const created = checkResult(
      await client.callTool({ name: 'create_note', arguments: { name: 'sse', content: 'over SSE\n' } }),
    );
    expect(created.isError).toBe(false);
    const read = checkResult(await client.callTool({ name: 'read_note', arguments: { name: 'sse' } }));
    expect(read.structured.body).toBe('over SSE\n');
    expect(
      f
        .journal()
        .list()
        .map((e) => [e.note, e.session, e.client]),
    ).toEqual([['sse.md', sessionId, 'old-client']]);

    // Streamable HTTP keeps working beside it.
    const modern = await f.connect('legacy');
    expect((await modern.call('read_note', { name: 'sse' })).structured.body).toBe('over SSE\n');
  });

  it('the handshake names the message endpoint; ?token= works there and only there', async () => {
    f = await startFixture({ legacySse: true });
    const handshake = await f.raw({ method: 'GET', path: `/sse?token=${TOKEN}`, firstEvent: true });
    expect(handshake.status).toBe(200);
    expect(handshake.headers['content-type']).toBe('text/event-stream');
    const m = /event: endpoint\ndata: (\/messages\?sessionId=([0-9a-f-]+))\n\n/.exec(handshake.body);
    expect(m).not.toBeNull();
    const [, endpoint, id] = m as RegExpExecArray;
    expect(f.http.sessions.ids()).toContain(id);

    const message = { jsonrpc: '2.0', id: 1, method: 'ping' };
    const withQueryToken = await f.raw({
      path: `${endpoint}&token=${TOKEN}`,
      headers: { 'content-type': 'application/json' },
      body: message,
    });
    expect(withQueryToken.status).toBe(401);
    const onMcp = await f.raw({
      path: `/mcp?token=${TOKEN}`,
      headers: { 'content-type': 'application/json' },
      body: initializeBody(),
    });
    expect(onMcp.status).toBe(401);
    const withHeader = await f.raw({ path: endpoint, headers: f.authed(), body: message });
    expect(withHeader.status).toBe(202);
    const wrongQuery = await f.raw({ method: 'GET', path: `/sse?token=${TOKEN}x`, firstEvent: true });
    expect(wrongQuery.status).toBe(401);
    handshake.close();
  });

  it('a message for an unknown session answers 404, a malformed one 400, a stream needs GET', async () => {
    f = await startFixture({ legacySse: true });
    const unknown = await f.raw({
      path: '/messages?sessionId=nope',
      headers: f.authed(),
      body: { jsonrpc: '2.0', id: 1, method: 'ping' },
    });
    expect(unknown.status).toBe(404);
    const handshake = await f.raw({
      method: 'GET',
      path: '/sse',
      headers: { 'x-mcp-token': TOKEN },
      firstEvent: true,
    });
    const endpoint = /data: (\S+)/.exec(handshake.body)?.[1] as string;
    expect(endpoint).toMatch(/^\/messages\?sessionId=/);
    expect((await f.raw({ path: endpoint, headers: f.authed(), body: '{not json' })).status).toBe(400);
    expect((await f.raw({ path: endpoint, headers: f.authed(), body: { hello: 'world' } })).status).toBe(400);
    expect(
      (await f.raw({ path: endpoint, headers: f.authed({ 'content-type': 'text/plain' }), body: '{}' }))
        .status,
    ).toBe(415);
    expect((await f.raw({ method: 'POST', path: '/sse', headers: f.authed(), body: '{}' })).status).toBe(405);
    handshake.close();
  });

  it('legacy streams count against the same 20-session limit', async () => {
    f = await startFixture({ legacySse: true, limits: { max: 1 } });
    const first = await f.raw({
      method: 'GET',
      path: '/sse',
      headers: { 'x-mcp-token': TOKEN },
      firstEvent: true,
    });
    expect(first.status).toBe(200);
    const second = await f.raw({
      method: 'GET',
      path: '/sse',
      headers: { 'x-mcp-token': TOKEN },
      firstEvent: true,
    });
    expect(second.status).toBe(503);
    expect((await f.raw({ headers: f.authed(), body: initializeBody() })).status).toBe(503);
    first.close();
  });

  it('a closed stream ends its session', async () => {
    f = await startFixture({ legacySse: true });
    const stream = await f.raw({
      method: 'GET',
      path: '/sse',
      headers: { 'x-mcp-token': TOKEN },
      firstEvent: true,
    });
    expect(f.http.sessions.size).toBe(1);
    stream.close();
    for (let i = 0; i < 50 && f.http.sessions.size > 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(f.http.sessions.size).toBe(0);
  });
});
