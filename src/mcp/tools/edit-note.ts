/**
 * @module
 * edit_note: change part of a note, every other byte kept (SPEC 2.2): text, sections, the start of
 * the body or of a section, frontmatter properties and tags (SPEC 13.1).
 */
import * as z from 'zod';
import type { EditResult } from '../../access/write.js';
import { NotedError } from '../../common/errors.js';
import type { EditOperation } from '../../markdown/edit.js';
import { MAX_KEY_CHARS } from '../../markdown/frontmatter/splice.js';
import { toolResult } from '../result.js';
import {
  ErrorShape,
  etagField,
  noteRefArguments,
  StagedShape,
  scopeGuardFields,
  WriteShape,
} from '../schemas.js';
import { scoped, type ToolDeps } from '../tool-context.js';
import { runWriteTool } from '../work.js';
import { describeWrite } from './write-text.js';

export const name = 'edit_note';

/** Most properties one set_properties call may change; most tags one add_tags or remove_tags may name. */
const MAX_PROPERTIES = 100;
const MAX_TAGS = 100;

const scalar = z.union([z.string().max(100_000), z.number(), z.boolean()]);
const propertyValue = z
  .union([scalar, z.array(scalar).max(1000), z.null()])
  .describe('A text, number, true/false, a list of those, or null to remove the property');

export const inputSchema = z.object({
  ...scopeGuardFields,
  ...noteRefArguments,
  operation: z
    .enum([
      'replace',
      'replace_section',
      'append_to_section',
      'prepend',
      'prepend_to_section',
      'set_properties',
      'add_tags',
      'remove_tags',
      'add_block_id',
    ])
    .describe(
      'replace: old_text → new_text; replace_section: new content under a heading; append_to_section: add content at the end of a section; prepend: content at the top of the body (after the frontmatter); prepend_to_section: content right under a heading; set_properties: set or remove frontmatter properties; add_tags / remove_tags: change the frontmatter tags list; add_block_id: give the block holding line a ^id to link to',
    ),
  expected_etag: etagField
    .optional()
    .describe('The etag from read_note; this or expected_modified is required'),
  expected_modified: z
    .string()
    .max(100)
    .optional()
    .describe('The modified time from read_note, if you have no etag'),
  old_text: z
    .string()
    .optional()
    .describe(
      'replace: the exact text to replace (case, spaces and line breaks must match) — it must occur once unless replace_all',
    ),
  new_text: z.string().optional().describe('replace: the replacement; "" deletes old_text'),
  replace_all: z
    .boolean()
    .optional()
    .describe('replace: replace every occurrence instead of requiring exactly one'),
  heading: z
    .string()
    .max(1000)
    .optional()
    .describe('Sections: the heading text, e.g. "Risks" (any level) or "## Risks" (level 2 only)'),
  content: z
    .string()
    .optional()
    .describe('Sections and prepend: the new section text, or the text to append or prepend'),
  occurrence: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe('Sections: which of several equal headings, 1-based'),
  whole: z
    .boolean()
    .optional()
    .describe(
      'Sections: include sub-sections (replace them too, or append after them); default false keeps them',
    ),
  properties: z
    .record(z.string().max(MAX_KEY_CHARS), propertyValue)
    .optional()
    .describe(
      'set_properties: property name → new value, or null to remove it, e.g. {"status": "done", "due": "2026-05-01", "draft": null}. Lists are YAML lists; dates are "YYYY-MM-DD"; a type set in Obsidian (.obsidian/types.json) is followed',
    ),
  tags: z
    .array(z.string().max(200))
    .min(1)
    .max(MAX_TAGS)
    .optional()
    .describe('add_tags / remove_tags: tags, "#" optional, e.g. ["project/alpha", "review"]'),
  line: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe(
      'add_block_id: a 1-based line of the block (frontmatter lines counted), as read_note or search_notes give lines',
    ),
  // Not `id`, as SPEC 17.4 writes it: `id` names the note on every tool that takes `name` (SPEC 17.3).
  block_id: z
    .string()
    .max(100)
    .optional()
    .describe(
      'add_block_id: the block id to give, Latin letters, digits and dashes (e.g. "q3-goals"); omit for a fresh 6-character one',
    ),
});

const blockIdField = z
  .string()
  .optional()
  .describe('add_block_id: the id the block now has (without ^); link to it as [[note#^id]]');

export const outputSchema = z.union([
  WriteShape.extend({
    blockId: blockIdField,
    blockIdLine: z.number().optional().describe('add_block_id: the 1-based line the ^id is written on'),
    inlineLeft: z
      .array(z.object({ tag: z.string(), line: z.number() }))
      .optional()
      .describe(
        'remove_tags: inline #tags of the removed tags (or nested below them) still in the body, with their 1-based lines; edit them with replace if they should go too',
      ),
    inlineLeftTotal: z
      .number()
      .optional()
      .describe('remove_tags: how many such inline tags there are, when more than inlineLeft lists'),
  }),
  StagedShape.extend({ blockId: blockIdField }),
  ErrorShape,
]);

type Args = z.infer<typeof inputSchema>;

function describeEdit(result: EditResult): string {
  const text = describeWrite('Edited', result);
  if (result.blockId !== undefined) {
    const at =
      'blockIdLine' in result && result.blockIdLine !== undefined ? ` on line ${result.blockIdLine}` : '';
    return `${text}\nBlock id ^${result.blockId}${at}: link to it as [[${('name' in result ? result.name : result.note).replace(/\.md$/i, '')}#^${result.blockId}]].`;
  }
  if ('staged' in result || result.inlineLeft === undefined || result.inlineLeft.length === 0) return text;
  const total = result.inlineLeftTotal ?? result.inlineLeft.length;
  const listed = result.inlineLeft.map((t) => `${t.tag} (line ${t.line})`).join(', ');
  return `${text}\nThe body still has ${total} inline tag${total === 1 ? '' : 's'} of what was removed, left as written: ${listed}${total > result.inlineLeft.length ? ', …' : ''}.`;
}

function operationOf(args: Args): EditOperation {
  const missing = (arg: string) =>
    new NotedError(
      'validation_error',
      `edit_note with operation "${args.operation}" needs the argument ${arg}.`,
    );
  switch (args.operation) {
    case 'set_properties': {
      if (args.properties === undefined) throw missing('properties (name → value, null removes)');
      const count = Object.keys(args.properties).length;
      if (count > MAX_PROPERTIES) {
        throw new NotedError(
          'too_large',
          `properties names ${count} properties; at most ${MAX_PROPERTIES} may be set in one call. Split them over several calls.`,
        );
      }
      return { kind: 'set_properties', properties: args.properties };
    }
    case 'add_tags':
    case 'remove_tags':
      if (args.tags === undefined) throw missing('tags');
      return { kind: args.operation, tags: args.tags };
    case 'add_block_id':
      if (args.line === undefined) throw missing('line (a line of the block, 1-based)');
      return {
        kind: 'add_block_id',
        line: args.line,
        ...(args.block_id === undefined ? {} : { id: args.block_id }),
      };
    case 'prepend':
      if (args.content === undefined) throw missing('content');
      return { kind: 'prepend', content: args.content };
    default:
      return textOperationOf(args, missing);
  }
}

function textOperationOf(args: Args, missing: (arg: string) => NotedError): EditOperation {
  if (args.operation === 'replace') {
    if (args.old_text === undefined) throw missing('old_text');
    if (args.new_text === undefined) throw missing('new_text (use "" to delete)');
    return {
      kind: 'replace',
      oldText: args.old_text,
      newText: args.new_text,
      ...(args.replace_all === undefined ? {} : { replaceAll: args.replace_all }),
    };
  }
  if (args.heading === undefined) throw missing('heading');
  if (args.content === undefined) throw missing('content');
  const section = {
    heading: args.heading,
    content: args.content,
    ...(args.occurrence === undefined ? {} : { occurrence: args.occurrence }),
  };
  // Content right under the heading comes before any sub-section: `whole` has no say there.
  if (args.operation === 'prepend_to_section') return { kind: 'prepend_to_section', ...section };
  return {
    kind: args.operation as 'replace_section' | 'append_to_section',
    ...section,
    ...(args.whole === undefined ? {} : { whole: args.whole }),
  };
}

export function register({ server, access, session }: ToolDeps): void {
  server.registerTool(
    name,
    {
      title: 'Edit part of a note',
      description:
        "Changes part of a note and leaves every other byte as it was. Operations: replace (old_text must match exactly once, or set replace_all), replace_section (new text under a heading; sub-sections kept unless whole), append_to_section (add content at the end of a section, after a blank line), prepend (content at the top of the body, after the frontmatter), prepend_to_section (content right under a heading), set_properties (properties: set values, null removes; comments, order and quoting of the rest kept; the frontmatter is created when missing), add_tags / remove_tags (tags: the frontmatter tags list; remove_tags reports inline #tags it left as inlineLeft), add_block_id (line, block_id optional: gives the paragraph, list item, table, quote or code block holding that line a ^id where Obsidian reads it and returns it as blockId, a fresh 6-character one unless block_id is given; refused if the block has one, naming it). Use these rather than replace on raw YAML; use update_task to tick a task. Requires expected_etag from read_note: if the note changed, nothing is written and the error gives the current text and etag so you can redo the edit. Prefer this over update_note for small changes. The vault owner's policy may make a folder read-only (refused with read_only) or staged (the change waits for the owner's approval: the result says staged: true and the note is unchanged).",
      inputSchema,
      outputSchema,
      annotations: {
        title: 'Edit part of a note',
        readOnlyHint: false,
        destructiveHint: true,
        idempotentHint: false,
        openWorldHint: false,
      },
    },
    (args, ctx) =>
      runWriteTool(ctx, 'edit_note', async () => {
        const result = await access.editNote(scoped(session, args), {
          name: access.noteName(session, args),
          operation: operationOf(args),
          ...(args.expected_etag === undefined ? {} : { expectedEtag: args.expected_etag }),
          ...(args.expected_modified === undefined ? {} : { expectedModified: args.expected_modified }),
        });
        return toolResult(describeEdit(result), { ...result });
      }),
  );
}
