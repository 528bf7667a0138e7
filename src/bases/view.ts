/**
 * @module
 * One view of a base over the vault's files: rows that pass the base's filters AND the view's,
 * sorted, limited, grouped, with each column's value (a cell whose formula fails holds `{error}` and
 * the row stays) and the summaries of each group. The caller gives the candidate files (all files,
 * or fewer when the index could narrow them) and a checkpoint that yields to other work.
 */
import type { Expr } from './ast.js';
import type { BaseDef, FilterNode, ViewDef } from './base-file.js';
import { compareForSort, type JsonOut, toJson } from './compare.js';
import { Evaluator } from './evaluate.js';
import type { BasesHost, FileFacts } from './host.js';
import { BasesEvalError } from './limits.js';
import { parseExpression } from './parser.js';
import type { RowScope } from './row-scope.js';
import { defaultSummary } from './summaries.js';
import type { Value } from './values.js';

export interface Column {
  readonly id: string;
  readonly displayName: string;
}

export type Cell = JsonOut | { readonly error: string };

export interface ViewRow {
  /** The file's path. */
  readonly name: string;
  readonly values: Record<string, Cell>;
}

export interface ViewGroup {
  /** The group's value (absent without `groupBy`; null for rows without a value). */
  readonly key?: JsonOut;
  readonly rows: readonly ViewRow[];
  readonly summaries?: Record<string, Cell>;
}

export interface ViewAnswer {
  readonly view: string;
  readonly type: string;
  readonly columns: readonly Column[];
  readonly groups: readonly ViewGroup[];
  /** Rows in the view, all groups, after `limit`. */
  readonly total: number;
}

export interface ViewOptions {
  readonly host: BasesHost;
  /** The path `this` stands for, or null. */
  readonly thisPath: string | null;
  /** Called every few hundred rows: yields to other clients, throws when the call is cancelled. */
  readonly checkpoint: () => Promise<void>;
}

/** The view named `name` (or the first), or null when the base has no such view. */
export function pickView(base: BaseDef, name: string | undefined): ViewDef | null {
  if (name === undefined) return base.views[0] ?? DEFAULT_VIEW;
  return base.views.find((v) => v.name === name) ?? null;
}

const DEFAULT_VIEW: ViewDef = {
  type: 'table',
  name: 'Table',
  filters: null,
  order: [],
  sort: [],
  groupBy: null,
  limit: null,
  summaries: new Map(),
};

/** The column a property id is shown under: its `displayName`, else the id without `note.`. */
export function displayNameOf(base: BaseDef, id: string): string {
  const bare = id.replace(/^note\./, '');
  return (
    base.displayNames.get(id) ?? base.displayNames.get(bare) ?? base.displayNames.get(`note.${bare}`) ?? bare
  );
}

export async function runView(
  base: BaseDef,
  view: ViewDef,
  candidates: Iterable<FileFacts>,
  options: ViewOptions,
): Promise<ViewAnswer> {
  const ev = new Evaluator(options.host, base.formulas, options.thisPath);
  const propertyExprs = new Map<string, Expr>();
  const exprOf = (id: string): Expr => {
    let e = propertyExprs.get(id);
    if (e === undefined) {
      try {
        e = parseExpression(id);
      } catch {
        e = { kind: 'member', object: { kind: 'name', name: 'note', at: AT }, name: id, at: AT };
      }
      propertyExprs.set(id, e);
    }
    return e;
  };
  const cellOf = (id: string, row: RowScope): Value | BasesEvalError => ev.tryEvaluate(exprOf(id), row);

  const rows: RowScope[] = [];
  let n = 0;
  for (const facts of candidates) {
    if (++n % 256 === 0) await options.checkpoint();
    const row = ev.row(facts);
    if (passes(ev, base.filters, row) && passes(ev, view.filters, row)) rows.push(row);
  }

  const keys = view.sort.length > 0 ? view.sort : [{ property: 'file.name', direction: 'ASC' as const }];
  const sortValues = new Map<RowScope, (Value | BasesEvalError)[]>();
  for (const [i, row] of rows.entries()) {
    if (i % 256 === 255) await options.checkpoint();
    sortValues.set(
      row,
      keys.map((k) => cellOf(k.property, row)),
    );
  }
  rows.sort((a, b) => {
    const va = sortValues.get(a) as (Value | BasesEvalError)[];
    const vb = sortValues.get(b) as (Value | BasesEvalError)[];
    for (const [i, key] of keys.entries()) {
      const c = compareSortValues(
        va[i] as Value | BasesEvalError,
        vb[i] as Value | BasesEvalError,
        key.direction,
      );
      if (c !== 0) return c;
    }
    return a.facts.path < b.facts.path ? -1 : a.facts.path > b.facts.path ? 1 : 0;
  });
  const limited = view.limit === null ? rows : rows.slice(0, view.limit);

  const order = view.order.length > 0 ? view.order : ['file.name'];
  const columns = order.map((id) => ({ id, displayName: displayNameOf(base, id) }));

  // Groups, in the groupBy direction; rows without a value last.
  const grouped: { key: Value | undefined; rows: RowScope[] }[] = [];
  if (view.groupBy === null) grouped.push({ key: undefined, rows: limited });
  else {
    const byKey = new Map<string, { key: Value; rows: RowScope[] }>();
    for (const row of limited) {
      const v = cellOf(view.groupBy.property, row);
      const key = v instanceof BasesEvalError ? null : v;
      const text = JSON.stringify(toJson(key));
      let g = byKey.get(text);
      if (g === undefined) {
        g = { key, rows: [] };
        byKey.set(text, g);
      }
      g.rows.push(row);
    }
    const direction = view.groupBy.direction;
    grouped.push(...[...byKey.values()].sort((a, b) => compareSortValues(a.key, b.key, direction)));
  }

  const groups: ViewGroup[] = [];
  for (const g of grouped) {
    const out: ViewRow[] = [];
    const summarized = [...view.summaries.keys()].filter((id) => !columns.some((c) => c.id === id));
    const columnValues = new Map<string, Value[]>(
      [...columns.map((c) => c.id), ...summarized].map((id) => [id, []]),
    );
    for (const [i, row] of g.rows.entries()) {
      if (i % 256 === 255) await options.checkpoint();
      const values: Record<string, Cell> = {};
      for (const c of columns) {
        const v = cellOf(c.id, row);
        values[c.id] = v instanceof BasesEvalError ? { error: v.message } : toJson(v);
        columnValues.get(c.id)?.push(v instanceof BasesEvalError ? null : v);
      }
      for (const id of summarized) {
        const v = cellOf(id, row);
        columnValues.get(id)?.push(v instanceof BasesEvalError ? null : v);
      }
      out.push({ name: row.facts.path, values });
    }
    const summaries = summarize(base, view, ev, columnValues, g.rows[0]?.facts);
    groups.push({
      ...(g.key === undefined ? {} : { key: toJson(g.key) }),
      rows: out,
      ...(summaries === null ? {} : { summaries }),
    });
  }
  return { view: view.name, type: view.type, columns, groups, total: limited.length };
}

const AT = { line: 1, column: 1, offset: 0 };

/** Whether a row passes a filter tree (`not` passes when none of its items does). */
export function passes(ev: Evaluator, filter: FilterNode | null, row: RowScope): boolean {
  if (filter === null) return true;
  switch (filter.kind) {
    case 'expr':
      return ev.passes(filter.expr, row);
    case 'and':
      return filter.items.every((f) => passes(ev, f, row));
    case 'or':
      return filter.items.length === 0 || filter.items.some((f) => passes(ev, f, row));
    case 'not':
      return !filter.items.some((f) => passes(ev, f, row));
  }
}

/** Sort order of two values: nulls and errors last in either direction. */
function compareSortValues(
  a: Value | BasesEvalError,
  b: Value | BasesEvalError,
  direction: 'ASC' | 'DESC',
): number {
  const emptyA = a === null || a instanceof BasesEvalError || a === '';
  const emptyB = b === null || b instanceof BasesEvalError || b === '';
  if (emptyA || emptyB) return emptyA === emptyB ? 0 : emptyA ? 1 : -1;
  const c = compareForSort(a as Value, b as Value);
  return direction === 'DESC' ? -c : c;
}

function summarize(
  base: BaseDef,
  view: ViewDef,
  ev: Evaluator,
  columnValues: ReadonlyMap<string, Value[]>,
  anyFacts: FileFacts | undefined,
): Record<string, Cell> | null {
  if (view.summaries.size === 0) return null;
  const out: Record<string, Cell> = {};
  for (const [id, name] of view.summaries) {
    const values = columnValues.get(id) ?? [];
    const custom = base.summaries.get(name);
    if (custom === undefined) {
      out[id] = toJson(defaultSummary(name, values));
      continue;
    }
    const facts: FileFacts = anyFacts ?? EMPTY_FACTS;
    const v = ev.tryEvaluate(custom, ev.row(facts), new Map([['values', values]]));
    out[id] = v instanceof BasesEvalError ? { error: v.message } : toJson(v);
  }
  return out;
}

const EMPTY_FACTS: FileFacts = {
  path: '',
  size: 0,
  mtimeMs: 0,
  ctimeMs: 0,
  properties: () => ({}),
  tags: () => [],
  links: () => [],
};
