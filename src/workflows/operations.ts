/**
 * @module
 * The workflow steps as the gate runs them: each function returns the computation the gate applies
 * under the note's lock (parse the stored note → step the state machine → render the note again),
 * so the etag check, the policy and the journal stay in one place (access/workflows.ts).
 *
 * @example
 * access.rewriteWorkflowNote(session, { tool, name, expectedEtag, rewrite: advanceStep('review') });
 */
import { randomUUID } from 'node:crypto';
import type { Computed, Stamp } from '../access/workflows.js';
import type { FormatName } from '../vault/format-name.js';
import { advance, appendEvent, decideGate, newWorkflow, type Step } from './machine.js';
import type { Workflow } from './model.js';
import { newWorkflowNote, parseWorkflowNote, renderWorkflowNote } from './note-format.js';

/** Where create_agent_workflow puts a workflow note when no name is given. */
export const WORKFLOW_FOLDER = 'workflows';

export interface CreateWorkflowInput {
  readonly title: string;
  readonly states: readonly string[];
  readonly gates?: readonly string[];
  /** The person-facing text above the generated block. */
  readonly description?: string;
}

/** Builds a new workflow note. */
export function createStep(input: CreateWorkflowInput): (stamp: Stamp, format: FormatName) => Computed<Step> {
  return (stamp, format) => {
    const step = newWorkflow(
      {
        id: `wf-${randomUUID()}`,
        title: input.title.trim(),
        states: input.states,
        ...(input.gates === undefined ? {} : { gates: input.gates }),
      },
      stamp,
    );
    return { text: newWorkflowNote(step.workflow, input.description, format), value: step };
  };
}

export function eventStep(message: string): Rewrite {
  return rewriteWith((workflow, stamp) => appendEvent(workflow, stamp, message));
}

export function advanceStep(to?: string, message?: string): Rewrite {
  return rewriteWith((workflow, stamp) => advance(workflow, stamp, to, message));
}

export function gateStep(state: string, decision: 'approved' | 'rejected', reason: string): Rewrite {
  return rewriteWith((workflow, stamp) => decideGate(workflow, stamp, state, decision, reason));
}

type Rewrite = (
  stored: { readonly name: string; readonly text: string },
  stamp: Stamp,
  format: FormatName,
) => Computed<Step>;

/** Parse, step, render: the person's text around the generated block is carried over unchanged. */
function rewriteWith(step: (workflow: Workflow, stamp: Stamp) => Step): Rewrite {
  return (stored, stamp, format) => {
    const note = parseWorkflowNote(stored.name, stored.text, format);
    const result = step(note.workflow, stamp);
    return { text: renderWorkflowNote(note, result.workflow, format), value: result };
  };
}
