/**
 * @module
 * Reads a query_notes request (SPEC 2.4) into a checked plan, before anything is looked up. Whatever
 * cannot be understood is refused with `validation_error` naming where it is (`filters[1].any[0]`)
 * and why; nothing is ever dropped or widened to make a request fit. Pure.
 */

import { NotedError } from '../../common/errors.js';
import { foldName } from '../../markdown/link-key.js';
import { normalizeTag } from '../../markdown/tag-match.js';
import { isCalendarDate } from '../../markdown/task-syntax.js';
import {
  type DateOperand,
  type Flavor,
  type Operand,
  parseDate,
  parseNumeric,
  type Scalar,
} from './values.js';

export const OPS = [
  'equals',
  'not_equals',
  'contains',
  'not_contains',
  'is_empty',
  'is_not_empty',
  'gt',
  'lt',
  'gte',
  'lte',
  'before',
  'after',
  'has_tag',
  'has_link',
] as const;
export type Op = (typeof OPS)[number];

/** The file properties and the kind of value each holds. */
export const FILE_PROPERTIES = {
  $name: 'text',
  $folder: 'text',
  $modified: 'date',
  $created: 'date',
  $tags: 'list',
} as const;
export type FileProperty = keyof typeof FILE_PROPERTIES;

/** A property reference: a frontmatter key (case-insensitive, PROP-14) or a file property. */
export type PropertyRef =
  | { readonly kind: 'frontmatter'; readonly key: string; readonly flavor: Flavor }
  | { readonly kind: 'file'; readonly name: FileProperty; readonly flavor: Flavor };

export type FilterNode =
  | { readonly type: 'all' | 'any'; readonly items: readonly FilterNode[] }
  | { readonly type: 'empty'; readonly property: PropertyRef; readonly negate: boolean }
  | {
      readonly type: 'equals';
      readonly property: PropertyRef;
      readonly value: Scalar | readonly Scalar[];
      readonly negate: boolean;
    }
  | {
      readonly type: 'contains';
      readonly property: PropertyRef;
      readonly value: Scalar;
      readonly negate: boolean;
    }
  | { readonly type: 'compare'; readonly property: PropertyRef; readonly op: Op; readonly operand: Operand }
  | { readonly type: 'has_tag'; readonly tag: string }
  | { readonly type: 'has_link'; readonly name: string; readonly at: string };

export interface SortKey {
  readonly property: PropertyRef;
  readonly descending: boolean;
}

export interface Column {
  /** The key the row carries it under: the property as the request wrote it. */
  readonly label: string;
  readonly property: PropertyRef;
}

export interface QueryPlan {
  readonly folder: string | null;
  readonly tag: string | null;
  readonly filter: FilterNode;
  readonly sort: readonly SortKey[];
  readonly columns: readonly Column[];
  readonly limit: number;
  /** The nextCursor of the previous page, as given; table/query.ts reads it. */
  readonly cursor: string | null;
}

export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 500;
/**
 * Deepest nesting of `{any}` / `{all}` groups. Checking and answering a filter recurse once per level,
 * and 3,000 levels overflowed the stack (a `RangeError`, not an answer).
 */
export const MAX_GROUP_DEPTH = 16;

const QUERY_KEYS = ['folder', 'tag', 'filters', 'sort', 'columns', 'limit', 'cursor'];
const FILTER_KEYS = ['property', 'op', 'value'];
const TAG_KEYS = /^tags$/i;

/** Checks a whole request; `today` (`YYYY-MM-DD`) is what the value `"today"` stands for. */
export function planQuery(q: unknown, today: string): QueryPlan {
  if (!isRecord(q))
    refuse('the query', 'must be an object with folder, tag, filters, sort, columns, limit, cursor.');
  for (const key of Object.keys(q)) {
    if (!QUERY_KEYS.includes(key)) {
      refuse(key, `is not a query_notes argument; the arguments are ${QUERY_KEYS.join(', ')}.`);
    }
  }
  if (!isCalendarDate(today))
    refuse('today', `must be a date written YYYY-MM-DD, got ${JSON.stringify(today)}.`);
  const todayDate = parseDate(today) as DateOperand;
  return {
    folder: q.folder === undefined ? null : checkFolder(q.folder),
    tag: q.tag === undefined ? null : checkTagValue(q.tag, 'tag'),
    filter: {
      type: 'all',
      items: listOf(q.filters, 'filters').map((f, i) => filterNode(f, `filters[${i}]`, todayDate, 0)),
    },
    sort: listOf(q.sort, 'sort').map((s, i) => sortKey(s, `sort[${i}]`)),
    columns: listOf(q.columns, 'columns').map((c, i) => column(c, `columns[${i}]`)),
    limit: checkLimit(q.limit),
    cursor: q.cursor === undefined ? null : checkCursor(q.cursor),
  };
}

function checkCursor(cursor: unknown): string {
  if (typeof cursor !== 'string') refuse('cursor', 'must be the nextCursor of the previous page, a string.');
  return cursor;
}

/** `depth`: how many groups enclose `item`. */
function filterNode(item: unknown, at: string, today: DateOperand, depth: number): FilterNode {
  if (!isRecord(item)) {
    refuse(at, 'must be an object: {property, op, value}, or {any: [filters]} for an OR group.');
  }
  const keys = Object.keys(item);
  for (const group of ['any', 'all'] as const) {
    if (!(group in item)) continue;
    const extra = keys.filter((k) => k !== group);
    if (extra.length > 0) {
      refuse(at, `is a group and may hold only "${group}", but it also has ${quoteList(extra)}.`);
    }
    const items = item[group];
    if (!Array.isArray(items) || items.length === 0) {
      refuse(`${at}.${group}`, 'must be a non-empty list of filters.');
    }
    if (depth === MAX_GROUP_DEPTH) {
      throw new NotedError(
        'too_large',
        `query_notes: ${at} is a group nested more than ${MAX_GROUP_DEPTH} deep, the limit. Flatten the groups: an {all} inside an {all} (or an {any} inside an {any}) can be merged into it.`,
        { at, limit: MAX_GROUP_DEPTH },
      );
    }
    return {
      type: group,
      items: items.map((f, i) => filterNode(f, `${at}.${group}[${i}]`, today, depth + 1)),
    };
  }
  const unknown = keys.filter((k) => !FILTER_KEYS.includes(k));
  if (unknown.length > 0) {
    refuse(at, `has ${quoteList(unknown)}, which a filter does not take; a filter is {property, op, value}.`);
  }
  const op = item.op;
  if (!isOp(op)) {
    refuse(at, `has op ${JSON.stringify(op)}; the ops are ${OPS.join(', ')}.`);
  }
  const hasValue = 'value' in item && item.value !== undefined;
  const value = item.value;
  if (op === 'has_tag' || op === 'has_link') {
    if ('property' in item)
      refuse(at, `${op} takes only a value (${op === 'has_tag' ? 'a tag' : 'a note name'}), no property.`);
    if (op === 'has_tag') return { type: 'has_tag', tag: checkTagValue(value, `${at}.value`) };
    if (typeof value !== 'string' || value.trim() === '') {
      refuse(`${at}.value`, 'must be a note name, such as "projects/Plan" (.md optional).');
    }
    return { type: 'has_link', name: value.trim(), at };
  }
  const property = propertyRef(item.property, `${at}.property`);
  if (op === 'is_empty' || op === 'is_not_empty') {
    if (hasValue || 'value' in item) refuse(at, `${op} takes no value; remove "value".`);
    return { type: 'empty', property, negate: op === 'is_not_empty' };
  }
  if (!hasValue) refuse(at, `${op} needs a value.`);
  const kind = property.kind === 'file' ? FILE_PROPERTIES[property.name] : null;
  const name = property.kind === 'file' ? property.name : '';
  if (op === 'equals' || op === 'not_equals') {
    const wanted = equalsValue(value, `${at}.value`, op);
    if (kind === 'date' && (typeof wanted !== 'string' || parseDate(wanted) === null)) {
      refuse(
        `${at}.value`,
        `${name} is a date; compare it with a date such as "2026-05-01", got ${JSON.stringify(value)}.`,
      );
    }
    if (kind === 'text' && typeof wanted !== 'string') {
      refuse(`${at}.value`, `${name} is text; give a string, got ${JSON.stringify(value)}.`);
    }
    return { type: 'equals', property, value: wanted, negate: op === 'not_equals' };
  }
  if (op === 'contains' || op === 'not_contains') {
    if (kind === 'date')
      refuse(at, `${name} is a date and contains nothing; use equals, before, after, gt or lt.`);
    if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') {
      refuse(
        `${at}.value`,
        `${op} needs one string, number or checkbox value, got ${JSON.stringify(value)}.`,
      );
    }
    if ((kind === 'text' || kind === 'list') && typeof value !== 'string') {
      refuse(`${at}.value`, `${name} holds text; give a string, got ${JSON.stringify(value)}.`);
    }
    return { type: 'contains', property, value, negate: op === 'not_contains' };
  }
  // gt, lt, gte, lte, before, after.
  if (kind === 'text' || kind === 'list') {
    refuse(
      at,
      `${name} is ${kind === 'text' ? 'text' : 'a list'} and cannot be ordered with ${op}; use equals or contains.`,
    );
  }
  const datesOnly = op === 'before' || op === 'after' || kind === 'date';
  return { type: 'compare', property, op, operand: operandOf(value, `${at}.value`, op, datesOnly, today) };
}

function operandOf(value: unknown, at: string, op: Op, datesOnly: boolean, today: DateOperand): Operand {
  if (typeof value === 'string' && value.trim().toLowerCase() === 'today') return today;
  const date = typeof value === 'string' ? parseDate(value) : null;
  if (date) return date;
  if (!datesOnly) {
    const n = typeof value === 'number' ? value : typeof value === 'string' ? parseNumeric(value) : null;
    if (n !== null && Number.isFinite(n)) return { kind: 'number', n };
  }
  const wanted = datesOnly
    ? 'a date, such as "2026-05-01" or "2026-05-01T14:30", or "today"'
    : 'a number, or a date such as "2026-05-01" or "2026-05-01T14:30", or "today"';
  return refuse(at, `${op} needs ${wanted}; got ${JSON.stringify(value)}.`);
}

function equalsValue(value: unknown, at: string, op: Op): Scalar | Scalar[] {
  if (typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (Array.isArray(value) && value.every((v) => ['string', 'number', 'boolean'].includes(typeof v))) {
    return value as Scalar[];
  }
  if (value === null) refuse(at, `${op} cannot compare with null; use is_empty or is_not_empty.`);
  return refuse(
    at,
    `${op} needs a string, number, checkbox value or a list of them, got ${JSON.stringify(value)}.`,
  );
}

function sortKey(item: unknown, at: string): SortKey {
  if (!isRecord(item)) refuse(at, 'must be an object {property, direction: "asc" | "desc"}.');
  const extra = Object.keys(item).filter((k) => k !== 'property' && k !== 'direction');
  if (extra.length > 0) refuse(at, `has ${quoteList(extra)}; a sort item is {property, direction}.`);
  const direction = item.direction ?? 'asc';
  if (typeof direction !== 'string' || !['asc', 'desc'].includes(direction.toLowerCase())) {
    refuse(`${at}.direction`, `must be "asc" or "desc", got ${JSON.stringify(item.direction)}.`);
  }
  return {
    property: propertyRef(item.property, `${at}.property`),
    descending: direction.toLowerCase() === 'desc',
  };
}

function column(item: unknown, at: string): Column {
  if (item === 'name') {
    refuse(
      at,
      'is "name", which every row already has (the note path); for a frontmatter property called name ask for "note.name".',
    );
  }
  return { label: item as string, property: propertyRef(item, at) };
}

/**
 * `$name`-style file properties, `note.key` for a frontmatter key spelled out (needed for one that
 * starts with `$` or is called `name`), or a bare frontmatter key.
 */
function propertyRef(value: unknown, at: string): PropertyRef {
  if (typeof value !== 'string' || value.trim() === '') {
    refuse(
      at,
      'must be a property name: a frontmatter key, or one of $name, $folder, $modified, $created, $tags.',
    );
  }
  const name = value.trim();
  if (name.startsWith('$')) {
    const lower = name.toLowerCase();
    if (!Object.hasOwn(FILE_PROPERTIES, lower)) {
      refuse(
        at,
        `is ${JSON.stringify(name)}, which is no file property; use one of ${Object.keys(FILE_PROPERTIES).join(', ')}, or "note.${name}" for a frontmatter key.`,
      );
    }
    const file = lower as FileProperty;
    const flavor: Flavor =
      file === '$name' ? 'name' : file === '$folder' ? 'folder' : file === '$tags' ? 'tags' : 'plain';
    return { kind: 'file', name: file, flavor };
  }
  const key = name.toLowerCase().startsWith('note.') ? name.slice(5) : name;
  if (key === '') refuse(at, 'names no property after "note.".');
  return { kind: 'frontmatter', key: foldName(key), flavor: TAG_KEYS.test(key) ? 'tags' : 'plain' };
}

function checkFolder(folder: unknown): string {
  if (typeof folder !== 'string')
    refuse('folder', 'must be a folder path as a string, such as "projects/alpha".');
  return foldName(folder.replace(/\\/g, '/').replace(/^\/+|\/+$/g, ''));
}

function checkTagValue(tag: unknown, at: string): string {
  if (typeof tag !== 'string') refuse(at, 'must be a tag as a string, such as "project/alpha".');
  const lower = normalizeTag(tag.trim());
  if (lower === '') refuse(at, 'is empty; give a tag such as "project" or "#project/alpha".');
  if (/\s/.test(lower)) refuse(at, `is ${JSON.stringify(tag)}, which contains a space; tags cannot.`);
  return lower;
}

function checkLimit(limit: unknown): number {
  if (limit === undefined) return DEFAULT_LIMIT;
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) {
    refuse('limit', `must be a whole number from 1 to ${MAX_LIMIT}, got ${JSON.stringify(limit)}.`);
  }
  return limit;
}

function listOf(value: unknown, at: string): unknown[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) refuse(at, 'must be a list.');
  return value;
}

function isOp(value: unknown): value is Op {
  return typeof value === 'string' && (OPS as readonly string[]).includes(value);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function quoteList(keys: readonly string[]): string {
  return keys.map((k) => JSON.stringify(k)).join(', ');
}

function refuse(at: string, problem: string): never {
  throw new NotedError('validation_error', `query_notes: ${at} ${problem}`, { at });
}
