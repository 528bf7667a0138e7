/**
 * @module
 * The deprecated HTTP+SSE transport of protocol 2024-11-05 (SPEC 8.3), for clients that predate
 * Streamable HTTP: `GET /sse` opens an event stream whose first event, `endpoint`, names
 * `/messages?sessionId=ID`; the client POSTs each JSON-RPC message there (answered 202) and reads
 * every reply from the stream. The SDK v2 line ships no server side of this transport (only the
 * client's `SSEClientTransport`), so this is a minimal one of our own.
 * Authentication, Host and Origin are checked before a request gets here (see http.ts).
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  isJsonContentType,
  type JSONRPCMessage,
  type McpServer,
  type MessageExtraInfo,
  parseJSONRPCMessage,
  type Transport,
} from '@modelcontextprotocol/server';
import type { SessionEntry, SessionTable } from './http-sessions.js';

/** SSE comment frames keep proxies and idle-connection timers from cutting the stream. */
const KEEP_ALIVE_MS = 15_000;

export interface SseSession extends SessionEntry {
  readonly kind: 'sse';
  readonly transport: LegacySseTransport;
}

/** One client's event stream and the messages it posts. */
export class LegacySseTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;
  readonly sessionId: string;
  readonly #res: ServerResponse;
  readonly #endpoint: string;
  #timer: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(sessionId: string, res: ServerResponse, endpoint: string) {
    this.sessionId = sessionId;
    this.#res = res;
    this.#endpoint = endpoint;
  }

  async start(): Promise<void> {
    this.#res.writeHead(200, {
      'Content-Type': 'text/event-stream',
      'Cache-Control': 'no-cache, no-transform',
      Connection: 'keep-alive',
    });
    this.#res.write(`event: endpoint\ndata: ${this.#endpoint}\n\n`);
    this.#res.on('close', () => void this.close());
    this.#timer = setInterval(() => this.#res.write(': keep-alive\n\n'), KEEP_ALIVE_MS);
    this.#timer.unref();
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.#closed) throw new Error('The SSE stream is closed.');
    // JSON.stringify escapes line breaks, so the message is one `data:` line.
    this.#res.write(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
  }

  /** Hands a posted message to the server; throws when it is not a JSON-RPC message. */
  receive(body: unknown): void {
    this.onmessage?.(parseJSONRPCMessage(body));
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    clearInterval(this.#timer);
    this.#res.end();
    this.onclose?.();
  }
}

export interface LegacySseOptions {
  readonly createServer: (sessionId: string, kind: 'session') => McpServer;
  readonly sessions: SessionTable<SessionEntry>;
  readonly maxBodyBytes: number;
}

/** `GET /sse`: opens a session and its stream. */
export async function openSseStream(res: ServerResponse, options: LegacySseOptions): Promise<void> {
  const { sessions } = options;
  if (!(await sessions.reserveOrEvict())) {
    sendJson(
      res,
      503,
      rpcError(
        -32000,
        `Too many sessions: ${sessions.max} are open and every one is in use. Close one, then connect again.`,
      ),
      {
        'Retry-After': '60',
      },
    );
    return;
  }
  const id = randomUUID();
  let added = false;
  try {
    const server = options.createServer(id, 'session');
    const transport = new LegacySseTransport(id, res, `/messages?sessionId=${encodeURIComponent(id)}`);
    transport.onclose = () => sessions.forget(id);
    const entry: SseSession = { id, kind: 'sse', transport, close: () => server.close() };
    sessions.add(entry);
    added = true;
    await server.connect(transport);
  } catch (err) {
    if (added) await sessions.close(id);
    else sessions.release();
    throw err;
  }
}

/** `POST /messages?sessionId=ID`: one JSON-RPC message for that session's server. */
export async function postSseMessage(
  req: IncomingMessage,
  res: ServerResponse,
  sessionId: string | null,
  options: LegacySseOptions,
): Promise<void> {
  if (sessionId === null) {
    sendJson(res, 400, rpcError(-32000, 'Bad Request: the sessionId query parameter is required.'));
    return;
  }
  const session = options.sessions.use(sessionId);
  if (session === undefined || session.kind !== 'sse') {
    sendJson(res, 404, rpcError(-32001, 'Session not found: open a new stream with GET /sse.'));
    return;
  }
  if (!isJsonContentType(req.headers['content-type'])) {
    sendJson(res, 415, rpcError(-32000, 'Unsupported Media Type: send Content-Type: application/json.'));
    return;
  }
  const text = await readBody(req, options.maxBodyBytes);
  if (text === null) {
    sendJson(res, 413, rpcError(-32000, `Payload Too Large: at most ${options.maxBodyBytes} bytes.`));
    return;
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    sendJson(res, 400, rpcError(-32700, 'Parse error: the body is not JSON.'));
    return;
  }
  try {
    (session as SseSession).transport.receive(body);
  } catch (err) {
    sendJson(res, 400, rpcError(-32600, `Invalid Request: ${(err as Error).message}`));
    return;
  }
  res.writeHead(202, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Accepted');
}

/** The body as text, or null past `limit` bytes (reading stops there). */
async function readBody(req: IncomingMessage, limit: number): Promise<string | null> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return null;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) return null;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export function rpcError(code: number, message: string): object {
  return { jsonrpc: '2.0', error: { code, message }, id: null };
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: object,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'Content-Type': 'application/json', ...headers }).end(JSON.stringify(body));
}
