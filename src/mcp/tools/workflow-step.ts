/**
 * @module
 * The one shell of the workflow tools that step an existing workflow note (approve_agent_gate,
 * reject_agent_gate, advance_agent_state, append_agent_event; SPEC 7): the arguments naming the note
 * and its etag, the journaled rewrite through the gate, and the result. Each tool says only what is
 * its own: its extra arguments, its words, and the step it applies.
 */
import type { ServerContext } from '@modelcontextprotocol/server';
import * as z from 'zod';
import { gateStep } from '../../workflows/operations.js';
import { noteIdArgument, scopeGuardFields } from '../schemas.js';
import { type GuardArgs, scoped, type ToolDeps } from '../tool-context.js';
import { runWriteTool } from '../work.js';
import {
  agentText,
  outputSchema,
  WORKFLOW_RULES,
  workflowEtag,
  workflowName,
  workflowResult,
  writeAnnotations,
} from './workflow-shape.js';

/** The arguments every step takes (the scope guards, which note, the etag seen), then the step's own. */
export function stepInput<T extends z.ZodRawShape>(own: T) {
  return z.object({
    ...scopeGuardFields,
    name: workflowName.optional(),
    id: noteIdArgument.optional(),
    expected_etag: workflowEtag,
    ...own,
  });
}

/** What every step's arguments hold, whatever else its own schema adds. */
interface StepArgs extends GuardArgs {
  readonly name?: string | undefined;
  readonly id?: string | undefined;
  readonly expected_etag: string;
}

export interface WorkflowStepTool<A extends StepArgs> {
  readonly name: string;
  readonly title: string;
  /** What the tool does and when to use it; the rules every workflow write follows are added. */
  readonly description: string;
  readonly inputSchema: z.ZodType<A>;
  /** The rewrite the gate applies to the stored note under its lock. */
  readonly step: (args: A) => ReturnType<typeof gateStep>;
  /** The sentence the result starts with (the workflow's name follows). */
  readonly lead: (args: A) => string;
}

export function registerWorkflowStep<A extends StepArgs>(
  { server, access, session }: ToolDeps,
  tool: WorkflowStepTool<A>,
): void {
  server.registerTool(
    tool.name,
    {
      title: tool.title,
      description: `${tool.description} ${WORKFLOW_RULES}`,
      inputSchema: tool.inputSchema,
      outputSchema,
      annotations: writeAnnotations(tool.title, true),
    },
    (args: A, ctx: ServerContext) =>
      runWriteTool(ctx, tool.name, async () => {
        const result = await access.rewriteWorkflowNote(scoped(session, args), {
          tool: tool.name,
          name: access.noteName(session, args, 'the workflow'),
          expectedEtag: args.expected_etag,
          rewrite: tool.step(args),
        });
        return workflowResult(tool.lead(args), result);
      }),
  );
}

/**
 * approve_agent_gate and reject_agent_gate: the same step with the other decision. `verb` is the
 * decision's imperative ("approve"), for the argument descriptions.
 */
export function gateDecisionTool(
  name: string,
  decision: 'approved' | 'rejected',
  words: { readonly verb: string; readonly title: string; readonly description: string },
) {
  const inputSchema = stepInput({
    state: z.string().min(1).max(100).describe(`The state whose gate to ${words.verb}`),
    reason: agentText(`Why the gate is ${decision}; recorded with the decision and in the log`),
  });
  const register = (deps: ToolDeps): void =>
    registerWorkflowStep(deps, {
      name,
      title: words.title,
      description: words.description,
      inputSchema,
      step: (args) => gateStep(args.state, decision, args.reason),
      lead: (args) => `${decision === 'approved' ? 'Approved' : 'Rejected'} the gate on ${args.state} in`,
    });
  return { inputSchema, register };
}
