/**
 * @module
 * query_notes (SPEC 2.4): a table view over the notes' properties. The request is checked whole
 * first (table/spec.ts); SQL narrows to the notes that can match and loads only the properties the
 * request names (table/load.ts); the filters, sort and columns run here, with the meanings written
 * down in table/values.ts.
 */

import { byCodeUnits, type Keyset, pageOf } from '../../common/paging.js';
import type { JsonValue } from '../../markdown/frontmatter/frontmatter.js';
import type { Db } from '../db/database.js';
import type { VisibilityOption } from '../store/visibility.js';
import {
  answerSets,
  candidateNotes,
  loadProperties,
  loadTags,
  type NoteInfo,
  type PropertyValues,
} from './load.js';
import { type FilterNode, type PropertyRef, planQuery, type QueryPlan } from './spec.js';
import {
  compareDateKey,
  compareSortPlaces,
  compareToOperand,
  isEmptyValue,
  type PropertyValue,
  type SortPlace,
  sortPlace,
  valueContains,
  valueEquals,
} from './values.js';

export interface QueryContext extends VisibilityOption {
  /** The caller's calendar day, `YYYY-MM-DD`: what the value `"today"` means. */
  readonly today: string;
  /** Keeps only the notes this accepts (query_notes' `where`, a Bases filter, SPEC 16.3). */
  readonly keep?: (path: string) => boolean;
}

export interface QueryResult {
  /** Each row: `name` (the note path) and the requested columns (null when a note lacks one). */
  readonly rows: Record<string, unknown>[];
  /** Notes matching scope and filters, in all pages. */
  readonly total: number;
  /** True when more rows follow this page; `nextCursor` reads them. */
  readonly more: boolean;
  readonly nextCursor?: string;
}

/**
 * Runs a query_notes request. Throws `validation_error` for anything it cannot understand (with the
 * path of the offending part), `ambiguous` when a `has_link` name matches several notes.
 *
 * @example
 * queryNotes(db, {
 *   folder: 'projects',
 *   filters: [{ property: 'status', op: 'equals', value: 'active' }, { any: [
 *     { property: 'due', op: 'before', value: 'today' }, { op: 'has_tag', value: 'urgent' } ] }],
 *   sort: [{ property: 'due', direction: 'asc' }],
 *   columns: ['status', 'due'],
 * }, { today: '2026-05-01' })
 * // { rows: [{ name: 'projects/a.md', status: 'active', due: '2026-04-20' }, …], total: 7 }
 */
export function queryNotes(db: Db, q: unknown, ctx: QueryContext): QueryResult {
  const plan = planQuery(q, ctx.today);
  const sets = answerSets(db, plan.filter, ctx);
  // Properties the filters and the sort read are loaded for every candidate; those only shown as
  // columns, for the rows returned.
  const used = [...filterRefs(plan.filter), ...plan.sort.map((s) => s.property)];
  const shown = plan.columns.map((c) => c.property);
  const notes = candidateNotes(db, plan, sets, ctx.visible, [...used, ...shown].some(isFileDate));
  const candidates = new Set(notes.map((n) => n.id));
  const usedKeys = new Set(frontmatterKeys(used));
  const props = loadProperties(db, candidates, [...usedKeys]);
  const tags = used.some(isTags) ? loadTags(db, candidates) : new Map<number, string[]>();

  let pageProps: PropertyValues | null = null;
  const propertyOf = (ref: PropertyRef, note: NoteInfo): PropertyValue => {
    if (ref.kind === 'frontmatter') return (usedKeys.has(ref.key) ? props : pageProps)?.get(ref.key, note.id);
    switch (ref.name) {
      case '$name':
        return note.path;
      case '$folder':
        return note.path.slice(0, Math.max(0, note.path.lastIndexOf('/')));
      case '$modified':
        return new Date(note.mtimeMs).toISOString();
      case '$created':
        return new Date(note.createdMs).toISOString();
      case '$tags':
        return tags.get(note.id) ?? [];
    }
  };

  const matches = (node: FilterNode, note: NoteInfo): boolean => {
    switch (node.type) {
      case 'all':
        return node.items.every((n) => matches(n, note));
      case 'any':
        return node.items.some((n) => matches(n, note));
      case 'empty':
        return isEmptyValue(propertyOf(node.property, note)) !== node.negate;
      case 'equals':
        return valueEquals(propertyOf(node.property, note), node.value, node.property.flavor) !== node.negate;
      case 'contains':
        return (
          valueContains(propertyOf(node.property, note), node.value, node.property.flavor) !== node.negate
        );
      case 'compare': {
        const c =
          node.operand.kind === 'date' && isFileDate(node.property)
            ? compareDateKey(fileDateKey(node.property, note), node.operand)
            : compareToOperand(propertyOf(node.property, note), node.operand);
        if (c === null) return false;
        if (node.op === 'gt' || node.op === 'after') return c > 0;
        if (node.op === 'lt' || node.op === 'before') return c < 0;
        return node.op === 'gte' ? c >= 0 : c <= 0;
      }
      case 'has_tag':
        return sets.tags.get(node.tag)?.has(note.id) ?? false;
      case 'has_link':
        return sets.links.get(node.name)?.has(note.id) ?? false;
    }
  };

  const found = notes.filter((note) => matches(plan.filter, note) && (ctx.keep?.(note.path) ?? true));
  const sorted = sortNotes(found, plan, propertyOf);
  const paged = pageOf(sorted, { limit: plan.limit, cursor: plan.cursor ?? undefined }, rowOrder(plan));
  const page = paged.items.map((d) => d.note);
  const pageIds = new Set(page.map((n) => n.id));
  pageProps = loadProperties(
    db,
    pageIds,
    frontmatterKeys(shown).filter((k) => !usedKeys.has(k)),
  );
  if (shown.some(isTags) && !used.some(isTags))
    for (const [id, list] of loadTags(db, pageIds)) tags.set(id, list);
  const rows = page.map((note) => {
    const row: Record<string, unknown> = { name: note.path };
    for (const column of plan.columns) {
      const value = propertyOf(column.property, note);
      // Security: a column label is caller text; `__proto__` must stay a plain key.
      Object.defineProperty(row, column.label, {
        value: value === undefined ? null : value,
        writable: true,
        enumerable: true,
        configurable: true,
      });
    }
    return row;
  });
  return {
    rows,
    total: paged.total,
    more: paged.more,
    ...(paged.nextCursor === undefined ? {} : { nextCursor: paged.nextCursor }),
  };
}

function frontmatterKeys(refs: readonly PropertyRef[]): string[] {
  return [...new Set(refs.flatMap((r) => (r.kind === 'frontmatter' ? [r.key] : [])))];
}

function isTags(ref: PropertyRef): boolean {
  return ref.kind === 'file' && ref.name === '$tags';
}

function filterRefs(node: FilterNode): PropertyRef[] {
  if (node.type === 'all' || node.type === 'any') return node.items.flatMap(filterRefs);
  return 'property' in node ? [node.property] : [];
}

function isFileDate(ref: PropertyRef): boolean {
  return ref.kind === 'file' && (ref.name === '$modified' || ref.name === '$created');
}

function fileDateMs(ref: PropertyRef, note: NoteInfo): number {
  return ref.kind === 'file' && ref.name === '$created' ? note.createdMs : note.mtimeMs;
}

/** `$modified`/`$created` as a date key (`YYYY-MM-DDTHH:mm:ss.sss`, UTC) without parsing text. */
function fileDateKey(ref: PropertyRef, note: NoteInfo): string {
  return new Date(fileDateMs(ref, note)).toISOString().slice(0, 23);
}

/** A matching note with where it sorts: one place per sort key (null: empty, sorted last). */
interface Sorted {
  readonly note: NoteInfo;
  readonly places: (SortPlace | null)[];
}

function sortNotes(
  notes: NoteInfo[],
  plan: QueryPlan,
  propertyOf: (ref: PropertyRef, note: NoteInfo) => PropertyValue,
): Sorted[] {
  // Each value's place is worked out once per note, not once per comparison.
  const decorated = notes.map((note) => ({
    note,
    places: plan.sort.map((s): SortPlace | null => {
      if (isFileDate(s.property)) return { rank: 1, key: fileDateMs(s.property, note) };
      const value = propertyOf(s.property, note);
      return isEmptyValue(value) ? null : sortPlace(value as JsonValue);
    }),
  }));
  return decorated.sort((a, b) => compareRows(plan, a.places, a.note.path, b.places, b.note.path));
}

/** The sort keys in turn (empty values last whichever the direction), then the path. */
function compareRows(
  plan: QueryPlan,
  a: readonly (SortPlace | null)[],
  aPath: string,
  b: readonly (SortPlace | null)[],
  bPath: string,
): number {
  return compareKeys(plan, a, b, plan.sort.length) || byCodeUnits(aPath, bPath);
}

/** The first `keys` sort keys in turn; empty values last whichever the direction. */
function compareKeys(
  plan: QueryPlan,
  a: readonly (SortPlace | null)[],
  b: readonly (SortPlace | null)[],
  keys: number,
): number {
  for (const [i, key] of plan.sort.slice(0, keys).entries()) {
    const x = a[i] ?? null;
    const y = b[i] ?? null;
    if (x === null || y === null) {
      if (x !== y) return x === null ? 1 : -1;
      continue;
    }
    const c = compareSortPlaces(x, y);
    if (c !== 0) return key.descending ? -c : c;
  }
  return 0;
}

/** A sort value as a cursor keeps it: long text is cut, and compared on that many characters only. */
type CursorPlace = { r: number; k: number | string; cut?: true } | null;

interface RowPosition {
  readonly s: CursorPlace[];
  readonly p: string;
}

/** A text sort value is kept whole in a cursor up to this many characters as JSON… */
const CURSOR_KEY_JSON = 600;
/** …and past that, only its first this many characters. */
const CURSOR_KEY_CHARS = 100;

/**
 * The rows' order (compareRows) for page cursors. While nothing changed, the page's index in the
 * cursor (see paging.ts) makes the next page exact. After a change, a cursor whose text value was cut
 * cannot place the rows sharing the kept characters: they all count as after it, so they may come
 * again but none is skipped.
 */
function rowOrder(plan: QueryPlan): Keyset<Sorted, RowPosition> {
  return {
    kind: 'query',
    position: (row) => ({
      s: row.places.map((place): CursorPlace => {
        if (place === null) return null;
        if (typeof place.key === 'string' && JSON.stringify(place.key).length > CURSOR_KEY_JSON) {
          return { r: place.rank, k: place.key.slice(0, CURSOR_KEY_CHARS), cut: true };
        }
        return { r: place.rank, k: place.key };
      }),
      p: row.note.path,
    }),
    isPosition: (data): data is RowPosition => {
      const d = data as Partial<RowPosition> | null;
      return (
        typeof d?.p === 'string' &&
        Array.isArray(d.s) &&
        d.s.length === plan.sort.length &&
        d.s.every(
          (x) =>
            x === null ||
            (typeof x === 'object' &&
              typeof x.r === 'number' &&
              (typeof x.k === 'number' || typeof x.k === 'string')),
        )
      );
    },
    compare: (row, position) => {
      const theirs = position.s.map((y) => (y === null ? null : { rank: y.r, key: y.k }));
      // Where the cursor kept only the start of a text value, compare that much of the row's; the
      // rows that agree on it go after the position, but for the very row the cursor was made at.
      const cut = position.s.findIndex((y) => y?.cut === true);
      const mine = row.places.map((x, i) =>
        i === cut && x !== null && typeof x.key === 'string'
          ? { rank: x.rank, key: x.key.slice(0, CURSOR_KEY_CHARS) }
          : x,
      );
      if (cut === -1) return compareRows(plan, mine, row.note.path, theirs, position.p);
      const c = compareKeys(plan, mine, theirs, cut + 1);
      return c !== 0 ? c : row.note.path === position.p ? 0 : 1;
    },
  };
}
