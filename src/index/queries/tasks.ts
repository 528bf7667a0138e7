/**
 * @module
 * list_tasks over `note_tasks` (OBSIDIAN.md §4): a task is done when its status is any character but
 * a space (TSK-02); its due date comes from the Tasks emoji form or a Dataview `[due:: …]` field
 * (§4.3). Soonest due first, undated last, then by note and line. Every filter narrows; a filter
 * that cannot be understood is refused, naming the argument.
 */

import { decodeCursor, encodeCursor } from '../../common/cursor.js';
import { NotedError } from '../../common/errors.js';
import { foldName } from '../../markdown/link-key.js';
import { isCalendarDate } from '../../markdown/task-syntax.js';
import type { Db } from '../db/database.js';
import { type VisibilityOption, visibleRows } from '../store/visibility.js';
import { checkTag } from './tags.js';

export interface TaskFilters extends VisibilityOption {
  /** `open` (default), `done` (any non-space status), `all`, or one status character such as `-`. */
  readonly status?: string;
  /** A folder; its sub-folders are included. */
  readonly folder?: string;
  /** Notes carrying the tag or a tag nested below it. */
  readonly tag?: string;
  /** Inclusive `YYYY-MM-DD`. */
  readonly due_from?: string;
  /** Inclusive `YYYY-MM-DD`. */
  readonly due_to?: string;
  /** Open tasks due before `today`. */
  readonly overdue?: boolean;
  /** Only tasks without a due date. */
  readonly no_due?: boolean;
  /** Case-insensitive substring of the task text. */
  readonly text?: string;
  /** Default 50. */
  readonly limit?: number;
}

export interface TaskResult {
  readonly note: string;
  /** The note's etag as indexed: update_task's expected_etag. */
  readonly etag: string;
  /** 1-based. */
  readonly line: number;
  readonly text: string;
  readonly done: boolean;
  /** The character between the brackets. */
  readonly status: string;
  readonly due: string | null;
}

const DEFAULT_LIMIT = 50;

interface TaskRow {
  readonly path: string;
  readonly etag: string;
  readonly line: number;
  readonly text: string;
  readonly status: string;
  readonly done: number;
  readonly due: string | null;
  readonly ord: number;
}

/**
 * Tasks matching every filter given, soonest due first, undated last, then by note path and line.
 * `today` (`YYYY-MM-DD`, the caller's calendar day) is what `overdue` compares with; the clock is
 * never read here.
 *
 * @example
 * listTasks(db, { status: 'open', due_to: '2026-12-31', limit: 50 }, '2026-05-01')
 */
export function listTasks(db: Db, filters: TaskFilters, today: string): TaskResult[] {
  return taskPage(db, filters, today).tasks;
}

export interface TaskPage {
  readonly tasks: TaskResult[];
  /** True when more tasks follow; `nextCursor` reads them. */
  readonly more: boolean;
  readonly nextCursor?: string;
}

/**
 * Where a page ended: the last task's due date (null among the undated), note path, line, and its
 * place among the tasks of that line (`o`; absent in older cursors: the first).
 */
interface TaskPosition {
  readonly d: string | null;
  readonly p: string;
  readonly l: number;
  readonly o?: number;
}

function isTaskPosition(data: unknown): data is TaskPosition {
  const c = data as Partial<TaskPosition> | null;
  return (typeof c?.d === 'string' || c?.d === null) && typeof c.p === 'string' && Number.isSafeInteger(c.l);
}

/** After the cursor's line, or on it after its task (several tasks may share an HTML note's line). */
const AFTER_LINE = '(t.line > ? OR (t.line = ? AND t.ord > ?))';

/**
 * One page of listTasks. The cursor holds the last task's place in the order (keyset: due date,
 * note, line), so a page boundary stays put while tasks elsewhere are added or ticked off.
 */
export function taskPage(
  db: Db,
  filters: TaskFilters & { readonly cursor?: string },
  today: string,
): TaskPage {
  const plan = planTaskQuery(db, filters, today);
  const after = filters.cursor === undefined ? null : decodeCursor('tasks', filters.cursor, isTaskPosition);
  const out: TaskResult[] = [];
  let lastOrd = 0;
  if (plan.limit === 0) return { tasks: out, more: false };
  const visible = filters.visible;
  // Hidden notes' tasks left out of the index range itself: the time does not tell what they hold (issue 35).
  const hidden = [visibleRows(db, filters, 't')];
  const phases: { where: string[]; params: unknown[]; order: string }[] = [];
  if (!filters.no_due && (after === null || after.d !== null)) {
    const past =
      after === null
        ? { where: [], params: [] }
        : {
            where: [`(t.due > ? OR (t.due = ? AND (n.path > ? OR (n.path = ? AND ${AFTER_LINE}))))`],
            params: [after.d, after.d, after.p, after.p, after.l, after.l, after.o ?? 0],
          };
    phases.push({
      where: ['t.due IS NOT NULL', ...past.where],
      params: past.params,
      order: 't.due, n.path, t.line, t.ord',
    });
  }
  if (!plan.needsDue) {
    const past =
      after === null || after.d !== null
        ? { where: [], params: [] }
        : {
            where: [`(n.path > ? OR (n.path = ? AND ${AFTER_LINE}))`],
            params: [after.p, after.p, after.l, after.l, after.o ?? 0],
          };
    phases.push({
      where: ['t.due IS NULL', ...past.where],
      params: past.params,
      order: 'n.path, t.line, t.ord',
    });
  }
  for (const phase of phases) {
    const sql = `SELECT n.path, n.etag, t.line, t.text, t.status, t.done, t.due, t.ord
      FROM note_tasks t JOIN notes n ON n.id = t.note_id
      WHERE ${[...phase.where, ...plan.where, ...hidden].join(' AND ')} ORDER BY ${phase.order}`;
    for (const row of db.prepare<unknown[], TaskRow>(sql).iterate(...phase.params, ...plan.params)) {
      if (visible && !visible(row.path)) continue;
      if (out.length === plan.limit) {
        const last = out[out.length - 1] as TaskResult;
        const position: TaskPosition = { d: last.due, p: last.note, l: last.line, o: lastOrd };
        return { tasks: out, more: true, nextCursor: encodeCursor('tasks', position) };
      }
      lastOrd = row.ord;
      out.push({
        note: row.path,
        etag: row.etag,
        line: row.line,
        text: row.text,
        done: row.done === 1,
        status: row.status,
        due: row.due,
      });
    }
  }
  return { tasks: out, more: false };
}

interface TaskPlan {
  readonly where: string[];
  readonly params: unknown[];
  /** True when a due-date filter leaves undated tasks out. */
  readonly needsDue: boolean;
  readonly limit: number;
}

function planTaskQuery(db: Db, filters: TaskFilters, today: string): TaskPlan {
  const where: string[] = [];
  const params: unknown[] = [];
  const status = filters.status ?? 'open';
  if (typeof status !== 'string') {
    refuse('status', 'must be a string: "open", "done", "all" or one status character.');
  }
  const open = status === 'open' || status === ' ';
  if (status === 'open') where.push('t.done = 0');
  else if (status === 'done') where.push('t.done = 1');
  else if (status !== 'all') {
    if ([...status].length !== 1) {
      refuse(
        'status',
        `is ${JSON.stringify(status)}; use "open", "done", "all" or a single status character such as "x" or "-".`,
      );
    }
    where.push('t.status = ?');
    params.push(status);
  }
  const from = checkDate(filters.due_from, 'due_from');
  const to = checkDate(filters.due_to, 'due_to');
  if (from !== null && to !== null && from > to) {
    refuse('due_from', `(${from}) is after due_to (${to}), so no task could match; swap them.`);
  }
  if (from !== null) {
    where.push('t.due >= ?');
    params.push(from);
  }
  if (to !== null) {
    where.push('t.due <= ?');
    params.push(to);
  }
  if (filters.overdue) {
    if (!open) {
      refuse(
        'overdue',
        `applies to open tasks only, but status is ${JSON.stringify(status)}; leave status out or set it to "open".`,
      );
    }
    where.push('t.due < ?');
    params.push(checkDate(today, 'today'));
  }
  if (filters.no_due && (from !== null || to !== null || filters.overdue)) {
    refuse(
      'no_due',
      'asks for tasks without a due date, so it cannot be combined with due_from, due_to or overdue.',
    );
  }
  if (filters.folder !== undefined) {
    const folder = normalizeFolder(filters.folder);
    if (folder !== '') {
      where.push('(n.folder_lower = ? OR substr(n.folder_lower, 1, ?) = ?)');
      params.push(folder, folder.length + 1, `${folder}/`);
    }
  }
  if (filters.tag !== undefined) {
    where.push(
      `t.note_id IN (SELECT note_id FROM note_tag_prefixes p WHERE ${visibleRows(db, filters, 'p')} AND p.tag_lower = ?)`,
    );
    params.push(checkTag(filters.tag, 'tag'));
  }
  if (filters.text !== undefined && typeof filters.text !== 'string') refuse('text', 'must be a string.');
  if (filters.text) {
    where.push('instr(t.text_fold, ?) > 0');
    params.push(foldName(filters.text));
  }
  const limit = filters.limit ?? DEFAULT_LIMIT;
  if (!Number.isInteger(limit) || limit < 0)
    refuse('limit', `must be a whole number of 0 or more, got ${limit}.`);
  return { where, params, needsDue: from !== null || to !== null || filters.overdue === true, limit };
}

/** A folder argument as `folder_lower` holds it: `\` read as `/`, no leading or trailing `/`. */
export function normalizeFolder(folder: string): string {
  if (typeof folder !== 'string')
    refuse('folder', 'must be a folder path as a string, such as "projects/alpha".');
  return foldName(folder.replace(/\\/g, '/').replace(/^\/+|\/+$/g, ''));
}

function checkDate(value: string | undefined, argument: string): string | null {
  if (value === undefined) return null;
  if (typeof value !== 'string' || !isCalendarDate(value)) {
    refuse(
      argument,
      `must be a date written YYYY-MM-DD, such as "2026-05-01"; got ${JSON.stringify(value)}.`,
    );
  }
  return value;
}

function refuse(argument: string, problem: string): never {
  throw new NotedError('validation_error', `${argument} ${problem}`, { argument });
}
