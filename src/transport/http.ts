/**
 * @module
 * Streamable HTTP on a loopback address (SPEC 8.2, 8.3): `/mcp` for both protocol eras, and the
 * deprecated `/sse` + `/messages` when asked for. Every request passes, in this order, before any
 * of its body is read: the Host check and the Origin check (403, against DNS rebinding), the
 * CORS preflight, then the token (401). Only then is it routed.
 *
 * @example
 * const http = await startHttpServer({ createServer: (id) => createMcpServer(access, info, { sessionId: id }),
 *   host: '127.0.0.1', port: 3000, token, legacySse: false });
 * console.error(http.url); // http://127.0.0.1:3000/mcp
 */
import { randomUUID } from 'node:crypto';
import {
  createServer as createNodeServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { toNodeHandler } from '@modelcontextprotocol/node';
import type { McpServer } from '@modelcontextprotocol/server';
import { BodyBudget, type BodyBudgetOptions, DEFAULT_BODY_BUDGET } from './body-budget.js';
import { TokenGuard } from './http-auth.js';
import { bearerChallenge, discoveryAnswer } from './http-discovery.js';
import {
  corsHeaders,
  HostOriginGuard,
  isLoopbackHost,
  type PublicHost,
  preflightHeaders,
} from './http-guard.js';
import { createMcpEndpoint, type McpEndpointOptions, type ServerKind } from './http-mcp.js';
import { type Eviction, type SessionEntry, type SessionLimits, SessionTable } from './http-sessions.js';
import { openSseStream, postSseMessage, rpcError, sendJson } from './legacy-sse.js';

/**
 * A request body may carry a 5 MB note (SPEC 3.3); JSON escaping can double that in the worst case
 * (a note of line breaks), so bodies up to 16 MiB are read.
 */
export const MAX_BODY_BYTES = 16 * 1024 * 1024;

export interface HttpServeOptions {
  /** A fresh MCP server whose journal entries carry `sessionId` (one per session or request). */
  readonly createServer: (sessionId: string, kind: ServerKind) => McpServer;
  /** Publishes the vault's changes to 2026-07-28 listeners (see http-mcp.ts). */
  readonly publish?: McpEndpointOptions['publish'];
  /** A loopback address or `localhost`; anything else is refused. */
  readonly host: string;
  /** 0 picks a free port. */
  readonly port: number;
  readonly token: string;
  /** Also serve the deprecated HTTP+SSE transport at `/sse` and `/messages`. */
  readonly legacySse: boolean;
  /** Public names a proxy or tunnel reaches the server by (SPEC 15.3); the token is still required. */
  readonly publicHosts?: readonly PublicHost[];
  readonly limits?: SessionLimits;
  /** How much request-body memory is held at once (body-budget.ts; default 32 MiB, 30 s wait). */
  readonly bodyBudget?: BodyBudgetOptions;
  /** How often idle sessions are looked for (default every minute; 0 never, for tests). */
  readonly sweepEveryMs?: number;
  /** Errors no request can be told about (a broken stream, a failed close). */
  readonly onerror?: (error: Error) => void;
  /** A session was closed to make room for a new one (all slots were taken). */
  readonly onevict?: (eviction: Eviction) => void;
}

export interface HttpServerHandle {
  /** `http://HOST:PORT/mcp` */
  readonly url: string;
  readonly host: string;
  readonly port: number;
  readonly sessions: SessionTable<SessionEntry>;
  /** The request bodies held at once. */
  readonly bodies: BodyBudget;
  /** The journal session of stateless (2026-07-28) requests during this run. */
  readonly statelessSessionId: string;
  /** Closes sessions idle for too long now, without waiting for the timer. */
  sweep(): Promise<string[]>;
  /** Accepts one more public host name from now on (a tunnel's, known once it is up). */
  allowHost(host: PublicHost): void;
  close(): Promise<void>;
}

export class PortInUseError extends Error {}

export async function startHttpServer(options: HttpServeOptions): Promise<HttpServerHandle> {
  if (!isLoopbackHost(options.host)) {
    throw new Error(
      `Refusing to listen on ${options.host}: only loopback addresses (127.0.0.1, ::1) are allowed.`,
    );
  }
  const onerror = options.onerror ?? (() => undefined);
  const tokens = new TokenGuard(options.token);
  const sessions = new SessionTable<SessionEntry>(options.limits, options.onevict);
  const statelessSessionId = `http-${randomUUID()}`;
  const bodies = new BodyBudget(options.bodyBudget ?? DEFAULT_BODY_BUDGET);
  const shared = { createServer: options.createServer, sessions, maxBodyBytes: MAX_BODY_BYTES };
  const endpoint = createMcpEndpoint({
    ...shared,
    statelessSessionId,
    onerror,
    ...(options.publish === undefined ? {} : { publish: options.publish }),
  });
  const mcpNode = toNodeHandler(endpoint, { maxRequestBodySize: MAX_BODY_BYTES, onerror });
  let guard: HostOriginGuard | undefined;

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (guard === undefined) throw new Error('a request arrived before the server listened');
    const host = guard.checkHost(req.headers.host);
    if (!host.ok) return reject(res, 403, host.message);
    const origin = guard.checkOrigin(req.headers.origin);
    if (!origin.ok) return reject(res, 403, origin.message);
    const trustedOrigin =
      typeof req.headers.origin === 'string' && req.headers.origin !== '' ? req.headers.origin : undefined;
    if (trustedOrigin !== undefined)
      for (const [k, v] of Object.entries(corsHeaders(trustedOrigin))) res.setHeader(k, v);
    if (req.method === 'OPTIONS') {
      res.writeHead(
        204,
        trustedOrigin === undefined
          ? { Allow: 'GET, POST, DELETE, OPTIONS' }
          : preflightHeaders(trustedOrigin),
      );
      res.end();
      return;
    }

    const url = new URL(req.url ?? '/', 'http://localhost');
    // The Host was checked above: the server's own origin, as the client reached it (a public name
    // is reached over https, through the tunnel or proxy in front).
    const self = `${guard.isPublic(req.headers.host) ? 'https' : 'http'}://${req.headers.host}`;
    // Discovery documents hold nothing secret and tell OAuth clients this server takes a static token.
    const discovery = discoveryAnswer(url.pathname, req.method ?? 'GET', self);
    if (discovery !== null) return sendJson(res, discovery.status, discovery.body, discovery.headers);
    const legacyRoute = options.legacySse && (url.pathname === '/sse' || url.pathname === '/messages');
    // Security: a token in a URL lands in logs and histories, so it is taken on the one request
    // that cannot carry headers in browsers' EventSource: the /sse handshake.
    const queryToken =
      legacyRoute && url.pathname === '/sse' && req.method === 'GET'
        ? (url.searchParams.get('token') ?? undefined)
        : undefined;
    const auth = tokens.check(req.headers, queryToken);
    if (!auth.ok) {
      return reject(
        res,
        401,
        'Unauthorized: send the token on every request as "Authorization: Bearer <token>" or "X-MCP-Token: <token>". This server takes a static token, not OAuth; it is kept in <vault>/.noted/mcp-http-token (or given by $NOTED_MCP_AUTH_TOKEN).',
        { 'WWW-Authenticate': bearerChallenge(self, auth.missing) },
      );
    }

    if (req.method === 'POST') {
      // Security: bodies are held to a budget across requests, so concurrent large ones queue instead
      // of multiplying the server's memory (issue 25).
      const declared = Number(req.headers['content-length']);
      if (Number.isFinite(declared) && declared > MAX_BODY_BYTES) {
        return reject(
          res,
          413,
          `Payload Too Large: a request body may hold at most ${MAX_BODY_BYTES} bytes.`,
        );
      }
      const release = await bodies.reserve(Number.isFinite(declared) ? declared : MAX_BODY_BYTES);
      if (release === null) {
        return reject(
          res,
          503,
          'Service Unavailable: the server is reading as many large requests as it holds at once; retry in a few seconds.',
          { 'Retry-After': '5' },
        );
      }
      // A client that went away while it waited gives its room back at once.
      if (res.closed || req.socket.destroyed) return release();
      res.once('close', release);
    }
    if (url.pathname === '/mcp') return mcpNode(req, res);
    if (legacyRoute && url.pathname === '/sse') {
      if (req.method !== 'GET')
        return reject(res, 405, 'Method Not Allowed: open the stream with GET /sse.', { Allow: 'GET' });
      return openSseStream(res, shared);
    }
    if (legacyRoute && url.pathname === '/messages') {
      if (req.method !== 'POST')
        return reject(res, 405, 'Method Not Allowed: POST messages.', { Allow: 'POST' });
      return postSseMessage(req, res, url.searchParams.get('sessionId'), shared);
    }
    return reject(
      res,
      404,
      `Not Found: the MCP endpoint is /mcp${options.legacySse ? ' (and /sse for legacy clients)' : ''}.`,
    );
  };

  const server = createNodeServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      onerror(err instanceof Error ? err : new Error(String(err)));
      if (!res.headersSent) sendJson(res, 500, rpcError(-32603, 'Internal server error'));
      else res.end();
    });
  });
  await listen(server, options.host, options.port);
  const port = (server.address() as AddressInfo).port;
  const ready = new HostOriginGuard(options.host, port, options.publicHosts);
  guard = ready;

  const sweepEveryMs = options.sweepEveryMs ?? 60_000;
  const timer = sweepEveryMs > 0 ? setInterval(() => void sessions.sweep(), sweepEveryMs) : undefined;
  timer?.unref();
  const urlHost = options.host.includes(':') ? `[${options.host}]` : options.host;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${urlHost}:${port}/mcp`,
    host: options.host,
    port,
    sessions,
    bodies,
    statelessSessionId,
    sweep: () => sessions.sweep(),
    allowHost: (host) => ready.allow(host),
    close: () => {
      closing ??= (async () => {
        clearInterval(timer);
        await sessions.closeAll();
        await endpoint.close().catch(onerror);
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeAllConnections();
        await closed;
      })();
      return closing;
    },
  };
}

function listen(server: Server, host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (err: NodeJS.ErrnoException) => {
      server.off('listening', onListening);
      if (err.code === 'EADDRINUSE') reject(new PortInUseError(`Port ${port} on ${host} is already in use.`));
      else reject(err);
    };
    const onListening = () => {
      server.off('error', onError);
      resolve();
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen({ host, port, exclusive: true });
  });
}

function reject(
  res: ServerResponse,
  status: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  sendJson(res, status, rpcError(status === 401 ? -32001 : -32000, message), {
    'Cache-Control': 'no-store',
    ...headers,
  });
}
