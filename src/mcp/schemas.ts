/**
 * @module
 * Schemas shared by several tools. Every tool's output schema is its success shape OR the error shape,
 * because SDK v1 clients validate structuredContent even on `isError` results (SPEC 3.2).
 */
import * as z from 'zod';
import { ERROR_CODES } from '../common/errors.js';

export const ErrorShape = z
  .object({
    code: z.enum(ERROR_CODES).describe('Stable error code'),
    message: z.string().describe('What went wrong and what to do next'),
    committed: z.boolean().optional().describe('false: nothing was written'),
  })
  .loose();

export function withErrors<T extends z.ZodObject>(success: T) {
  return z.union([success, ErrorShape]);
}

/** A write tool's output: done, staged for the owner's review (SPEC 5.1), or an error. */
export function writeOutput<T extends z.ZodObject>(success: T) {
  return z.union([success, StagedShape, ErrorShape]);
}

export const StagedShape = z.object({
  staged: z.literal(true).describe("The change was NOT applied: it waits for the vault owner's review"),
  pendingId: z.string().describe('The id of the pending change the owner will approve or reject'),
  note: z.string().describe('The note the change is for'),
  kind: z.enum(['create', 'update', 'delete']),
});

/**
 * Lines [from, to] of a part of a note, 1-based. An array of exactly two numbers rather than a
 * z.tuple: a tuple's JSON Schema is 2020-12's `prefixItems` + `items: false`, which SDK v1 clients
 * (Ajv in draft-07 mode) read as "no item allowed" and so refuse every real result (issue 36.1).
 * Output schemas use only what draft-07 and 2020-12 read alike.
 */
export const lineSpan = z.array(z.number()).length(2);

export const noteName = z
  .string()
  .min(1)
  .max(4096)
  .describe(
    'The note\'s vault-relative path, e.g. "inbox/idea" or "inbox/idea.md"; a unique bare name like "idea" also works',
  );

export const noteIdArgument = z
  .string()
  .max(200)
  .describe(
    'Instead of name: the note\'s id, exactly as a result gave it (e.g. "n1f3k2a"). It stays the same when the note is moved or renamed. Give name or id, not both',
  );

/** How a tool names an existing note: `name` or `id`, exactly one (the gate checks, access/note-ids.ts). */
export const noteRefArguments = {
  name: noteName.optional(),
  id: noteIdArgument.optional(),
};

/** The `id` of a note a result names (SPEC 17.3). */
export const noteIdField = z
  .string()
  .describe(
    "The note's id: pass it as id, instead of name, to any tool that names an existing note (not restore_note, whose id is a deletion's); it stays the same when the note moves",
  );

export const etagField = z
  .string()
  .max(200)
  .describe(
    'The etag read_note (or the last write) returned; the write is refused with conflict if the note changed since',
  );

export const WriteShape = z.object({
  name: z.string().describe('Canonical name of the note, with .md'),
  id: noteIdField.optional(),
  etag: z.string().describe('The new etag; pass it as expected_etag to the next write'),
  modified: z.string().describe('Modification time, ISO 8601'),
  created: z.boolean().optional().describe('true when the note was created by this call'),
  changed: z
    .boolean()
    .optional()
    .describe('false when the text was already exactly this, so nothing was written'),
});

export const readOnlyTool = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
} as const;

/**
 * `offset` and `max_chars` of a tool that returns a long text in pages: `what` names the text, `unit`
 * what is counted (`body character`).
 */
export function pagingArguments(what: string, unit: string) {
  return {
    offset: z
      .number()
      .int()
      .min(0)
      .optional()
      .describe(`For a very large ${what}: the ${unit} to start at (the nextOffset of the previous page)`),
    max_chars: z
      .number()
      .int()
      .min(1)
      .max(1_000_000)
      .optional()
      .describe(`For a very large ${what}: at most this many ${unit}s (default and most: 1,000,000)`),
  };
}

/**
 * `in_folder` (SPEC 12.5), declared by every tool that writes, moves or deletes; the contract test
 * checks that each such tool has it. The gate applies it (access/rules/scope.ts).
 */
export const inFolderField = z
  .string()
  .max(4096)
  .optional()
  .describe(
    'Guard: the folder this call may write in, e.g. "projects/alpha". The note (for a move, its source and destination; for a batch, every item) must be inside it, else the call is refused with out_of_scope and nothing is written. Use it so a bare name that resolves to a note elsewhere cannot change that note',
  );

/** `exact_folder` (SPEC 17.1): the note must be directly in this folder, not in a sub-folder. */
export const exactFolderField = z
  .string()
  .max(4096)
  .optional()
  .describe(
    'Guard: the folder this call may write directly in (not in its sub-folders), e.g. "inbox"; "" or "/" for the top of the vault. Refused with out_of_scope otherwise, nothing written',
  );

/** `not_in_folders` (SPEC 17.1): the note must be inside none of these folders. */
export const notInFoldersField = z
  .array(z.string().max(4096))
  .max(100)
  .optional()
  .describe(
    'Guard: folders this call must not write in, at any depth, e.g. ["archive", "private"]. Refused with out_of_scope when the note (for a move, either end; for a batch, any item) is inside one, nothing written',
  );

/** The three scope guards every tool that writes, moves or deletes takes (SPEC 12.5, 17.1). */
export const scopeGuardFields = {
  in_folder: inFolderField,
  exact_folder: exactFolderField,
  not_in_folders: notInFoldersField,
};

function timeBound(what: string, side: 'after' | 'before'): z.ZodOptional<z.ZodString> {
  return z
    .string()
    .max(100)
    .optional()
    .describe(
      side === 'after'
        ? `Only notes ${what} at or after this ISO 8601 date or time, e.g. "2026-01-31" or "2026-01-31T09:30:00Z" (no offset: UTC)`
        : `Only notes ${what} strictly before this ISO 8601 date or time ("2026-02-01" excludes February 1)`,
    );
}

/** The time filters of list_notes, search_notes and export_notes (SPEC 17.4). */
export const dateRangeFields = {
  modified_after: timeBound('modified', 'after'),
  modified_before: timeBound('modified', 'before'),
  created_after: timeBound('created (frontmatter created when a date, else the file birth time)', 'after'),
  created_before: timeBound('created', 'before'),
};

/** What list_notes and search_notes say of each note besides its name (SPEC 17.4). */
export const noteFactsShape = {
  words: z.number().describe("Words in the body, as Obsidian's word count counts them"),
  created: z
    .string()
    .describe(
      'When the note was created, ISO 8601: its frontmatter created when that is a date, else the file birth time',
    ),
};

/** The time filters given in `args`, the absent ones left out. */
export function dateArgs(args: {
  modified_after?: string | undefined;
  modified_before?: string | undefined;
  created_after?: string | undefined;
  created_before?: string | undefined;
}): { modified_after?: string; modified_before?: string; created_after?: string; created_before?: string } {
  const out: Record<string, string> = {};
  for (const key of ['modified_after', 'modified_before', 'created_after', 'created_before'] as const) {
    const value = args[key];
    if (value !== undefined) out[key] = value;
  }
  return out;
}
