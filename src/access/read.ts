/**
 * @module
 * Reading through the gate: listing, one note (paged when large), and search.
 */
import { NotedError } from '../common/errors.js';
import { buildExcerpt } from '../index/excerpt.js';
import { listNotes as listRows } from '../index/notes-query.js';
import { compileSearch, searchSql } from '../index/search-compile.js';
import { parseSearchQuery } from '../index/search-query.js';
import { runSearch } from '../index/search-run.js';
import { dedupeQuery } from '../index/search-terms.js';
import { parseFrontmatter, splitFrontmatter } from '../markdown/frontmatter.js';
import { normalizeFolderName } from '../vault/names.js';
import { type AccessContext, iso } from './context.js';
import { notFound, resolveExisting } from './resolve.js';
import type { Rules } from './rules.js';
import type { NoteContent, NoteListPage, SearchResult } from './types.js';

export function listNotes(
  ctx: AccessContext,
  rules: Rules,
  options: { folder?: string; limit?: number; cursor?: string },
): NoteListPage {
  const folder = options.folder === undefined ? '' : normalizeFolderName(options.folder);
  ctx.index.refresh();
  const page = listRows(ctx.index.db, {
    folderLower: folder.toLowerCase(),
    limit: options.limit ?? 50,
    ...(rules.visible === undefined ? {} : { visible: rules.visible }),
    ...(options.cursor === undefined ? {} : { cursor: options.cursor }),
  });
  return {
    notes: page.rows.map((r) => ({
      name: r.path,
      title: r.title,
      modified: iso(r.mtime_ms),
      sizeBytes: r.size,
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

export function readNote(
  ctx: AccessContext,
  rules: Rules,
  input: string,
  options: { offset?: number; maxChars?: number } = {},
): NoteContent {
  const name = resolveExisting(ctx, rules, input);
  const stored = ctx.vault.read(name);
  if (stored === null) throw notFound(name);
  const fm = parseFrontmatter(stored.text);
  const page = textPage(fm.body, options, 'body');
  return {
    schemaVersion: 2,
    name,
    format: 'markdown',
    frontmatter: fm.data,
    frontmatterRaw: fm.raw,
    ...(fm.error === undefined ? {} : { frontmatterError: fm.error }),
    ...(stored.lossless ? {} : { encodingError: NOT_UTF8 }),
    body: page.text,
    etag: stored.etag,
    modified: iso(stored.mtimeMs),
    sizeBytes: stored.size,
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
 * The page of `text` that `offset` and `maxChars` ask for (at most READ_PAGE_CHARS), never cutting a
 * surrogate pair in two. `what` names the text in the error for an offset past its end.
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
  let end = Math.min(text.length, offset + maxChars);
  if (end < text.length && isHighSurrogate(text.charCodeAt(end - 1))) end--;
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

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/** Tries to search with the index in line with the request's rules; another process may be changing it. */
const SEARCH_ATTEMPTS = 3;

export function search(
  ctx: AccessContext,
  rules: Rules,
  options: { query: string; maxResults?: number; folder?: string; tag?: string },
): SearchResult {
  const query = dedupeQuery(parseSearchQuery(options.query));
  const compiled = compileSearch(query);
  const folder = options.folder === undefined ? '' : normalizeFolderName(options.folder);
  const tag = options.tag?.replace(/^#/, '').toLowerCase();
  ctx.index.refresh();
  const sql = searchSql(compiled, {
    limit: options.maxResults ?? 10,
    ...(folder === '' ? {} : { folderLower: folder.toLowerCase() }),
    ...(tag ? { tagLower: tag } : {}),
  });
  let page = runSearch(ctx.index.db, query, sql, rules.visibility.key);
  for (let attempt = 1; page === null && attempt < SEARCH_ATTEMPTS; attempt++) {
    ctx.index.useVisibility(rules.visibility);
    page = runSearch(ctx.index.db, query, sql, rules.visibility.key);
  }
  if (page === null) {
    throw new NotedError(
      'busy',
      'The search index is being brought in line with a changed access policy by another server process. Search again in a moment.',
    );
  }
  // The index judged these notes visible; the policy of this request has the last word on each.
  const rows = page.rows.filter((row) => rules.visible?.(row.path) ?? true);
  const results = rows.map((row) => {
    const stored = ctx.vault.read(row.path);
    const body = stored === null ? '' : splitFrontmatter(stored.text).body;
    return {
      name: row.path,
      title: row.title,
      score: Number(row.score.toPrecision(4)),
      excerpt: buildExcerpt(body, compiled.highlightTerms),
      modified: iso(row.mtime_ms),
    };
  });
  return { results, total: page.total - (page.rows.length - rows.length) };
}
