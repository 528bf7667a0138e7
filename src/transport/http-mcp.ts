/**
 * @module
 * The `/mcp` endpoint, web-standard (`Request` in, `Response` out), serving both protocol eras:
 *
 * - 2026-07-28 clients (a per-request `_meta` envelope) go to the SDK's `createMcpHandler`, which
 *   builds one server per request; those clients have no session.
 * - 2025-era clients (`initialize`, then `Mcp-Session-Id`) get a real session: one
 *   `WebStandardStreamableHTTPServerTransport` and one MCP server each, kept in the session table.
 *
 * Why not `createMcpHandler`'s own legacy fallback: it is stateless (GET and DELETE answer 405),
 * and SPEC 8.2 wants sessions that can be ended, counted and expired. The SDK's `isLegacyRequest`
 * is the very classification `createMcpHandler` uses, so the two routes cannot disagree.
 * Authentication, Host and Origin are checked before a request gets here (see http.ts).
 */
import { randomUUID } from 'node:crypto';
import {
  createMcpHandler,
  isInitializeRequest,
  isLegacyRequest,
  type McpServer,
  type ServerNotifier,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';
import { SessionEventStore } from './event-store.js';
import type { SessionEntry, SessionTable } from './http-sessions.js';

/** How long a client waits before it reconnects a closed SSE stream (the priming event's `retry`). */
export const SSE_RETRY_MS = 1000;

/** A 2025-era Streamable HTTP session. */
export interface StreamableSession extends SessionEntry {
  readonly kind: 'streamable';
  readonly transport: WebStandardStreamableHTTPServerTransport;
  /** The session's kept events, for resuming its streams. */
  readonly events: SessionEventStore;
}

/** What an MCP server is made for: one 2025-era session, or one stateless 2026-07-28 request. */
export type ServerKind = 'session' | 'stateless';

export interface McpEndpointOptions {
  /** A fresh MCP server whose journal entries carry `sessionId`. */
  readonly createServer: (sessionId: string, kind: ServerKind) => McpServer;
  /**
   * Starts publishing the vault's changes to 2026-07-28 clients listening (`subscriptions/listen`):
   * their servers live for one request, so the endpoint's notifier carries the changes; returns how
   * to stop.
   */
  readonly publish?: (notify: ServerNotifier) => () => void;
  readonly sessions: SessionTable<SessionEntry>;
  /** The journal session of stateless (2026-07-28) requests: one per server run. */
  readonly statelessSessionId: string;
  readonly maxBodyBytes: number;
  readonly onerror?: (error: Error) => void;
}

export interface McpEndpoint {
  fetch(request: Request): Promise<Response>;
  close(): Promise<void>;
}

export function createMcpEndpoint(options: McpEndpointOptions): McpEndpoint {
  const { sessions, maxBodyBytes } = options;
  const modern = createMcpHandler(() => options.createServer(options.statelessSessionId, 'stateless'), {
    legacy: 'reject',
    maxRequestBodySize: maxBodyBytes,
    ...(options.onerror === undefined ? {} : { onerror: options.onerror }),
  });

  const stopPublishing = options.publish?.(modern.notify) ?? (() => undefined);

  async function openSession(request: Request, requestId: unknown): Promise<Response> {
    if (!(await sessions.reserveOrEvict())) {
      return jsonRpcError(
        503,
        -32000,
        `Too many sessions: ${sessions.max} are open, the most this server keeps, and every one has a request or stream open. End one (DELETE /mcp with its Mcp-Session-Id) or wait until one of them is idle, then initialize again.`,
        requestId,
        { 'Retry-After': '60' },
      );
    }
    const id = randomUUID();
    let transport: WebStandardStreamableHTTPServerTransport;
    const events = new SessionEventStore();
    try {
      const server = options.createServer(id, 'session');
      transport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: () => id,
        maxRequestBodySize: maxBodyBytes,
        // Resumable streams: event ids, a priming event with `retry`, replay after Last-Event-ID.
        eventStore: events,
        retryInterval: SSE_RETRY_MS,
        // Trigger: DELETE /mcp. Outcome: the id is forgotten at once, so its reuse answers 404.
        onsessionclosed: () => sessions.forget(id),
      });
      transport.onclose = () => sessions.forget(id);
      await server.connect(transport);
      const entry: StreamableSession = {
        id,
        kind: 'streamable',
        transport,
        events,
        close: () => server.close(),
      };
      sessions.add(entry);
    } catch (err) {
      sessions.release();
      throw err;
    }
    let response: Response;
    try {
      const end = sessions.begin(id);
      response = whileOpen(await transport.handleRequest(request), end, request.signal);
    } catch (err) {
      await sessions.close(id);
      throw err;
    }
    // An initialize the transport refused (bad version header, malformed params) opened nothing.
    if (transport.sessionId === undefined) await sessions.close(id);
    return response;
  }

  return {
    async fetch(request) {
      if (!(await isLegacyRequest(request, undefined, { maxRequestBodySize: maxBodyBytes }))) {
        return modern.fetch(request);
      }
      const sessionId = request.headers.get('mcp-session-id');
      if (sessionId !== null) {
        const session = sessions.use(sessionId);
        if (session === undefined || session.kind !== 'streamable') {
          return jsonRpcError(
            404,
            -32001,
            'Session not found: it was ended (DELETE), expired after being idle, or never existed. Initialize a new session.',
            null,
          );
        }
        const streamable = session as StreamableSession;
        const lastEventId = request.method === 'GET' ? request.headers.get('last-event-id') : null;
        if (
          lastEventId !== null &&
          lastEventId !== '' &&
          streamable.events.streamOf(lastEventId) === undefined
        ) {
          return jsonRpcError(
            400,
            -32000,
            `Unknown Last-Event-ID ${JSON.stringify(lastEventId.slice(0, 100))}: this session never sent that event, or no longer keeps it (it keeps the last 16, for 5 minutes). Repeat the request instead of resuming its stream.`,
            null,
          );
        }
        const end = sessions.begin(sessionId);
        return whileOpen(await streamable.transport.handleRequest(request), end, request.signal);
      }
      if (request.method === 'POST') {
        const body = await request
          .clone()
          .json()
          .catch(() => undefined);
        if (isInitializeRequest(body)) return openSession(request, (body as { id?: unknown }).id);
      }
      return jsonRpcError(
        400,
        -32000,
        'Bad Request: Mcp-Session-Id header is required (send initialize first to open a session).',
        null,
      );
    },
    close: async () => {
      stopPublishing();
      await modern.close();
    },
  };
}

/**
 * The response, calling `end` once its body has been sent or the client has gone (`gone`: the
 * request's signal, aborted when its connection closes; a stream with nothing to send would not
 * notice otherwise): until then the session has a request or stream open and is not closed to make
 * room for another (http-sessions.ts).
 */
function whileOpen(response: Response, end: () => void, gone: AbortSignal): Response {
  if (response.body === null || gone.aborted) {
    end();
    return response;
  }
  gone.addEventListener('abort', end, { once: true });
  const reader = response.body.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          end();
          controller.close();
        } else controller.enqueue(value);
      } catch (err) {
        end();
        controller.error(err);
      }
    },
    cancel(reason) {
      end();
      return reader.cancel(reason);
    },
  });
  return new Response(body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}

/** A JSON-RPC error as an HTTP answer, the shape MCP clients read on a failed request. */
export function jsonRpcError(
  status: number,
  code: number,
  message: string,
  id: unknown,
  headers: Record<string, string> = {},
): Response {
  const rpcId = typeof id === 'string' || typeof id === 'number' ? id : null;
  return Response.json({ jsonrpc: '2.0', error: { code, message }, id: rpcId }, { status, headers });
}
