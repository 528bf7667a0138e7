/**
 * @module
 * update_task (SPEC 13.2) as a pure function: one task line changed — its status character, its
 * text, its due date — and every other byte of the note kept. The line is found by its 1-based number,
 * as list_tasks reports it, and must still be a task where list_tasks would see one (not in code, not
 * in a comment), else the change is refused as a `conflict`.
 */

import { NotedError } from '../common/errors.js';
import { scanNote } from './scan.js';
import {
  findDueField,
  isCalendarDate,
  parseDueDate,
  parseTaskLine,
  trailingBlockIdStart,
} from './task-syntax.js';

export interface TaskChange {
  /** One character for between the brackets: `x` ticks, a space unticks. */
  readonly status?: string;
  /** The new text after the checkbox (what list_tasks reports as `text`). */
  readonly text?: string;
  /** `YYYY-MM-DD` sets the due date, null removes it. */
  readonly due?: string | null;
}

/** A task as list_tasks reports it. */
export interface TaskState {
  readonly line: number;
  readonly status: string;
  readonly done: boolean;
  readonly text: string;
  readonly due: string | null;
}

/** The Tasks plugin's due signifier, used when the line has no due date yet (SPEC 13.2). */
const DUE_EMOJI = '📅';

/**
 * The note with task line `line` changed, and the task as it then reads.
 *
 * @example
 * updateTask('- [ ] call Bo\n', 1, { status: 'x', due: '2026-05-01' }).text // '- [x] call Bo 📅 2026-05-01\n'
 * @throws NotedError `conflict` when the line is not a task (with `currentLine`); `validation_error`
 *   for a change that cannot be written.
 */
export function updateTask(
  text: string,
  line: number,
  change: TaskChange,
): { text: string; task: TaskState } {
  checkChange(change);
  const found = scanNote(text).tasks.find((t) => t.line === line);
  const bounds = lineBounds(text, line);
  if (!found || bounds === null) throw notATask(text, line, bounds);
  const old = text.slice(bounds.start, bounds.end);
  const parsed = parseTaskLine(old);
  if (parsed === null) throw notATask(text, line, bounds);
  let rest = old.slice(parsed.textAt);
  if (change.text !== undefined) rest = change.text.trim();
  if (change.due !== undefined) rest = withDue(rest, change.due);
  const status = change.status ?? parsed.status;
  const next =
    old.slice(0, parsed.statusAt) +
    status +
    old.slice(parsed.statusAt + parsed.status.length, parsed.textAt) +
    rest;
  const reread = parseTaskLine(next);
  if (reread === null || reread.status !== status) {
    throw new NotedError(
      'validation_error',
      'The change would leave the line no longer a task, so nothing was written. Check the text you gave.',
    );
  }
  const task: TaskState = {
    line,
    status: reread.status,
    done: reread.status !== ' ',
    text: reread.text,
    due: parseDueDate(reread.text),
  };
  return { text: text.slice(0, bounds.start) + next + text.slice(bounds.end), task };
}

function checkChange(change: TaskChange): void {
  if (change.status === undefined && change.text === undefined && change.due === undefined) {
    throw new NotedError(
      'validation_error',
      'Nothing to change: give done, status, text or due (null removes the due date).',
    );
  }
  if (change.status !== undefined) {
    const chars = [...change.status];
    if (
      chars.length !== 1 ||
      /[[\]\u0000-\u001f\u007f\u2028\u2029]/.test(change.status) ||
      change.status === '\t'
    ) {
      throw new NotedError(
        'validation_error',
        `status must be one character for between the brackets, such as "x" (done), " " (open), "-" or "/"; got ${JSON.stringify(change.status)}.`,
      );
    }
  }
  if (change.text !== undefined) {
    if (/[\r\n\u2028\u2029]/.test(change.text)) {
      throw new NotedError(
        'validation_error',
        'text must be one line: a task is one line of the note. Add more lines with edit_note.',
      );
    }
    if (change.text.trim() === '') {
      throw new NotedError(
        'validation_error',
        'text is empty. Give the task its new text; to remove the task, use edit_note.',
      );
    }
  }
  if (change.due !== undefined && change.due !== null && !isCalendarDate(change.due)) {
    throw new NotedError(
      'validation_error',
      `due must be a date written YYYY-MM-DD, such as "2026-05-01", or null to remove it; got ${JSON.stringify(change.due)}.`,
    );
  }
}

/**
 * The task text with its due date set or removed, in the form it already has (`📅 date` or
 * `[due:: date]`); a new one is written `📅 date`, before a trailing block id.
 */
function withDue(rest: string, due: string | null): string {
  const trimmed = rest.trimEnd();
  const trailing = rest.slice(trimmed.length);
  const field = findDueField(trimmed);
  if (field !== null) {
    if (due !== null) {
      return (
        trimmed.slice(0, field.dateAt) + due + trimmed.slice(field.dateAt + field.date.length) + trailing
      );
    }
    let start = field.start;
    while (start > 0 && /\s/.test(trimmed[start - 1]!)) start--;
    let end = field.end;
    if (start === 0) while (end < trimmed.length && /\s/.test(trimmed[end]!)) end++;
    return trimmed.slice(0, start) + trimmed.slice(end) + trailing;
  }
  if (due === null) return rest;
  const fieldText = `${DUE_EMOJI} ${due}`;
  if (trimmed === '') return fieldText;
  const blockId = trailingBlockIdStart(trimmed);
  if (blockId === -1) return `${trimmed} ${fieldText}${trailing}`;
  return `${trimmed.slice(0, blockId)} ${fieldText}${trimmed.slice(blockId)}${trailing}`;
}

/** Offsets of line `line` (1-based) without its line break, or null past the end. */
function lineBounds(text: string, line: number): { start: number; end: number } | null {
  let start = 0;
  for (let n = 1; n < line; n++) {
    const nl = text.indexOf('\n', start);
    if (nl === -1) return null;
    start = nl + 1;
  }
  const nl = text.indexOf('\n', start);
  let end = nl === -1 ? text.length : nl;
  if (end > start && text[end - 1] === '\r') end--;
  return { start, end };
}

function notATask(text: string, line: number, bounds: { start: number; end: number } | null): NotedError {
  const currentLine = bounds === null ? null : text.slice(bounds.start, bounds.end).slice(0, 1000);
  const where =
    bounds === null
      ? `The note has no line ${line}`
      : `Line ${line} is no longer a task (it reads ${JSON.stringify(currentLine)})`;
  return new NotedError(
    'conflict',
    `${where}, so nothing was written. The note changed since its tasks were listed, or the line number is off: call list_tasks again (or read the note) and use the line it gives now.`,
    { line, currentLine, committed: false },
  );
}
