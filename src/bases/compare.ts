/**
 * @module
 * Equality, order and text of values. Links equal when they resolve to the same file (or, when
 * neither resolves, when their text is the same), and equal a file they resolve to; lists and
 * objects compare item by item; other values of different types are never equal.
 */
import { dateText, durationText } from './dates.js';
import {
  DateValue,
  DurationValue,
  FileValue,
  LinkValue,
  ObjectValue,
  RegexValue,
  RichValue,
  type Value,
} from './values.js';

/** Where a link or file points: the resolved path, or null. */
function fileOf(v: Value): string | null {
  if (v instanceof FileValue) return v.path;
  if (v instanceof LinkValue) return v.resolved;
  return null;
}

export function valuesEqual(a: Value, b: Value): boolean {
  if (a === b) return true;
  if (a === null || b === null) return false;
  if (a instanceof LinkValue || b instanceof LinkValue || a instanceof FileValue || b instanceof FileValue) {
    const fa = fileOf(a);
    const fb = fileOf(b);
    if (fa !== null && fb !== null) return fa === fb;
    // A link that resolves to nothing equals a link (or text) naming the same thing.
    const ta = a instanceof LinkValue ? a.target : typeof a === 'string' ? a : null;
    const tb = b instanceof LinkValue ? b.target : typeof b === 'string' ? b : null;
    return ta !== null && tb !== null && fa === null && fb === null && ta === tb;
  }
  if (a instanceof DateValue && b instanceof DateValue) return a.ms === b.ms;
  if (a instanceof DurationValue && b instanceof DurationValue) return a.months === b.months && a.ms === b.ms;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((x, i) => valuesEqual(x, b[i] as Value));
  }
  if (a instanceof ObjectValue && b instanceof ObjectValue) {
    if (a.entries.size !== b.entries.size) return false;
    for (const [k, v] of a.entries)
      if (!b.entries.has(k) || !valuesEqual(v, b.entries.get(k) as Value)) return false;
    return true;
  }
  if (a instanceof RegexValue && b instanceof RegexValue) return a.source === b.source && a.flags === b.flags;
  if (a instanceof RichValue && b instanceof RichValue) return a.type === b.type && a.text === b.text;
  return false;
}

/** A number to order by, for numbers, dates (ms), durations (approximate ms) and booleans; else null. */
function magnitude(v: Value): number | null {
  if (typeof v === 'number') return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (v instanceof DateValue) return v.ms;
  if (v instanceof DurationValue) return v.months * 30 * 86_400_000 + v.ms;
  return null;
}

/**
 * `<`, `>`, `<=`, `>=`: numbers, dates, durations and booleans by magnitude; text with text by code
 * units; anything else (null included) compares false.
 */
export function compareForOperator(a: Value, b: Value): number | null {
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  const x = magnitude(a);
  const y = magnitude(b);
  if (x === null || y === null) return null;
  return x < y ? -1 : x > y ? 1 : 0;
}

const RANK: Record<string, number> = { number: 0, date: 1, duration: 2, string: 3, boolean: 4 };

/**
 * A total order for sorting (and `list.sort()`): by kind (numbers, dates, durations, text, booleans,
 * then the rest as text), text case-insensitively with numbers inside it compared as numbers; nulls
 * are placed by the caller.
 */
export function compareForSort(a: Value, b: Value): number {
  const ka = sortKind(a);
  const kb = sortKind(b);
  if (ka !== kb) return ka - kb;
  if (ka === 3 || ka === 5) return collator.compare(valueText(a), valueText(b));
  const x = magnitude(a) ?? 0;
  const y = magnitude(b) ?? 0;
  return x < y ? -1 : x > y ? 1 : 0;
}

const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

function sortKind(v: Value): number {
  if (typeof v === 'number') return RANK.number as number;
  if (v instanceof DateValue) return RANK.date as number;
  if (v instanceof DurationValue) return RANK.duration as number;
  if (typeof v === 'string') return RANK.string as number;
  if (typeof v === 'boolean') return RANK.boolean as number;
  return 5;
}

/** A value as text, what `toString()` and `+` with a string give. */
export function valueText(v: Value): string {
  if (v === null) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return v.map(valueText).join(', ');
  if (v instanceof DateValue) return dateText(v);
  if (v instanceof DurationValue) return durationText(v);
  if (v instanceof LinkValue) return v.display ?? v.target;
  if (v instanceof FileValue) return v.path;
  if (v instanceof ObjectValue) return JSON.stringify(toJson(v));
  if (v instanceof RegexValue) return `/${v.source}/${v.flags}`;
  return (v as RichValue).text;
}

/** The JSON form of a value in a tool's result. */
export type JsonOut = null | string | number | boolean | JsonOut[] | { [key: string]: JsonOut };

/**
 * A value as the JSON of a result: dates as `YYYY-MM-DD` or local `YYYY-MM-DDTHH:mm:ss`, links as
 * `[[target]]` (or `[[target|display]]`, or the URL itself), files as their path, durations as text
 * (`1d 2h`), regular expressions as `/source/flags`.
 */
export function toJson(v: Value): JsonOut {
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return v;
  if (typeof v === 'number') return Number.isFinite(v) ? v : String(v);
  if (Array.isArray(v)) return v.map(toJson);
  if (v instanceof LinkValue) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(v.target)) return v.target;
    const target = v.resolved ?? v.target;
    return v.display === null ? `[[${target}]]` : `[[${target}|${v.display}]]`;
  }
  if (v instanceof ObjectValue) {
    const out: { [key: string]: JsonOut } = {};
    for (const [k, x] of v.entries) out[k] = toJson(x);
    return out;
  }
  return valueText(v);
}
