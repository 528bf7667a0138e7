/**
 * @module
 * query_notes through the gate (SPEC 2.4): a table view over the properties of visible notes. The
 * request goes to the index's engine as the agent wrote it; whatever the engine cannot understand
 * it refuses (`validation_error`), and a `has_link` name is read among visible notes only. `where`,
 * one Bases filter (SPEC 16.3), is evaluated by the Bases evaluator over the visible notes.
 */

import type { FilterNode } from '../bases/base-file.js';
import { loadMoment } from '../bases/dates.js';
import { Evaluator } from '../bases/evaluate.js';
import { FilterInputError, filterFromInput } from '../bases/filter-input.js';
import { passes } from '../bases/view.js';
import { NotedError } from '../common/errors.js';
import { candidateFiles, indexHost } from '../index/table/base-rows.js';
import { type QueryResult, queryNotes as queryNotesOf } from '../index/table/query.js';
import { normalizeFolderName } from '../vault/names.js';
import type { AccessContext } from './context.js';
import { localDay } from './daily/calendar.js';
import type { Rules } from './rules/rules.js';
import { visibleOption } from './rules/scope.js';

/** A query_notes request: `folder`, `tag`, `filters`, `sort`, `columns`, `limit`, `where` (SPEC 2.4). */
export type TableQuery = Readonly<Record<string, unknown>>;

export interface TableResult extends QueryResult {
  /** The day `"today"` stood for: the server's local date, `YYYY-MM-DD`. */
  readonly today: string;
}

export async function queryNotes(
  ctx: AccessContext,
  rules: Rules,
  request: TableQuery,
): Promise<TableResult> {
  const q: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(request))
    if (value !== undefined && key !== 'where') q[key] = value;
  // A folder is checked as every folder argument is (invalid_name for `..` and the like).
  if (typeof q.folder === 'string') q.folder = normalizeFolderName(q.folder);
  const today = localDay(ctx.now());
  ctx.index.refresh();
  const keep = request.where === undefined ? undefined : await whereFilter(ctx, rules, request.where);
  return {
    ...queryNotesOf(ctx.index.db, q, {
      today,
      ...visibleOption(rules),
      ...(keep === undefined ? {} : { keep }),
    }),
    today,
  };
}

/** The notes passing a Bases filter, as a predicate over paths. */
async function whereFilter(
  ctx: AccessContext,
  rules: Rules,
  where: unknown,
): Promise<(path: string) => boolean> {
  let filter: FilterNode;
  try {
    filter = filterFromInput(where);
  } catch (err) {
    if (!(err instanceof FilterInputError)) throw err;
    const at = err.line === undefined ? '' : ` (line ${err.line}, column ${err.column})`;
    throw new NotedError('validation_error', `${err.where}${at}: ${err.message}`, {
      where: err.where,
      ...(err.line === undefined ? {} : { line: err.line, column: err.column }),
    });
  }
  const db = ctx.index.db;
  const candidates = candidateFiles(db, [filter], visibleOption(rules));
  const host = indexHost(db, rules.visible, () => ctx.now().getTime(), await loadMoment(), candidates);
  const ev = new Evaluator(host, new Map(), null);
  const passing = new Set<string>();
  for (const facts of candidates) {
    const row = ev.row(facts);
    if (passes(ev, filter, row)) passing.add(facts.path);
  }
  return (path) => passing.has(path);
}
