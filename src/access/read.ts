/**
 * @module
 * Reading through the gate: listing, one note (paged when large), and search.
 */
import { NotedError } from '../common/errors.js';
import { reusedStatement } from '../index/database.js';
import { buildExcerpt } from '../index/excerpt.js';
import { listNotes as listRows, visibleSql } from '../index/notes-query.js';
import { compileSearch, searchSql } from '../index/search-compile.js';
import { parseSearchQuery } from '../index/search-query.js';
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
  const offset = options.offset ?? 0;
  const maxChars = Math.min(options.maxChars ?? READ_PAGE_CHARS, READ_PAGE_CHARS);
  if (offset > fm.body.length) {
    throw new NotedError(
      'validation_error',
      `offset ${offset} is past the end of the body (${fm.body.length} characters). Start at 0 or at the nextOffset of the previous page.`,
    );
  }
  let end = Math.min(fm.body.length, offset + maxChars);
  // Never cut a surrogate pair in two.
  if (end < fm.body.length && isHighSurrogate(fm.body.charCodeAt(end - 1))) end--;
  const paged = offset > 0 || end < fm.body.length;
  return {
    schemaVersion: 2,
    name,
    format: 'markdown',
    frontmatter: fm.data,
    frontmatterRaw: fm.raw,
    ...(fm.error === undefined ? {} : { frontmatterError: fm.error }),
    ...(stored.lossless ? {} : { encodingError: NOT_UTF8 }),
    body: paged ? fm.body.slice(offset, end) : fm.body,
    etag: stored.etag,
    modified: iso(stored.mtimeMs),
    sizeBytes: stored.size,
    ...(paged
      ? {
          truncated: end < fm.body.length,
          offset,
          totalChars: fm.body.length,
          ...(end < fm.body.length ? { nextOffset: end } : {}),
        }
      : {}),
  };
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

export function search(
  ctx: AccessContext,
  rules: Rules,
  options: { query: string; maxResults?: number; folder?: string; tag?: string },
): SearchResult {
  const compiled = compileSearch(parseSearchQuery(options.query));
  const folder = options.folder === undefined ? '' : normalizeFolderName(options.folder);
  const tag = options.tag?.replace(/^#/, '').toLowerCase();
  ctx.index.refresh();
  const hidden = visibleSql(ctx.index.db, rules.visible);
  const sql = searchSql(compiled, {
    limit: options.maxResults ?? 10,
    ...(folder === '' ? {} : { folderLower: folder.toLowerCase() }),
    ...(tag ? { tagLower: tag } : {}),
    ...(hidden === null ? {} : { extra: { where: hidden, params: [] } }),
  });
  const db = ctx.index.db;
  const rows = reusedStatement<
    unknown[],
    { id: number; path: string; title: string; mtime_ms: number; score: number }
  >(db, sql.sql).all(...sql.params);
  const total = reusedStatement<unknown[], { total: number }>(db, sql.countSql).get(
    ...sql.countParams,
  )!.total;
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
  return { results, total };
}
