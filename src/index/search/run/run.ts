/**
 * @module
 * Runs a compiled search (search/plan/compile.ts) in one read transaction, so that its page, its total and
 * the checks before them all see the same rows: that the index follows the rules of the request
 * (visibility.ts), and that the query's work is within its bound (search/plan/work.ts). A query with parts
 * SQL cannot answer takes every candidate instead; {@link checkCandidates} then checks each (reading
 * the note where it must, yielding to other requests as it goes) and pages what passes.
 */
import { NotedError } from '../../../common/errors.js';
import { unobservedWork, type Work } from '../../../common/work.js';
import { type Db, reusedStatement } from '../../db/database.js';
import { readAverages } from '../../store/fts-totals.js';
import { storedVisibility } from '../../store/visibility.js';
import { type CandidateFacts, checkNeedsText, passes } from '../check/check.js';
import type { QueryNode } from '../parse/query.js';
import { regexWeight } from '../parse/regex.js';
import type { Check, SqlPart } from '../plan/compiled.js';
import type { SearchPosition, SearchSql } from '../plan/sql.js';
import { checkSearchWork } from '../plan/work.js';
import { registerSearchFunctions } from './functions.js';
import { comparePosition } from './order.js';
import { rankedNow } from './phrase-scores.js';
import { steppedPage } from './stepped.js';
import { KEPT_ROWS, keepRanking, topRows } from './top-rows.js';

export interface SearchRow {
  readonly id: number;
  readonly path: string;
  readonly title: string;
  readonly mtime_ms: number;
  /** BM25, larger is better; 0 for a query without words. */
  readonly score: number;
}

export interface SearchPage {
  readonly rows: SearchRow[];
  /** Every matching note, not only the page. */
  readonly total: number;
  /** True when more rows follow the page. */
  readonly more: boolean;
}

interface FastRow extends SearchRow {
  readonly edge?: number;
  readonly fetched?: number;
}

/** A candidate of a query with a check: a row and the exact columns the check reads. */
export interface CandidateRow extends SearchRow {
  readonly size: number;
  readonly [column: `c${number}`]: unknown;
}

/**
 * The page and total of a search whose SQL is exact (`sql` asks for one row more than the page, to
 * know whether more follow). Null, with nothing read, when the index does not follow the rules named
 * `visibilityKey` (another process changed it since the caller brought it in line): the caller brings
 * it in line again and retries. Throws `too_large` for a query over its work bound, and Cancelled at
 * a safe point: a ranked query over more than `stepFrom` notes is stepped through with safe points
 * (search/run/stepped.ts) instead of run as one ordered statement.
 */
export async function runSearch(
  db: Db,
  query: QueryNode,
  sql: SearchSql,
  visibilityKey: string,
  limit = Number.POSITIVE_INFINITY,
  work: Work = unobservedWork(),
  stepFrom = STEP_FROM_NOTES,
): Promise<SearchPage | null> {
  registerSearchFunctions(db);
  const inLine = (on: Db) => storedVisibility(on) === visibilityKey;
  // A write of this connection's own may be open around the search (see topRows).
  const writing = db.inTransaction;
  const found = db.transaction((): { rows: SearchRow[]; total: number } | null | 'step' => {
    if (!inLine(db)) return null;
    checkSearchWork(db, query);
    const step = sql.stepped !== undefined && (readAverages(db)?.rows ?? 0) > stepFrom;
    // Kept rows settle most pages without scoring; a text ranked anew is stepped through when the
    // vault is large (and kept from that pass), ranked here when it is not.
    if (!step) return rankedNow(db, sql.phraseRank, () => ordered(db, sql, writing));
    const kept = keptPage(db, sql, writing, false);
    return kept.rows === null ? 'step' : { rows: kept.rows, total: kept.total! };
  })();
  const top = sql.top;
  // The first page of a text ranked alone, stepped through: its best rows are kept for later searches.
  const keep =
    top !== undefined && top.after === undefined && !writing
      ? {
          rows: KEPT_ROWS + 1,
          done: (reader: Db, best: { id: number; score: number }[], total: number) =>
            keepRanking(db, reader, top.rankMatch, best, total),
        }
      : undefined;
  let page = found;
  if (page === 'step') {
    const stepped = await steppedPage(db, sql.stepped!, inLine, work, keep);
    // Null: the index follows other rules now, which the caller puts right and retries. Undefined: no
    // reader could be opened, and the ordered statements answer in one piece.
    page =
      stepped !== undefined
        ? stepped
        : db.transaction(() =>
            inLine(db) ? rankedNow(db, sql.phraseRank, () => ordered(db, sql, writing)) : null,
          )();
  }
  if (page === null) return null;
  return {
    rows: page.rows.slice(0, limit).map((r) => ({
      id: r.id,
      path: r.path,
      title: r.title,
      mtime_ms: r.mtime_ms,
      score: r.score,
    })),
    total: page.total,
    more: page.rows.length > limit,
  };
}

/**
 * The notes (with a full-text row) past which a ranked search is stepped through. Below it a word in
 * every note is ranked in a few milliseconds, sooner than a reader is opened. The notes, not the
 * query's own work, decide: counting a common word's occurrences (search/plan/work.ts) reads its
 * every position, about a second at 100,000 notes each time the index has changed.
 */
const STEP_FROM_NOTES = 2_000;

/** The page from kept rows, or the ordered statements' (ranking and keeping the text when it may). */
function ordered(db: Db, sql: SearchSql, writing: boolean): { rows: SearchRow[]; total: number } {
  const kept = keptPage(db, sql, writing, true);
  return kept.rows === null ? onePiece(db, sql, kept.total) : { rows: kept.rows, total: kept.total! };
}

/**
 * The page from the rows kept of the text (search/run/top-rows.ts), ranking it to keep when `rank`;
 * `rows` null when they cannot settle it (or the search is not of a text ranked alone), with the
 * total when it was counted on the way.
 */
function keptPage(
  db: Db,
  sql: SearchSql,
  writing: boolean,
  rank: boolean,
): { rows: SearchRow[] | null; total?: number } {
  if (sql.top === undefined) return { rows: null };
  const count = () =>
    reusedStatement<unknown[], { total: number }>(db, sql.countSql).get(...sql.countParams)!.total;
  return topRows(db, sql.top, count, writing, rank);
}

/** The page and total of the ordered statements, in the caller's transaction. */
function onePiece(db: Db, sql: SearchSql, counted?: number): { rows: FastRow[]; total: number } {
  let rows = reusedStatement<unknown[], FastRow>(db, sql.sql).all(...sql.params);
  const last = rows[rows.length - 1];
  if (sql.exact && last !== undefined && last.fetched === sql.exact.looked && last.score === last.edge) {
    // The page ends inside a run of equal scores that went on past what the fast statement looked at.
    rows = reusedStatement<unknown[], FastRow>(db, sql.exact.sql).all(...sql.exact.params);
  }
  const total =
    counted ?? reusedStatement<unknown[], { total: number }>(db, sql.countSql).get(...sql.countParams)!.total;
  return { rows, total };
}

/**
 * Every candidate of a query with a check, in result order, and what `alongside` reads of them in the
 * same transaction (the positions of search/check/positions.ts); null as for {@link runSearch}.
 */
export function runCandidates<T>(
  db: Db,
  query: QueryNode,
  sql: SqlPart & { phraseRank?: string },
  visibilityKey: string,
  alongside: (rows: readonly CandidateRow[]) => T,
): { rows: CandidateRow[]; alongside: T } | null {
  registerSearchFunctions(db);
  return db.transaction((): { rows: CandidateRow[]; alongside: T } | null => {
    if (storedVisibility(db) !== visibilityKey) return null;
    checkSearchWork(db, query);
    const rows = rankedNow(db, sql.phraseRank, () =>
      reusedStatement<unknown[], CandidateRow>(db, sql.sql).all(...sql.params),
    );
    return { rows, alongside: alongside(rows) };
  })();
}

/**
 * The most text one search may read and check, counted as the bytes of the candidate notes it reads
 * times the weight of the terms checked in them (a word or phrase 1, a regex its
 * {@link regexWeight}). Measured in-process on the 10k bench vault under load: reading and checking
 * ran at about 60 MB/s, so the bound is a few seconds of work, done in slices between which other
 * requests are answered. A small regex alone over the 81 MB of the 10k vault is within it.
 */
export const MAX_SCAN_WORK = 256_000_000;
/**
 * The most work one note's check may be (same units): a note is checked in one piece, without
 * yielding, so this is how long one search can hold up every other request, about half a second.
 * A 5 MB note (the largest an agent can write) checked for six words, or for a small regex, is within it.
 */
export const MAX_NOTE_SCAN_WORK = 32_000_000;

export interface CheckedPage {
  readonly rows: CandidateRow[];
  readonly total: number;
  readonly more: boolean;
}

/**
 * Checks the candidates in order and pages those that pass: `keep` (the request's own last word on a
 * row, the policy) runs first and a row it refuses is never read. Throws `too_large` before reading
 * anything when the notes to read are past {@link MAX_SCAN_WORK}.
 */
export async function checkCandidates(
  candidates: readonly CandidateRow[],
  check: Check,
  factsOf: (row: CandidateRow) => CandidateFacts,
  page: {
    limit: number;
    after?: SearchPosition;
    keep: (row: CandidateRow) => boolean;
    maxWork?: number;
    /** The most work one note's check may be ({@link MAX_NOTE_SCAN_WORK} by default). */
    maxNoteWork?: number;
    /** Whether the index keeps the note's layout, so scopes it answers read no text (search/check/positions.ts). */
    hasLayout?: (row: CandidateRow) => boolean;
    /** Its safe points: yields to other requests now and then, stops when cancelled. */
    work?: Work;
  },
): Promise<CheckedPage> {
  const kept = candidates.filter(page.keep);
  const maxWork = page.maxWork ?? MAX_SCAN_WORK;
  if (checkNeedsText(check)) {
    const always = checkNeedsText(check, true);
    const reads = (row: CandidateRow) => always || page.hasLayout?.(row) !== true;
    const terms = Math.max(1, countChecked(check));
    const read = kept.filter(reads);
    const bytes = read.reduce((n, r) => n + r.size, 0);
    if (bytes * terms > maxWork) {
      throw new NotedError(
        'too_large',
        `This search would read and check ${read.length.toLocaleString('en-US')} notes (${mb(bytes)} MB of text, checked at a cost of ${terms} a byte: a word or phrase costs 1, a regex more the larger it compiles) for its line:, block:, section:, match-case: or /regex/ parts; the limit is ${mb(maxWork)} million. ` +
          'Narrow it with words the notes must contain (they are found by the index, not read), a path: or tag:, or the folder argument; use smaller regexes.',
        { limit: maxWork, actual: bytes * terms, candidates: read.length },
      );
    }
    const largest = read.reduce(
      (big: CandidateRow | undefined, r) => (big && big.size >= r.size ? big : r),
      undefined,
    );
    const maxNote = page.maxNoteWork ?? MAX_NOTE_SCAN_WORK;
    if (largest && largest.size * terms > maxNote) {
      throw new NotedError(
        'too_large',
        `This search would check the note "${largest.path}" (${mb(largest.size)} MB) in one piece at a cost of ${terms} a byte (a word or phrase costs 1, a regex more the larger it compiles), and one note may cost at most ${mb(maxNote)} million: checking it would hold up every other request. ` +
          'Use fewer or smaller regexes (counted repetition such as .{0,200} is what makes them large), or leave that note out with a path: or the folder argument.',
        { limit: maxNote, actual: largest.size * terms, candidates: read.length },
      );
    }
  }
  const passed: CandidateRow[] = [];
  const work = page.work ?? unobservedWork();
  for (const row of kept) {
    if (passes(check, row, factsOf(row))) passed.push(row);
    await work.checkpoint();
  }
  const start = page.after === undefined ? 0 : passed.findIndex((r) => comparePosition(r, page.after!) > 0);
  const from = start === -1 ? passed.length : start;
  const rows = passed.slice(from, from + page.limit);
  return { rows, total: passed.length, more: from + rows.length < passed.length };
}

function mb(bytes: number): string {
  return (bytes / 1_000_000).toLocaleString('en-US', { maximumFractionDigits: 1 });
}

/** The weight of the terms a check tests in text (each may scan all of it): what a byte costs. */
function countChecked(check: Check): number {
  switch (check.k) {
    case 'col':
      return 0;
    case 'not':
      return countChecked(check.op);
    case 'and':
    case 'or':
      return check.ops.reduce((n, op) => n + countChecked(op), 0);
    case 'node':
      return weighTerms(check.node);
  }
}

/** The query's leaves as its term limit counts them, a regex weighing its {@link regexWeight}. */
function weighTerms(node: QueryNode): number {
  switch (node.kind) {
    case 'not':
      return weighTerms(node.operand);
    case 'and':
    case 'or':
      return node.operands.reduce((n, op) => n + weighTerms(op), 0);
    case 'scope':
      return 1 + (node.operand === null ? 0 : weighTerms(node.operand));
    case 'property':
      return 1 + (node.value?.kind === 'match' ? weighTerms(node.value.query) : 0);
    case 'regex':
      return regexWeight(node.source, node.matchCase === true);
    default:
      return 1;
  }
}
