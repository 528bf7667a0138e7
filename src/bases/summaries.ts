/**
 * @module
 * The default summaries of the Bases syntax page (Average, Min, Max, Sum, Range, Median, Stddev,
 * Earliest, Latest, Checked, Unchecked, Empty, Filled, Unique), over the values of one column.
 */
import { valuesEqual } from './compare.js';
import { DateValue, DurationValue, isEmptyValue, type Value } from './values.js';

export function defaultSummary(name: string, values: readonly Value[]): Value {
  // Text holding a number counts as that number: the syntax page averages `toFixed` results.
  const nums = values
    .map((v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : v))
    .filter((v): v is number => typeof v === 'number' && Number.isFinite(v));
  const dates = values.filter((v): v is DateValue => v instanceof DateValue).map((d) => d.ms);
  const sum = nums.reduce((a, b) => a + b, 0);
  switch (name) {
    case 'Average':
      return nums.length === 0 ? null : sum / nums.length;
    case 'Min':
      return nums.length === 0 ? null : Math.min(...nums);
    case 'Max':
      return nums.length === 0 ? null : Math.max(...nums);
    case 'Sum':
      return sum;
    case 'Range':
      if (nums.length > 0) return Math.max(...nums) - Math.min(...nums);
      if (dates.length > 0) return new DurationValue(0, Math.max(...dates) - Math.min(...dates));
      return null;
    case 'Median': {
      if (nums.length === 0) return null;
      const sorted = [...nums].sort((a, b) => a - b);
      const mid = Math.floor(sorted.length / 2);
      return sorted.length % 2 === 1
        ? (sorted[mid] as number)
        : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
    }
    case 'Stddev': {
      if (nums.length === 0) return null;
      const mean = sum / nums.length;
      return Math.sqrt(nums.reduce((a, b) => a + (b - mean) ** 2, 0) / nums.length);
    }
    case 'Earliest':
      return dates.length === 0 ? null : new DateValue(Math.min(...dates), true);
    case 'Latest':
      return dates.length === 0 ? null : new DateValue(Math.max(...dates), true);
    case 'Checked':
      return values.filter((v) => v === true).length;
    case 'Unchecked':
      return values.filter((v) => v === false).length;
    case 'Empty':
      return values.filter(isEmptyValue).length;
    case 'Filled':
      return values.filter((v) => !isEmptyValue(v)).length;
    case 'Unique': {
      const seen: Value[] = [];
      for (const v of values) if (!seen.some((s) => valuesEqual(s, v))) seen.push(v);
      return seen.length;
    }
    default:
      return null;
  }
}
