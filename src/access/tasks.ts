/**
 * @module
 * list_tasks through the gate (SPEC 2, SPEC 10): tasks of visible notes only; `overdue` compares
 * with the local calendar day of the gate's clock (see calendar.ts).
 */
import { type TaskFilters, type TaskResult, taskPage } from '../index/tasks-query.js';
import { normalizeFolderName } from '../vault/names.js';
import { localDay } from './calendar.js';
import type { AccessContext } from './context.js';
import type { Rules } from './rules.js';
import { visibleOption } from './scope.js';

export type TaskQuery = Omit<TaskFilters, 'visible'> & { readonly cursor?: string };

export interface TaskList {
  readonly tasks: TaskResult[];
  /** The day `overdue` compared with: the server's local date, `YYYY-MM-DD`. */
  readonly today: string;
  readonly more: boolean;
  readonly nextCursor?: string;
}

/** Tasks matching every filter given, soonest due first, undated last, then by note and line; one page. */
export function listTasks(ctx: AccessContext, rules: Rules, filters: TaskQuery): TaskList {
  // A folder is checked as every folder argument is (invalid_name for `..` and the like).
  const folder = filters.folder === undefined ? undefined : normalizeFolderName(filters.folder);
  const today = localDay(ctx.now());
  ctx.index.refresh();
  const page = taskPage(
    ctx.index.db,
    { ...filters, ...(folder === undefined ? {} : { folder }), ...visibleOption(rules) },
    today,
  );
  return { ...page, today };
}
