/**
 * @module
 * Creating a note through the gate: from a name or a title, a template or content, and the one path
 * every tool that creates a note takes (createWithText): the policy, a free name, the note's lock,
 * then the journaled write, or the creation staged for review.
 */
import { NotedError } from '../common/errors.js';
import { formatOf } from '../format/formats.js';
import { titleToFileName } from '../markdown/title.js';
import { baseNameOf, normalizeNoteName } from '../vault/names.js';
import { baseFileName, checkBaseText } from './bases/base-files.js';
import { type AccessContext, iso, type Writer } from './context.js';
import { textFromTemplate } from './daily/templates.js';
import { idField } from './note-ids.js';
import { recordThenMake } from './recorded-write.js';
import { existingCaseVariant, requireFree } from './resolve.js';
import { stage, writableAccess } from './rules/permission.js';
import type { Rules } from './rules/rules.js';
import type { StagedResult, WriteResult } from './types.js';
import { checkSize } from './write.js';

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
  const baseFile = input.name === undefined ? null : baseFileName(input.name);
  if (baseFile !== null) return createBaseFile(ctx, rules, who, baseFile, input);
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
  return { name, ...idField(ctx, name), etag: written.etag, modified: iso(written.mtimeMs), created: true };
}

/** A `.base` file (SPEC 16.3): its text as given, refused unless it parses. */
function createBaseFile(
  ctx: AccessContext,
  rules: Rules,
  who: Writer,
  name: string,
  input: CreateInput,
): Promise<WriteResult | StagedResult> {
  if (input.template !== undefined || (input.tags !== undefined && input.tags.length > 0)) {
    throw new NotedError(
      'validation_error',
      `"${name}" is a base (YAML), not a note: give its text as content, without template or tags.`,
    );
  }
  if (input.content === undefined) {
    throw new NotedError('validation_error', `create_note needs the base's YAML as content for "${name}".`);
  }
  checkBaseText(name, input.content);
  return createWithText(ctx, rules, who, 'create_note', name, input.content);
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
