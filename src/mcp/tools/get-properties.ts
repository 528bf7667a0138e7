/**
 * @module
 * get_properties: a note's frontmatter properties, each with its type (SPEC 10, OBSIDIAN.md §3).
 */
import * as z from 'zod';
import { withId } from '../note-ids.js';
import { runTool, toolResult } from '../result.js';
import { noteIdField, noteRefArguments, readOnlyTool, withErrors } from '../schemas.js';
import type { ToolDeps } from '../tool-context.js';

export const name = 'get_properties';

export const inputSchema = z.object({
  ...noteRefArguments,
});

const PROPERTY_TYPES = ['text', 'list', 'number', 'checkbox', 'date', 'datetime'] as const;

export const outputSchema = withErrors(
  z.object({
    name: z.string().describe('Canonical name of the note, with .md'),
    id: noteIdField.optional(),
    properties: z
      .record(z.string(), z.unknown())
      .describe('Each frontmatter property with its value exactly as the YAML holds it; {} when none'),
    types: z
      .record(z.string(), z.enum(PROPERTY_TYPES))
      .describe(
        "Each property's type: the one assigned in Obsidian (.obsidian/types.json) when there is one, else inferred from the value",
      ),
    frontmatterError: z
      .string()
      .optional()
      .describe('Present when the frontmatter does not parse: why; the note then has no properties'),
  }),
);

export function register({ server, access, session }: ToolDeps): void {
  server.registerTool(
    name,
    {
      title: 'Get properties',
      description:
        "Returns one note's frontmatter properties with a type for each — text, list, number, checkbox, date or datetime — as Obsidian's Properties view types them: the type the owner assigned to that property name wins, else it is inferred from the value (YAML 1.2: yes/no stay text, dates are YYYY-MM-DD text). Frontmatter that does not parse gives no properties and a frontmatterError saying why. Use it to read metadata without the body; use read_note for the whole note, and query_notes to compare properties across many notes.",
      inputSchema,
      outputSchema,
      annotations: { title: 'Get properties', ...readOnlyTool },
    },
    (args) =>
      runTool(false, () => {
        const found = access.getProperties(session, access.noteName(session, args));
        const keys = Object.keys(found.properties);
        const parts = [`# ${found.name}`];
        if (found.frontmatterError !== undefined) {
          parts.push(
            `The frontmatter does not parse (${found.frontmatterError}), so the note has no properties.`,
          );
        } else if (keys.length === 0) {
          parts.push('No properties.');
        } else {
          parts.push(`${keys.length} propert${keys.length === 1 ? 'y' : 'ies'}:`);
          for (const key of keys) {
            parts.push(`- ${key} (${found.types[key]}): ${JSON.stringify(found.properties[key])}`);
          }
        }
        return toolResult(parts.join('\n'), { ...withId(access, found) }, ['properties']);
      }),
  );
}
