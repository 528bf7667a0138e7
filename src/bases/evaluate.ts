/**
 * @module
 * The interpreter: evaluates a parsed expression over one row (a file of the vault), never as
 * JavaScript. Bare names are the row's note properties (`status`, `note.status`, `note["a b"]`),
 * `file` is the row's file, `formula.x` another formula of the base (computed once per row), `this`
 * the file the base is seen from. `value`, `index` and `acc` are bound inside `filter`, `map` and
 * `reduce`, `values` inside a summary.
 */
import type { Expr } from './ast.js';
import { callGlobal } from './globals.js';
import type { BasesHost, FileFacts } from './host.js';
import { BasesEvalError, checkList, MAX_FORMULA_DEPTH, MAX_STEPS } from './limits.js';
import { callMethod, fileField } from './methods.js';
import { binary } from './operators.js';
import { propertyValue } from './property-value.js';
import { compileRegex } from './regex.js';
import { type ExprEvaluator, RowScope } from './row-scope.js';
import { DateValue, FileValue, isTruthy, LinkValue, ObjectValue, typeOf, type Value } from './values.js';

/** What `this` is: the base file, the note embedding the block, or a note an agent names. */
export type ThisFile = string | null;

export class Evaluator implements ExprEvaluator {
  constructor(
    readonly host: BasesHost,
    readonly formulas: ReadonlyMap<string, Expr>,
    readonly thisPath: ThisFile,
  ) {}

  /** A new row's scope. */
  row(facts: FileFacts): RowScope {
    return new RowScope(facts);
  }

  /** The value of `expr` on the row, or the error that stopped it. */
  tryEvaluate(expr: Expr, row: RowScope, locals?: ReadonlyMap<string, Value>): Value | BasesEvalError {
    try {
      return this.evaluate(expr, row, locals ?? EMPTY);
    } catch (err) {
      if (err instanceof BasesEvalError) return err;
      if (err instanceof RangeError)
        return new BasesEvalError(`The evaluation went too deep: ${err.message}`);
      throw err;
    }
  }

  /** Whether the row passes a filter expression: an error counts as not passing. */
  passes(expr: Expr, row: RowScope): boolean {
    const v = this.tryEvaluate(expr, row);
    return !(v instanceof BasesEvalError) && isTruthy(v);
  }

  /** The value of formula `name` on the row, computed once. */
  formula(name: string, row: RowScope): Value {
    const known = row.formulaValues.get(name);
    if (known instanceof BasesEvalError) throw known;
    if (known !== undefined) return known;
    const expr = this.formulas.get(name);
    if (expr === undefined) throw new BasesEvalError(`The base has no formula "${name}".`);
    if (row.active.includes(name)) {
      throw new BasesEvalError(
        `The formulas refer to each other in a cycle: ${[...row.active, name].join(' → ')}.`,
      );
    }
    if (row.active.length >= MAX_FORMULA_DEPTH) {
      throw new BasesEvalError(`Formulas call formulas more than ${MAX_FORMULA_DEPTH} deep.`);
    }
    row.active.push(name);
    try {
      const v = this.evaluate(expr, row, EMPTY);
      row.formulaValues.set(name, v);
      return v;
    } catch (err) {
      if (err instanceof BasesEvalError) row.formulaValues.set(name, err);
      throw err;
    } finally {
      row.active.pop();
    }
  }

  /** The row's note property `key` as a typed value (exact key first, then ignoring case). */
  property(facts: FileFacts | null, key: string): Value {
    if (facts === null) return null;
    const props = facts.properties();
    let raw: unknown = props[key];
    if (raw === undefined) {
      const lower = key.toLowerCase();
      for (const [k, v] of Object.entries(props)) {
        if (k.toLowerCase() === lower) {
          raw = v;
          break;
        }
      }
    }
    return raw === undefined ? null : propertyValue(raw, facts.path, this.host);
  }

  evaluate(e: Expr, row: RowScope, locals: ReadonlyMap<string, Value>): Value {
    if (++row.steps > MAX_STEPS) {
      throw new BasesEvalError(
        `The evaluation took more than ${MAX_STEPS} steps on this row and was stopped.`,
      );
    }
    switch (e.kind) {
      case 'number':
      case 'string':
      case 'boolean':
        return e.value;
      case 'null':
        return null;
      case 'regex':
        return compileRegex(e.source, e.flags);
      case 'name':
        return this.name(e.name, row, locals);
      case 'list':
        return checkList(e.items.map((item) => this.evaluate(item, row, locals)));
      case 'object':
        return new ObjectValue(new Map(e.entries.map(([k, v]) => [k, this.evaluate(v, row, locals)])));
      case 'member':
        return this.member(e.object, e.name, row, locals);
      case 'index':
        return indexInto(this.evaluate(e.object, row, locals), this.evaluate(e.index, row, locals));
      case 'call':
        if (e.callee.kind === 'name') return callGlobal(this, e.callee.name, e.args, row, locals);
        if (e.callee.kind === 'member') {
          const target = this.evaluate(e.callee.object, row, locals);
          return callMethod(this, target, e.callee.name, e.args, row, locals);
        }
        throw new BasesEvalError('Only a function or a method can be called.');
      case 'unary': {
        const v = this.evaluate(e.arg, row, locals);
        if (e.op === '!') return !isTruthy(v);
        if (v === null) return null;
        if (typeof v === 'number') return -v;
        throw new BasesEvalError(`Cannot negate a ${describeType(v)}.`);
      }
      case 'binary': {
        if (e.op === '&&') {
          const l = this.evaluate(e.left, row, locals);
          return isTruthy(l) ? this.evaluate(e.right, row, locals) : l;
        }
        if (e.op === '||') {
          const l = this.evaluate(e.left, row, locals);
          return isTruthy(l) ? l : this.evaluate(e.right, row, locals);
        }
        return binary(e.op, this.evaluate(e.left, row, locals), this.evaluate(e.right, row, locals));
      }
    }
  }

  private name(name: string, row: RowScope, locals: ReadonlyMap<string, Value>): Value {
    const local = locals.get(name);
    if (local !== undefined || locals.has(name)) return local ?? null;
    switch (name) {
      case 'file':
        return new FileValue(row.facts.path);
      case 'this':
        return this.thisPath === null ? null : new FileValue(this.thisPath, true);
      case 'note':
        return propertiesObject(this, row.facts);
      case 'formula':
        throw new BasesEvalError('Write formula.NAME to use a formula of the base.');
      default:
        return this.property(row.facts, name);
    }
  }

  private member(objectExpr: Expr, name: string, row: RowScope, locals: ReadonlyMap<string, Value>): Value {
    if (objectExpr.kind === 'name' && !locals.has(objectExpr.name)) {
      if (objectExpr.name === 'formula') return this.formula(name, row);
      if (objectExpr.name === 'note') return this.property(row.facts, name);
    }
    return this.memberOf(this.evaluate(objectExpr, row, locals), name);
  }

  /** `value.name` for a value already computed. */
  memberOf(target: Value, name: string): Value {
    if (target === null) return null;
    if (target instanceof FileValue) {
      if (target.asRow) {
        // `this.file.name`, `this.note.x`, `this.x`: `this` stands for a row, like the row itself.
        if (name === 'file') return new FileValue(target.path);
        const facts = this.host.file(target.path);
        if (name === 'note') return facts === null ? null : propertiesObject(this, facts);
        return this.property(facts, name);
      }
      return fileField(this, target, name);
    }
    if (target instanceof LinkValue) {
      // A link's fields are those of the file it resolves to.
      return target.resolved === null ? null : fileField(this, new FileValue(target.resolved), name);
    }
    if (target instanceof DateValue) return dateField(target, name);
    if (target instanceof ObjectValue) return target.entries.get(name) ?? null;
    if ((typeof target === 'string' || Array.isArray(target)) && name === 'length') return target.length;
    throw new BasesEvalError(`A ${describeType(target)} has no field "${name}".`);
  }
}

const EMPTY: ReadonlyMap<string, Value> = new Map();

function propertiesObject(ev: Evaluator, facts: FileFacts): ObjectValue {
  const out = new Map<string, Value>();
  for (const [k, v] of Object.entries(facts.properties())) out.set(k, propertyValue(v, facts.path, ev.host));
  return new ObjectValue(out);
}

function indexInto(target: Value, index: Value): Value {
  if (target === null) return null;
  if (Array.isArray(target) || typeof target === 'string') {
    if (typeof index !== 'number')
      throw new BasesEvalError(`A ${describeType(target)} is indexed by a number.`);
    const item = target[index];
    return item === undefined ? null : item;
  }
  if (target instanceof ObjectValue) {
    if (typeof index !== 'string') throw new BasesEvalError('An object is indexed by a string key.');
    return target.entries.get(index) ?? null;
  }
  throw new BasesEvalError(`A ${describeType(target)} cannot be indexed with [].`);
}

const DATE_FIELDS: Record<string, (d: Date) => number> = {
  year: (d) => d.getFullYear(),
  month: (d) => d.getMonth() + 1,
  day: (d) => d.getDate(),
  hour: (d) => d.getHours(),
  minute: (d) => d.getMinutes(),
  second: (d) => d.getSeconds(),
  millisecond: (d) => d.getMilliseconds(),
};

function dateField(d: DateValue, name: string): Value {
  const field = DATE_FIELDS[name];
  if (field === undefined) {
    throw new BasesEvalError(`A date has no field "${name}"; it has ${Object.keys(DATE_FIELDS).join(', ')}.`);
  }
  return field(new Date(d.ms));
}

export function describeType(v: Value): string {
  return typeOf(v);
}
