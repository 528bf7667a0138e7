/**
 * @module
 * append_agent_event: adds an event to a workflow's log without changing its state (SPEC 7).
 */
import { eventStep } from '../../workflows/operations.js';
import type { ToolDeps } from '../tool-context.js';
import { agentText } from './workflow-shape.js';
import { registerWorkflowStep, stepInput } from './workflow-step.js';

export const name = 'append_agent_event';

export const inputSchema = stepInput({
  message: agentText('What happened, for the log, e.g. "Ran the test suite: 212 passed"'),
});

export function register(deps: ToolDeps): void {
  registerWorkflowStep(deps, {
    name,
    title: 'Log a workflow event',
    description:
      "Adds an event to a workflow note's log: the time, you (your client's name) as the actor, and the message. The state does not change; use advance_agent_state to move on. Use it to record progress, findings or hand-overs so people and other agents can follow the workflow.",
    inputSchema,
    step: (args) => eventStep(args.message),
    lead: () => 'Logged the event in',
  });
}
