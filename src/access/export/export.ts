/**
 * @module
 * export_notes through the gate (SPEC 12.2): the selected notes in name order, in pages that never
 * split a note and stay under `max_bytes` as the result travels (the page appears twice in a result:
 * as text for the model and as structuredContent, both JSON-escaped, and both are counted). A note
 * too large for a page by itself comes alone, its body cut, with `truncated: true`. The cursor holds
 * the last name given and the selection it belongs to, so each note comes once, in order, while
 * others change.
 */
import { createHash } from 'node:crypto';
import { decodeCursor, encodeCursor } from '../../common/cursor.js';
import { NotedError } from '../../common/errors.js';
import { unobservedWork, type Work } from '../../common/work.js';
import { htmlNoteToMarkdown } from '../../format/convert-note.js';
import { formatOf } from '../../format/formats.js';
import { type ExportSelection, exportCount, exportPaths } from '../../index/queries/export.js';
import { outgoingLinkCount } from '../../index/queries/links.js';
import { checkTag } from '../../index/queries/tags.js';
import { parseSearchQuery } from '../../index/search/parse/query.js';
import { compileSearch } from '../../index/search/plan/compile.js';
import type { JsonValue } from '../../markdown/frontmatter/frontmatter.js';
import { scanBody } from '../../markdown/scan.js';
import { normalizeFolderName } from '../../vault/names.js';
import type { StoredNote } from '../../vault/vault.js';
import { type AccessContext, iso } from '../context.js';
import { type DateRangeInput, dateRange, rangeKey } from '../date-range.js';
import { idField } from '../note-ids.js';
import type { Rules } from '../rules/rules.js';
import { type HtmlLinks, htmlDocument, htmlLinks, htmlNote } from './html.js';

export type ExportFormat = 'json' | 'markdown' | 'html';

export const EXPORT_DEFAULT_BYTES = 1024 * 1024;
export const EXPORT_MAX_BYTES = 8 * 1024 * 1024;
export const EXPORT_MIN_BYTES = 64 * 1024;
/**
 * Kept free in every page for what is not note text: the result's other fields, the text's heading,
 * and the one-line JSON copy of structuredContent (at most 16 KB, SPEC 3.1).
 */
const RESERVE_BYTES = 20 * 1024;
/** Notes fetched from the index at a time while a page fills. */
const CHUNK = 200;
/**
 * The most links one html page renders. Rendering a link took about 100 µs in-process (a note of
 * `[[t]]` 800,000 times held every client up for 13–22 s, issue 35), so a page stops before the note
 * that would pass this, and a note holding more alone is cut after this many links (`truncated`, as a
 * note too large for the page is): about half a second of rendering per call.
 */
export const MAX_HTML_LINKS = 5_000;

export interface ExportInput extends DateRangeInput {
  readonly folder?: string;
  readonly tag?: string;
  readonly query?: string;
  readonly format: ExportFormat;
  readonly cursor?: string;
  readonly maxBytes?: number;
}

/** One exported note: its identity always; its frontmatter and body in the json format. */
export interface ExportedNote {
  readonly name: string;
  /** The note's id (SPEC 17.3); absent only while it is not indexed yet. */
  readonly id?: string;
  readonly etag: string;
  readonly modified: string;
  readonly frontmatter?: Record<string, JsonValue> | null;
  readonly body?: string;
  /** Present on a note cut to fit the page alone: its body's length; read the rest with read_note. */
  readonly totalChars?: number;
}

export interface ExportPage {
  readonly format: ExportFormat;
  readonly notes: ExportedNote[];
  /** The markdown or html document of the page (absent for json). */
  readonly document?: string;
  readonly count: number;
  readonly total: number;
  readonly nextCursor?: string;
  readonly truncated?: true;
}

interface ExportCursor {
  /** The last name given. */
  readonly a: string;
  /** The selection the cursor belongs to. */
  readonly h: string;
}

function isExportCursor(data: unknown): data is ExportCursor {
  const c = data as Partial<ExportCursor> | null;
  return typeof c?.a === 'string' && typeof c.h === 'string';
}

/** Bytes a string adds to a result where it is sent as a JSON string (escapes included). */
export function sentBytes(text: string): number {
  return Buffer.byteLength(JSON.stringify(text), 'utf8') - 2;
}

/**
 * One page of the export. `work` is told the notes added (progress) and is asked at a safe point
 * before each note is read: an export changes nothing, so a cancelled one simply stops (issue 36.4).
 */
export async function exportNotes(
  ctx: AccessContext,
  rules: Rules,
  input: ExportInput,
  work: Work = unobservedWork(),
): Promise<ExportPage> {
  const maxBytes = input.maxBytes ?? EXPORT_DEFAULT_BYTES;
  if (!Number.isInteger(maxBytes) || maxBytes < EXPORT_MIN_BYTES || maxBytes > EXPORT_MAX_BYTES) {
    throw new NotedError(
      'validation_error',
      `max_bytes must be a whole number from ${EXPORT_MIN_BYTES} (64 KB) to ${EXPORT_MAX_BYTES} (8 MB); got ${maxBytes}.`,
    );
  }
  const folder = input.folder === undefined ? '' : normalizeFolderName(input.folder);
  const range = dateRange(input);
  const search = input.query === undefined ? undefined : compileSearch(parseSearchQuery(input.query));
  if (search?.check !== undefined) {
    // Such a query's SQL only narrows to candidates; exporting them would export more than it selects.
    throw new NotedError(
      'validation_error',
      'export_notes selects with queries the index answers alone: words, phrases, tag:, path:, file:, content:, task…:, [property] and [property:value], and regexes on path: and file:. line:, block:, section:, match-case: and regexes on the text are settled note by note, which only search_notes does: find those notes with search_notes, then export them by folder or tag, or read them.',
    );
  }
  const selection: ExportSelection = {
    folderLower: folder.toLowerCase(),
    ...(input.tag === undefined ? {} : { tagLower: checkTag(input.tag, 'tag') }),
    ...(search === undefined ? {} : { search }),
    range,
    ...(rules.visible === undefined ? {} : { visible: rules.visible, visibilityKey: rules.visibility.key }),
  };
  const fingerprint = createHash('sha256')
    .update(
      JSON.stringify([
        folder.toLowerCase(),
        selection.tagLower ?? null,
        input.query ?? null,
        input.format,
        rangeKey(range),
      ]),
    )
    .digest('hex')
    .slice(0, 12);
  let after: string | null = null;
  if (input.cursor !== undefined) {
    const cursor = decodeCursor('export_notes', input.cursor, isExportCursor);
    if (cursor.h !== fingerprint) {
      throw new NotedError(
        'validation_error',
        'This cursor belongs to an export with other folder, tag, query, time filters or format. Pass the same arguments as the call that gave it, or leave cursor out to start again.',
      );
    }
    after = cursor.a;
  }
  ctx.index.refresh();
  const db = ctx.index.db;
  const total = exportCount(db, selection);
  const budget = maxBytes - RESERVE_BYTES;
  const builder = pageBuilder(ctx, rules, input.format);
  let used = 0;
  let last: string | null = null;
  let truncated = false;
  let more = false;
  let position = after;
  let renderedLinks = 0;
  fill: for (;;) {
    const paths = exportPaths(db, selection, position, CHUNK);
    if (paths.length === 0) break;
    for (const name of paths) {
      await work.checkpoint();
      position = name;
      // What rendering the note will cost, from the index, before it is read or rendered.
      const links = input.format === 'html' ? (outgoingLinkCount(db, name) ?? 0) : 0;
      if (links > 0 && builder.count() > 0 && renderedLinks + links > MAX_HTML_LINKS) {
        more = true;
        break fill;
      }
      const stored = ctx.vault.read(name, rules.sight);
      if (stored === null) continue; // gone since the index saw it, or out of sight now
      if (links > MAX_HTML_LINKS) {
        // Alone and too many links to render: cut after the first MAX_HTML_LINKS, the page ends with it.
        builder.add(builder.cut(stored, budget, linkPrefix(stored.text, links)));
        last = name;
        truncated = true;
        more = exportPaths(db, selection, name, 1).length > 0;
        break fill;
      }
      renderedLinks += links;
      const entry = builder.entry(stored);
      if (used + entry.bytes > budget) {
        if (builder.count() > 0) {
          more = true;
          break fill;
        }
        // Alone and still too large: its body is cut to fit, and the page ends with it.
        builder.add(builder.cut(stored, budget, stored.text.length, entry));
        last = name;
        truncated = true;
        more = exportPaths(db, selection, name, 1).length > 0;
        break fill;
      }
      builder.add(entry);
      used += entry.bytes;
      last = name;
      work.report(builder.count(), total, `exporting notes: ${builder.count()} in this page`);
    }
  }
  // The page is shaped with safe points too: an 8 MB html page's links are finished note by note.
  await work.checkpoint();
  const page = await builder.finish(work);
  return {
    format: input.format,
    ...page,
    count: page.notes.length,
    total,
    ...(more && last !== null
      ? { nextCursor: encodeCursor('export_notes', { a: last, h: fingerprint } satisfies ExportCursor) }
      : {}),
    ...(truncated ? { truncated: true as const } : {}),
  };
}

interface Entry {
  readonly note: ExportedNote;
  /** The note's part of the document (markdown, html). */
  readonly part: string;
  readonly bytes: number;
}

interface PageBuilder {
  entry(stored: StoredNote): Entry;
  /**
   * The note cut to fit `budget` bytes alone, keeping at most its first `keep` characters; `whole`
   * is its entry uncut when it was already built.
   */
  cut(stored: StoredNote, budget: number, keep: number, whole?: Entry): Entry;
  add(entry: Entry): void;
  count(): number;
  finish(work: Work): Promise<{ notes: ExportedNote[]; document?: string }>;
}

function pageBuilder(ctx: AccessContext, rules: Rules, format: ExportFormat): PageBuilder {
  const entries: Entry[] = [];
  const links: HtmlLinks | null = format === 'html' ? htmlLinks(ctx, rules) : null;
  // An HTML vault's notes (SPEC 11): no frontmatter; Markdown export converts them.
  const noteFormat = formatOf(ctx.vault);
  const identity = (stored: StoredNote) => ({
    name: stored.name,
    ...idField(ctx, stored.name),
    etag: stored.etag,
    modified: iso(stored.mtimeMs),
  });
  const build = (stored: StoredNote, text: string, totalChars?: number): Entry => {
    const id = identity(stored);
    const extra = totalChars === undefined ? {} : { totalChars };
    if (format === 'json') {
      const fm = noteFormat.view(text);
      const note: ExportedNote = { ...id, frontmatter: fm.frontmatter, body: fm.body, ...extra };
      // Sent twice: as the text's JSON line and in structuredContent.
      const json = JSON.stringify(note);
      return { note, part: json, bytes: sentBytes(json) + Buffer.byteLength(json, 'utf8') + 2 };
    }
    const part =
      format === 'markdown'
        ? markdownPart(stored, noteFormat.name === 'html' ? htmlNoteToMarkdown(text, () => null).text : text)
        : htmlNote(stored, text, links as HtmlLinks, noteFormat.name === 'html');
    const note: ExportedNote = { ...id, ...extra };
    return { note, part, bytes: 2 * sentBytes(part) + Buffer.byteLength(JSON.stringify(note), 'utf8') + 1 };
  };
  return {
    entry: (stored) => build(stored, stored.text),
    cut: (stored, budget, first, whole) => {
      // Halve until it fits: the escaped size of a text is not linear in its length.
      let keep = first;
      let entry =
        whole !== undefined && keep >= stored.text.length
          ? { ...whole, note: { ...whole.note, totalChars: stored.text.length } }
          : build(stored, stored.text.slice(0, keep), stored.text.length);
      while (entry.bytes > budget && keep > 0) {
        keep = Math.floor(keep / 2);
        if (keep > 0 && /[\uD800-\uDBFF]/.test(stored.text[keep - 1] ?? '')) keep--;
        entry = build(stored, stored.text.slice(0, keep), stored.text.length);
      }
      return entry;
    },
    add: (entry) => {
      entries.push(entry);
      links?.inPage(entry.note.name);
    },
    count: () => entries.length,
    finish: async (work) => {
      const notes = entries.map((e) => e.note);
      if (format === 'json') return { notes };
      if (format === 'markdown') return { notes, document: entries.map((e) => e.part).join('') };
      const articles: string[] = [];
      for (const entry of entries) {
        articles.push((links as HtmlLinks).finish(entry.part));
        await work.checkpoint();
      }
      return { notes, document: htmlDocument(articles) };
    },
  };
}

/**
 * How many of `text`'s first characters hold at most {@link MAX_HTML_LINKS} links, for a note whose
 * index says it holds `links`: a share of the text in proportion, halved while it holds more.
 */
function linkPrefix(text: string, links: number): number {
  let keep = Math.floor((text.length * MAX_HTML_LINKS) / links);
  while (keep > 0 && scanBody(text.slice(0, keep)).links.length > MAX_HTML_LINKS) keep = Math.floor(keep / 2);
  if (keep > 0 && /[\uD800-\uDBFF]/.test(text[keep - 1] ?? '')) keep--;
  return keep;
}

/** A note in the markdown document: a comment line naming it and its etag, then its text as stored. */
function markdownPart(stored: StoredNote, text: string): string {
  const name = stored.name.replaceAll('-->', '--&gt;');
  return `<!-- note: ${name} etag: ${stored.etag} -->\n${text}${text.endsWith('\n') ? '' : '\n'}\n`;
}
