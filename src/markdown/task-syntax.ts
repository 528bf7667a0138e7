/**
 * @module
 * One task line: the list-item checkbox of OBSIDIAN.md TSK-01/04 and the due date in the Tasks
 * emoji form or the Dataview inline-field form (§4.3). Pure string functions, one line at a time.
 */

/** A task line's parts. `indent` counts columns of whitespace before the list marker. */
export interface TaskLine {
  readonly status: string;
  readonly text: string;
  readonly indent: number;
  /** Offset of the status character in the line. */
  readonly statusAt: number;
  /** Offset just past the whitespace character that follows `]`: where the (untrimmed) text starts. */
  readonly textAt: number;
}

/**
 * Parses a list item with a checkbox: optional `>` quote markers, whitespace, a marker (`-`, `*`,
 * `+`, or 1–9 digits and `.` or `)`), whitespace, `[c]` with exactly one character c (any, a space
 * included), then at least one whitespace character. A `- [ ]` that ends the line with nothing after
 * it is not a task (GFM needs the whitespace); `- [ ] ` with trailing whitespace is a task with empty
 * text. Tabs in the indentation count up to the next multiple of 4 (CommonMark tab stops).
 *
 * @example
 * parseTaskLine('  - [x] ship it') // { status: 'x', text: 'ship it', indent: 2, statusAt: 5, textAt: 8 }
 */
export function parseTaskLine(line: string): TaskLine | null {
  let i = 0;
  let indent = 0;
  for (;;) {
    const c = line.charCodeAt(i);
    if (c === 0x20) indent++;
    else if (c === 0x09) indent += 4 - (indent % 4);
    else if (c === 0x3e /* > */) {
      // A quote marker takes one following space with it; indentation restarts inside the quote.
      indent = 0;
      if (line.charCodeAt(i + 1) === 0x20) i++;
    } else break;
    i++;
  }
  const marker = line.charCodeAt(i);
  if (marker === 0x2d || marker === 0x2a || marker === 0x2b) {
    i++;
  } else {
    const digitsStart = i;
    while (i < line.length && i - digitsStart < 10 && isDigit(line.charCodeAt(i))) i++;
    const n = i - digitsStart;
    if (n === 0 || n > 9) return null;
    const delim = line.charCodeAt(i);
    if (delim !== 0x2e && delim !== 0x29) return null;
    i++;
  }
  if (!isSpaceOrTab(line.charCodeAt(i))) return null;
  while (isSpaceOrTab(line.charCodeAt(i))) i++;
  if (line.charCodeAt(i) !== 0x5b /* [ */) return null;
  if (i + 1 >= line.length) return null;
  const status = String.fromCodePoint(line.codePointAt(i + 1) ?? 0);
  const close = i + 1 + status.length;
  if (line.charCodeAt(close) !== 0x5d /* ] */) return null;
  if (!isWhitespace(line.charCodeAt(close + 1))) return null;
  return { status, text: line.slice(close + 2).trim(), indent, statusAt: i + 1, textAt: close + 2 };
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

function isSpaceOrTab(c: number): boolean {
  return c === 0x20 || c === 0x09;
}

/** GFM's whitespace character (line breaks cannot occur inside a line). */
function isWhitespace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0b || c === 0x0c;
}

// Tasks anchors every field at the end of the line and peels them off right to left (§4.3). The
// variation selector U+FE0F is accepted after each signifier (Dataview writes `🗓️`), which is
// more generous than Tasks itself.
const TRAILING_BLOCK_ID = /\s\^[a-zA-Z0-9-]+$/;
const DUE_FIELD = /(?:📅|📆|🗓)\uFE0F? *(\d{4}-\d{2}-\d{2})$/u;
const OTHER_DATE_FIELD = /(?:⏳|⌛|🛫|➕|✅|❌|⏰)\uFE0F? *\d{4}-\d{2}-\d{2}$/u;
const RECURRENCE_FIELD = /🔁\uFE0F? ?[a-zA-Z0-9, !]+$/u;
const PRIORITY_FIELD = /(?:🔺|⏫|🔼|🔽|⏬)\uFE0F?$/u;
const ID_FIELD = /🆔\uFE0F? *[a-zA-Z0-9-_]+$/u;
const DEPENDS_FIELD = /⛔\uFE0F? *[a-zA-Z0-9-_]+(?: *, *[a-zA-Z0-9-_]+)*$/u;
const TRAILING_TAG = /(?:^|\s)#[^\u2000-\u206F\u2E00-\u2E7F'!"#$%&()*+,.:;<=>?@^`{|}~[\]\\\s]+$/u;
const DATAVIEW_DUE =
  /(?:\[\s*due\s*::\s*(\d{4}-\d{2}-\d{2})\s*\]|\(\s*due\s*::\s*(\d{4}-\d{2}-\d{2})\s*\))/giu;
const TRAILING_FIELDS = [
  OTHER_DATE_FIELD,
  RECURRENCE_FIELD,
  PRIORITY_FIELD,
  ID_FIELD,
  DEPENDS_FIELD,
  TRAILING_TAG,
];

/** Where a task's due date is written: the whole field, and the date inside it. */
export interface DueField {
  readonly date: string;
  /** `emoji`: the Tasks form `📅 YYYY-MM-DD`; `dataview`: `[due:: YYYY-MM-DD]` or `(due:: …)`. */
  readonly form: 'emoji' | 'dataview';
  /** Offsets of the field in the text, signifier or brackets included. */
  readonly start: number;
  readonly end: number;
  /** Offset of the date inside the text. */
  readonly dateAt: number;
}

/**
 * The due date of a task's text, or null. First the Tasks emoji form (`📅`, `📆` or `🗓`, optional
 * spaces, `YYYY-MM-DD`), read from the end of the line past other Tasks fields, tags and a trailing
 * ` ^block-id`; the rightmost due field wins. Otherwise the first Dataview field `[due:: YYYY-MM-DD]`
 * or `(due:: YYYY-MM-DD)` anywhere in the text (key case-insensitive). Dates that are not real
 * calendar dates (`2024-02-30`) are ignored.
 *
 * @example
 * parseDueDate('pay rent 📅 2024-05-01 #money ^rent') // '2024-05-01'
 */
export function parseDueDate(text: string): string | null {
  return findDueField(text)?.date ?? null;
}

/**
 * The field `parseDueDate` reads the due date from, with where it is, or null.
 *
 * @example
 * findDueField('pay 📅 2024-05-01') // { date: '2024-05-01', form: 'emoji', start: 4, end: 17, dateAt: 7 }
 */
export function findDueField(text: string): DueField | null {
  return emojiDueField(text) ?? dataviewDueField(text);
}

function emojiDueField(text: string): DueField | null {
  let rest = text.trimEnd();
  const blockId = TRAILING_BLOCK_ID.exec(rest);
  if (blockId) rest = rest.slice(0, blockId.index).trimEnd();
  // Each round removes one field; a line has few, so the bound only guards against a bug.
  for (let round = 0; round < 64 && rest !== ''; round++) {
    const due = DUE_FIELD.exec(rest);
    if (due) {
      const date = due[1] ?? '';
      // `rest` is always a prefix of `text`, so offsets in it are offsets in the text.
      const end = due.index + due[0].length;
      if (isCalendarDate(date))
        return { date, form: 'emoji', start: due.index, end, dateAt: end - date.length };
      rest = rest.slice(0, due.index).trimEnd();
      continue;
    }
    const cut = trailingFieldStart(rest);
    if (cut === -1) return null;
    rest = rest.slice(0, cut).trimEnd();
  }
  return null;
}

function trailingFieldStart(text: string): number {
  for (const re of TRAILING_FIELDS) {
    const m = re.exec(text);
    if (m) return m.index;
  }
  return -1;
}

function dataviewDueField(text: string): DueField | null {
  if (!text.includes('::')) return null;
  for (const m of text.matchAll(DATAVIEW_DUE)) {
    const date = m[1] ?? m[2] ?? '';
    if (!isCalendarDate(date)) continue;
    const end = m.index + m[0].length;
    // The date is the last thing in the brackets but for spaces.
    return { date, form: 'dataview', start: m.index, end, dateAt: m.index + m[0].lastIndexOf(date) };
  }
  return null;
}

/** A trailing ` ^block-id` of a task's text: where it starts (its leading whitespace), or -1. */
export function trailingBlockIdStart(text: string): number {
  return TRAILING_BLOCK_ID.exec(text.trimEnd())?.index ?? -1;
}

/** True for `YYYY-MM-DD` naming a real day of the proleptic Gregorian calendar. */
export function isCalendarDate(date: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return false;
  const year = Number(date.slice(0, 4));
  const month = Number(date.slice(5, 7));
  const day = Number(date.slice(8, 10));
  if (month < 1 || month > 12 || day < 1) return false;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] ?? 0;
  return day <= days;
}
