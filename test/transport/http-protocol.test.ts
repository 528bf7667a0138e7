/**
 * The protocol over Streamable HTTP beyond the basics (issue 19): a 401 that OAuth-capable clients
 * read as "this server takes a static token" (the SDK's own OAuth client stops without registering
 * or opening a browser), the discovery documents that say so, and resumable SSE streams (event ids,
 * a priming event with `retry`, replay after Last-Event-ID).
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { type HttpFixture, initializeBody, openRawSession, startFixture, TOKEN } from './http-fixture.js';

let f: HttpFixture;
afterEach(async () => f?.close());

describe('a 401 that says "static token"', () => {
  it('the challenge points at the protected-resource metadata, by absolute URL', async () => {
    f = await startFixture();
    const missing = await f.raw({ body: initializeBody(), headers: f.authed({ authorization: '' }) });
    expect(missing.status).toBe(401);
    const origin = `http://${f.url.host}`;
    expect(missing.headers['www-authenticate']).toBe(
      `Bearer realm="noted-mcp", resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"`,
    );
    const wrong = await f.raw({
      body: initializeBody(),
      headers: f.authed({ authorization: 'Bearer nope-nope-nope-nope' }),
    });
    expect(wrong.status).toBe(401);
    expect(wrong.headers['www-authenticate']).toContain('error="invalid_token"');
    expect(JSON.parse(wrong.body).error.message).toContain('static token, not OAuth');
  });

  it('the discovery documents are served without the token, say what the server is, and hold no secret', async () => {
    f = await startFixture();
    const origin = `http://${f.url.host}`;
    const get = (path: string) => f.raw({ method: 'GET', path, headers: {} });
    for (const path of [
      '/.well-known/oauth-protected-resource',
      '/.well-known/oauth-protected-resource/mcp',
    ]) {
      const r = await get(path);
      expect(r.status).toBe(200);
      const body = JSON.parse(r.body);
      expect(body).toMatchObject({ resource: `${origin}/mcp`, bearer_methods_supported: ['header'] });
      expect(body.authorization_servers).toBeUndefined();
    }
    const as = await get('/.well-known/oauth-authorization-server');
    expect(as.status).toBe(200);
    const meta = JSON.parse(as.body);
    expect(meta).toMatchObject({ issuer: origin, response_types_supported: [], grant_types_supported: [] });
    expect(meta.registration_endpoint).toBeUndefined();
    const registered = await f.raw({
      path: '/register',
      body: { redirect_uris: ['http://localhost/cb'] },
      headers: {},
    });
    expect(registered.status).toBe(400);
    expect(JSON.parse(registered.body)).toMatchObject({ error: 'invalid_client_metadata' });
    for (const r of [as, registered]) expect(r.body).not.toContain(TOKEN);
    // The MCP endpoint itself still wants the token, and a foreign Host is still turned away.
    expect((await get('/mcp')).status).toBe(401);
    const foreign = await f.raw({
      method: 'GET',
      path: '/.well-known/oauth-protected-resource',
      headers: { host: 'evil.example:80' },
    });
    expect(foreign.status).toBe(403);
  });

  it("the SDK's OAuth client, given no token, stops: no registration, no browser, a clear reason", async () => {
    f = await startFixture();
    const seen: string[] = [];
    const recording: typeof fetch = async (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      seen.push(`${init?.method ?? (input instanceof Request ? input.method : 'GET')} ${url.pathname}`);
      return fetch(input, init);
    };
    let redirected = false;
    const provider = {
      redirectUrl: 'http://localhost:9/callback',
      clientMetadata: { redirect_uris: ['http://localhost:9/callback'], client_name: 'test' },
      clientInformation: () => undefined,
      saveClientInformation: () => undefined,
      tokens: () => undefined,
      saveTokens: () => undefined,
      redirectToAuthorization: () => {
        redirected = true;
      },
      saveCodeVerifier: () => undefined,
      codeVerifier: () => 'v',
    };
    const client = new Client({ name: 'oauth-client', version: '1' });
    const transport = new StreamableHTTPClientTransport(f.url, { authProvider: provider, fetch: recording });
    const failed = await client.connect(transport).then(
      () => null,
      (e: unknown) => e as Error,
    );
    expect(failed).not.toBeNull();
    expect(String(failed?.message)).toMatch(/does not support dynamic client registration/);
    expect(redirected).toBe(false);
    expect(seen.filter((s) => s.endsWith('/register'))).toEqual([]);
    expect(seen).toContain('GET /.well-known/oauth-protected-resource/mcp');
    await client.close().catch(() => undefined);
  });
});

describe('resumable SSE streams', () => {
  /** The events of an SSE body: id, retry and data of each. */
  function events(body: string): { id?: string; retry?: string; data?: string }[] {
    return body
      .split('\n\n')
      .filter((block) => block.trim() !== '' && !block.startsWith(':'))
      .map((block) => {
        const e: { id?: string; retry?: string; data?: string } = {};
        for (const line of block.split('\n')) {
          const at = line.indexOf(':');
          const key = line.slice(0, at);
          const value = line.slice(at + 1).trimStart();
          if (key === 'id' || key === 'retry' || key === 'data') e[key] = value;
        }
        return e;
      });
  }

  it('a stream opens with an event id and retry, every event has an id, and a reconnect replays what was missed', async () => {
    f = await startFixture();
    const init = await f.raw({ body: initializeBody(), headers: f.authed() });
    expect(init.status).toBe(200);
    const session = String(init.headers['mcp-session-id']);
    const opened = events(init.body);
    expect(opened[0]).toMatchObject({ retry: '1000', data: '' });
    expect(opened[0]?.id).toMatch(/^\d+$/);
    const headers = f.authed({ 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' });
    await f.raw({ body: { jsonrpc: '2.0', method: 'notifications/initialized' }, headers });
    const listed = await f.raw({ body: { jsonrpc: '2.0', id: 2, method: 'tools/list' }, headers });
    const stream = events(listed.body);
    const [priming, answer] = stream;
    expect(priming).toMatchObject({ retry: '1000', data: '' });
    expect(answer?.id).toMatch(/^\d+$/);
    expect(JSON.parse(answer?.data ?? '{}')).toMatchObject({ id: 2, result: { tools: expect.any(Array) } });
    // A client whose stream broke after the priming event asks for the rest.
    const replay = await f.raw({
      method: 'GET',
      headers: { ...headers, accept: 'text/event-stream', 'last-event-id': String(priming?.id) },
      firstEvent: true,
    });
    replay.close();
    expect(replay.status).toBe(200);
    const again = events(replay.body).find((e) => e.data !== undefined && e.data !== '');
    expect(again?.id).toBe(answer?.id);
    expect(JSON.parse(again?.data ?? '{}')).toMatchObject({ id: 2 });
    // An id this session never gave is refused.
    const unknown = await f.raw({
      method: 'GET',
      headers: { ...headers, accept: 'text/event-stream', 'last-event-id': '999999' },
    });
    expect(unknown.status).toBe(400);
  });

  it('a client resuming a request stream the server still holds open gets the rest, not 409 (issue 36.5)', async () => {
    // A long search: the client's stream broke (the server, busy, has not seen it close) and the
    // client asks for the rest with Last-Event-ID. The SDK refused that 409 ("already has an active
    // connection"); the client gave up after two retries and the call hung until its timeout.
    const files: Record<string, string> = {};
    const filler = 'lorem ipsum dolor sit amet consectetur '.repeat(250);
    for (let i = 0; i < 1500; i++) files[`n/n${i}.md`] = `# N ${i}\n\n${filler}zeta ${i}\n`;
    f = await startFixture({ files });
    const session = await openRawSession(f);
    const headers = f.authed({ 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' });
    const call = await f.raw({
      body: {
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/call',
        params: { name: 'search_notes', arguments: { query: '/lorem.*consectetur.*zeta/' } },
      },
      headers,
      firstEvent: true,
    });
    const [priming] = events(call.body);
    expect(priming?.id).toMatch(/^\d+$/);
    try {
      const resumed = await f.raw({
        method: 'GET',
        headers: { ...headers, accept: 'text/event-stream', 'last-event-id': String(priming?.id) },
      });
      expect(resumed.status, resumed.body).toBe(200);
      const answer = events(resumed.body).find((e) => e.data !== undefined && e.data !== '');
      expect(JSON.parse(answer?.data ?? '{}')).toMatchObject({
        id: 7,
        result: { structuredContent: { total: 1500 } },
      });
    } finally {
      call.close();
    }
  });
});
