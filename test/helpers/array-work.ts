/**
 * @module
 * Counting the work array searches do, for tests that pin an algorithm's growth without timing it
 * (as string-work.ts does for string code): every call of the callback given to `find`,
 * `findIndex`, `findLast`, `findLastIndex`, `filter`, `some` or `every`. A search from the start of a
 * list for each item of it shows as items². A quadratic algorithm is stopped as soon as it passes
 * `budget`, so a test that would otherwise run for minutes fails at once. Synchronous code only.
 */

type Method = 'find' | 'findIndex' | 'findLast' | 'findLastIndex' | 'filter' | 'some' | 'every';

const METHODS: readonly Method[] = [
  'find',
  'findIndex',
  'findLast',
  'findLastIndex',
  'filter',
  'some',
  'every',
];

export class ArrayWorkBudgetExceeded extends Error {}

type Search = (this: unknown[], callback: (...args: unknown[]) => unknown, thisArg?: unknown) => unknown;

/** Runs `fn` while array searches are counted; returns the count with `fn`'s result. */
export function countArrayWork<T>(
  fn: () => T,
  options: { budget?: number } = {},
): { work: number; result: T } {
  const budget = options.budget ?? Number.POSITIVE_INFINITY;
  const proto = Array.prototype as unknown as Record<Method, Search>;
  const saved = new Map<Method, Search>();
  let work = 0;
  for (const m of METHODS) {
    const original = proto[m];
    saved.set(m, original);
    proto[m] = function (this: unknown[], callback, thisArg) {
      return original.call(
        this,
        function (this: unknown, ...args: unknown[]) {
          work++;
          if (work > budget) throw new ArrayWorkBudgetExceeded(`array work passed its budget of ${budget}`);
          return callback.apply(this, args);
        },
        thisArg,
      );
    };
  }
  try {
    return { result: fn(), work };
  } finally {
    for (const [m, original] of saved) proto[m] = original;
  }
}
