/**
 * @module
 * Writing through the gate: overwrite or append, and partial edits (creating a note: create.ts).
 * Each write takes the note's cross-process lock, re-reads the note inside it, checks the caller's
 * etag, writes atomically and refreshes the index before answering.
 */
import { isNotedError, NotedError } from '../common/errors.js';
import { isoInstant } from '../common/iso-time.js';
import { formatOf } from '../format/formats.js';
import { MARKDOWN_APPEND_SEPARATOR } from '../format/markdown-format.js';
import type { NoteFormat } from '../format/note-format.js';
import {
  applyEditWithReport,
  type EditContext,
  type EditOperation,
  type EditReport,
} from '../markdown/edit.js';
import type { StoredNote, WrittenNote } from '../vault/vault.js';
import { baseFileName, checkBaseText } from './bases/base-files.js';
import { type AccessContext, iso, MAX_NOTE_BYTES, type Writer } from './context.js';
import { idField } from './note-ids.js';
import { readTypeAssignments } from './obsidian-settings.js';
import { recordThenMake } from './recorded-write.js';
import { notFound, resolveExisting } from './resolve.js';
import { stage, writableAccess } from './rules/permission.js';
import type { Rules } from './rules/rules.js';
import type { StagedResult, WriteResult } from './types.js';

/** What `update_note` puts between the stored text and an appended part (SPEC 2.6). */
export const APPEND_SEPARATOR = MARKDOWN_APPEND_SEPARATOR;

export interface UpdateInput {
  readonly name: string;
  readonly content: string;
  readonly append?: boolean;
  readonly expectedEtag?: string;
}

export async function updateNote(
  ctx: AccessContext,
  rules: Rules,
  who: Writer,
  input: UpdateInput,
): Promise<WriteResult | StagedResult> {
  const name = resolveExisting(ctx, rules, input.name);
  const rewrite = baseFileName(name) !== null ? baseUpdate(name, input) : noteUpdate(ctx, input);
  return writeExisting(ctx, rules, who, 'update_note', name, { expectedEtag: input.expectedEtag }, rewrite);
}

/** A base (SPEC 16.3): the text as given, refused unless it parses. */
function baseUpdate(name: string, input: UpdateInput) {
  return (stored: StoredNote): string => {
    const text = input.append ? stored.text + input.content : input.content;
    checkBaseText(name, text);
    return text;
  };
}

/** A note: the content in the vault's format, appended losslessly when asked. */
function noteUpdate(ctx: AccessContext, input: UpdateInput) {
  const format = formatOf(ctx.vault);
  const addition = format.incoming(input.content);
  return (stored: StoredNote): string => {
    if (!input.append) return addition;
    requireLossless(stored);
    return format.appended(stored.text, addition);
  };
}

export interface EditInput {
  readonly name: string;
  readonly operation: EditOperation;
  readonly expectedEtag?: string;
  readonly expectedModified?: string;
  /** The tool the journal and the review name: edit_note unless given (update_task). */
  readonly tool?: string;
}

/** An edit's result: what every write answers, and what the operation reports besides. */
export type EditResult = (WriteResult & EditReport) | (StagedResult & { readonly blockId?: string });

export async function editNote(
  ctx: AccessContext,
  rules: Rules,
  who: Writer,
  input: EditInput,
): Promise<EditResult> {
  const tool = input.tool ?? 'edit_note';
  if (input.expectedEtag === undefined && input.expectedModified === undefined) {
    throw new NotedError(
      'validation_error',
      `${tool} needs expected_etag (the etag read_note returned) or expected_modified, so that an edit never lands on a version you have not seen. Read the note, then call again with its etag.`,
    );
  }
  const format = formatOf(ctx.vault);
  refuseUnsupported(format, input.operation.kind);
  const name = resolveExisting(ctx, rules, input.name);
  if (baseFileName(name) !== null) {
    throw new NotedError(
      'not_supported',
      `"${name}" is a base (YAML), which ${tool} cannot edit. Read it with read_note and write the whole text with update_note.`,
    );
  }
  const context: EditContext =
    input.operation.kind === 'set_properties' ? { propertyTypes: readTypeAssignments(ctx.vault.root) } : {};
  let report: EditReport = {};
  const result = await writeExisting(ctx, rules, who, tool, name, input, (stored) => {
    requireLossless(stored);
    try {
      const applied = applyEditWithReport(stored.text, input.operation, context);
      report = applied.report;
      return checkedEdit(format, stored.text, applied.text);
    } catch (err) {
      // Found in the text (update_task: the line is no longer a task): the agent gets the note as it
      // is now, as for a stale etag (SPEC 2.2), to redo its change on.
      if (!isNotedError(err) || err.code !== 'conflict') throw err;
      throw new NotedError('conflict', err.message, {
        ...err.details,
        name,
        currentEtag: stored.etag,
        currentText: stored.text,
        committed: false,
      });
    }
  });
  if (!('staged' in result)) return { ...result, ...report };
  // A staged block id is the one the owner's approval writes: the agent may link to it already.
  return report.blockId === undefined ? result : { ...result, blockId: report.blockId };
}

/**
 * Lock, re-read, check the expected version, compute, then journal and write — or, in a staged
 * folder, keep the computed change for the owner (a stale etag is a conflict either way).
 */
async function writeExisting(
  ctx: AccessContext,
  rules: Rules,
  who: Writer,
  tool: string,
  name: string,
  expected: { expectedEtag?: string | undefined; expectedModified?: string | undefined },
  compute: (stored: StoredNote) => string,
): Promise<WriteResult | StagedResult> {
  const access = writableAccess(rules, name, 'changed');
  const result = await ctx.vault.withNoteLock(name, (): WriteResult | StagedResult => {
    const stored = ctx.vault.read(name, rules.sight);
    if (stored === null) throw notFound(name);
    checkExpected(stored, expected);
    const text = compute(stored);
    checkSize(text);
    if (text === stored.text && stored.lossless) {
      return { name, etag: stored.etag, modified: iso(stored.mtimeMs), changed: false };
    }
    if (access === 'staged') {
      return stage(ctx, who, {
        tool,
        note: name,
        kind: 'update',
        baseEtag: stored.etag,
        baseText: stored.text,
        newText: text,
      });
    }
    // The journal entry is written first: if it cannot be, the note is not changed (SPEC 6.1).
    const written = recordThenMake(
      ctx,
      { ...who, tool, note: name, kind: 'update', before: stored.bytes, after: text },
      () => replaceIfStill(ctx, rules, name, text, stored),
    );
    return { name, etag: written.etag, modified: iso(written.mtimeMs), changed: true };
  });
  if ('changed' in result && result.changed) ctx.index.touched([name]);
  return 'staged' in result ? result : { ...result, ...idField(ctx, name) };
}

/**
 * Replaces the note with `text` only if the file still holds `stored` right before the rename. The
 * etag was checked under the note's lock, but editors take no lock, and recording the change in the
 * journal first (several fsyncs) leaves them time to save: that save must not be overwritten by a
 * change computed from the version before it (found by the concurrency test). The agent then gets the
 * conflict of SPEC 2.2 with the text now on disk; `recordThenMake` voids the journal entry.
 */
export function replaceIfStill(
  ctx: AccessContext,
  rules: Rules,
  name: string,
  text: string,
  stored: StoredNote,
): WrittenNote {
  try {
    return ctx.vault.write(name, text, { ifStill: stored.etag, allow: rules.writable });
  } catch (err) {
    if (!isNotedError(err) || err.details.changedOnDisk !== true) throw err;
    const now = ctx.vault.read(name, rules.sight);
    if (now === null) {
      throw new NotedError(
        'not_found',
        `The note "${name}" was deleted on disk while your change was being made. Nothing was written, and the journal records that the change was not made.`,
        { name, committed: false },
      );
    }
    throw new NotedError(
      'conflict',
      `The note "${name}" was saved on disk (by an editor or another program) while your change was being made, so nothing was written; the journal records that the change was not made. Its current text is included (etag ${now.etag}): redo your change on it and pass the new etag.`,
      { name, currentEtag: now.etag, currentText: now.text, committed: false },
    );
  }
}

/** Refuses a stale write with the current text, so the agent can redo its change (SPEC 2.2). */
export function checkExpected(
  stored: StoredNote,
  expected: { expectedEtag?: string | undefined; expectedModified?: string | undefined },
): void {
  let stale = false;
  if (expected.expectedEtag !== undefined && expected.expectedEtag !== stored.etag) stale = true;
  if (expected.expectedModified !== undefined) {
    const ms = isoInstant(expected.expectedModified);
    if (ms === null) {
      throw new NotedError(
        'validation_error',
        `expected_modified "${expected.expectedModified}" is not an ISO 8601 time. Pass the modified value read_note returned.`,
      );
    }
    if (ms !== Math.floor(stored.mtimeMs)) stale = true;
  }
  if (stale) {
    throw new NotedError(
      'conflict',
      `The note "${stored.name}" changed since you read it (its etag is now ${stored.etag}). Nothing was written. Its current text is included: redo your change on it and pass the new etag.`,
      { name: stored.name, currentEtag: stored.etag, currentText: stored.text, committed: false },
    );
  }
}

/** Refuses, before anything is read, an edit operation the vault's format cannot apply (SPEC 11.3). */
export function refuseUnsupported(format: NoteFormat, operation: string): void {
  const why = format.unsupportedEdit(operation);
  if (why !== null) {
    throw new NotedError(
      'not_supported',
      `edit_note operation "${operation}" is not available here: ${why}.`,
      {
        committed: false,
      },
    );
  }
}

/**
 * The edited text, unless the edit added what a stored note may not hold (SPEC 11.3: an HTML note's
 * `replace` works on its HTML, but may not bring in a script, an event handler or a `javascript:`
 * URL that a sanitized write could not).
 */
export function checkedEdit(format: NoteFormat, before: string, after: string): string {
  const added = format.unsafeAdditions(before, after);
  if (added.length > 0) {
    throw new NotedError(
      'validation_error',
      `The edit would add ${[...new Set(added)].slice(0, 5).join(', ')} to the note, which an HTML note may not hold (no script, style, event handler, javascript:/data: URL, iframe, object or form). Nothing was written. Send that part without it.`,
      { committed: false },
    );
  }
  return after;
}

/** Refuses text over the 5 MB a note may hold. */
export function checkSize(text: string): void {
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > MAX_NOTE_BYTES) {
    throw new NotedError(
      'too_large',
      `The note would be ${(bytes / 1048576).toFixed(1)} MB; the most a note may hold is 5 MB. Split it into several notes.`,
      { sizeBytes: bytes, maxBytes: MAX_NOTE_BYTES },
    );
  }
}

function requireLossless(stored: StoredNote): void {
  if (!stored.lossless) {
    throw new NotedError(
      'not_supported',
      `The note "${stored.name}" contains bytes that are not valid UTF-8, so a partial edit could not keep them. Nothing was written. Fix the file's encoding in an editor, or overwrite it whole with update_note.`,
    );
  }
}
