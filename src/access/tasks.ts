/**
 * @module
 * list_tasks through the gate (SPEC 2, SPEC 10): tasks of visible notes only; `overdue` compares
 * with the local calendar day of the gate's clock (see calendar.ts). update_task (SPEC 13.2) changes
 * one of them.
 */
import { NotedError } from '../common/errors.js';
import { type TaskFilters, type TaskResult, taskPage } from '../index/queries/tasks.js';
import type { TaskChange } from '../markdown/task-edit.js';
import { normalizeFolderName } from '../vault/names.js';
import type { AccessContext, Writer } from './context.js';
import { localDay } from './daily/calendar.js';
import type { Rules } from './rules/rules.js';
import { visibleOption } from './rules/scope.js';
import { editNote } from './write.js';

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

/** What update_task changes in one task line (SPEC 13.2). */
export interface TaskUpdate {
  readonly name: string;
  /** 1-based, as list_tasks reports it. */
  readonly line: number;
  readonly expectedEtag: string;
  /** true writes `x`, false a space. */
  readonly done?: boolean;
  readonly status?: string;
  readonly text?: string;
  /** `YYYY-MM-DD` sets the due date, null removes it. */
  readonly due?: string | null;
}

/**
 * Changes one task line through the one write path of edit_note, under the note's etag: staged,
 * journaled and undoable like any edit; `conflict` when the line is no longer a task.
 */
export function updateTask(ctx: AccessContext, rules: Rules, who: Writer, input: TaskUpdate) {
  if (input.done !== undefined && input.status !== undefined) {
    throw new NotedError(
      'validation_error',
      'Give done or status, not both: done true writes "x" and false a space; status writes any one character.',
    );
  }
  const status = input.done === undefined ? input.status : input.done ? 'x' : ' ';
  const change: TaskChange = {
    ...(status === undefined ? {} : { status }),
    ...(input.text === undefined ? {} : { text: input.text }),
    ...(input.due === undefined ? {} : { due: input.due }),
  };
  return editNote(ctx, rules, who, {
    name: input.name,
    operation: { kind: 'update_task', line: input.line, change },
    expectedEtag: input.expectedEtag,
    tool: 'update_task',
  });
}
