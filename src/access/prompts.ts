/**
 * @module
 * The vault's prompt notes through the gate (SPEC 9.1): the notes in `prompts/` that agents may see,
 * a cheap fingerprint of them for change detection, and the text of a note a prompt is applied to.
 *
 * Why a walk of `prompts/` and not the index: the folder is small, a walk sees a change at once
 * (the index may catch up a moment later), and a fingerprint from file stats costs no reads, so it
 * can be taken on every prompts request and on a timer without touching the index.
 */
import { createHash } from 'node:crypto';
import { isNotedError, NotedError } from '../common/errors.js';
import { jsonFits, MESSAGE_LIMIT } from '../common/json-size.js';
import { formatOf } from '../format/formats.js';
import { fileTitle } from '../markdown/title.js';
import { isVisible } from '../policy/access.js';
import { type FileEntry, walkVault } from '../vault/walk.js';
import { type AccessContext, MAX_NOTE_BYTES } from './context.js';
import { localDay } from './daily/calendar.js';
import { notFound, resolveExisting } from './resolve.js';
import type { Rules } from './rules/rules.js';

/** The folder whose notes are prompts. Sub-folders are included. */
export const PROMPTS_FOLDER = 'prompts';

export interface PromptNote {
  /** Canonical note name, e.g. `prompts/Summarize.md`. */
  readonly name: string;
  /** Its text; an HTML note's plain text (SPEC 11.2), which is what a prompt can use. */
  readonly text: string;
  /** The file name without folder and note ending, e.g. `Summarize`. */
  readonly fileTitle: string;
}

/** A note as a prompt sees it: Markdown as stored, an HTML note as its plain text. */
function promptNote(ctx: AccessContext, name: string, text: string): PromptNote {
  const view = formatOf(ctx.vault).view(text);
  return { name, text: view.plainText ?? text, fileTitle: fileTitle(name, ctx.vault.ending) };
}

export interface PromptNotes {
  /** Sorted by name (code-unit order), so names derived from them are deterministic. */
  readonly notes: PromptNote[];
  readonly fingerprint: string;
  /** The server's local date, `YYYY-MM-DD`, for `{{date}}`. */
  readonly today: string;
}

/** Prompt files agents may see, judged at their real location, sorted by name. */
function visibleFiles(ctx: AccessContext, rules: Rules): FileEntry[] {
  const walked = walkVault(ctx.vault.root, ctx.vault.ending, PROMPTS_FOLDER);
  return walked.notes
    .filter((f) => isVisible(rules.policy, walked.linked.get(f.name) ?? f.name))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** Changes when a visible prompt note is added, removed or changed, or the policy shows or hides one. */
export function promptFingerprint(ctx: AccessContext, rules: Rules): string {
  return fingerprintOf(visibleFiles(ctx, rules));
}

function fingerprintOf(files: readonly FileEntry[]): string {
  const hash = createHash('sha256');
  for (const f of files) hash.update(`${f.name}\0${f.size}\0${f.mtimeMs}\0${f.ino}\n`);
  return hash.digest('hex');
}

/**
 * Every visible prompt note with its text. A note that vanished meanwhile, or that the server may not
 * read (permissions, a link that leaves the vault), is left out: one bad file must not take every
 * prompt away.
 */
export function promptNotes(ctx: AccessContext, rules: Rules): PromptNotes {
  const files = visibleFiles(ctx, rules);
  const notes: PromptNote[] = [];
  for (const f of files) {
    let stored: ReturnType<typeof ctx.vault.read>;
    try {
      stored = ctx.vault.read(f.name, rules.sight);
    } catch (err) {
      if (isNotedError(err)) continue;
      throw err;
    }
    if (stored !== null) notes.push(promptNote(ctx, f.name, stored.text));
  }
  return { notes, fingerprint: fingerprintOf(files), today: localDay(ctx.now()) };
}

/**
 * The text of the note a prompt is applied to (`{{note}}`), found as read_note finds it: a hidden
 * note answers exactly like a missing one.
 */
export function noteText(ctx: AccessContext, rules: Rules, input: string): PromptNote {
  const name = resolveExisting(ctx, rules, input);
  const stored = ctx.vault.read(name, rules.sight);
  if (stored === null) throw notFound(name);
  if (stored.size > MAX_NOTE_BYTES) {
    throw new NotedError(
      'too_large',
      `The note "${name}" is ${(stored.size / 1048576).toFixed(1)} MB; a prompt takes a note of at most 5 MB. Pass a selection instead.`,
      { name, sizeBytes: stored.size, maxBytes: MAX_NOTE_BYTES },
    );
  }
  // The size on disk is not the size of the message: a control character travels as six bytes.
  if (!jsonFits(stored.text, MESSAGE_LIMIT / 2)) {
    throw new NotedError(
      'too_large',
      `The note "${name}" is ${(stored.size / 1048576).toFixed(1)} MB on disk but too large for one message once sent (it holds many control characters, which travel escaped). Pass a selection instead.`,
      { name, sizeBytes: stored.size },
    );
  }
  return promptNote(ctx, name, stored.text);
}
