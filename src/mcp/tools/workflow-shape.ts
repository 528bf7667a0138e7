/**
 * @module
 * What the five agent-workflow tools share (SPEC 7): the arguments naming a workflow note, the result
 * shape, and the text for the model. Declared once here so the tools cannot drift apart.
 */
import * as z from 'zod';
import type { Rewritten } from '../../access/workflows.js';
import { nextState, type Step } from '../../workflows/machine.js';
import { toolResult } from '../result.js';
import { etagField, noteIdField, noteName, withErrors } from '../schemas.js';

export const workflowName = noteName.describe(
  'The workflow note, e.g. "workflows/Release 2.0" (.md optional); a unique bare name also works',
);

export const workflowEtag = etagField.describe(
  'Required: the etag of the workflow note as you last saw it (from create_agent_workflow, the last workflow tool, or read_note). If the note changed since, nothing is written and the conflict error carries the current text and etag',
);

export const agentText = (what: string) => z.string().min(1).max(10_000).describe(what);

const GateShape = z.object({
  state: z.string().describe('The state this gate guards: the workflow may not enter it until approved'),
  status: z.enum(['pending', 'approved', 'rejected']),
  by: z.string().optional().describe("Who decided: a client's self-declared name (unverified)"),
  reason: z.string().optional().describe('Why, as given with the decision'),
  at: z.string().optional().describe('When it was decided, ISO 8601'),
});

const EventShape = z.object({
  at: z.string().describe('ISO 8601'),
  actor: z.string().describe("The client's self-declared name (unverified)"),
  message: z.string(),
});

export const WorkflowResultShape = z.object({
  name: z.string().describe('Canonical name of the workflow note, with .md'),
  id: noteIdField.optional(),
  etag: z.string().describe("The note's new etag: pass it as expected_etag to the next workflow tool"),
  modified: z.string().describe('Modification time, ISO 8601'),
  created: z.boolean().optional().describe('true when this call created the note'),
  workflow: z.object({
    id: z.string(),
    title: z.string(),
    states: z.array(z.string()).describe('All states, in order'),
    current: z.string().describe('The state the workflow is in now'),
    next: z
      .string()
      .nullable()
      .describe('The state advance_agent_state moves to by default; null in the last state'),
    gates: z.array(GateShape),
    eventCount: z.number().describe('Events in the log (read_note shows them all)'),
  }),
  event: EventShape.describe('The event this call added to the log'),
});

export const outputSchema = withErrors(WorkflowResultShape);

/** The annotations of a workflow write: nothing is lost (the log and the journal keep every step). */
/**
 * `rewrites`: the tool rewrites an existing workflow note (its state, gates and log), which is a
 * destructive update; only create_agent_workflow adds a note without changing one.
 */
export function writeAnnotations(title: string, rewrites: boolean) {
  return {
    title,
    readOnlyHint: false,
    destructiveHint: rewrites,
    idempotentHint: false,
    openWorldHint: false,
  } as const;
}

/** Where these tools work and what refuses them, for every description. */
export const WORKFLOW_RULES =
  'Every change is an ordinary journaled write of the workflow note and needs expected_etag; refused with read_only in read-only folders and with staged in staged folders (workflow steps cannot wait for review). A note that is not a valid workflow gives validation_error saying what is wrong.';

/** The tool result: a sentence for the model, then the workflow as structuredContent. */
export function workflowResult(lead: string, result: Rewritten<Step>) {
  const { workflow, event } = result.value;
  const data = {
    name: result.name,
    ...(result.id === undefined ? {} : { id: result.id }),
    etag: result.etag,
    modified: result.modified,
    ...(result.created ? { created: true } : {}),
    workflow: {
      id: workflow.id,
      title: workflow.title,
      states: [...workflow.states],
      current: workflow.current,
      next: nextState(workflow),
      gates: workflow.gates.map((g) => ({ ...g })),
      eventCount: workflow.events.length,
    },
    event: { ...event },
  };
  const gates = workflow.gates.map((g) => `${g.state}: ${g.status}`).join(', ');
  const text = [
    `${lead} ${result.name}.`,
    `State: ${workflow.current} (${workflow.states.join(' → ')}); next: ${data.workflow.next ?? 'none, this is the last state'}.`,
    `Gates: ${gates === '' ? 'none' : gates}.`,
    `New etag: ${result.etag}; pass it as expected_etag to the next workflow tool on this note.`,
  ].join('\n');
  return toolResult(text, data);
}
