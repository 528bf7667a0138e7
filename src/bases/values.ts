/**
 * @module
 * The values of the Bases language, typed as Obsidian types them: null, strings, numbers and
 * booleans as themselves, lists as arrays, and a class for each other type (Date, Duration, Link,
 * File, Object, RegExp, and the rendered HTML, image and icon values).
 */
import type { RE2JS } from 're2js';

export type Value =
  | null
  | string
  | number
  | boolean
  | readonly Value[]
  | DateValue
  | DurationValue
  | LinkValue
  | FileValue
  | ObjectValue
  | RegexValue
  | RichValue;

/** A moment in time; `hasTime` false for a date alone (`today()`, `date("2025-01-01")`). */
export class DateValue {
  constructor(
    readonly ms: number,
    readonly hasTime: boolean,
  ) {}
}

/** A span of time: calendar months (years are 12) and exact milliseconds, as `"1M 2d"` reads. */
export class DurationValue {
  constructor(
    readonly months: number,
    readonly ms: number,
  ) {}
}

/**
 * A link: the text it names (a path, a note name, or a URL), its display text, and the vault file
 * it resolves to from where it was written (null when none does).
 */
export class LinkValue {
  constructor(
    readonly target: string,
    readonly display: string | null,
    readonly resolved: string | null,
  ) {}
}

/** A file of the vault, by its path. */
export class FileValue {
  constructor(
    readonly path: string,
    /** True for `this`: it reads like a row (`this.status`, `this.file.name`) as well as a file. */
    readonly asRow = false,
  ) {}
}

export class ObjectValue {
  constructor(readonly entries: ReadonlyMap<string, Value>) {}
}

export class RegexValue {
  constructor(
    readonly source: string,
    readonly flags: string,
    readonly compiled: RE2JS,
  ) {}
}

/** What `html()`, `image()` and `icon()` return: shown by the view, a string to everything else. */
export class RichValue {
  constructor(
    readonly type: 'html' | 'image' | 'icon',
    readonly text: string,
  ) {}
}

/** The type name `isType` tests and errors name. */
export function typeOf(v: Value): string {
  if (v === null) return 'null';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'number') return 'number';
  if (typeof v === 'boolean') return 'boolean';
  if (Array.isArray(v)) return 'list';
  if (v instanceof DateValue) return 'date';
  if (v instanceof DurationValue) return 'duration';
  if (v instanceof LinkValue) return 'link';
  if (v instanceof FileValue) return 'file';
  if (v instanceof ObjectValue) return 'object';
  if (v instanceof RegexValue) return 'regexp';
  return (v as RichValue).type;
}

/** JavaScript's truthiness, as Obsidian's `isTruthy()` and `if()` read it (an empty list is truthy). */
export function isTruthy(v: Value): boolean {
  if (v === null) return false;
  if (typeof v === 'string') return v !== '';
  if (typeof v === 'number') return v !== 0 && !Number.isNaN(v);
  if (typeof v === 'boolean') return v;
  return true;
}

/** Whether a value counts as empty: null, "", an empty list or object (the Empty summary, isEmpty()). */
export function isEmptyValue(v: Value): boolean {
  if (v === null || v === '') return true;
  if (Array.isArray(v)) return v.length === 0;
  if (v instanceof ObjectValue) return v.entries.size === 0;
  return false;
}
