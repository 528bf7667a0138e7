/**
 * @module
 * Reading through the gate: listing, and one note (paged when large, or one part of it).
 */
import { NotedError } from '../common/errors.js';
import { formatOf } from '../format/formats.js';
import { listNotes as listRows } from '../index/queries/notes.js';
import { findBlock, lineRange, outlineOf } from '../markdown/outline.js';
import { findSection, formatHeading } from '../markdown/sections.js';
import { normalizeFolderName } from '../vault/names.js';
import { type AccessContext, iso } from './context.js';
import { type DateRangeInput, dateRange } from './date-range.js';
import { idField } from './note-ids.js';
import { obsidianUri } from './obsidian-uri.js';
import { notFound, resolveExisting } from './resolve.js';
import type { Rules } from './rules/rules.js';
import { visibleOption } from './rules/scope.js';
import type { NoteContent, NoteListPage } from './types.js';

export function listNotes(
  ctx: AccessContext,
  rules: Rules,
  options: { folder?: string; limit?: number; cursor?: string } & DateRangeInput,
): NoteListPage {
  const folder = options.folder === undefined ? '' : normalizeFolderName(options.folder);
  const range = dateRange(options);
  ctx.index.refresh();
  const page = listRows(ctx.index.db, {
    folderLower: folder.toLowerCase(),
    limit: options.limit ?? 50,
    range,
    ...visibleOption(rules),
    ...(options.cursor === undefined ? {} : { cursor: options.cursor }),
  });
  return {
    notes: page.rows.map((r) => ({
      name: r.path,
      ...idField(ctx, r.path),
      title: r.title,
      modified: iso(r.mtime_ms),
      sizeBytes: r.size,
      words: r.words,
      created: iso(r.created_ms),
      uri: obsidianUri(ctx.vault.root, r.path),
    })),
    more: page.nextCursor !== undefined,
    ...(page.nextCursor === undefined ? {} : { nextCursor: page.nextCursor }),
  };
}

/** What read_note says about a note whose bytes are not valid UTF-8 (see `StoredNote.lossless`). */
export const NOT_UTF8 =
  'The file holds bytes that are not valid UTF-8 (binary data or another encoding); they are shown as \uFFFD, so this text is not exactly what is stored. edit_note and appending are refused for it; update_note would replace the whole file with the text you send.';

/** Body characters in one read_note page unless the caller asks for fewer. */
export const READ_PAGE_CHARS = 1_000_000;

/**
 * A page also ends before its text takes this many bytes as sent: UTF-8, JSON-escaped (a control
 * character is six bytes, `\u0001`). The text travels twice (the text block and structuredContent),
 * so a page stays well under the 8 MB a result may carry, whatever its characters (SPEC 17.7).
 */
export const READ_PAGE_BYTES = 2 * 1024 * 1024;

/** Which part of a note read_note returns instead of the whole (SPEC 12.3). */
export interface NotePart {
  /** A heading, as edit_note takes it (`Risks` or `## Risks`); its sub-sections come along. */
  readonly section?: string;
  /** Which of several equal headings (1 = the first). */
  readonly occurrence?: number;
  /** A block id, with or without `^`. */
  readonly block?: string;
}

export function readNote(
  ctx: AccessContext,
  rules: Rules,
  input: string,
  options: { offset?: number; maxChars?: number } & NotePart = {},
): NoteContent {
  const name = resolveExisting(ctx, rules, input);
  const stored = ctx.vault.read(name, rules.sight);
  if (stored === null) throw notFound(name);
  const format = formatOf(ctx.vault);
  const fm = format.view(stored.text);
  if (options.section !== undefined || options.block !== undefined) {
    const why = format.unsupportedEdit('read_part');
    if (why !== null) throw new NotedError('not_supported', `read_note cannot return a part here: ${why}.`);
  }
  const part = partOf(stored.text, options);
  const page = textPage(part === null ? fm.body : part.text, options, part === null ? 'body' : 'part');
  return {
    schemaVersion: 2,
    name,
    ...idField(ctx, name),
    format: format.name,
    frontmatter: fm.frontmatter,
    // A part is not the note: no raw block that could be put back together with it into a "whole" note.
    frontmatterRaw: part === null ? fm.frontmatterRaw : '',
    ...(fm.frontmatterError === undefined ? {} : { frontmatterError: fm.frontmatterError }),
    ...(stored.lossless ? {} : { encodingError: NOT_UTF8 }),
    body: page.text,
    // SPEC 11.2: an HTML note's text first, when the whole note is read at once.
    ...(part !== null || 'offset' in page.paging || fm.plainText === undefined
      ? {}
      : { plainText: fm.plainText }),
    etag: stored.etag,
    uri: obsidianUri(ctx.vault.root, name),
    modified: iso(stored.mtimeMs),
    sizeBytes: stored.size,
    ...(part === null ? {} : { partial: true as const, lines: part.lines, ...part.what }),
    ...page.paging,
  };
}

/** One page of a long text: the whole text, or `maxChars` characters from `offset` and where to go on. */
export interface TextPage {
  readonly text: string;
  /** Present only for a page that is not the whole text. */
  readonly paging:
    | { truncated: boolean; offset: number; totalChars: number; nextOffset?: number }
    | Record<string, never>;
}

/**
 * The page of `text` that `offset` and `maxChars` ask for (at most READ_PAGE_CHARS characters and
 * READ_PAGE_BYTES bytes as sent), never cutting a surrogate pair in two. `what` names the text in the error for an offset past its end.
 */
export function textPage(
  text: string,
  options: { offset?: number; maxChars?: number },
  what: string,
): TextPage {
  const offset = options.offset ?? 0;
  const maxChars = Math.min(options.maxChars ?? READ_PAGE_CHARS, READ_PAGE_CHARS);
  if (offset > text.length) {
    throw new NotedError(
      'validation_error',
      `offset ${offset} is past the end of the ${what} (${text.length} characters). Start at 0 or at the nextOffset of the previous page.`,
    );
  }
  let end = byteBoundedEnd(text, offset, Math.min(text.length, offset + maxChars), READ_PAGE_BYTES);
  if (end < text.length && isHighSurrogate(text.charCodeAt(end - 1))) end += end - 1 > offset ? -1 : 1;
  if (offset === 0 && end === text.length) return { text, paging: {} };
  return {
    text: text.slice(offset, end),
    paging: {
      truncated: end < text.length,
      offset,
      totalChars: text.length,
      ...(end < text.length ? { nextOffset: end } : {}),
    },
  };
}

/**
 * Where a page from `start` ends so that it takes at most `budget` bytes as sent (UTF-8, JSON-escaped),
 * and at most `limit`; at least one character, so a page always moves on.
 */
export function byteBoundedEnd(text: string, start: number, limit: number, budget: number): number {
  let used = 0;
  for (let i = start; i < limit; i++) {
    used += encodedBytes(text.charCodeAt(i));
    if (used > budget) return Math.max(i, start + 1);
  }
  return limit;
}

/** Bytes one UTF-16 unit takes in a JSON string sent as UTF-8 (a surrogate: half of a 4-byte pair). */
function encodedBytes(unit: number): number {
  if (unit < 0x20)
    return unit === 0x0a || unit === 0x0d || unit === 0x09 || unit === 0x08 || unit === 0x0c ? 2 : 6;
  if (unit === 0x22 || unit === 0x5c) return 2;
  if (unit < 0x80) return 1;
  // A surrogate is half of a 4-byte pair; counted 3 like the rest of the BMP (a little over).
  return unit < 0x800 ? 2 : 3;
}

/** The asked part of the note's text, with its lines; null when the whole note was asked for. */
function partOf(
  text: string,
  options: NotePart,
): { text: string; lines: [number, number]; what: { section: string } | { block: string } } | null {
  if (options.section !== undefined && options.block !== undefined) {
    throw new NotedError(
      'validation_error',
      'Pass section or block, not both: read_note returns one part of a note at a time.',
    );
  }
  if (options.occurrence !== undefined && options.section === undefined) {
    throw new NotedError('validation_error', 'occurrence picks among equal headings: pass it with section.');
  }
  if (options.section !== undefined) {
    const found = findSection(text, options.section, options.occurrence);
    return {
      text: text.slice(found.heading.start, found.end),
      lines: lineRange(text, found.heading.start, found.end),
      what: { section: formatHeading(found.heading) },
    };
  }
  if (options.block !== undefined) {
    const block = findBlock(text, options.block);
    if (block === null) {
      const ids = outlineOf(text).blocks.map((b) => `^${b.id}`);
      throw new NotedError(
        'validation_error',
        `No block "^${options.block.replace(/^\^/, '')}" in this note. ${ids.length === 0 ? 'It has no block ids.' : `Its block ids are: ${ids.slice(0, 100).join(', ')}.`} get_note_outline lists them with their lines.`,
        { blocks: ids.slice(0, 100) },
      );
    }
    const lines = text.split('\n');
    const [from, to] = block.lines;
    const endsNote = to >= lines.length;
    return {
      text: lines.slice(from - 1, to).join('\n') + (endsNote ? '' : '\n'),
      lines: [from, to],
      what: { block: block.id },
    };
  }
  return null;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
