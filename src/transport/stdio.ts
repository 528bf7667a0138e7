/**
 * @module
 * Serves MCP over stdin/stdout. stdout belongs to the protocol; nothing else writes there.
 *
 * Both protocol eras, as over HTTP: the SDK's `serveStdio` lets the first message choose — a 2025-era
 * `initialize` pins a 2025-era server for the connection, a 2026-07-28 `server/discover` (or any
 * request with that era's envelope) a modern one — and the wire underneath answers JSON-RPC batches
 * for the versions that have them (stdio-batches.ts).
 */
import type { McpServer } from '@modelcontextprotocol/server';
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
