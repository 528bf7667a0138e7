/**
 * @module
 * Reading through the gate: listing, one note (paged when large), and search.
 */
import { NotedError } from '../common/errors.js';
import { buildExcerpt } from '../index/excerpt.js';
import { listNotes as listRows } from '../index/notes-query.js';
import { type CandidateFacts, explainHit } from '../index/search-check.js';
import { compileSearch } from '../index/search-compile.js';
import { decodeSearchCursor, encodeSearchCursor, searchFingerprint } from '../index/search-cursor.js';
import { noteProperties, noteTags, noteTasks, visiblePropertyNames } from '../index/search-facts.js';
import { close } from '../index/search-operators.js';
import { parseSearchQuery, type QueryNode } from '../index/search-query.js';
import { NoteRegions } from '../index/search-regions.js';
import { checkCandidates, runCandidates, runSearch, type SearchRow } from '../index/search-run.js';
import { candidateSql, searchSql } from '../index/search-sql.js';
import { parseFrontmatter } from '../markdown/frontmatter.js';
import { findBlock, lineRange, outlineOf } from '../markdown/outline.js';
import { findSection, formatHeading } from '../markdown/sections.js';
import { normalizeFolderName } from '../vault/names.js';
import { type AccessContext, iso } from './context.js';
import { notFound, resolveExisting } from './resolve.js';
import type { Rules } from './rules.js';
import type { NoteContent, NoteListPage, SearchHit, SearchResult } from './types.js';

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
  const stored = ctx.vault.read(name);
  if (stored === null) throw notFound(name);
  const fm = parseFrontmatter(stored.text);
  const part = partOf(stored.text, options);
  const page = textPage(part === null ? fm.body : part.text, options, part === null ? 'body' : 'part');
  return {
    schemaVersion: 2,
    name,
    format: 'markdown',
    frontmatter: fm.data,
    // A part is not the note: no raw block that could be put back together with it into a "whole" note.
    frontmatterRaw: part === null ? fm.raw : '',
    ...(fm.error === undefined ? {} : { frontmatterError: fm.error }),
    ...(stored.lossless ? {} : { encodingError: NOT_UTF8 }),
    body: page.text,
    etag: stored.etag,
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

/** Tries to search with the index in line with the request's rules; another process may be changing it. */
const SEARCH_ATTEMPTS = 3;

export interface SearchOptions {
  query: string;
  maxResults?: number;
  folder?: string;
  tag?: string;
  cursor?: string;
}

export async function search(
  ctx: AccessContext,
  rules: Rules,
  options: SearchOptions,
): Promise<SearchResult> {
  const db = ctx.index.db;
  const visible = (path: string) => rules.visible?.(path) ?? true;
  const query = parseSearchQuery(options.query, {
    propertyNames: (name) => visiblePropertyNames(db, (key) => close(name, key.toLowerCase()), visible),
  });
  const compiled = compileSearch(query);
  const folder = options.folder === undefined ? '' : normalizeFolderName(options.folder);
  const tag = options.tag?.replace(/^#/, '').toLowerCase();
  const limit = options.maxResults ?? 10;
  const fingerprint = searchFingerprint(options.query, folder, tag);
  const after = options.cursor === undefined ? undefined : decodeSearchCursor(options.cursor, fingerprint);
  ctx.index.refresh();
  const scope = {
    ...(folder === '' ? {} : { folderLower: folder.toLowerCase() }),
    ...(tag ? { tagLower: tag } : {}),
  };
  let page: { rows: SearchRow[]; total: number; more: boolean };
  if (compiled.check === undefined) {
    const sql = searchSql(compiled, { ...scope, limit: limit + 1, ...(after ? { after } : {}) });
    const found = retried(ctx, rules, () => runSearch(db, query, sql, rules.visibility.key, limit));
    // The index judged these notes visible; the policy of this request has the last word on each.
    const rows = found.rows.filter((row) => visible(row.path));
    page = { rows, total: found.total - (found.rows.length - rows.length), more: found.more };
  } else {
    const check = compiled.check;
    const sql = candidateSql(compiled, scope);
    const candidates = retried(ctx, rules, () => runCandidates(db, query, sql, rules.visibility.key));
    page = await checkCandidates(candidates, check, (row) => factsOf(ctx, row), {
      limit,
      keep: (row) => visible(row.path),
      ...(after ? { after } : {}),
    });
  }
  const results = page.rows.map((row) => hitOf(ctx, row, query, compiled.highlightTerms));
  const last = page.rows[page.rows.length - 1];
  return {
    results,
    total: page.total,
    more: page.more,
    ...(page.more && last ? { nextCursor: encodeSearchCursor(last, fingerprint) } : {}),
  };
}

function retried<T>(ctx: AccessContext, rules: Rules, run: () => T | null): T {
  let found = run();
  for (let attempt = 1; found === null && attempt < SEARCH_ATTEMPTS; attempt++) {
    ctx.index.useVisibility(rules.visibility);
    found = run();
  }
  if (found === null) {
    throw new NotedError(
      'busy',
      'The search index is being brought in line with a changed access policy by another server process. Search again in a moment.',
    );
  }
  return found;
}

/** One candidate's facts for the checks, each read once and only when asked for. */
function factsOf(ctx: AccessContext, row: SearchRow): CandidateFacts & { text(): string | null } {
  const db = ctx.index.db;
  let text: string | null | undefined;
  let regions: NoteRegions | null | undefined;
  const readText = (): string | null => {
    if (text === undefined) {
      try {
        text = ctx.vault.readFile(row.path)?.bytes.toString('utf8') ?? null;
      } catch {
        text = null;
      }
    }
    return text;
  };
  return {
    path: row.path,
    title: row.title,
    tags: once(() => noteTags(db, row.id)),
    tasks: once(() => noteTasks(db, row.id)),
    properties: once(() => noteProperties(db, row.id)),
    text: readText,
    regions: () => {
      if (regions === undefined) {
        const t = readText();
        regions = t === null ? null : new NoteRegions(t);
      }
      return regions;
    },
  };
}

function once<T>(fn: () => T): () => T {
  let value: { v: T } | undefined;
  return () => {
    value ??= { v: fn() };
    return value.v;
  };
}

/** A hit as the agent sees it: where it matched, on which lines, and an excerpt from there. */
function hitOf(ctx: AccessContext, row: SearchRow, query: QueryNode, terms: string[]): SearchHit {
  const facts = factsOf(ctx, row);
  const { matched, lines } = explainHit(query, facts);
  const regions = facts.regions();
  const body = regions?.bodyText() ?? '';
  const first = lines[0];
  const place =
    first && regions ? (first.scope === 'task' ? null : regions.clip(first.from, first.to)) : null;
  const task = first?.scope === 'task' ? facts.tasks().find((t) => t.line === first.from) : undefined;
  const excerptText = place?.text ?? task?.text ?? body;
  return {
    name: row.path,
    title: row.title,
    score: Number(row.score.toPrecision(4)),
    excerpt: buildExcerpt(excerptText, terms),
    modified: iso(row.mtime_ms),
    matched,
    ...(lines.length > 0 ? { lines } : {}),
  };
}
