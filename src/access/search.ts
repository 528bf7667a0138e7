/**
 * @module
 * search_notes through the gate (SPEC 2.3, issue 26): the query parsed and compiled, its page read
 * from the index by the request's rules, the candidates the index cannot settle checked on their text,
 * and each hit explained: where it matched, on which lines, with an excerpt from there.
 */
import { NotedError } from '../common/errors.js';
import { unobservedWork, type Work } from '../common/work.js';
import { formatOf } from '../format/formats.js';
import { dateRangeSql } from '../index/queries/date-range.js';
import { noteFacts } from '../index/queries/notes.js';
import { type CandidateFacts, explainHit } from '../index/search/check/check.js';
import { buildExcerpt } from '../index/search/check/excerpt.js';
import { IndexedScopes } from '../index/search/check/positions.js';
import { close } from '../index/search/parse/operators.js';
import { parseSearchQuery, type QueryNode, type RegexNode } from '../index/search/parse/query.js';
import { compileRegex, regexRanges } from '../index/search/parse/regex.js';
import { compileSearch } from '../index/search/plan/compile.js';
import { candidateSql, searchSql } from '../index/search/plan/sql.js';
import { decodeSearchCursor, encodeSearchCursor, searchFingerprint } from '../index/search/run/cursor.js';
import {
  noteProperties,
  noteTags,
  noteTasks,
  tagsOfNotes,
  visiblePropertyNames,
} from '../index/search/run/facts.js';
import { checkCandidates, runCandidates, runSearch, type SearchRow } from '../index/search/run/run.js';
import { recencyScore, scoreScale } from '../index/search/run/score.js';
import { repairFtsTotals } from '../index/store/fts-totals.js';
import { NoteRegions } from '../index/words/regions.js';
import { normalizeFolderName } from '../vault/names.js';
import { type AccessContext, iso } from './context.js';
import { type DateRangeInput, dateRange, rangeKey } from './date-range.js';
import { idField } from './note-ids.js';
import { obsidianUri } from './obsidian-uri.js';
import type { Rules } from './rules/rules.js';
import type { SearchHit, SearchResult } from './types.js';

/** Tries to search with the index in line with the request's rules; another process may be changing it. */
const SEARCH_ATTEMPTS = 3;

export interface SearchOptions extends DateRangeInput {
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
  work: Work = unobservedWork(),
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
  const range = dateRange(options);
  const fingerprint = searchFingerprint(options.query, folder, tag, rangeKey(range));
  const after = options.cursor === undefined ? undefined : decodeSearchCursor(options.cursor, fingerprint);
  ctx.index.refresh();
  // Safe points (issue 36.4): a search changes nothing, so a cancelled one simply stops.
  await work.checkpoint();
  const dates = dateRangeSql(range);
  const scope = {
    ...(folder === '' ? {} : { folderLower: folder.toLowerCase() }),
    ...(tag ? { tagLower: tag } : {}),
    ...(dates.where.length === 0
      ? {}
      : { extra: { where: dates.where.join(' AND '), params: dates.params } }),
  };
  let page: { rows: SearchRow[]; total: number; more: boolean };
  let indexed: IndexedScopes | null = null;
  // How many notes the text alone matches, when the search counted just that (no other condition).
  let matching: number | undefined;
  if (compiled.check === undefined) {
    const sql = searchSql(compiled, { ...scope, limit: limit + 1, ...(after ? { after } : {}) });
    const found = await retried(ctx, rules, () =>
      runSearch(db, query, sql, rules.visibility.key, limit, work),
    );
    // A text ranked alone (no condition beside it): its total is the count of the text's notes.
    if (sql.top !== undefined) matching = found.total;
    // The index judged these notes visible; the policy of this request has the last word on each.
    const rows = found.rows.filter((row) => visible(row.path));
    page = { rows, total: found.total - (found.rows.length - rows.length), more: found.more };
  } else {
    const check = compiled.check;
    const sql = candidateSql(compiled, scope);
    // The scopes the index answers read word positions instead of the notes, with the candidates.
    const found = await retried(ctx, rules, async () =>
      runCandidates(db, query, sql, rules.visibility.key, (rows) =>
        formatOf(ctx.vault).name !== 'markdown'
          ? null
          : IndexedScopes.read(
              db,
              query,
              rows.filter((row) => visible(row.path)).map((row) => row.id),
            ),
      ),
    );
    indexed = found.alongside;
    const scopes = indexed;
    page = await checkCandidates(found.rows, check, (row) => factsOf(ctx, rules, row, undefined, scopes), {
      limit,
      keep: (row) => visible(row.path),
      ...(after ? { after } : {}),
      ...(scopes ? { hasLayout: (row) => scopes.has(row.id) } : {}),
      work,
    });
  }
  await work.checkpoint();
  const ids = page.rows.map((row) => row.id);
  const tags = tagsOfNotes(db, ids);
  const facts = noteFacts(db, ids);
  // SPEC 17.7: the score shown is Lucene's BM25 (for one word or phrase, bm25() times one factor) and
  // recency for operator-only hits.
  const rankMatch = compiled.rankMatch;
  const scale = rankMatch === null || page.rows.length === 0 ? 1 : scoreScale(db, rankMatch, matching);
  const nowMs = ctx.now().getTime();
  const shown = (row: SearchRow) =>
    rankMatch === null ? recencyScore(row.mtime_ms, nowMs) : row.score * scale;
  const results: SearchHit[] = [];
  for (const row of page.rows) {
    // Each hit reads its note for the excerpt.
    await work.checkpoint();
    const hit = hitOf(
      ctx,
      rules,
      row,
      shown(row),
      query,
      compiled.highlightTerms,
      tags.get(row.id) ?? [],
      indexed,
    );
    const known = facts.get(row.id);
    results.push({ ...hit, words: known?.words ?? 0, created: iso(known?.created_ms ?? row.mtime_ms) });
  }
  const last = page.rows[page.rows.length - 1];
  return {
    results,
    total: page.total,
    more: page.more,
    ...(page.more && last ? { nextCursor: encodeSearchCursor(last, fingerprint) } : {}),
  };
}

/** Runs the search with the index in line with the request's rules; another process may be changing it. */
async function retried<T>(ctx: AccessContext, rules: Rules, run: () => Promise<T | null>): Promise<T> {
  let found = await healed(ctx, run);
  for (let attempt = 1; found === null && attempt < SEARCH_ATTEMPTS; attempt++) {
    ctx.index.useVisibility(rules.visibility);
    found = await healed(ctx, run);
  }
  return foundOrBusy(found);
}

/**
 * FTS5 answers "database disk image is malformed" to every ranked search when its totals count no
 * rows and rows are there (another program wrote the averages record): the totals are put right, as
 * the next start would, and the search runs once more. Any other damage is reported as it was.
 */
async function healed<T>(ctx: AccessContext, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (!totalsBroken(err) || !repairFtsTotals(ctx.index.db)) throw err;
    return await run();
  }
}

function totalsBroken(err: unknown): boolean {
  return (err as { code?: unknown }).code === 'SQLITE_CORRUPT_VTAB';
}

function foundOrBusy<T>(found: T | null): T {
  if (found === null) {
    throw new NotedError(
      'busy',
      'The search index is being brought in line with a changed access policy by another server process. Search again in a moment.',
    );
  }
  return found;
}

/** One candidate's facts for the checks, each read once and only when asked for. */
function factsOf(
  ctx: AccessContext,
  rules: Rules,
  row: SearchRow,
  knownTags?: string[],
  indexed?: IndexedScopes | null,
): CandidateFacts & { text(): string | null; stored(): string | null } {
  const db = ctx.index.db;
  const format = formatOf(ctx.vault);
  let stored: string | null | undefined;
  let text: string | null | undefined;
  let regions: NoteRegions | null | undefined;
  const readStored = (): string | null => {
    if (stored === undefined) {
      try {
        // Security: the text comes from the file opened, judged where it really is (issue 25).
        stored = ctx.vault.readFile(row.path, rules.sight)?.bytes.toString('utf8') ?? null;
      } catch {
        stored = null;
      }
    }
    return stored;
  };
  const readText = (): string | null => {
    if (text === undefined) {
      const raw = readStored();
      text = raw === null ? null : format.scanText(raw);
    }
    return text;
  };
  return {
    path: row.path,
    title: row.title,
    tags: knownTags === undefined ? once(() => noteTags(db, row.id)) : () => knownTags,
    tasks: once(() => noteTasks(db, row.id)),
    properties: once(() => noteProperties(db, row.id)),
    text: readText,
    stored: readStored,
    indexed: once(() => indexed?.note(row.id) ?? null),
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

/**
 * What the query's wanted regexes on text match in `text`, a few of them, as more words to show in
 * the excerpt (the excerpt marks whole words, so a match inside a word shows unmarked).
 */
function regexMatches(query: QueryNode, text: string): string[] {
  const out: string[] = [];
  for (const source of positiveRegexes(query)) {
    for (const [start, end] of regexRanges(compileRegex(source.source, source.matchCase === true), text, 3)) {
      out.push(text.slice(start, end));
    }
  }
  return out;
}

/** Regexes on a note's text not under an exclusion (in scopes too). */
function positiveRegexes(node: QueryNode): RegexNode[] {
  switch (node.kind) {
    case 'regex':
      return node.in === undefined || node.in === 'content' ? [node] : [];
    case 'scope':
      return node.operand === null ? [] : positiveRegexes(node.operand);
    case 'and':
    case 'or':
      return node.operands.flatMap(positiveRegexes);
    default:
      return [];
  }
}

/** A hit as the agent sees it: where it matched, on which lines, and an excerpt from there. */
function hitOf(
  ctx: AccessContext,
  rules: Rules,
  row: SearchRow,
  score: number,
  query: QueryNode,
  terms: string[],
  tags: string[],
  indexed: IndexedScopes | null,
): Omit<SearchHit, 'words' | 'created'> {
  const facts = factsOf(ctx, rules, row, tags, indexed);
  const explained = explainHit(query, facts);
  const { matched } = explained;
  const format = formatOf(ctx.vault);
  // An HTML note is scanned as its Markdown rendition, whose line numbers name no place the agent
  // can read or edit: only task lines (the stored note's, from the index) are given there.
  const lines = format.name === 'html' ? explained.lines.filter((l) => l.scope === 'task') : explained.lines;
  const regions = format.name === 'html' ? null : facts.regions();
  const first = lines[0];
  const place =
    first && regions ? (first.scope === 'task' ? null : regions.clip(first.from, first.to)) : null;
  const task = first?.scope === 'task' ? facts.tasks().find((t) => t.line === first.from) : undefined;
  const stored = regions === null ? facts.stored() : null;
  const body = regions?.bodyText() ?? (stored === null ? '' : format.excerptText(stored, terms));
  const excerptText = place?.text ?? task?.text ?? body;
  return {
    name: row.path,
    ...idField(ctx, row.path),
    uri: obsidianUri(ctx.vault.root, row.path),
    title: row.title,
    score: Number(score.toPrecision(4)),
    excerpt: buildExcerpt(excerptText, [...terms, ...regexMatches(query, excerptText)]),
    modified: iso(row.mtime_ms),
    matched,
    ...(lines.length > 0 ? { lines } : {}),
  };
}
