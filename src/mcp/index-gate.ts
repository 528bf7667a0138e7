/**
 * @module
 * Requests that need the index wait for it while it is built or caught up on start (SPEC 14.1): every
 * tool but the few that never touch it, and the resource and completion requests. The wait reports
 * the build's progress on the request's progress token and ends in `busy` after 30 s
 * (access/index-wait.ts); a request cancelled meanwhile stops waiting. `initialize`, `tools/list`,
 * the prompts and the tools below answer at once.
 */
import type { CallToolResult, McpServer, ServerContext } from '@modelcontextprotocol/server';
import type { VaultAccess } from '../access/gate.js';
import { NotedError } from '../common/errors.js';
import { isCancelled } from '../common/work.js';
import { notedErrorResult } from './result.js';
import { workFor } from './work.js';

/**
 * Tools that answer while the index is built: two never touch it, and get_vault_info shows how far
 * the build is (SPEC 14.1), its counts left out until then.
 */
export const INDEX_FREE_TOOLS: ReadonlySet<string> = new Set([
  'list_trash',
  'create_folder',
  'get_vault_info',
]);

/** Waits for the index on behalf of one request; a typed error when it cannot. */
export async function indexReady(access: VaultAccess, ctx: ServerContext, maxWaitMs?: number): Promise<void> {
  try {
    await access.waitForIndex(workFor(ctx), maxWaitMs);
  } catch (err) {
    if (!isCancelled(err)) throw err;
    throw new NotedError(
      'cancelled',
      'The call was cancelled while it waited for the search index to be built; nothing was done.',
      { committed: false },
    );
  }
}

type ToolHandler = (args: unknown, ctx: ServerContext) => CallToolResult | Promise<CallToolResult>;

/**
 * The server as tools register on it, each tool handler first waiting for the index. Tools register
 * through `registerTool` only (one file each), so this is the one place that decides.
 */
export function waitingForIndex(server: McpServer, access: VaultAccess, maxWaitMs?: number): McpServer {
  const register = server.registerTool.bind(server) as (
    name: string,
    config: unknown,
    handler: ToolHandler,
  ) => unknown;
  const registerTool = (name: string, config: unknown, handler: ToolHandler) =>
    register(
      name,
      config,
      INDEX_FREE_TOOLS.has(name)
        ? handler
        : async (args, ctx) => {
            try {
              await indexReady(access, ctx, maxWaitMs);
            } catch (err) {
              if (err instanceof NotedError) return notedErrorResult(err, true);
              throw err;
            }
            return handler(args, ctx);
          },
    );
  return new Proxy(server, {
    get: (target, key, receiver) =>
      key === 'registerTool' ? registerTool : Reflect.get(target, key, receiver),
  });
}
