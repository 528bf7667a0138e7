/**
 * @module
 * The global functions of the Functions page: `if`, `date`, `duration`, `now`, `today`, `link`,
 * `file`, `list`, `number`, `min`, `max`, `random`, `escapeHTML`, `html`, `image`, `icon`.
 */
import type { Expr } from './ast.js';
import { valueText } from './compare.js';
import { parseDateText, parseDuration, startOfDay } from './dates.js';
import { BasesEvalError } from './limits.js';
import { didYouMean, GLOBAL_FUNCTIONS } from './names.js';
import { linkFromText } from './property-value.js';
import type { ExprEvaluator, RowScope } from './row-scope.js';
import {
  DateValue,
  DurationValue,
  FileValue,
  isTruthy,
  LinkValue,
  RichValue,
  typeOf,
  type Value,
} from './values.js';

export function callGlobal(
  ev: ExprEvaluator,
  name: string,
  argExprs: readonly Expr[],
  row: RowScope,
  locals: ReadonlyMap<string, Value>,
): Value {
  if (name === 'if') {
    arity(name, argExprs, 2, 3);
    const cond = ev.evaluate(argExprs[0] as Expr, row, locals);
    if (isTruthy(cond)) return ev.evaluate(argExprs[1] as Expr, row, locals);
    return argExprs[2] === undefined ? null : ev.evaluate(argExprs[2], row, locals);
  }
  const args = argExprs.map((a) => ev.evaluate(a, row, locals));
  const from = row.facts.path;
  switch (name) {
    case 'now':
      arity(name, args, 0, 0);
      return new DateValue(ev.host.now(), true);
    case 'today':
      arity(name, args, 0, 0);
      return new DateValue(startOfDay(ev.host.now()), false);
    case 'random':
      arity(name, args, 0, 0);
      return Math.random();
    case 'date': {
      arity(name, args, 1, 1);
      const v = args[0] as Value;
      if (v === null) return null;
      if (v instanceof DateValue) return v;
      if (typeof v === 'number') return new DateValue(v, true);
      const d = typeof v === 'string' ? parseDateText(v) : null;
      if (d === null)
        throw new BasesEvalError(
          `date(): "${valueText(v)}" is not a date; write "YYYY-MM-DD" or "YYYY-MM-DD HH:mm:ss".`,
        );
      return d;
    }
    case 'duration': {
      arity(name, args, 1, 1);
      const v = args[0] as Value;
      if (v instanceof DurationValue) return v;
      if (typeof v === 'number') return new DurationValue(0, v);
      const d = typeof v === 'string' ? parseDuration(v) : null;
      if (d === null)
        throw new BasesEvalError(
          `duration(): "${valueText(v)}" is not a duration; write e.g. "7d", "1M", "2 hours".`,
        );
      return d;
    }
    case 'link': {
      arity(name, args, 1, 2);
      const [target, display] = args as [Value, Value | undefined];
      const shown = display === undefined || display === null ? null : valueText(display);
      if (target instanceof FileValue) return new LinkValue(target.path, shown, target.path);
      if (target instanceof LinkValue)
        return new LinkValue(target.target, shown ?? target.display, target.resolved);
      if (target === null) return null;
      const text = valueText(target)
        .replace(/^!?\[\[/, '')
        .replace(/\]\]$/, '');
      const [path, alias] = text.split('|');
      return linkFromText(path ?? '', shown ?? alias ?? null, from, ev.host);
    }
    case 'file': {
      arity(name, args, 1, 1);
      return fileOf(ev, args[0] as Value, from);
    }
    case 'list': {
      arity(name, args, 1, 1);
      const v = args[0] as Value;
      if (v === null) return [];
      return Array.isArray(v) ? v : [v];
    }
    case 'number': {
      arity(name, args, 1, 1);
      const v = args[0] as Value;
      if (v === null || typeof v === 'number') return v;
      if (typeof v === 'boolean') return v ? 1 : 0;
      if (v instanceof DateValue) return v.ms;
      if (v instanceof DurationValue) return v.months * 30 * 86_400_000 + v.ms;
      if (typeof v === 'string' && v.trim() !== '' && !Number.isNaN(Number(v))) return Number(v);
      throw new BasesEvalError(`number(): "${valueText(v)}" is not a number.`);
    }
    case 'min':
    case 'max': {
      const nums = args.filter((v) => v !== null);
      for (const v of nums) {
        if (typeof v !== 'number') throw new BasesEvalError(`${name}() takes numbers; got a ${typeOf(v)}.`);
      }
      if (nums.length === 0) return null;
      return name === 'min' ? Math.min(...(nums as number[])) : Math.max(...(nums as number[]));
    }
    case 'escapeHTML':
      arity(name, args, 1, 1);
      return escapeHtml(valueText(args[0] as Value));
    case 'html':
    case 'image':
    case 'icon': {
      arity(name, args, 1, 1);
      const v = args[0] as Value;
      const text =
        v instanceof FileValue ? v.path : v instanceof LinkValue ? (v.resolved ?? v.target) : valueText(v);
      return new RichValue(name, text);
    }
    default:
      throw new BasesEvalError(`Unknown function "${name}".${didYouMean(name, GLOBAL_FUNCTIONS)}`);
  }
}

/** `file(x)`: a file by path, link or file; null when no visible file is there. */
export function fileOf(ev: ExprEvaluator, v: Value, from: string): Value {
  if (v === null) return null;
  if (v instanceof FileValue) return new FileValue(v.path);
  if (v instanceof LinkValue) return v.resolved === null ? null : new FileValue(v.resolved);
  const text =
    valueText(v)
      .replace(/^!?\[\[/, '')
      .replace(/\]\]$/, '')
      .split('|')[0] ?? '';
  if (ev.host.file(text) !== null) return new FileValue(text);
  const resolved = ev.host.resolve(text, from);
  return resolved === null ? null : new FileValue(resolved);
}

export function arity(name: string, args: readonly unknown[], min: number, max: number): void {
  if (args.length < min || args.length > max) {
    const want = min === max ? `${min}` : `${min} to ${max}`;
    throw new BasesEvalError(
      `${name}() takes ${want} argument${max === 1 ? '' : 's'}; it was given ${args.length}.`,
    );
  }
}

export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}
