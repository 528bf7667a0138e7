/**
 * @module
 * Writing through the gate: create, overwrite or append, and partial edits. Each write takes the
 * note's cross-process lock, re-reads the note inside it, checks the caller's etag, writes
 * atomically and refreshes the index before answering.
 */
import { isNotedError, NotedError } from '../common/errors.js';
import { formatOf } from '../format/formats.js';
import { MARKDOWN_APPEND_SEPARATOR } from '../format/markdown-format.js';
import type { NoteFormat } from '../format/note-format.js';
import {
  applyEditWithReport,
  type EditContext,
  type EditOperation,
  type EditReport,
} from '../markdown/edit.js';
import { titleToFileName } from '../markdown/title.js';
import { baseNameOf, normalizeNoteName } from '../vault/names.js';
import type { StoredNote, WrittenNote } from '../vault/vault.js';
import { type AccessContext, iso, MAX_NOTE_BYTES, type Writer } from './context.js';
import { readTypeAssignments } from './obsidian-settings.js';
import { stage, writableAccess } from './permission.js';
import { recordThenMake } from './recorded-write.js';
import { existingCaseVariant, notFound, requireFree, resolveExisting } from './resolve.js';
import type { Rules } from './rules.js';
import { textFromTemplate } from './templates.js';
import type { StagedResult, WriteResult } from './types.js';

/** What `update_note` puts between the stored text and an appended part (SPEC 2.6). */
export const APPEND_SEPARATOR = MARKDOWN_APPEND_SEPARATOR;

export interface CreateInput {
  readonly name?: string;
  readonly title?: string;
  /** The note's text; with a template, what follows the filled template. */
  readonly content?: string;
  readonly tags?: string[];
  /** A template note to start from (SPEC 13.3): by name, or bare name in the Templates folder. */
  readonly template?: string;
}

export async function createNote(
  ctx: AccessContext,
  rules: Rules,
  who: Writer,
  input: CreateInput,
): Promise<WriteResult | StagedResult> {
  const title = input.title?.trim() || undefined;
  let name: string;
  if (input.name !== undefined && input.name.trim() !== '') {
    name = normalizeNoteName(input.name, ctx.vault.ending);
  } else if (title !== undefined) {
    // Security: the policy is asked before any probing for a free name, so a folder agents may not
    // write answers the same whatever it holds (a hidden "Plan.md" must not turn the name into
    // "Plan 2.md"; issue 25).
    writableAccess(rules, normalizeNoteName(titleToFileName(title), ctx.vault.ending), 'created');
    name = freeNameFromTitle(ctx, rules, title);
  } else {
    throw new NotedError(
      'validation_error',
      'create_note needs a name (a path such as "inbox/idea") or a title to derive the name from.',
    );
  }
  const format = formatOf(ctx.vault);
  let text: string;
  if (input.template !== undefined) {
    const content = input.content === undefined ? '' : format.incoming(input.content);
    const filled = await textFromTemplate(
      ctx,
      rules,
      input.template,
      title ?? baseNameOf(name, ctx.vault.ending),
      content,
    );
    text = format.filledTemplate(filled);
  } else if (input.content !== undefined) {
    text = format.incoming(input.content);
  } else {
    throw new NotedError(
      'validation_error',
      'create_note needs content (the note\'s text, "" for an empty note) or a template to start from.',
    );
  }
  const titleField = title !== undefined && title !== baseNameOf(name, ctx.vault.ending) ? title : undefined;
  text = format.withCreateFields(text, {
    ...(titleField === undefined ? {} : { title: titleField }),
    ...(input.tags && input.tags.length > 0 ? { tags: input.tags } : {}),
  });
  return createWithText(ctx, rules, who, 'create_note', name, text);
}

/**
 * Creates the note `name` holding `text`, or stages its creation; `already_exists` when a note is
 * there (in any letter case). The one path every tool that creates a note takes.
 */
export async function createWithText(
  ctx: AccessContext,
  rules: Rules,
  who: Writer,
  tool: string,
  name: string,
  text: string,
): Promise<WriteResult | StagedResult> {
  checkSize(text);
  const access = writableAccess(rules, name, 'created');
  requireFree(ctx, rules, name);
  const written = await ctx.vault.withNoteLock(name, () => {
    requireFree(ctx, rules, name);
    if (access === 'staged') {
      requireNoPendingCreate(ctx, name);
      return stage(ctx, who, {
        tool,
        note: name,
        kind: 'create',
        baseEtag: null,
        baseText: null,
        newText: text,
      });
    }
    return recordThenMake(ctx, { ...who, tool, note: name, kind: 'create', before: null, after: text }, () =>
      ctx.vault.create(name, text, rules.writable),
    );
  });
  if (written !== null && 'staged' in written) return written;
  if (written === null) {
    throw new NotedError(
      'already_exists',
      `A note "${name}" was created by someone else a moment ago. Read it first.`,
      {
        name,
      },
    );
  }
  ctx.index.touched([name]);
  return { name, etag: written.etag, modified: iso(written.mtimeMs), created: true };
}

/** `Title`, then `Title 2`, `Title 3`… at the vault root, whichever is free. */
function freeNameFromTitle(ctx: AccessContext, rules: Rules, title: string): string {
  const base = titleToFileName(title);
  for (let n = 1; n < 10_000; n++) {
    const name = normalizeNoteName(n === 1 ? base : `${base} ${n}`, ctx.vault.ending);
    if (existingCaseVariant(ctx, rules, name) === null) return name;
  }
  throw new NotedError(
    'already_exists',
    `Too many notes are named "${base}". Give the note a name of its own.`,
  );
}

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
  const format = formatOf(ctx.vault);
  const addition = format.incoming(input.content);
  return writeExisting(
    ctx,
    rules,
    who,
    'update_note',
    name,
    { expectedEtag: input.expectedEtag },
    (stored) => {
      if (!input.append) return addition;
      requireLossless(stored);
      return format.appended(stored.text, addition);
    },
  );
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
export type EditResult = (WriteResult & EditReport) | StagedResult;

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
  return 'staged' in result ? result : { ...result, ...report };
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
  return result;
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
    const ms = Date.parse(expected.expectedModified);
    if (Number.isNaN(ms)) {
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

/**
 * A second staged creation of a name would wait beside the first, and approving one would leave the
 * other refused: the agent is told now, naming the change that waits. Called inside the note's lock,
 * which every server on the vault takes, so two cannot stage it at once.
 */
function requireNoPendingCreate(ctx: AccessContext, name: string): void {
  const lower = name.toLowerCase();
  const waiting = ctx.pending.list().find((p) => p.kind === 'create' && p.note.toLowerCase() === lower);
  if (waiting === undefined) return;
  throw new NotedError(
    'already_exists',
    `The creation of "${waiting.note}" already waits for the owner's review (pending change ${waiting.id}); nothing was staged. The note is not in the vault until they approve it. To propose other content, ask the owner to reject that change first, or choose another name.`,
    { name: waiting.note, pendingId: waiting.id },
  );
}

function checkSize(text: string): void {
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
