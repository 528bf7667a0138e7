/**
 * @module
 * The time filters of list_notes, search_notes and export_notes (SPEC 17.4) as SQL over the notes
 * table (alias `n`): `after` takes notes from that instant on, `before` those strictly before it, so
 * `after 2026-01-01` with `before 2026-02-01` is January, each day once.
 */

/** Instants in ms since 1970; an absent bound does not filter. */
export interface DateRange {
  readonly modifiedAfter?: number;
  readonly modifiedBefore?: number;
  readonly createdAfter?: number;
  readonly createdBefore?: number;
}

/** The conditions of `range` (none when it is empty), with their parameters in order. */
export function dateRangeSql(range: DateRange | undefined): { where: string[]; params: number[] } {
  const where: string[] = [];
  const params: number[] = [];
  const add = (condition: string, value: number | undefined) => {
    if (value === undefined) return;
    where.push(condition);
    params.push(value);
  };
  add('n.mtime_ms >= ?', range?.modifiedAfter);
  add('n.mtime_ms < ?', range?.modifiedBefore);
  add('n.created_ms >= ?', range?.createdAfter);
  add('n.created_ms < ?', range?.createdBefore);
  return { where, params };
}
