/**
 * @module
 * query_notes through the gate (SPEC 2.4): a table view over the properties of visible notes. The
 * request goes to the index's engine as the agent wrote it; whatever the engine cannot understand
 * it refuses (`validation_error`), and a `has_link` name is read among visible notes only.
 */
import { type QueryResult, queryNotes as queryNotesOf } from '../index/table/query.js';
import { normalizeFolderName } from '../vault/names.js';
import type { AccessContext } from './context.js';
import { localDay } from './daily/calendar.js';
import type { Rules } from './rules/rules.js';
import { visibleOption } from './rules/scope.js';

/** A query_notes request: `folder`, `tag`, `filters`, `sort`, `columns`, `limit` (SPEC 2.4). */
export type TableQuery = Readonly<Record<string, unknown>>;

export interface TableResult extends QueryResult {
  /** The day `"today"` stood for: the server's local date, `YYYY-MM-DD`. */
  readonly today: string;
}

export function queryNotes(ctx: AccessContext, rules: Rules, request: TableQuery): TableResult {
  const q: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(request)) if (value !== undefined) q[key] = value;
  // A folder is checked as every folder argument is (invalid_name for `..` and the like).
  if (typeof q.folder === 'string') q.folder = normalizeFolderName(q.folder);
  const today = localDay(ctx.now());
  ctx.index.refresh();
  return { ...queryNotesOf(ctx.index.db, q, { today, ...visibleOption(rules) }), today };
}
