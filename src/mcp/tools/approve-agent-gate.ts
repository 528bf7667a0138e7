/**
 * @module
 * approve_agent_gate: decides the gate on a state as approved, recording who and why (SPEC 7).
 */
import { gateDecisionTool } from './workflow-step.js';

export const name = 'approve_agent_gate';

const tool = gateDecisionTool(name, 'approved', {
  verb: 'approve',
  title: 'Approve a workflow gate',
  description:
    "Approves the gate on a state of a workflow, recording you (your client's self-declared name), the time and the reason, and logs it; advance_agent_state may then enter that state. A rejected gate may be approved later, until the workflow reaches its state. Approve only what you were asked to, or what the workflow's description says you may decide.",
});

export const inputSchema = tool.inputSchema;
export const register = tool.register;
