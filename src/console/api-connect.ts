/**
 * @module
 * Connecting a client (SPEC 8.4): the snippets `noted-mcp config CLIENT` prints, and the Claude
 * Desktop install, both supplied by the entry point.
 */
import type { Route } from './context.js';
import { ConsoleError } from './http-util.js';

export const CONNECT_ROUTES: readonly Route[] = [
  {
    method: 'GET',
    path: 'connect',
    handle: (ctx) => ({
      clients: ctx.deps.clients(),
      install: { claudeDesktop: ctx.deps.installClaudeDesktop !== undefined },
    }),
  },
  {
    method: 'POST',
    path: 'connect/install-claude-desktop',
    handle: async (ctx) => {
      const install = ctx.deps.installClaudeDesktop;
      if (install === undefined) {
        throw new ConsoleError(404, 'not_found', 'This console does not offer the Claude Desktop install.');
      }
      return install();
    },
  },
];
