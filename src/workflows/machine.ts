/**
 * @module
 * The workflow state machine, pure: each operation takes a checked `Workflow` and a stamp (who, when)
 * and returns the next `Workflow` with one event added, or throws a `validation_error` that says why
 * the step is not allowed and what would allow it. States only move forward; a move onto (or past) a
 * state whose gate is not approved is refused.
 */

import type { Stamp } from '../access/workflows.js';
import { NotedError } from '../common/errors.js';
import { checkStateName, checkStates, type Gate, type Workflow, type WorkflowEvent } from './model.js';

/** The result of one step: the new workflow and the event that records it. */
export interface Step {
  readonly workflow: Workflow;
  readonly event: WorkflowEvent;
}

export interface NewWorkflowInput {
  readonly id: string;
  readonly title: string;
  readonly states: readonly string[];
  /** States that need an approved gate before the workflow may enter them. */
  readonly gates?: readonly string[];
}

/** A new workflow in its first state, its gates pending. */
export function newWorkflow(input: NewWorkflowInput, stamp: Stamp): Step {
  if (input.title.trim() === '')
    throw refusal('The workflow was not created: its title is empty. Nothing was written.');
  const states = refuseAs('The workflow was not created', () => checkStates(input.states, 'states'));
  const gates: Gate[] = [];
  for (const [i, raw] of (input.gates ?? []).entries()) {
    const name = refuseAs('The workflow was not created', () => checkStateName(raw, `gates item ${i + 1}`));
    const state = stateNamed(states, name, 'The workflow was not created: a gate');
    if (state === states[0]) {
      throw refusal(
        `The workflow was not created: a gate on the first state "${state}" could never hold anything back, since the workflow starts there. Nothing was written. Put gates on later states.`,
      );
    }
    if (gates.some((g) => g.state === state)) {
      throw refusal(
        `The workflow was not created: the state "${state}" is named twice in gates. Nothing was written.`,
      );
    }
    gates.push({ state, status: 'pending' });
  }
  // Gates are kept in the order of their states, however they were given.
  gates.sort((a, b) => states.indexOf(a.state) - states.indexOf(b.state));
  const gateWords = gates.length === 0 ? 'no gates' : `gates on ${gates.map((g) => g.state).join(', ')}`;
  const event = { ...stamp, message: `Created with the states ${states.join(' → ')} (${gateWords}).` };
  return {
    workflow: {
      version: 1,
      id: input.id,
      title: input.title,
      states,
      current: states[0] as string,
      gates,
      events: [event],
    },
    event,
  };
}

/** Adds an event to the log; the state does not change. */
export function appendEvent(workflow: Workflow, stamp: Stamp, message: string): Step {
  const event = { ...stamp, message };
  return { workflow: { ...workflow, events: [...workflow.events, event] }, event };
}

/** The state after the current one, or null in the last state. */
export function nextState(workflow: Workflow): string | null {
  return workflow.states[workflow.states.indexOf(workflow.current) + 1] ?? null;
}

/**
 * Moves to the next state, or to `to` when given (any later state). Refused when the target is not
 * later than the current state, or when a gate on the target, or on a state jumped over, is not
 * approved: a jump must not skip a gate that would have stopped a step.
 */
export function advance(workflow: Workflow, stamp: Stamp, to?: string, message?: string): Step {
  const from = workflow.current;
  const fromIndex = workflow.states.indexOf(from);
  let target: string;
  if (to === undefined) {
    const next = nextState(workflow);
    if (next === null) {
      throw refusal(
        `The workflow "${workflow.title}" is already in its last state "${from}"; there is nothing to advance to. Nothing was written.`,
        { current: from },
      );
    }
    target = next;
  } else {
    target = stateNamed(workflow.states, to, 'Not advanced: the target');
  }
  const targetIndex = workflow.states.indexOf(target);
  if (targetIndex <= fromIndex) {
    throw refusal(
      `Not advanced: "${target}" is not after the current state "${from}" (states: ${workflow.states.join(' → ')}); a workflow only moves forward. Nothing was written.`,
      { current: from },
    );
  }
  const blocking = workflow.gates.find((g) => {
    const i = workflow.states.indexOf(g.state);
    return i > fromIndex && i <= targetIndex && g.status !== 'approved';
  });
  if (blocking !== undefined) {
    const where =
      blocking.state === target ? `on "${target}"` : `on "${blocking.state}", which this move would skip,`;
    const why =
      blocking.status === 'rejected'
        ? `was rejected${blocking.by === undefined ? '' : ` by ${blocking.by}`}${blocking.reason === undefined ? '' : `: "${blocking.reason}"`}`
        : 'is still pending';
    throw refusal(
      `Not advanced: the gate ${where} ${why}. The workflow stays in "${from}" and nothing was written. It may advance once the gate is approved (approve_agent_gate, or the vault's owner).`,
      { current: from, gate: { ...blocking } },
    );
  }
  const event = {
    ...stamp,
    message: `Advanced from ${from} to ${target}.${message === undefined || message.trim() === '' ? '' : ` ${message}`}`,
  };
  return { workflow: { ...workflow, current: target, events: [...workflow.events, event] }, event };
}

/**
 * Approves or rejects the gate on `state`, recording who and why. A gate may be decided again (a
 * rejection reconsidered) as long as the workflow has not reached its state; once there, the decision
 * is history and stays as it was.
 */
export function decideGate(
  workflow: Workflow,
  stamp: Stamp,
  state: string,
  decision: 'approved' | 'rejected',
  reason: string,
): Step {
  const verb = decision === 'approved' ? 'approve' : 'reject';
  const name = stateNamed(workflow.states, state, `Could not ${verb}: the gate's state`);
  const gate = workflow.gates.find((g) => g.state === name);
  if (gate === undefined) {
    const gated = workflow.gates.map((g) => `"${g.state}"`).join(', ');
    throw refusal(
      `Could not ${verb}: the state "${name}" has no gate (${gated === '' ? 'this workflow has no gates' : `gates are on ${gated}`}). Nothing was written.`,
    );
  }
  if (workflow.states.indexOf(workflow.current) >= workflow.states.indexOf(name)) {
    throw refusal(
      `Could not ${verb}: the workflow is already in "${workflow.current}", at or past the gate on "${name}", so that decision is history (${gate.status}). Nothing was written.`,
      { current: workflow.current, gate: { ...gate } },
    );
  }
  const decided: Gate = { state: name, status: decision, by: stamp.actor, reason, at: stamp.at };
  const again = gate.status === 'pending' ? '' : ` (it was ${gate.status})`;
  const event = { ...stamp, message: `Gate on ${name} ${decision}${again}: ${reason}` };
  return {
    workflow: {
      ...workflow,
      gates: workflow.gates.map((g) => (g.state === name ? decided : g)),
      events: [...workflow.events, event],
    },
    event,
  };
}

/**
 * The state `name` refers to: exact, else the one state equal ignoring case, else a refusal listing
 * the states.
 */
function stateNamed(states: readonly string[], name: string, what: string): string {
  const trimmed = name.trim();
  if (states.includes(trimmed)) return trimmed;
  const lower = trimmed.toLowerCase();
  const match = states.find((s) => s.toLowerCase() === lower);
  if (match !== undefined) return match;
  throw refusal(
    `${what} "${trimmed}" is not one of the workflow's states (${states.join(', ')}). Nothing was written.`,
    { states: [...states] },
  );
}

function refusal(message: string, details: Record<string, unknown> = {}): NotedError {
  return new NotedError('validation_error', message, details);
}

/** Runs a check and turns its bare problem into a complete message. */
function refuseAs<T>(prefix: string, check: () => T): T {
  try {
    return check();
  } catch (err) {
    if (err instanceof NotedError) throw refusal(`${prefix}: ${err.message}. Nothing was written.`);
    throw err;
  }
}
