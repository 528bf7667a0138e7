/**
 * @module
 * What query_notes' operators mean for one property value (SPEC 2.4). Pure. The rules, which the
 * README repeats:
 *
 * - Text compares case-insensitively (NFC). A value that looks like a date (`YYYY-MM-DD`, optionally
 *   `THH:mm[:ss[.sss]]` or with a space for `T`, optionally `Z` or an offset) compares as a date;
 *   times without a zone are read as UTC, the zone `$modified`/`$created` are reported in.
 * - `equals` compares the whole value, loosely like Bases `==`: a number equals the same number
 *   written as text, a checkbox equals `"true"`/`"false"`; two dates are equal on the same day when
 *   either is a plain date, else at the same instant; a list equals a list with equal items in the
 *   same order, never a single value (use `contains`).
 * - `contains`: a list contains an equal item (for `tags` and `$tags`, a tag or one nested below
 *   it); text contains the substring; numbers and checkboxes contain nothing.
 * - `gt`/`lt`/`gte`/`lte` with a number compare numbers (text holding a number counts); with a date
 *   they compare dates, and a plain date compares by day. `before`/`after` are `lt`/`gt` for dates.
 *   A value of another kind never matches (Bases' null propagation): no row is added or refused.
 * - Empty means missing, null, `""`, `[]` or `{}`. `not_equals` and `not_contains` are the exact
 *   negations, so they match notes without the property.
 */

import type { JsonValue } from '../../markdown/frontmatter/frontmatter.js';
import { foldName } from '../../markdown/link-key.js';
import { tagMatches } from '../../markdown/tag-match.js';
import { isCalendarDate } from '../../markdown/task-syntax.js';

/** A property's value in one note; `undefined` when the note does not have it. */
export type PropertyValue = JsonValue | undefined;

export type Scalar = string | number | boolean;

/** A comparison operand: a number, or a date as a sortable key. */
export type Operand = { readonly kind: 'number'; readonly n: number } | DateOperand;

export interface DateOperand {
  readonly kind: 'date';
  /** `YYYY-MM-DDTHH:mm:ss.sss`, UTC. */
  readonly key: string;
  /** True for a plain `YYYY-MM-DD`: then comparisons are by day. */
  readonly dateOnly: boolean;
}

/** How a property's text is read: plain, as a note name, as a folder, or as tags. */
export type Flavor = 'plain' | 'name' | 'folder' | 'tags';

const DATE_TEXT =
  /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})?)?$/;
const NUMERIC_TEXT = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/**
 * A date or date-time text as a sortable UTC key, or null when the text is no date.
 *
 * @example
 * parseDate('2024-05-01T10:30') // { kind: 'date', key: '2024-05-01T10:30:00.000', dateOnly: false }
 */
export function parseDate(text: string): DateOperand | null {
  const m = DATE_TEXT.exec(text.trim());
  if (!m) return null;
  const [, day = '', hh, mm, ss = '00', frac = '', zone] = m;
  if (!isCalendarDate(day)) return null;
  if (hh === undefined) return { kind: 'date', key: `${day}T00:00:00.000`, dateOnly: true };
  if (Number(hh) > 23 || Number(mm) > 59 || Number(ss) > 59) return null;
  const ms = frac.padEnd(3, '0').slice(0, 3);
  const local = `${day}T${hh}:${mm}:${ss}.${ms}`;
  if (zone === undefined || zone === 'Z') return { kind: 'date', key: local, dateOnly: false };
  const sign = zone.startsWith('-') ? -1 : 1;
  const digits = zone.slice(1).replace(':', '');
  const offsetMs = sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2))) * 60_000;
  const utc = new Date(Date.parse(`${local}Z`) - offsetMs).toISOString().slice(0, -1);
  return { kind: 'date', key: utc, dateOnly: false };
}

/** A number written as text (`"5"`, `"-2.5"`), or null. */
export function parseNumeric(text: string): number | null {
  const t = text.trim();
  return NUMERIC_TEXT.test(t) ? Number(t) : null;
}

export function isEmptyValue(value: PropertyValue): boolean {
  if (value === undefined || value === null || value === '') return true;
  if (Array.isArray(value)) return value.length === 0;
  return typeof value === 'object' && Object.keys(value).length === 0;
}

/** `equals`: the whole value (see the module notes). */
export function valueEquals(
  value: PropertyValue,
  wanted: Scalar | readonly Scalar[],
  flavor: Flavor,
): boolean {
  if (value === undefined || value === null) return false;
  if (Array.isArray(wanted)) {
    if (!Array.isArray(value) || value.length !== wanted.length) return false;
    return value.every((item, i) => scalarEquals(item, wanted[i] as Scalar, flavor));
  }
  if (Array.isArray(value)) return false;
  return scalarEquals(value, wanted as Scalar, flavor);
}

/** `contains`: list membership, or a substring of text (see the module notes). */
export function valueContains(value: PropertyValue, wanted: Scalar, flavor: Flavor): boolean {
  if (value === undefined || value === null) return false;
  if (Array.isArray(value)) {
    if (flavor === 'tags') {
      return typeof wanted === 'string' && value.some((t) => typeof t === 'string' && tagMatches(t, wanted));
    }
    return value.some((item) => scalarEquals(item, wanted, flavor));
  }
  if (typeof value !== 'string') return false;
  if (flavor === 'tags') return typeof wanted === 'string' && tagMatches(value, wanted);
  return foldName(value).includes(foldName(String(wanted)));
}

/** The sign of `value - operand`, or null when they cannot be compared. */
export function compareToOperand(value: PropertyValue, operand: Operand): number | null {
  if (operand.kind === 'number') {
    const n = typeof value === 'number' ? value : typeof value === 'string' ? parseNumeric(value) : null;
    return n === null ? null : Math.sign(n - operand.n);
  }
  if (typeof value !== 'string') return null;
  const date = parseDate(value);
  return date === null ? null : compareDateKey(date.key, operand);
}

/** The sign of `key - operand` for a date key; by day when the operand is a plain date. */
export function compareDateKey(key: string, operand: DateOperand): number {
  const [a, b] = operand.dateOnly ? [key.slice(0, 10), operand.key.slice(0, 10)] : [key, operand.key];
  return a < b ? -1 : a > b ? 1 : 0;
}

function scalarEquals(value: JsonValue, wanted: Scalar, flavor: Flavor): boolean {
  if (value === null || typeof value === 'object') return false;
  if (typeof value === 'string' && typeof wanted === 'string') return textEquals(value, wanted, flavor);
  if (typeof value === 'number') {
    if (typeof wanted === 'number') return value === wanted;
    return typeof wanted === 'string' && parseNumeric(wanted) === value;
  }
  if (typeof value === 'boolean') {
    if (typeof wanted === 'boolean') return value === wanted;
    return typeof wanted === 'string' && foldName(wanted.trim()) === String(value);
  }
  // Text holding a number or a checkbox word, against a number or a boolean.
  if (typeof wanted === 'number') return parseNumeric(value) === wanted;
  return foldName(value.trim()) === String(wanted);
}

function textEquals(value: string, wanted: string, flavor: Flavor): boolean {
  switch (flavor) {
    case 'name':
      return stripMd(foldName(value)) === stripMd(foldName(wanted.trim()));
    case 'folder':
      return foldName(value) === foldName(wanted.replace(/\\/g, '/').replace(/^\/+|\/+$/g, ''));
    case 'tags':
      return foldName(stripHash(value)) === foldName(stripHash(wanted.trim()));
    default: {
      const a = parseDate(value);
      const b = a && parseDate(wanted);
      if (a && b) {
        return a.dateOnly || b.dateOnly ? a.key.slice(0, 10) === b.key.slice(0, 10) : a.key === b.key;
      }
      return foldName(value) === foldName(wanted);
    }
  }
}

/** A value's place in a sort, computed once per note. */
export interface SortPlace {
  readonly rank: number;
  readonly key: number | string;
}

/**
 * Where a non-empty value sorts: numbers, then dates, then text, then checkboxes, then lists, then
 * objects; within a kind by number, date, case-folded text. Empty values are the caller's to put last.
 */
export function sortPlace(value: JsonValue): SortPlace {
  if (typeof value === 'number') return { rank: 0, key: value };
  if (typeof value === 'string') {
    const date = parseDate(value);
    return date ? { rank: 1, key: date.key } : { rank: 2, key: foldName(value) };
  }
  if (typeof value === 'boolean') return { rank: 3, key: value ? 1 : 0 };
  if (Array.isArray(value)) return { rank: 4, key: foldName(value.map((v) => String(v)).join('\u0000')) };
  return { rank: 5, key: JSON.stringify(value) };
}

export function compareSortPlaces(a: SortPlace, b: SortPlace): number {
  if (a.rank !== b.rank) return a.rank - b.rank;
  if (typeof a.key === 'number' && typeof b.key === 'number') return a.key - b.key;
  return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
}

/** A `$name` compares with or without its note ending, whichever format the vault has (SPEC 11.1). */
function stripMd(text: string): string {
  return text.replace(/\.(?:md|html)$/, '');
}

function stripHash(text: string): string {
  return text.startsWith('#') ? text.slice(1) : text;
}
