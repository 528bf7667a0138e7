/**
 * @module
 * A note's title (SPEC 2.3) and the file name create_note derives from a title (SPEC 2, create_note).
 */

import { NotedError } from '../common/errors.js';
import { type NoteEnding, withoutEnding } from '../common/note-ending.js';
import type { JsonValue } from './frontmatter/frontmatter.js';
import { findHeadings } from './headings.js';

/** Room for a ` 99` suffix and the note ending within the 255-byte segment limit (SPEC 1.3). */
const MAX_FILE_NAME_BYTES = 200;

/**
 * The title of a note: the frontmatter `title` (a non-empty string, or a number), else the text of the
 * first level-1 heading, else the file name without its folder and its note ending. The `title` key is matched
 * exactly first, then case-insensitively (Obsidian treats property names case-insensitively, PROP-14).
 *
 * @example
 * noteTitle('inbox/My idea.md', null, 'no heading here', '.md') // 'My idea'
 */
export function noteTitle(
  name: string,
  frontmatter: Record<string, JsonValue> | null,
  text: string,
  ending: NoteEnding,
): string {
  const fromProperty = frontmatter ? titleProperty(frontmatter) : null;
  if (fromProperty !== null) return fromProperty;
  const h1 = findHeadings(text).find((h) => h.level === 1 && h.text !== '');
  if (h1) return h1.text;
  return fileTitle(name, ending);
}

/** The file name without its folder and note ending: the title of a note that names none. */
export function fileTitle(name: string, ending: NoteEnding): string {
  return withoutEnding(name.slice(name.lastIndexOf('/') + 1), ending);
}

function titleProperty(frontmatter: Record<string, JsonValue>): string | null {
  const key = Object.hasOwn(frontmatter, 'title')
    ? 'title'
    : Object.keys(frontmatter).find((k) => k.toLowerCase() === 'title');
  if (key === undefined) return null;
  const value = frontmatter[key];
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'string' && value.trim() !== '') return value.trim();
  return null;
}

// Characters Obsidian refuses in file names and link syntax, plus C0/C1 controls and lone surrogates.
const FORBIDDEN = /[\\/:*?"<>|#^[\]\p{Cc}\p{Cs}]/gu;

/**
 * The file name (without `.md`) create_note uses for a title: the characters `\ / : * ? " < > | # ^ [ ]`
 * and control characters are removed, whitespace runs become one space, the ends are trimmed and
 * leading dots are dropped (a leading dot would hide the note). The result is cut to 200 UTF-8 bytes
 * at a character (grapheme) boundary.
 *
 * @example
 * titleToFileName('  Q3: plan / #draft ') // 'Q3 plan draft'
 * @throws NotedError `validation_error` when nothing usable is left.
 */
export function titleToFileName(title: string): string {
  const cleaned = title
    .replace(/\s+/g, ' ')
    .replace(FORBIDDEN, '')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^[.\s]+/, '');
  const name = truncateUtf8(cleaned, MAX_FILE_NAME_BYTES).trimEnd();
  if (name === '') {
    throw new NotedError(
      'validation_error',
      `The title ${JSON.stringify(title)} leaves no usable file name: the characters \\ / : * ? " < > | # ^ [ ] and control characters are removed, and so are leading dots. Give a title with letters or digits, or pass name explicitly.`,
      { title },
    );
  }
  return name;
}

/** Cuts at a grapheme boundary; code points are the fallback when a single grapheme is too large. */
function truncateUtf8(text: string, maxBytes: number): string {
  if (utf8Length(text) <= maxBytes) return text;
  const graphemes = [...new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(text)].map(
    (s) => s.segment,
  );
  const byGrapheme = takeWithin(graphemes, maxBytes);
  return byGrapheme !== '' ? byGrapheme : takeWithin([...text], maxBytes);
}

function takeWithin(pieces: readonly string[], maxBytes: number): string {
  let out = '';
  let bytes = 0;
  for (const piece of pieces) {
    const size = utf8Length(piece);
    if (bytes + size > maxBytes) break;
    out += piece;
    bytes += size;
  }
  return out;
}

function utf8Length(text: string): number {
  let bytes = 0;
  for (const char of text) {
    const cp = char.codePointAt(0) ?? 0;
    bytes += cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
  }
  return bytes;
}
