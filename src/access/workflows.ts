/**
 * @module
 * Writing agent-workflow notes through the gate (SPEC 7). The gate knows nothing of the workflow
 * format: the caller passes a function that computes the new text (and a value to report) from the
 * stored one, and the gate applies what every agent write gets — name checks, the policy (hidden =
 * missing, read-only refused), the per-note lock, the etag check, the journal and the atomic write.
 * Unlike other writes, workflow changes are refused in staged folders (SPEC 5.1): a state machine
 * whose steps wait for review would answer "advanced" for a step that has not happened.
 */
import { NotedError } from '../common/errors.js';
import { titleToFileName } from '../markdown/title.js';
import type { FormatName } from '../vault/format-name.js';
import { normalizeFolderName, normalizeNoteName } from '../vault/names.js';
import { type AccessContext, iso, MAX_NOTE_BYTES, type Writer } from './context.js';
import { idField } from './note-ids.js';
import { recordThenMake } from './recorded-write.js';
import { existingCaseVariant, notFound, requireFree, resolveExisting } from './resolve.js';
import { writableAccess } from './rules/permission.js';
import type { Rules } from './rules/rules.js';
import type { WriteResult } from './types.js';
import { replaceIfStill } from './write.js';

/** Who acts and when, stamped on every workflow change: the client's self-declared name and the time. */
export interface Stamp {
  readonly at: string;
  readonly actor: string;
}

/** A computed note text, and what the caller wants to report about it. */
export interface Computed<T> {
  readonly text: string;
  readonly value: T;
}

export interface GeneratedNote<T> {
  /** The tool asking, as the journal records it. */
  readonly tool: string;
  /** The new note's name; when absent, derived from `title` inside `folder`. */
  readonly name?: string;
  readonly title: string;
  readonly folder: string;
  /** `format` is the vault's: an HTML vault's workflow note is HTML (SPEC 11.3). */
  readonly build: (stamp: Stamp, format: FormatName) => Computed<T>;
}

export interface NoteRewrite<T> {
  readonly tool: string;
  readonly name: string;
  /** Required: a workflow step computed on a version the agent has not seen would be a lost update. */
  readonly expectedEtag: string;
  /** Computes the new text from the stored one; throws a `NotedError` to refuse (nothing is written). */
  readonly rewrite: (
    stored: { readonly name: string; readonly text: string },
    stamp: Stamp,
    format: FormatName,
  ) => Computed<T>;
}

export type Rewritten<T> = WriteResult & { readonly value: T };

export async function createGeneratedNote<T>(
  ctx: AccessContext,
  rules: Rules,
  who: Writer,
  input: GeneratedNote<T>,
): Promise<Rewritten<T>> {
  const explicit = input.name !== undefined && input.name.trim() !== '';
  const first = explicit
    ? normalizeNoteName(input.name as string, ctx.vault.ending)
    : candidateName(ctx, input.folder, input.title, 1);
  // The policy is asked before any probing for free names, so a hidden folder answers the same
  // whatever it holds.
  workflowAccess(rules, first, input.tool, 'created');
  const name = explicit ? first : freeName(ctx, rules, input.folder, input.title);
  requireFree(ctx, rules, name);
  const computed = input.build(stampOf(ctx, who), ctx.vault.format);
  checkSize(computed.text);
  const written = await ctx.vault.withNoteLock(name, () => {
    requireFree(ctx, rules, name);
    return recordThenMake(
      ctx,
      { ...who, tool: input.tool, note: name, kind: 'create', before: null, after: computed.text },
      () => ctx.vault.create(name, computed.text, rules.writable),
    );
  });
  if (written === null) {
    throw new NotedError(
      'already_exists',
      `A note "${name}" was created by someone else a moment ago. Choose another name.`,
      {
        name,
        committed: false,
      },
    );
  }
  ctx.index.touched([name]);
  return {
    name,
    ...idField(ctx, name),
    etag: written.etag,
    modified: iso(written.mtimeMs),
    created: true,
    value: computed.value,
  };
}

export async function rewriteGeneratedNote<T>(
  ctx: AccessContext,
  rules: Rules,
  who: Writer,
  input: NoteRewrite<T>,
): Promise<Rewritten<T>> {
  const name = resolveExisting(ctx, rules, input.name);
  workflowAccess(rules, name, input.tool, 'changed');
  const result = await ctx.vault.withNoteLock(name, (): Rewritten<T> => {
    const stored = ctx.vault.read(name, rules.sight);
    if (stored === null) throw notFound(name);
    if (input.expectedEtag !== stored.etag) {
      throw new NotedError(
        'conflict',
        `The note "${name}" changed since you read it (its etag is now ${stored.etag}). Nothing was written. Its current text is included: check the workflow's state in it, then call again with the new etag.`,
        { name, currentEtag: stored.etag, currentText: stored.text, committed: false },
      );
    }
    if (!stored.lossless) {
      throw new NotedError(
        'not_supported',
        `The note "${name}" contains bytes that are not valid UTF-8, so it cannot be rewritten without changing them. Nothing was written. Fix the file's encoding in an editor.`,
        { name, committed: false },
      );
    }
    const computed = input.rewrite({ name, text: stored.text }, stampOf(ctx, who), ctx.vault.format);
    checkSize(computed.text);
    if (computed.text === stored.text) {
      return {
        name,
        etag: stored.etag,
        modified: iso(stored.mtimeMs),
        changed: false,
        value: computed.value,
      };
    }
    // The journal entry is written first: if it cannot be, the note is not changed (SPEC 6.1).
    const written = recordThenMake(
      ctx,
      { ...who, tool: input.tool, note: name, kind: 'update', before: stored.bytes, after: computed.text },
      () => replaceIfStill(ctx, rules, name, computed.text, stored),
    );
    return { name, etag: written.etag, modified: iso(written.mtimeMs), changed: true, value: computed.value };
  });
  if (result.changed) ctx.index.touched([name]);
  return { ...result, ...idField(ctx, name) };
}

/** Read-write, or a refusal: read-only and hidden as for any write, staged with its own code. */
function workflowAccess(rules: Rules, name: string, tool: string, action: string): void {
  if (writableAccess(rules, name, action) === 'staged') {
    throw new NotedError(
      'staged',
      `"${name}" is in a folder where agents' changes wait for the owner's review, and ${tool} is not available there: a workflow step that waits for review has not happened. Nothing was written. Keep workflows in a folder agents may write to, or ask the vault's owner.`,
      { name, committed: false },
    );
  }
}

function stampOf(ctx: AccessContext, who: Writer): Stamp {
  return { at: ctx.now().toISOString(), actor: who.client ?? 'unnamed client' };
}

function candidateName(ctx: AccessContext, folder: string, title: string, n: number): string {
  const base = titleToFileName(title);
  const dir = normalizeFolderName(folder);
  const file = n === 1 ? base : `${base} ${n}`;
  return normalizeNoteName(dir === '' ? file : `${dir}/${file}`, ctx.vault.ending);
}

/** `Title`, then `Title 2`, `Title 3`… in the folder, whichever is free. */
function freeName(ctx: AccessContext, rules: Rules, folder: string, title: string): string {
  for (let n = 1; n < 10_000; n++) {
    const name = candidateName(ctx, folder, title, n);
    if (existingCaseVariant(ctx, rules, name) === null) return name;
  }
  throw new NotedError(
    'already_exists',
    `Too many notes are named after "${title}". Give the workflow a name of its own.`,
  );
}

function checkSize(text: string): void {
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > MAX_NOTE_BYTES) {
    throw new NotedError(
      'too_large',
      `The workflow note would be ${(bytes / 1048576).toFixed(1)} MB; a note may hold at most 5 MB. Start a new workflow note, or ask the vault's owner to archive the event log.`,
      { sizeBytes: bytes, maxBytes: MAX_NOTE_BYTES, committed: false },
    );
  }
}
