/**
 * @module
 * reject_agent_gate: decides the gate on a state as rejected, recording who and why (SPEC 7).
 */
import { gateDecisionTool } from './workflow-step.js';

export const name = 'reject_agent_gate';

const tool = gateDecisionTool(name, 'rejected', {
  verb: 'reject',
  title: 'Reject a workflow gate',
  description:
    "Rejects the gate on a state of a workflow, recording you (your client's self-declared name), the time and the reason, and logs it; advance_agent_state then refuses to enter (or skip) that state until the gate is approved. Use it when the work that state needs is not acceptable, and say why.",
});

export const inputSchema = tool.inputSchema;
export const register = tool.register;
