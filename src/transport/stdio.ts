/**
 * @module
 * Serves MCP over stdin/stdout. stdout belongs to the protocol; nothing else writes there.
 *
 * Both protocol eras, as over HTTP: the SDK's `serveStdio` lets the first message choose — a 2025-era
 * `initialize` pins a 2025-era server for the connection, a 2026-07-28 `server/discover` (or any
 * request with that era's envelope) a modern one — and the wire underneath answers JSON-RPC batches
 * for the versions that have them (stdio-batches.ts).
 */
import {
  isJSONRPCRequest,
  type JSONRPCMessage,
  type McpServer,
  PROTOCOL_VERSION_META_KEY,
} from '@modelcontextprotocol/server';
import { serveStdio as serveEras } from '@modelcontextprotocol/server/stdio';
import { BatchingStdioTransport } from './stdio-batches.js';

/**
 * Serves the servers `createServer` makes (one per connection; a discarded probe may make a second)
 * on stdio; resolves when the client goes away (stdin closes) or `stop` is called.
 */
export function serveStdio(
  createServer: (era: 'legacy' | 'modern') => McpServer,
  options: { onerror?: (error: Error) => void } = {},
): { closed: Promise<void>; stop: () => Promise<void> } {
  const transport = new BatchingStdioTransport();
  const handle = serveEras(({ era }) => createServer(era === 'modern' ? 'modern' : 'legacy'), {
    transport,
    ...(options.onerror === undefined ? {} : { onerror: options.onerror }),
  });
  answerBareDiscover(transport);
  // After the entry took the transport's close for itself: the connection ends with the wire.
  const closed = new Promise<void>((resolve) => {
    const entry = transport.onclose;
    transport.onclose = () => {
      entry?.();
      resolve();
    };
  });
  return { closed, stop: () => handle.close() };
}

/**
 * `server/discover` without the 2026-07-28 envelope: the SDK's entry reads a message without one as
 * 2025-era, and that era has no such method, so the client heard "Method not found" where HTTP
 * answers 400 with the reason (issue 36.9). Answered here, before the entry, with what is missing.
 */
function answerBareDiscover(transport: BatchingStdioTransport): void {
  const deliver = transport.onmessage;
  transport.onmessage = (message: JSONRPCMessage) => {
    if (isJSONRPCRequest(message) && message.method === 'server/discover' && !hasEnvelope(message.params)) {
      const answer: JSONRPCMessage = {
        jsonrpc: '2.0',
        id: message.id,
        error: {
          code: -32602,
          message: `Invalid params: server/discover is a request of protocol revision 2026-07-28 and needs that revision's per-request envelope: params._meta["${PROTOCOL_VERSION_META_KEY}"] = "2026-07-28", with the client's info and capabilities beside it. A 2025-era client opens with initialize instead.`,
        },
      };
      void transport.send(answer).catch(() => undefined);
      return;
    }
    deliver?.(message);
  };
}

function hasEnvelope(params: unknown): boolean {
  const meta = (params as { _meta?: unknown } | undefined)?._meta;
  return typeof meta === 'object' && meta !== null && PROTOCOL_VERSION_META_KEY in meta;
}
