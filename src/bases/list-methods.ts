/**
 * @module
 * The methods of lists. `filter`, `map` and `reduce` evaluate their argument once per item with
 * `value`, `index` (and `acc`) bound, as the Functions page writes them: `[1,2,3,4].filter(value > 2)`.
 */
import type { Expr } from './ast.js';
import { compareForSort, valuesEqual, valueText } from './compare.js';
import { arity } from './globals.js';
import { BasesEvalError, checkList, checkText } from './limits.js';
import type { ExprEvaluator, RowScope } from './row-scope.js';
import { isTruthy, type Value } from './values.js';

export function listMethod(
  ev: ExprEvaluator,
  list: readonly Value[],
  name: string,
  argExprs: readonly Expr[],
  row: RowScope,
  locals: ReadonlyMap<string, Value>,
): Value | undefined {
  const withItem = (value: Value, index: number, acc?: Value): Map<string, Value> => {
    const scope = new Map(locals);
    scope.set('value', value);
    scope.set('index', index);
    if (acc !== undefined) scope.set('acc', acc);
    return scope;
  };
  switch (name) {
    case 'filter': {
      arity(name, argExprs, 1, 1);
      return list.filter((v, i) => isTruthy(ev.evaluate(argExprs[0] as Expr, row, withItem(v, i))));
    }
    case 'map': {
      arity(name, argExprs, 1, 1);
      return checkList(list.map((v, i) => ev.evaluate(argExprs[0] as Expr, row, withItem(v, i))));
    }
    case 'reduce': {
      arity(name, argExprs, 1, 2);
      let acc = argExprs[1] === undefined ? null : ev.evaluate(argExprs[1], row, locals);
      list.forEach((v, i) => {
        acc = ev.evaluate(argExprs[0] as Expr, row, withItem(v, i, acc));
      });
      return acc;
    }
    default:
      break;
  }
  const args = argExprs.map((a) => ev.evaluate(a, row, locals));
  const has = (x: Value): boolean => list.some((item) => valuesEqual(item, x));
  switch (name) {
    case 'contains':
      arity(name, args, 1, 1);
      return has(args[0] as Value);
    case 'containsAll':
      return args.every(has);
    case 'containsAny':
      return args.some(has);
    case 'flat':
      arity(name, args, 0, 0);
      return checkList(list.flatMap((v) => (Array.isArray(v) ? (v as Value[]) : [v])));
    case 'isEmpty':
      return list.length === 0;
    case 'join': {
      arity(name, args, 0, 1);
      const sep = args[0] === undefined || args[0] === null ? ',' : valueText(args[0]);
      return checkText(list.map(valueText).join(sep));
    }
    case 'reverse':
      return [...list].reverse();
    case 'slice': {
      arity(name, args, 1, 2);
      return list.slice(num(name, args[0]), args[1] === undefined ? undefined : num(name, args[1]));
    }
    case 'sort':
      return [...list].sort((a, b) =>
        a === null ? (b === null ? 0 : 1) : b === null ? -1 : compareForSort(a, b),
      );
    case 'unique': {
      const out: Value[] = [];
      for (const v of list) if (!out.some((o) => valuesEqual(o, v))) out.push(v);
      return out;
    }
    case 'mean':
    case 'sum': {
      const nums = list.filter((v): v is number => typeof v === 'number');
      const sum = nums.reduce((a, b) => a + b, 0);
      if (name === 'sum') return sum;
      return nums.length === 0 ? null : sum / nums.length;
    }
    default:
      return undefined;
  }
}

function num(method: string, v: Value | undefined): number {
  if (typeof v !== 'number') throw new BasesEvalError(`${method}() takes a number here.`);
  return v;
}
