/**
 * @module
 * create_agent_workflow: a new workflow note — ordered states, optional gates, an event log (SPEC 7).
 */
import * as z from 'zod';
import { createStep, WORKFLOW_FOLDER } from '../../workflows/operations.js';
import { scopeGuardFields } from '../schemas.js';
import { scoped, type ToolDeps } from '../tool-context.js';
import { runWriteTool } from '../work.js';
import { outputSchema, WORKFLOW_RULES, workflowResult, writeAnnotations } from './workflow-shape.js';

export const name = 'create_agent_workflow';

const stateName = z.string().min(1).max(100);

export const inputSchema = z.object({
  ...scopeGuardFields,
  title: z.string().min(1).max(300).describe('What the workflow is about, e.g. "Release 2.0"'),
  states: z
    .array(stateName.describe('A state name'))
    .min(2)
    .max(50)
    .describe(
      'The states in order, e.g. ["draft", "review", "approved", "released"]; it starts in the first',
    ),
  gates: z
    .array(stateName.describe('A state name from states'))
    .max(50)
    .optional()
    .describe(
      'States that need an approved gate before the workflow may enter them, e.g. ["approved"]; not the first state',
    ),
  name: z
    .string()
    .max(4096)
    .optional()
    .describe(
      `Path of the new note, e.g. "projects/release-workflow"; omit to use "${WORKFLOW_FOLDER}/<title>"`,
    ),
  description: z
    .string()
    .max(100_000)
    .optional()
    .describe('Text for people, put above the generated workflow block (Markdown)'),
});

export function register({ server, access, session }: ToolDeps): void {
  server.registerTool(
    name,
    {
      title: 'Create an agent workflow',
      description: `Creates a workflow note: ordered states (it starts in the first), optional gates on later states that must be approved before the workflow may enter them, and an event log. The note is readable Markdown (title, a summary of states and gates, the events) with the metadata in a \`\`\`json block; it is tagged #agent-workflow. Without a name it goes to "${WORKFLOW_FOLDER}/<title>.md" (" 2", " 3"… when taken); it never overwrites (already_exists). Then use append_agent_event, advance_agent_state, approve_agent_gate and reject_agent_gate with the etag this returns. ${WORKFLOW_RULES}`,
      inputSchema,
      outputSchema,
      annotations: writeAnnotations('Create an agent workflow', false),
    },
    (args, ctx) =>
      runWriteTool(ctx, 'create_agent_workflow', async () => {
        const result = await access.createWorkflowNote(scoped(session, args), {
          tool: name,
          title: args.title,
          folder: WORKFLOW_FOLDER,
          ...(args.name === undefined ? {} : { name: args.name }),
          build: createStep({
            title: args.title,
            states: args.states,
            ...(args.gates === undefined ? {} : { gates: args.gates }),
            ...(args.description === undefined ? {} : { description: args.description }),
          }),
        });
        return workflowResult('Created the workflow', result);
      }),
  );
}
