/**
 * @module
 * The time filters list_notes, search_notes and export_notes take (SPEC 17.4), read from the
 * arguments: each an ISO date or time, and no range that ends before it begins.
 */
import { NotedError } from '../common/errors.js';
import { isoInstant } from '../common/iso-time.js';
import type { DateRange } from '../index/queries/date-range.js';

export interface DateRangeInput {
  readonly modified_after?: string;
  readonly modified_before?: string;
  readonly created_after?: string;
  readonly created_before?: string;
}

const FORMS =
  'Pass an ISO 8601 date such as "2026-01-31" or a time such as "2026-01-31T09:30:00Z" (a time without an offset is UTC).';

/**
 * The range the arguments name, every bad one reported at once.
 *
 * @example
 * dateRange({ modified_after: '2026-01-01' }) // { modifiedAfter: Date.UTC(2026, 0, 1) }
 */
export function dateRange(input: DateRangeInput): DateRange {
  const problems: string[] = [];
  const read = (arg: keyof DateRangeInput): number | undefined => {
    const text = input[arg];
    if (text === undefined) return undefined;
    const ms = isoInstant(text);
    if (ms === null) problems.push(`${arg} ${JSON.stringify(text)} is not an ISO 8601 date or time.`);
    return ms ?? undefined;
  };
  const range = {
    modifiedAfter: read('modified_after'),
    modifiedBefore: read('modified_before'),
    createdAfter: read('created_after'),
    createdBefore: read('created_before'),
  };
  if (problems.length > 0) throw new NotedError('validation_error', `${problems.join(' ')} ${FORMS}`);
  for (const [kind, after, before] of [
    ['modified', range.modifiedAfter, range.modifiedBefore],
    ['created', range.createdAfter, range.createdBefore],
  ] as const) {
    if (after !== undefined && before !== undefined && after >= before) {
      throw new NotedError(
        'validation_error',
        `${kind}_after (${input[`${kind}_after`]}) is not before ${kind}_before (${input[`${kind}_before`]}), so no note could match: swap them, or leave one out.`,
      );
    }
  }
  return Object.fromEntries(Object.entries(range).filter(([, v]) => v !== undefined)) as DateRange;
}

/** The range as a cursor remembers it: a cursor given with other filters is refused, not misread. */
export function rangeKey(range: DateRange): string {
  return JSON.stringify([range.modifiedAfter, range.modifiedBefore, range.createdAfter, range.createdBefore]);
}
