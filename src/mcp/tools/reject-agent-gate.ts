/**
 * @module
 * reject_agent_gate: decides the gate on a state as rejected, recording who and why (SPEC 7).
 */
import * as z from 'zod';
import { gateStep } from '../../workflows/operations.js';
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

export const name = 'reject_agent_gate';

export const inputSchema = z.object({
  ...scopeGuardFields,
  name: workflowName,
  expected_etag: workflowEtag,
  state: z.string().min(1).max(100).describe('The state whose gate to reject'),
  reason: agentText('Why the gate is rejected; recorded with the decision and in the log'),
});

export function register({ server, access, session }: ToolDeps): void {
  server.registerTool(
    name,
    {
      title: 'Reject a workflow gate',
      description: `Rejects the gate on a state of a workflow, recording you (your client's self-declared name), the time and the reason, and logs it; advance_agent_state then refuses to enter (or skip) that state until the gate is approved. Use it when the work that state needs is not acceptable, and say why. ${WORKFLOW_RULES}`,
      inputSchema,
      outputSchema,
      annotations: writeAnnotations('Reject a workflow gate', true),
    },
    (args) =>
      runTool(true, async () => {
        const result = await access.rewriteWorkflowNote(scoped(session, args), {
          tool: name,
          name: args.name,
          expectedEtag: args.expected_etag,
          rewrite: gateStep(args.state, 'rejected', args.reason),
        });
        return workflowResult(`Rejected the gate on ${args.state} in`, result);
      }),
  );
}
