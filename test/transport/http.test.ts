/**
 * Streamable HTTP over a real socket on 127.0.0.1 (SPEC 8.2): both protocol eras with the SDK's own
 * clients, the token on every request, and the Host/Origin checks against DNS rebinding.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  type HttpFixture,
  initializeBody,
  listToolsRaw,
  openRawSession,
  startFixture,
  TOKEN,
} from './http-fixture.js';

let f: HttpFixture;
afterEach(async () => f?.close());

describe('both protocol eras on one endpoint', () => {
  it('a 2025-era client gets a session and does a create → read → search round trip', async () => {
    f = await startFixture({ files: { 'old.md': '# Old\n\nalready here\n' } });
    const c = await f.connect('legacy', 'claude-code');
    expect(c.transport.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(c.client.getNegotiatedProtocolVersion()).toBe('2025-11-25');
    expect(f.http.sessions.ids()).toEqual([c.transport.sessionId]);

    const created = await c.call('create_note', {
      name: 'inbox/http',
      content: '# Over HTTP\n\nA pangolin.\n',
    });
    expect(created.isError).toBe(false);
    const read = await c.call('read_note', { name: 'http' });
    expect(read.structured).toMatchObject({ name: 'inbox/http.md', body: '# Over HTTP\n\nA pangolin.\n' });
    const found = await c.call('search_notes', { query: 'pangolin' });
    expect(found.structured.results.map((r: { name: string }) => r.name)).toEqual(['inbox/http.md']);
  });

  it('a 2026-07-28 client is served statelessly, with no session, and does the same round trip', async () => {
    f = await startFixture();
    const c = await f.connect('modern', 'codex');
    expect(c.client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    expect(c.transport.sessionId).toBeUndefined();
    expect(f.http.sessions.size).toBe(0);

    expect((await c.call('create_note', { name: 'modern', content: 'An okapi.\n' })).isError).toBe(false);
    expect((await c.call('read_note', { name: 'modern' })).structured.body).toBe('An okapi.\n');
    const found = await c.call('search_notes', { query: 'okapi' });
    expect(found.structured.results.map((r: { name: string }) => r.name)).toEqual(['modern.md']);
    expect(f.http.sessions.size).toBe(0);
  });

  it('a client negotiating the version itself lands on 2026-07-28', async () => {
    f = await startFixture({ files: { 'n.md': 'negotiated\n' } });
    const c = await f.connect('auto');
    expect(c.client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    expect((await c.call('read_note', { name: 'n' })).structured.body).toBe('negotiated\n');
  });

  it('journal entries carry the HTTP session id and the client name; stateless ones the run', async () => {
    f = await startFixture();
    const a = await f.connect('legacy', 'client-a');
    const b = await f.connect('legacy', 'client-b');
    const m = await f.connect('modern', 'client-m');
    await a.call('create_note', { name: 'a', content: 'from a\n' });
    await b.call('create_note', { name: 'b', content: 'from b\n' });
    await m.call('create_note', { name: 'm', content: 'from m\n' });
    await a.call('update_note', { name: 'a', content: 'from a, again\n' });

    const entries = f.journal().list().reverse();
    expect(entries.map((e) => [e.note, e.session, e.client])).toEqual([
      ['a.md', a.transport.sessionId, 'client-a'],
      ['b.md', b.transport.sessionId, 'client-b'],
      ['m.md', f.http.statelessSessionId, 'client-m'],
      ['a.md', a.transport.sessionId, 'client-a'],
    ]);
    expect(a.transport.sessionId).not.toBe(b.transport.sessionId);
  });
});

describe('the token, on every request (SPEC 8.2)', () => {
  const attempts: [string, Record<string, string>][] = [
    ['no token', {}],
    ['a wrong token', { authorization: 'Bearer wrong-token-wrong-token-wrong' }],
    [
      'one character off',
      { authorization: `Bearer ${TOKEN.slice(0, -1)}${TOKEN.endsWith('q') ? 'r' : 'q'}` },
    ],
    ['one character short', { authorization: `Bearer ${TOKEN.slice(0, -1)}` }],
    ['one character too many', { authorization: `Bearer ${TOKEN}x` }],
    ['a prefix of it', { 'x-mcp-token': TOKEN.slice(0, 16) }],
    ['the right token under another scheme', { authorization: `Basic ${TOKEN}` }],
    ['the right token without a scheme', { authorization: TOKEN }],
    ['the right token in the wrong header', { 'x-api-key': TOKEN }],
    ['the right token in the query string', {}],
  ];

  for (const [what, headers] of attempts) {
    it(`an initialize with ${what} is refused with 401 and WWW-Authenticate: Bearer`, async () => {
      f = await startFixture();
      const res = await f.raw({
        path: what.includes('query') ? `/mcp?token=${TOKEN}` : '/mcp',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...headers,
        },
        body: initializeBody(),
      });
      expect(res.status).toBe(401);
      expect(res.headers['www-authenticate']).toMatch(/^Bearer realm="noted-mcp"/);
      expect(JSON.parse(res.body)).toMatchObject({ jsonrpc: '2.0', error: { code: -32001 } });
      expect(res.headers['mcp-session-id']).toBeUndefined();
      expect(f.http.sessions.size).toBe(0);
    });
  }

  it('either header carries it: Authorization: Bearer or X-MCP-Token', async () => {
    f = await startFixture();
    const variants: Record<string, string>[] = [
      { authorization: `Bearer ${TOKEN}` },
      { 'x-mcp-token': TOKEN },
      { authorization: `bearer ${TOKEN}` },
    ];
    for (const headers of variants) {
      const res = await f.raw({
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...headers,
        },
        body: initializeBody(),
      });
      expect(res.status).toBe(200);
      expect(res.headers['mcp-session-id']).toBeTypeOf('string');
    }
  });

  it('a leaked session id is not enough: every request after initialize needs the token too', async () => {
    f = await startFixture();
    const id = await openRawSession(f);
    const withToken = await listToolsRaw(f, id);
    expect(withToken.status).toBe(200);
    const stolen: Record<string, string>[] = [
      {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': id,
      },
      { ...f.authed({ 'mcp-session-id': id }), authorization: 'Bearer not-the-token-at-all-no' },
    ];
    for (const headers of stolen) {
      const res = await listToolsRaw(f, id, headers);
      expect(res.status).toBe(401);
      expect(res.body).not.toContain('list_notes');
    }
    const get = await f.raw({
      method: 'GET',
      headers: { accept: 'text/event-stream', 'mcp-session-id': id },
    });
    expect(get.status).toBe(401);
    const del = await f.raw({ method: 'DELETE', headers: { 'mcp-session-id': id } });
    expect(del.status).toBe(401);
    // The session is still there for its rightful owner.
    expect((await listToolsRaw(f, id)).status).toBe(200);
  });

  it('a wrong token says so in the challenge; a missing one does not', async () => {
    f = await startFixture();
    const missing = await f.raw({ body: initializeBody() });
    const metadata = `resource_metadata="http://${f.url.host}/.well-known/oauth-protected-resource/mcp"`;
    expect(missing.headers['www-authenticate']).toBe(`Bearer realm="noted-mcp", ${metadata}`);
    const wrong = await f.raw({ headers: { 'x-mcp-token': 'x'.repeat(40) }, body: initializeBody() });
    expect(wrong.headers['www-authenticate']).toBe(
      `Bearer realm="noted-mcp", ${metadata}, error="invalid_token", error_description="The token is not this server's token."`,
    );
  });

  it('the SDK client without the token fails to connect', async () => {
    f = await startFixture();
    const { Client, StreamableHTTPClientTransport } = await import('@modelcontextprotocol/client');
    const client = new Client({ name: 'no-token', version: '0' });
    await expect(client.connect(new StreamableHTTPClientTransport(f.url))).rejects.toThrow();
    expect(f.http.sessions.size).toBe(0);
  });
});

describe('Host and Origin against DNS rebinding (SPEC 8.2)', () => {
  const attacks: [string, Record<string, string>][] = [
    ['Host: evil.example', { host: 'evil.example' }],
    ['Host: evil.example with the right port', { host: 'evil.example:PORT' }],
    ['a local Host with another port', { host: '127.0.0.1:1' }],
    ['Origin: http://evil.example', { origin: 'http://evil.example' }],
    ['Origin: null', { origin: 'null' }],
    ['Origin: http://127.0.0.1.evil.example', { origin: 'http://127.0.0.1.evil.example' }],
    ['Origin: file://', { origin: 'file://' }],
  ];

  for (const [what, headers] of attacks) {
    it(`${what} is refused with 403 before the token or anything else is looked at`, async () => {
      f = await startFixture();
      const port = f.url.port;
      const fixed = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, v.replace('PORT', port)]));
      const res = await f.raw({ headers: { ...f.authed(), ...fixed }, body: initializeBody() });
      expect(res.status).toBe(403);
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
      expect(res.headers['mcp-session-id']).toBeUndefined();
      expect(f.http.sessions.size).toBe(0);
      // Even without the token: 403, not 401, so a rebinding page learns nothing about the token.
      const anonymous = await f.raw({ headers: fixed, body: initializeBody() });
      expect(anonymous.status).toBe(403);
    });
  }

  it('every local spelling of the host with the right port is accepted', async () => {
    f = await startFixture();
    for (const host of [`127.0.0.1:${f.url.port}`, `localhost:${f.url.port}`, `[::1]:${f.url.port}`]) {
      const res = await f.raw({ headers: { ...f.authed(), host }, body: initializeBody() });
      expect(res.status, host).toBe(200);
    }
  });

  it('CORS reflects a trusted local origin, never *, and answers its preflight', async () => {
    f = await startFixture();
    const origin = 'http://localhost:5173';
    const res = await f.raw({ headers: { ...f.authed(), origin }, body: initializeBody() });
    expect(res.status).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe(origin);
    expect(res.headers['access-control-expose-headers']).toContain('Mcp-Session-Id');
    expect(res.headers.vary).toContain('Origin');

    const preflight = await f.raw({
      method: 'OPTIONS',
      headers: {
        origin,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type, mcp-session-id',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe(origin);
    expect(preflight.headers['access-control-allow-headers']).toMatch(/Authorization/);
    expect(preflight.headers['access-control-allow-headers']).toMatch(/Mcp-Session-Id/);
    expect(preflight.headers['access-control-allow-methods']).toContain('DELETE');

    const evil = await f.raw({
      method: 'OPTIONS',
      headers: { origin: 'http://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(evil.status).toBe(403);
    expect(evil.headers['access-control-allow-origin']).toBeUndefined();

    const noOrigin = await f.raw({ headers: f.authed(), body: initializeBody() });
    expect(noOrigin.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('other paths answer 404 (with the token) and 401 (without)', async () => {
    f = await startFixture();
    expect((await f.raw({ method: 'GET', path: '/', headers: f.authed() })).status).toBe(404);
    expect((await f.raw({ method: 'GET', path: '/' })).status).toBe(401);
  });
});
