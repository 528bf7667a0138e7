/**
 * @module
 * Heading sections as heading links read them (OBSIDIAN.md HDG-05 #1): a section runs from its
 * heading to the next heading of the same or a higher level, or to the end of the note. Also the
 * heading selectors of edit_note (`Risks`, `## Risks`) and how they pick one heading.
 */

import { NotedError } from '../common/errors.js';
import { findHeadings, type Heading } from './headings.js';

export interface Section {
  heading: Heading;
  /** Offset where the section's own text ends: its first sub-heading, or `end`. */
  ownEnd: number;
  /** Offset where the section ends: the next heading of level ≤ its own, or the end of the text. */
  end: number;
}

export interface HeadingSelector {
  /** Required level, or null for any level. */
  level: number | null;
  text: string;
}

/** Caps the heading list an error carries, so a huge note cannot blow up an error result. */
const MAX_LISTED_HEADINGS = 100;

/**
 * Reads `Risks` (any level) or `## Risks` (level 2 only). A closing `#` run is removed as in a heading.
 *
 * @example
 * parseHeadingSelector('## Risks') // { level: 2, text: 'Risks' }
 */
export function parseHeadingSelector(selector: string): HeadingSelector {
  const trimmed = selector.trim();
  const m = /^(#{1,6})[ \t]+(.*)$/.exec(trimmed);
  if (!m) return { level: null, text: trimmed };
  return { level: m[1]?.length ?? null, text: (m[2] ?? '').replace(/[ \t]+#+[ \t]*$/, '').trim() };
}

/**
 * Obsidian's `stripHeading` (LNK-40): punctuation and line breaks become spaces, whitespace runs
 * collapse, and the ends are trimmed. Callers lower-case both sides before comparing.
 */
export function stripHeading(text: string): string {
  return text
    .replace(/[!"#$%&()*+,.:;<=>?@^`{|}~/[\]\\\r\n]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** How a heading is shown to a model: `## Risks`. */
export function formatHeading(heading: Pick<Heading, 'level' | 'text'>): string {
  return `${'#'.repeat(heading.level)} ${heading.text}`;
}

/** The sections of all headings, in document order. */
export function sectionsOf(headings: readonly Heading[], textLength: number): Section[] {
  return headings.map((heading, i) => {
    let end = textLength;
    for (let j = i + 1; j < headings.length; j++) {
      const next = headings[j]!;
      if (next.level <= heading.level) {
        end = next.start;
        break;
      }
    }
    const following = headings[i + 1];
    const ownEnd = following && following.start < end ? following.start : end;
    return { heading, ownEnd, end };
  });
}

/**
 * Picks the one section a selector means. Exact (trimmed) text wins; only when no heading matches
 * exactly are headings compared case-insensitively after `stripHeading`.
 *
 * @throws NotedError `validation_error` when the selector is empty, nothing matches (with
 *   `details.headings`), or `occurrence` is out of range; `ambiguous` when several headings match and
 *   no `occurrence` was given (with `details.candidates`).
 */
export function findSection(text: string, selector: string, occurrence?: number): Section {
  const wanted = parseHeadingSelector(selector);
  if (wanted.text === '') {
    throw new NotedError(
      'validation_error',
      'The heading is empty. Give the heading text, like "Risks" (any level) or "## Risks" (level 2 only).',
    );
  }
  const headings = findHeadings(text);
  const sections = sectionsOf(headings, text.length);
  const levelOk = (s: Section) => wanted.level === null || s.heading.level === wanted.level;
  let matches = sections.filter((s) => levelOk(s) && s.heading.text === wanted.text);
  if (matches.length === 0) {
    const loose = stripHeading(wanted.text).toLowerCase();
    matches = sections.filter((s) => levelOk(s) && stripHeading(s.heading.text).toLowerCase() === loose);
  }
  if (matches.length === 0) throw headingNotFound(selector, headings);

  if (occurrence !== undefined) {
    if (!Number.isInteger(occurrence) || occurrence < 1 || occurrence > matches.length) {
      throw new NotedError(
        'validation_error',
        `occurrence ${occurrence} is out of range: ${matches.length} heading${matches.length === 1 ? '' : 's'} match "${selector.trim()}", so occurrence must be a whole number from 1 to ${matches.length}.`,
        { matches: matches.length, candidates: candidatesOf(matches) },
      );
    }
    return matches[occurrence - 1]!;
  }
  if (matches.length > 1) {
    throw new NotedError(
      'ambiguous',
      `${matches.length} headings match "${selector.trim()}" (at lines ${matches.map((s) => s.heading.line + 1).join(', ')}). Set occurrence (1 = the first in the note) to pick one, or use a heading with its level (like "## Risks") if that makes it unique.`,
      { candidates: candidatesOf(matches) },
    );
  }
  return matches[0]!;
}

function candidatesOf(matches: readonly Section[]) {
  return matches.map(({ heading }) => ({
    heading: formatHeading(heading),
    level: heading.level,
    line: heading.line + 1,
  }));
}

function headingNotFound(selector: string, headings: readonly Heading[]): NotedError {
  const listed = headings.slice(0, MAX_LISTED_HEADINGS).map(formatHeading);
  const more = headings.length > listed.length ? ` (and ${headings.length - listed.length} more)` : '';
  const hint =
    headings.length === 0
      ? 'The note has no headings; add one first (for example with update_note or a replace edit).'
      : `The note's headings are: ${listed.join(', ')}${more}. Use one of them (for example "${listed[0]}"), or add the heading first.`;
  return new NotedError('validation_error', `No heading matches "${selector.trim()}". ${hint}`, {
    headings: listed,
    ...(more ? { headingCount: headings.length } : {}),
  });
}
