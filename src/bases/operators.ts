/**
 * @module
 * The arithmetic and comparison operators. Numbers as in JavaScript; `+` with text joins text;
 * a date plus or minus a duration (or duration text, `"7d"`) is a date, a date minus a date the
 * milliseconds between them; durations add, and multiply or divide by a number on their right.
 * Arithmetic with null (a missing property) gives null.
 */
import type { BinaryOperator } from './ast.js';
import { compareForOperator, valuesEqual, valueText } from './compare.js';
import { addDuration, parseDateText, parseDuration } from './dates.js';
import { BasesEvalError, checkList, checkText } from './limits.js';
import { DateValue, DurationValue, typeOf, type Value } from './values.js';

export function binary(op: Exclude<BinaryOperator, '&&' | '||'>, a: Value, b: Value): Value {
  switch (op) {
    case '==':
      return equalWithDates(a, b);
    case '!=':
      return !equalWithDates(a, b);
    case '>':
    case '<':
    case '>=':
    case '<=': {
      const c = compareForOperator(...datesFromText(a, b));
      if (c === null) return false;
      return op === '>' ? c > 0 : op === '<' ? c < 0 : op === '>=' ? c >= 0 : c <= 0;
    }
    case '+':
      return plus(a, b);
    case '-':
      return minus(a, b);
    default:
      return multiplicative(op, a, b);
  }
}

/** Text on one side of a date reads as a date (`due == "2025-01-01"`, `due < "2025-06-01"`). */
function datesFromText(a: Value, b: Value): [Value, Value] {
  if (a instanceof DateValue && typeof b === 'string') return [a, parseDateText(b) ?? b];
  if (b instanceof DateValue && typeof a === 'string') return [parseDateText(a) ?? a, b];
  return [a, b];
}

function equalWithDates(a: Value, b: Value): boolean {
  const [x, y] = datesFromText(a, b);
  return valuesEqual(x, y);
}

function durationOf(v: Value): DurationValue | null {
  if (v instanceof DurationValue) return v;
  if (typeof v === 'string') return parseDuration(v);
  return null;
}

function plus(a: Value, b: Value): Value {
  if (a instanceof DateValue) {
    const d = durationOf(b);
    if (d !== null) return addDuration(a, d, 1);
    if (typeof b === 'number') return new DateValue(a.ms + b, true);
    if (typeof b === 'string')
      throw new BasesEvalError(`"${b}" is not a duration (write e.g. "7d", "1M", "2 hours").`);
  }
  if (a instanceof DurationValue) {
    const d = durationOf(b);
    if (d !== null) return new DurationValue(a.months + d.months, a.ms + d.ms);
    if (b instanceof DateValue) return addDuration(b, a, 1);
  }
  if (typeof a === 'string' || typeof b === 'string') return checkText(valueText(a) + valueText(b));
  if (a === null || b === null) return null;
  if (typeof a === 'number' && typeof b === 'number') return a + b;
  if (Array.isArray(a) && Array.isArray(b)) return checkList([...a, ...b]);
  throw mismatch('add', a, b);
}

function minus(a: Value, b: Value): Value {
  if (a instanceof DateValue) {
    if (b instanceof DateValue) return a.ms - b.ms;
    const d = durationOf(b);
    if (d !== null) return addDuration(a, d, -1);
    if (typeof b === 'number') return new DateValue(a.ms - b, true);
    if (typeof b === 'string')
      throw new BasesEvalError(`"${b}" is not a duration (write e.g. "7d", "1M", "2 hours").`);
  }
  if (a instanceof DurationValue) {
    const d = durationOf(b);
    if (d !== null) return new DurationValue(a.months - d.months, a.ms - d.ms);
  }
  if (a === null || b === null) return null;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  throw mismatch('subtract', a, b);
}

function multiplicative(op: '*' | '/' | '%', a: Value, b: Value): Value {
  if (a === null || b === null) return null;
  if (a instanceof DurationValue && typeof b === 'number' && op !== '%') {
    return op === '*' ? new DurationValue(a.months * b, a.ms * b) : new DurationValue(a.months / b, a.ms / b);
  }
  if (typeof a === 'number' && typeof b === 'number') return op === '*' ? a * b : op === '/' ? a / b : a % b;
  if (b instanceof DurationValue && typeof a === 'number') {
    throw new BasesEvalError('Put the duration on the left: duration("5h") * 2, not 2 * duration("5h").');
  }
  throw mismatch(op === '*' ? 'multiply' : op === '/' ? 'divide' : 'take the remainder of', a, b);
}

function mismatch(verb: string, a: Value, b: Value): BasesEvalError {
  return new BasesEvalError(`Cannot ${verb} a ${typeOf(a)} and a ${typeOf(b)}.`);
}
