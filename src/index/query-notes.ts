/**
 * @module
 * query_notes (SPEC 2.4): a table view over the notes' properties. The request is checked whole
 * first (query-spec.ts); SQL narrows to the notes that can match and loads only the properties the
 * request names (query-load.ts); the filters, sort and columns run here, with the meanings written
 * down in query-values.ts.
 */

import type { JsonValue } from '../markdown/frontmatter.js';
import type { Db } from './database.js';
import {
  answerSets,
  candidateNotes,
  loadProperties,
  loadTags,
  type NoteInfo,
  type PropertyValues,
} from './query-load.js';
import { type FilterNode, type PropertyRef, planQuery, type QueryPlan } from './query-spec.js';
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
} from './query-values.js';
import type { VisibilityOption } from './visibility.js';

export interface QueryContext extends VisibilityOption {
  /** The caller's calendar day, `YYYY-MM-DD`: what the value `"today"` means. */
  readonly today: string;
}

export interface QueryResult {
  /** Each row: `name` (the note path) and the requested columns (null when a note lacks one). */
  readonly rows: Record<string, unknown>[];
  /** Notes matching scope and filters, before `limit`. */
  readonly total: number;
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
  const sets = answerSets(db, plan.filter, ctx.visible);
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

  const found = notes.filter((note) => matches(plan.filter, note));
  const page = sortNotes(found, plan, propertyOf).slice(0, plan.limit);
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
  return { rows, total: found.length };
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

function sortNotes(
  notes: NoteInfo[],
  plan: QueryPlan,
  propertyOf: (ref: PropertyRef, note: NoteInfo) => PropertyValue,
): NoteInfo[] {
  const byPath = (a: NoteInfo, b: NoteInfo) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
  if (plan.sort.length === 0) return notes.sort(byPath);
  // Each value's place is worked out once per note, not once per comparison.
  const decorated = notes.map((note) => ({
    note,
    places: plan.sort.map((s): SortPlace | null => {
      if (isFileDate(s.property)) return { rank: 1, key: fileDateMs(s.property, note) };
      const value = propertyOf(s.property, note);
      return isEmptyValue(value) ? null : sortPlace(value as JsonValue);
    }),
  }));
  decorated.sort((a, b) => {
    for (const [i, key] of plan.sort.entries()) {
      const x = a.places[i] ?? null;
      const y = b.places[i] ?? null;
      // Empty values go last whichever the direction.
      if (x === null || y === null) {
        if (x !== y) return x === null ? 1 : -1;
        continue;
      }
      const c = compareSortPlaces(x, y);
      if (c !== 0) return key.descending ? -c : c;
    }
    return byPath(a.note, b.note);
  });
  return decorated.map((d) => d.note);
}
