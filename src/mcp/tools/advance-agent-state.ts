/**
 * @module
 * advance_agent_state: moves a workflow to its next state, or a named later one, unless a gate holds
 * it back (SPEC 7).
 */
import * as z from 'zod';
import { advanceStep } from '../../workflows/operations.js';
import { runTool } from '../result.js';
import { scopeGuardFields } from '../schemas.js';
import { scoped, type ToolDeps } from '../tool-context.js';
import {
  agentText,
  outputSchema,
  WORKFLOW_RULES,
  workflowEtag,
  workflowName,
  workflowResult,
  writeAnnotations,
} from './workflow-shape.js';

export const name = 'advance_agent_state';

export const inputSchema = z.object({
  ...scopeGuardFields,
  name: workflowName,
  expected_etag: workflowEtag,
  to: z
    .string()
    .min(1)
    .max(100)
    .optional()
    .describe('A later state to move to; omit to move to the next state'),
  message: agentText('Why or what was done, added to the log entry of the move').optional(),
});

export function register({ server, access, session }: ToolDeps): void {
  server.registerTool(
    name,
    {
      title: 'Advance a workflow',
      description: `Moves a workflow to its next state, or to a later state named in to (states only move forward), and logs the move. Refused with validation_error — the workflow stays where it is — when the target state, or a state the move would skip, has a gate that is not approved (pending or rejected): get it approved first (approve_agent_gate, or the vault's owner). Also refused in the last state. ${WORKFLOW_RULES}`,
      inputSchema,
      outputSchema,
      annotations: writeAnnotations('Advance a workflow', true),
    },
    (args) =>
      runTool(true, async () => {
        const result = await access.rewriteWorkflowNote(scoped(session, args), {
          tool: name,
          name: args.name,
          expectedEtag: args.expected_etag,
          rewrite: advanceStep(args.to, args.message),
        });
        return workflowResult('Advanced the workflow', result);
      }),
  );
}
