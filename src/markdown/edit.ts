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
 */

import { NotedError } from '../common/errors.js';
import { parseFrontmatter } from './frontmatter.js';
import { findSection, type Section } from './sections.js';

export type EditOperation =
  | { kind: 'replace'; oldText: string; newText: string; replaceAll?: boolean }
  | { kind: 'replace_section'; heading: string; content: string; occurrence?: number; whole?: boolean }
  | { kind: 'append_to_section'; heading: string; content: string; occurrence?: number; whole?: boolean };

type LineBreak = '\n' | '\r\n';

/**
 * Applies one edit to a note's full text and returns the new text.
 *
 * @example
 * applyEdit('# A\n\nx\n', { kind: 'append_to_section', heading: 'A', content: 'y' }) // '# A\n\nx\n\ny\n'
 * @throws NotedError `validation_error` or `ambiguous`; nothing is changed then.
 */
export function applyEdit(text: string, op: EditOperation): string {
  let next: string;
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
    default:
      throw new Error(`unknown edit operation: ${JSON.stringify(op satisfies never)}`);
  }
  guardFrontmatter(text, next);
  return next;
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
