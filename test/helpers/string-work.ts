/**
 * @module
 * Counting the work string code does, for tests that pin an algorithm's growth without timing it:
 * every character a `slice`/`substring`/`substr` call returns (a copy made per link, say, shows as
 * text length × links) and every `indexOf`/`lastIndexOf`/`startsWith`/`endsWith` call (a scan from the start per item shows
 * as their count). A quadratic algorithm is stopped as soon as it passes `budget`, so a test that
 * would otherwise run for minutes fails at once.
 *
 * Copies are counted by length, which overstates a prefix taken from a flat string (V8 shares it
 * instead of copying; the YAML library does that once per quoted scalar): a test of code that calls
 * such a library counts searches only.
 */

type Method = 'slice' | 'substring' | 'substr' | 'indexOf' | 'lastIndexOf' | 'startsWith' | 'endsWith';

const COPYING: readonly Method[] = ['slice', 'substring', 'substr'];
const SEARCHING: readonly Method[] = ['indexOf', 'lastIndexOf', 'startsWith', 'endsWith'];

export class WorkBudgetExceeded extends Error {}

/**
 * Runs `fn` while string methods are counted and returns the count with `fn`'s result. Throws
 * `WorkBudgetExceeded` once the count passes `budget`. Synchronous code only: everything else the
 * process runs meanwhile would be counted too.
 */
export function countStringWork<T>(
  fn: () => T,
  options: { budget?: number; count?: 'copies and searches' | 'searches' } = {},
): { work: number; result: T } {
  const counting = startCounting(options);
  try {
    return { result: fn(), work: counting.work() };
  } finally {
    counting.stop();
  }
}

/**
 * The same for code that awaits only its own promises (a move's plan awaits its checkpoints): counted
 * until its promise settles. Give it a checkpoint that never yields to the event loop, so nothing else
 * runs, and so is counted, meanwhile.
 */
export async function countStringWorkAsync<T>(
  fn: () => Promise<T>,
  options: { budget?: number; count?: 'copies and searches' | 'searches' } = {},
): Promise<{ work: number; result: T }> {
  const counting = startCounting(options);
  try {
    const result = await fn();
    return { result, work: counting.work() };
  } finally {
    counting.stop();
  }
}

function startCounting(options: { budget?: number; count?: 'copies and searches' | 'searches' }): {
  work: () => number;
  stop: () => void;
} {
  const budget = options.budget ?? Number.POSITIVE_INFINITY;
  const methods = options.count === 'searches' ? SEARCHING : [...COPYING, ...SEARCHING];
  const proto = String.prototype as unknown as Record<Method, (...args: unknown[]) => unknown>;
  const saved = new Map<Method, (...args: unknown[]) => unknown>();
  let work = 0;
  const charge = (n: number) => {
    work += n;
    if (work > budget) throw new WorkBudgetExceeded(`string work passed its budget of ${budget}`);
  };
  for (const m of methods) {
    const original = proto[m];
    saved.set(m, original);
    const copying = COPYING.includes(m);
    proto[m] = function (this: string, ...args: unknown[]) {
      const out = original.apply(this, args);
      charge(copying ? (out as string).length : 1);
      return out;
    };
  }
  return {
    work: () => work,
    stop: () => {
      for (const [m, original] of saved) proto[m] = original;
    },
  };
}
