/**
 * @module
 * approve_agent_gate: decides the gate on a state as approved, recording who and why (SPEC 7).
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

export const name = 'approve_agent_gate';

export const inputSchema = z.object({
  ...scopeGuardFields,
  name: workflowName,
  expected_etag: workflowEtag,
  state: z.string().min(1).max(100).describe('The state whose gate to approve'),
  reason: agentText('Why the gate is approved; recorded with the decision and in the log'),
});

export function register({ server, access, session }: ToolDeps): void {
  server.registerTool(
    name,
    {
      title: 'Approve a workflow gate',
      description: `Approves the gate on a state of a workflow, recording you (your client's self-declared name), the time and the reason, and logs it; advance_agent_state may then enter that state. A rejected gate may be approved later, until the workflow reaches its state. Approve only what you were asked to, or what the workflow's description says you may decide. ${WORKFLOW_RULES}`,
      inputSchema,
      outputSchema,
      annotations: writeAnnotations('Approve a workflow gate', true),
    },
    (args) =>
      runTool(true, async () => {
        const result = await access.rewriteWorkflowNote(scoped(session, args), {
          tool: name,
          name: args.name,
          expectedEtag: args.expected_etag,
          rewrite: gateStep(args.state, 'approved', args.reason),
        });
        return workflowResult(`Approved the gate on ${args.state} in`, result);
      }),
  );
}
