/**
 * @module
 * An HTTP server of Noted over a real temporary vault on a real socket (127.0.0.1, a free port),
 * real SDK clients for both protocol eras, and raw requests whose every header the test chooses.
 */
import fs from 'node:fs';
import http from 'node:http';
import { Client, SSEClientTransport, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { type OpenedVault, openVault } from '../../src/access/open.js';
import { Journal } from '../../src/journal/journal.js';
import { createMcpServer } from '../../src/mcp/server.js';
import type { BodyBudgetOptions } from '../../src/transport/body-budget.js';
import { type HttpServeOptions, type HttpServerHandle, startHttpServer } from '../../src/transport/http.js';
import type { SessionLimits } from '../../src/transport/http-sessions.js';
import {
  type CallResult,
  checkResult,
  makeVault,
  testJournalKey,
  type VaultFiles,
} from '../helpers/vault.js';

export const TOKEN = 'test-token-0123456789-abcdefghijklmnopq';

export interface RawResponse {
  readonly status: number;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: string;
  /** Ends a stream left open by `firstEvent`. */
  readonly close: () => void;
}

export interface RawRequest {
  readonly method?: string;
  readonly path?: string;
  readonly headers?: Record<string, string>;
  readonly body?: string | object;
  /** Answer after the first SSE event, leaving the stream open (for streams that never end). */
  readonly firstEvent?: boolean;
}

export interface Connected {
  readonly client: Client;
  readonly transport: StreamableHTTPClientTransport;
  call(name: string, args?: Record<string, unknown>): Promise<CallResult>;
}

export interface HttpFixture {
  readonly http: HttpServerHandle;
  readonly opened: OpenedVault;
  readonly dir: string;
  readonly url: URL;
  /**
   * A 2025-era client (`initialize`, `Mcp-Session-Id`), a 2026-07-28 one pinned to that revision,
   * or one that negotiates (`auto`: probes with `server/discover`, falls back to `initialize`).
   */
  connect(era: 'legacy' | 'modern' | 'auto', name?: string): Promise<Connected>;
  /** A client of the deprecated HTTP+SSE transport. */
  connectSse(name?: string): Promise<Client>;
  /** One HTTP request with exactly the given headers (plus a correct Host unless one is given). */
  raw(request: RawRequest): Promise<RawResponse>;
  /** The headers a correct 2025-era request carries, with the token. */
  authed(extra?: Record<string, string>): Record<string, string>;
  journal(): Journal;
  close(): Promise<void>;
}

export async function startFixture(
  options: {
    files?: VaultFiles;
    legacySse?: boolean;
    limits?: SessionLimits;
    onevict?: HttpServeOptions['onevict'];
    bodyBudget?: BodyBudgetOptions;
  } = {},
): Promise<HttpFixture> {
  const { base, dir } = makeVault(options.files ?? {});
  const opened = await openVault({
    vaultDir: dir,
    trashRetentionDays: 30,
    watch: false,
    log: { warn: () => undefined },
    journalKey: testJournalKey(),
  });
  const server = await startHttpServer({
    createServer: (sessionId) =>
      createMcpServer(opened.access, { name: 'noted-mcp', version: 'test' }, { sessionId }),
    host: '127.0.0.1',
    port: 0,
    token: TOKEN,
    legacySse: options.legacySse ?? false,
    sweepEveryMs: 0,
    ...(options.limits ? { limits: options.limits } : {}),
    ...(options.onevict ? { onevict: options.onevict } : {}),
    ...(options.bodyBudget ? { bodyBudget: options.bodyBudget } : {}),
  });
  const url = new URL(server.url);
  const clients: Client[] = [];
  const authProvider = { token: async () => TOKEN };

  const raw = (request: RawRequest): Promise<RawResponse> =>
    new Promise((resolve, reject) => {
      const body =
        request.body === undefined
          ? undefined
          : typeof request.body === 'string'
            ? request.body
            : JSON.stringify(request.body);
      const req = http.request(
        {
          host: '127.0.0.1',
          port: url.port,
          method: request.method ?? 'POST',
          path: request.path ?? '/mcp',
          headers: { host: url.host, ...(request.headers ?? {}) },
        },
        (res) => {
          let text = '';
          const done = () =>
            resolve({
              status: res.statusCode ?? 0,
              headers: res.headers,
              body: text,
              close: () => res.destroy(),
            });
          res.on('data', (chunk: Buffer) => {
            text += chunk.toString('utf8');
            if (request.firstEvent && text.includes('\n\n')) done();
          });
          res.on('end', done);
          res.on('error', done);
        },
      );
      req.on('error', reject);
      req.end(body);
    });

  return {
    http: server,
    opened,
    dir,
    url,
    async connect(era, name = `client-${era}`) {
      const client = new Client(
        { name, version: '1.0' },
        era === 'modern'
          ? { versionNegotiation: { mode: { pin: '2026-07-28' } } }
          : era === 'auto'
            ? { versionNegotiation: { mode: 'auto' } }
            : {},
      );
      const transport = new StreamableHTTPClientTransport(url, { authProvider });
      await client.connect(transport);
      clients.push(client);
      return {
        client,
        transport,
        call: async (tool, args = {}) => checkResult(await client.callTool({ name: tool, arguments: args })),
      };
    },
    async connectSse(name = 'client-sse') {
      const client = new Client({ name, version: '1.0' });
      await client.connect(new SSEClientTransport(new URL('/sse', url), { authProvider }));
      clients.push(client);
      return client;
    },
    raw,
    authed: (extra = {}) => ({
      authorization: `Bearer ${TOKEN}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...extra,
    }),
    journal: () => new Journal(opened.vault, { now: () => new Date(), key: testJournalKey() }),
    async close() {
      await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
      await server.close();
      await opened.close();
      fs.rmSync(base, { recursive: true, force: true });
    },
  };
}

/** A 2025-era initialize request body. */
export function initializeBody(id: number | string = 1, name = 'raw-client'): object {
  return {
    jsonrpc: '2.0',
    id,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name, version: '0' } },
  };
}

/** Opens a 2025-era session with raw requests; returns its id. */
export async function openRawSession(f: HttpFixture, name = 'raw-client'): Promise<string> {
  const res = await f.raw({ headers: f.authed(), body: initializeBody(1, name) });
  const id = res.headers['mcp-session-id'];
  if (res.status !== 200 || typeof id !== 'string')
    throw new Error(`initialize failed: ${res.status} ${res.body}`);
  const initialized = await f.raw({
    headers: f.authed({ 'mcp-session-id': id, 'mcp-protocol-version': '2025-11-25' }),
    body: { jsonrpc: '2.0', method: 'notifications/initialized' },
  });
  if (initialized.status !== 202) throw new Error(`initialized failed: ${initialized.status}`);
  return id;
}

/** A tools/list over an existing session, as raw HTTP. */
export function listToolsRaw(
  f: HttpFixture,
  sessionId: string,
  headers?: Record<string, string>,
): Promise<RawResponse> {
  return f.raw({
    headers: headers ?? f.authed({ 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' }),
    body: { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} },
  });
}
