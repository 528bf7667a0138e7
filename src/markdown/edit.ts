/**
 * @module
 * edit_note's operations (SPEC 2.2) as a pure function: the changed span is rebuilt, every other byte
 * of the note is kept exactly as it was, and an edit that would break the frontmatter is refused.
 *
 * Whitespace rules (so that repeated edits stay tidy):
 * - Inserted text takes the note's line-break style (`\r\n` in a CRLF note); `content` loses leading
 *   blank lines and trailing whitespace.
 * - `append_to_section`: the section's trailing blank lines are dropped, then come one blank line,
 *   `content` and a line break; one blank line separates it from a following heading. An empty section
 *   gets a blank line after its heading too.
 * - `replace_section`: the blank lines that stood between the heading and the old text stay (one blank
 *   line when the section was empty); then `content` and a line break; one blank line before a
 *   following heading. Empty `content` leaves only that one blank line before a following heading.
 * - `prepend` and `prepend_to_section`: blank lines already at the top of the body (or under the
 *   heading) stay where they are; then `content`, a line break, and one blank line before the text
 *   that was there. An empty section is treated as by `append_to_section`.
 *
 * The frontmatter operations (`set_properties`, `add_tags`, `remove_tags`) are properties/edit.ts and
 * tags-edit.ts; `update_task` is task-edit.ts; `add_block_id` is block-id.ts.
 */

import { NotedError } from '../common/errors.js';
import { addBlockId } from './block-id.js';
import { parseFrontmatter, splitFrontmatter } from './frontmatter/frontmatter.js';
import type { PropertyChanges } from './properties/edit.js';
import { setProperties } from './properties/edit.js';
import type { TypeAssignments } from './properties/properties.js';
import { findSection, type Section } from './sections.js';
import { addTags, type InlineTag, inlineTagsLeft, removeTags } from './tags-edit.js';
import { type TaskChange, type TaskState, updateTask } from './task-edit.js';

export type EditOperation =
  | { kind: 'replace'; oldText: string; newText: string; replaceAll?: boolean }
  | { kind: 'replace_section'; heading: string; content: string; occurrence?: number; whole?: boolean }
  | { kind: 'append_to_section'; heading: string; content: string; occurrence?: number; whole?: boolean }
  | { kind: 'prepend'; content: string }
  | { kind: 'prepend_to_section'; heading: string; content: string; occurrence?: number }
  | { kind: 'set_properties'; properties: PropertyChanges }
  | { kind: 'add_tags'; tags: readonly string[] }
  | { kind: 'remove_tags'; tags: readonly string[] }
  | { kind: 'update_task'; line: number; change: TaskChange }
  | { kind: 'add_block_id'; line: number; id?: string };

/** What an edit needs from the vault besides the note: the property types Obsidian assigns. */
export interface EditContext {
  readonly propertyTypes?: TypeAssignments | null;
}

/** What an edit reports besides the new text. */
export interface EditReport {
  /** remove_tags: inline `#tags` of the removed tags (or nested below them) left in the body. */
  readonly inlineLeft?: InlineTag[];
  /** How many such inline tags there are, when more than `inlineLeft` names. */
  readonly inlineLeftTotal?: number;
  /** update_task: the task as it reads after the change. */
  readonly task?: TaskState;
  /** add_block_id: the id given to the block (without `^`) and the line it is written on. */
  readonly blockId?: string;
  readonly blockIdLine?: number;
}

type LineBreak = '\n' | '\r\n';

/**
 * Applies one edit to a note's full text and returns the new text.
 *
 * @example
 * applyEdit('# A\n\nx\n', { kind: 'append_to_section', heading: 'A', content: 'y' }) // '# A\n\nx\n\ny\n'
 * @throws NotedError `validation_error` or `ambiguous`; nothing is changed then.
 */
export function applyEdit(text: string, op: EditOperation, context: EditContext = {}): string {
  return applyEditWithReport(text, op, context).text;
}

/** {@link applyEdit}, with what the operation reports besides the text. */
export function applyEditWithReport(
  text: string,
  op: EditOperation,
  context: EditContext = {},
): { text: string; report: EditReport } {
  let next: string;
  let report: EditReport = {};
  switch (op.kind) {
    case 'replace':
      next = replaceText(text, op.oldText, op.newText, op.replaceAll ?? false);
      break;
    case 'replace_section':
      next = replaceSection(text, findSection(text, op.heading, op.occurrence), op.content, op.whole);
      break;
    case 'append_to_section':
      next = appendToSection(text, findSection(text, op.heading, op.occurrence), op.content, op.whole);
      break;
    case 'prepend':
      next = prependToBody(text, op.content);
      break;
    case 'prepend_to_section':
      next = prependToSection(text, findSection(text, op.heading, op.occurrence), op.content);
      break;
    case 'set_properties':
      next = setProperties(text, op.properties, context.propertyTypes ?? null);
      break;
    case 'add_tags':
      next = addTags(text, op.tags);
      break;
    case 'remove_tags': {
      next = removeTags(text, op.tags);
      const left = inlineTagsLeft(next, op.tags);
      report = {
        inlineLeft: left.tags,
        ...(left.total > left.tags.length ? { inlineLeftTotal: left.total } : {}),
      };
      break;
    }
    case 'update_task': {
      const updated = updateTask(text, op.line, op.change);
      next = updated.text;
      report = { task: updated.task };
      break;
    }
    case 'add_block_id': {
      const added = addBlockId(text, op.line, op.id);
      next = added.text;
      report = { blockId: added.id, blockIdLine: added.line };
      break;
    }
    default:
      throw new Error(`unknown edit operation: ${JSON.stringify(op satisfies never)}`);
  }
  guardFrontmatter(text, next);
  return { text: next, report };
}

function replaceText(text: string, oldText: string, newText: string, replaceAll: boolean): string {
  if (oldText === '') {
    throw new NotedError(
      'validation_error',
      'old_text is empty. Give the exact text to replace, copied from the note (read it first if needed).',
    );
  }
  const positions = findAll(text, oldText);
  if (positions.length === 0) {
    const crlfHint =
      text.includes('\r\n') &&
      !oldText.includes('\r\n') &&
      findAll(text, oldText.replace(/\n/g, '\r\n')).length > 0
        ? ' The note uses Windows line breaks (\\r\\n) and old_text has \\n line breaks; send old_text with \\r\\n.'
        : '';
    throw new NotedError(
      'validation_error',
      `old_text was not found in the note. It must match exactly, including case, spaces and line breaks.${crlfHint} Read the note again and copy the text to replace from it.`,
    );
  }
  if (positions.length > 1 && !replaceAll) {
    throw new NotedError(
      'ambiguous',
      `old_text matches ${positions.length} places in the note. Add surrounding text to old_text so it matches exactly one place, or set replace_all to replace all ${positions.length}.`,
      { matches: positions.length },
    );
  }
  const replacement = withLineBreaks(newText, lineBreakOf(text));
  const parts: string[] = [];
  let from = 0;
  for (const at of positions) {
    parts.push(text.slice(from, at), replacement);
    from = at + oldText.length;
  }
  parts.push(text.slice(from));
  return parts.join('');
}

/** Non-overlapping occurrences, left to right. */
function findAll(text: string, needle: string): number[] {
  const out: number[] = [];
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + needle.length)) out.push(at);
  return out;
}

function replaceSection(text: string, section: Section, content: string, whole = false): string {
  const eol = lineBreakOf(text) ?? '\n';
  const start = section.heading.contentStart;
  const end = whole ? section.end : section.ownEnd;
  const old = text.slice(start, end);
  const body = tidyContent(content, eol);
  const beforeHeading = end < text.length;
  let span: string;
  if (body === '') {
    span = beforeHeading ? eol : '';
  } else {
    const firstText = old.search(/\S/);
    const leadingBlank = firstText === -1 ? eol : old.slice(0, old.lastIndexOf('\n', firstText) + 1);
    span = leadingBlank + body + eol + (beforeHeading ? eol : '');
  }
  return text.slice(0, start) + headingBreak(text, start, eol) + span + text.slice(end);
}

function appendToSection(text: string, section: Section, content: string, whole = false): string {
  const eol = lineBreakOf(text) ?? '\n';
  const body = tidyContent(content, eol);
  if (body === '') {
    throw new NotedError(
      'validation_error',
      'content is empty, so there is nothing to append. Give the text to add under the heading.',
    );
  }
  const start = section.heading.contentStart;
  const end = whole ? section.end : section.ownEnd;
  const old = text.slice(start, end);
  const kept = keepThroughLastText(old, eol);
  const span = kept + eol + body + eol + (end < text.length ? eol : '');
  return text.slice(0, start) + headingBreak(text, start, eol) + span + text.slice(end);
}

/** `content` after the frontmatter (after a BOM when there is none), before the body's text. */
function prependToBody(text: string, content: string): string {
  const eol = lineBreakOf(text) ?? '\n';
  const body = contentToInsert(content, eol, 'prepend');
  const before = splitFrontmatter(text);
  const start = before.raw !== '' ? before.raw.length : text.charCodeAt(0) === 0xfeff ? 1 : 0;
  // A note that ends right after the closing `---` needs a line break before the new text.
  const blockBreak = before.raw !== '' && !before.raw.endsWith('\n') ? eol : '';
  const rest = text.slice(start);
  const lead = leadingBlankLines(rest);
  const after = rest.slice(lead.length);
  const next = `${text.slice(0, start)}${blockBreak}${lead}${body}${eol}${after === '' ? '' : eol}${after}`;
  if (splitFrontmatter(next).yaml !== before.yaml) {
    throw new NotedError(
      'validation_error',
      "content begins with a --- line that would be read as the start of the note's frontmatter, so nothing was written. Start content with something else (or use set_properties for properties).",
    );
  }
  return next;
}

/** `content` right after the heading line, before the section's own text. */
function prependToSection(text: string, section: Section, content: string): string {
  const eol = lineBreakOf(text) ?? '\n';
  const body = contentToInsert(content, eol, 'prepend_to_section');
  const start = section.heading.contentStart;
  const old = text.slice(start, section.ownEnd);
  if (old.trim() === '') return appendToSection(text, section, content);
  const lead = leadingBlankLines(old);
  return (
    text.slice(0, start) +
    headingBreak(text, start, eol) +
    lead +
    body +
    eol +
    eol +
    old.slice(lead.length) +
    text.slice(section.ownEnd)
  );
}

function contentToInsert(content: string, eol: LineBreak, operation: string): string {
  const body = tidyContent(content, eol);
  if (body === '') {
    throw new NotedError(
      'validation_error',
      `content is empty, so there is nothing to ${operation.replaceAll('_', ' ')}. Give the text to add.`,
    );
  }
  return body;
}

function leadingBlankLines(text: string): string {
  return /^(?:[ \t]*\r?\n)*/.exec(text)?.[0] ?? '';
}

/** The part of a section's text up to and including its last non-blank line (and that line's break). */
function keepThroughLastText(old: string, eol: LineBreak): string {
  let lastText = old.length - 1;
  while (lastText >= 0 && /\s/.test(old[lastText]!)) lastText--;
  if (lastText === -1) return '';
  const lineEnd = old.indexOf('\n', lastText);
  return lineEnd === -1 ? old + eol : old.slice(0, lineEnd + 1);
}

/** A heading on the last line of a note has no line break yet; text after it needs one. */
function headingBreak(text: string, contentStart: number, eol: LineBreak): string {
  return contentStart === text.length && !text.endsWith('\n') ? eol : '';
}

function tidyContent(content: string, eol: LineBreak): string {
  const normalized = content.replace(/\r\n?/g, '\n');
  const withoutLeadingBlank = normalized.replace(/^(?:[ \t]*\n)+/, '');
  return withLineBreaks(withoutLeadingBlank.trimEnd(), eol);
}

/** The note's line-break style, taken from its first line break; null for a single-line note. */
function lineBreakOf(text: string): LineBreak | null {
  const nl = text.indexOf('\n');
  if (nl === -1) return null;
  return nl > 0 && text[nl - 1] === '\r' ? '\r\n' : '\n';
}

function withLineBreaks(value: string, eol: LineBreak | null): string {
  if (eol === null) return value;
  return value.replace(/\r?\n/g, eol);
}

/** Refuses an edit that leaves unparseable frontmatter, unless it was already broken before. */
function guardFrontmatter(before: string, after: string): void {
  const next = parseFrontmatter(after);
  if (next.error === undefined) return;
  const previous = parseFrontmatter(before);
  if (previous.error !== undefined) return;
  throw new NotedError(
    'validation_error',
    `This edit would make the note's frontmatter unparseable (${next.error}), so nothing was written. Change the edit so the YAML between the --- lines stays valid.`,
    { frontmatterError: next.error },
  );
}
