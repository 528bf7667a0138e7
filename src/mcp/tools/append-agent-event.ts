/**
 * @module
 * append_agent_event: adds an event (time, actor, message) to a workflow's log (SPEC 7).
 */
import * as z from 'zod';
import { eventStep } from '../../workflows/operations.js';
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

export const name = 'append_agent_event';

export const inputSchema = z.object({
  ...scopeGuardFields,
  name: workflowName,
  expected_etag: workflowEtag,
  message: agentText('What happened, for the log, e.g. "Ran the test suite: 212 passed"'),
});

export function register({ server, access, session }: ToolDeps): void {
  server.registerTool(
    name,
    {
      title: 'Log a workflow event',
      description: `Adds an event to a workflow note's log: the time, you (your client's name) as the actor, and the message. The state does not change; use advance_agent_state to move on. Use it to record progress, findings or hand-overs so people and other agents can follow the workflow. ${WORKFLOW_RULES}`,
      inputSchema,
      outputSchema,
      annotations: writeAnnotations('Log a workflow event', true),
    },
    (args) =>
      runTool(true, async () => {
        const result = await access.rewriteWorkflowNote(scoped(session, args), {
          tool: name,
          name: args.name,
          expectedEtag: args.expected_etag,
          rewrite: eventStep(args.message),
        });
        return workflowResult('Logged the event in', result);
      }),
  );
}
