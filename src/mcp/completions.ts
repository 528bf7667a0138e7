/**
 * @module
 * completion/complete for the vault's paths: the `path` of the resource template `noted://note/{path}`
 * (notes and attachments) and the `note` argument of every vault prompt (notes). Hidden files are
 * never offered.
 */
import type { McpServer } from '@modelcontextprotocol/server';
import type { VaultAccess } from '../access/gate.js';
import type { AgentSession } from '../access/types.js';
import { indexReady } from './index-gate.js';
import { buildPrompts } from './prompt-notes.js';
import { invalidParams, runRequest } from './protocol-errors.js';
import { NOTE_URI_TEMPLATE } from './resources.js';

const NOTHING = { completion: { values: [] as string[], hasMore: false } };

export function registerCompletions(
  server: McpServer,
  access: VaultAccess,
  session: AgentSession,
  indexWaitMs?: number,
): void {
  server.server.registerCapabilities({ completions: {} });
  server.server.setRequestHandler('completion/complete', (request, ctx) =>
    runRequest(async () => {
      await indexReady(access, ctx, indexWaitMs);
      const { ref, argument } = request.params;
      if (ref.type === 'ref/resource') {
        if (ref.uri !== NOTE_URI_TEMPLATE) {
          throw invalidParams(`No resource template "${ref.uri}"; this server has ${NOTE_URI_TEMPLATE}.`, {
            uri: ref.uri,
          });
        }
        if (argument.name !== 'path') return NOTHING;
        return complete(access.completePaths(session, argument.value, { attachments: true }));
      }
      const prompt = buildPrompts(access.promptNotes(session).notes).find((p) => p.name === ref.name);
      if (prompt === undefined) throw invalidParams(`No prompt named "${ref.name}".`, { name: ref.name });
      if (argument.name !== 'note') return NOTHING;
      return complete(access.completePaths(session, argument.value, { attachments: false }));
    }),
  );
}

function complete(found: { values: string[]; hasMore: boolean }) {
  return { completion: { values: found.values, hasMore: found.hasMore } };
}
