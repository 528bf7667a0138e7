/**
 * @module
 * Dates and durations as the Bases syntax page writes them: `date("2025-01-01 12:00:00")`, duration
 * strings (`"1M"`, `"7d"`, `"2 hours"`), date arithmetic in the server's local time, and how a date
 * shows as text. Formatting is moment.js's (what Obsidian formats with), passed in by the caller.
 */
import type Moment from 'moment';
import { DateValue, DurationValue } from './values.js';

export type MomentFn = typeof Moment;

let loaded: Promise<MomentFn> | undefined;

/** moment.js, loaded on first use (evaluating the library costs every start-up otherwise). */
export function loadMoment(): Promise<MomentFn> {
  loaded ??= import('moment').then((m) => (m.default ?? m) as MomentFn);
  return loaded;
}

const DATE_TEXT =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3})\d*)?)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/;

/**
 * Reads `YYYY-MM-DD`, `YYYY-MM-DD HH:mm[:ss[.SSS]]` (or with `T`), in local time unless a zone
 * (`Z`, `+02:00`) is written; null when the text is not such a date.
 *
 * @example parseDateText('2025-01-01')?.hasTime // false
 */
export function parseDateText(text: string): DateValue | null {
  const m = DATE_TEXT.exec(text.trim());
  if (m === null) return null;
  const [, y, mo, d, h, mi, s, ms, zone] = m;
  const parts = [Number(y), Number(mo) - 1, Number(d), Number(h ?? 0), Number(mi ?? 0), Number(s ?? 0)];
  const milli = ms === undefined ? 0 : Number(ms.padEnd(3, '0'));
  const [Y, M, D, H, I, S] = parts as [number, number, number, number, number, number];
  if (M > 11 || D < 1 || D > 31 || H > 23 || I > 59 || S > 59) return null;
  let t: number;
  if (zone === undefined) t = new Date(Y, M, D, H, I, S, milli).getTime();
  else {
    t = Date.UTC(Y, M, D, H, I, S, milli);
    if (zone !== 'Z') {
      const sign = zone.startsWith('-') ? -1 : 1;
      const digits = zone.slice(1).replace(':', '');
      t -= sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2))) * 60_000;
    }
  }
  if (Number.isNaN(t)) return null;
  return new DateValue(t, h !== undefined);
}

const UNITS: readonly [RegExp, number, number][] = [
  // [unit, months, ms]
  [/^(y|years?)$/i, 12, 0],
  [/^(M|months?)$/, 1, 0],
  [/^(months?)$/i, 1, 0],
  [/^(w|weeks?)$/i, 0, 7 * 86_400_000],
  [/^(d|days?)$/i, 0, 86_400_000],
  [/^(h|hours?)$/i, 0, 3_600_000],
  [/^(m|minutes?)$/, 0, 60_000],
  [/^(minutes?)$/i, 0, 60_000],
  [/^(s|seconds?)$/i, 0, 1000],
  [/^(ms|milliseconds?)$/i, 0, 1],
];

/**
 * Reads a duration: one or more amounts with units (`"1M"`, `"1 day"`, `"-2h"`, `"1d 4h"`); null when
 * the text is not one.
 *
 * @example parseDuration('7d')?.ms // 604800000
 */
export function parseDuration(text: string): DurationValue | null {
  const parts = text.trim().match(/[+-]?\s*\d+(?:\.\d+)?\s*[a-zA-Z]+/g);
  if (parts === null || parts.join('').replace(/\s/g, '') !== text.replace(/\s/g, '')) return null;
  let months = 0;
  let ms = 0;
  for (const part of parts) {
    const m = /^([+-]?)\s*(\d+(?:\.\d+)?)\s*([a-zA-Z]+)$/.exec(part);
    if (m === null) return null;
    const amount = Number(m[2]) * (m[1] === '-' ? -1 : 1);
    const unit = UNITS.find(([re]) => re.test(m[3] as string));
    if (unit === undefined) return null;
    months += amount * unit[1];
    ms += amount * unit[2];
  }
  return new DurationValue(months, ms);
}

/** `date` moved by `d` (times `sign`): months on the local calendar, then exact milliseconds. */
export function addDuration(date: DateValue, d: DurationValue, sign: 1 | -1): DateValue {
  let t = date.ms;
  if (d.months !== 0) {
    const js = new Date(t);
    const day = js.getDate();
    js.setDate(1);
    js.setMonth(js.getMonth() + sign * Math.trunc(d.months));
    // Like moment: the 31st plus a month is the last day of a shorter month.
    const last = new Date(js.getFullYear(), js.getMonth() + 1, 0).getDate();
    js.setDate(Math.min(day, last));
    t = js.getTime();
  }
  t += sign * d.ms;
  const hasTime = date.hasTime || d.ms % 86_400_000 !== 0;
  return new DateValue(t, hasTime);
}

/** Midnight of the local day of `ms`. */
export function startOfDay(ms: number): number {
  const d = new Date(ms);
  return new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();
}

function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0');
}

/**
 * How a date shows as text and in results: `2025-01-01` for a date alone, `2025-01-01T04:03:00` (local
 * time) with its time.
 */
export function dateText(d: DateValue): string {
  const js = new Date(d.ms);
  const day = `${js.getFullYear()}-${pad(js.getMonth() + 1)}-${pad(js.getDate())}`;
  if (!d.hasTime) return day;
  return `${day}T${pad(js.getHours())}:${pad(js.getMinutes())}:${pad(js.getSeconds())}`;
}

/** A duration as text: `1M 2d 3h` (months, then days, hours, minutes, seconds, milliseconds). */
export function durationText(d: DurationValue): string {
  const parts: string[] = [];
  if (d.months !== 0) parts.push(`${d.months}M`);
  let rest = Math.abs(d.ms);
  const sign = d.ms < 0 ? '-' : '';
  for (const [unit, size] of [
    ['d', 86_400_000],
    ['h', 3_600_000],
    ['m', 60_000],
    ['s', 1000],
    ['ms', 1],
  ] as const) {
    const n = Math.floor(rest / size);
    rest -= n * size;
    if (n !== 0) parts.push(`${sign}${n}${unit}`);
  }
  return parts.length === 0 ? '0s' : parts.join(' ');
}
