/**
 * @module
 * What can be known of an expression before it runs: every global function, method and `file.*`
 * field must exist, every `formula.x` must be a formula of the base, and formulas must not refer to
 * each other in a cycle. An unknown name is refused naming itself and the closest known one.
 */
import type { Expr, Position } from './ast.js';
import { ALL_METHODS, didYouMean, FILE_FIELDS, GLOBAL_FUNCTIONS } from './names.js';

export interface Problem {
  readonly message: string;
  readonly at: Position;
}

/** The first problem of `expr`, or null. */
export function checkExpression(expr: Expr, formulas: ReadonlyMap<string, unknown>): Problem | null {
  let problem: Problem | null = null;
  const visit = (e: Expr, bound: ReadonlySet<string>): void => {
    if (problem !== null) return;
    switch (e.kind) {
      case 'list':
        for (const x of e.items) visit(x, bound);
        return;
      case 'object':
        for (const [, x] of e.entries) visit(x, bound);
        return;
      case 'index':
        visit(e.object, bound);
        visit(e.index, bound);
        return;
      case 'unary':
        visit(e.arg, bound);
        return;
      case 'binary':
        visit(e.left, bound);
        visit(e.right, bound);
        return;
      case 'member':
        if (e.object.kind === 'name' && !bound.has(e.object.name)) {
          if (e.object.name === 'formula' && !formulas.has(e.name)) {
            problem = {
              message: `Unknown formula "formula.${e.name}".${didYouMean(
                `formula.${e.name}`,
                [...formulas.keys()].map((f) => `formula.${f}`),
              )}`,
              at: e.at,
            };
            return;
          }
          if (e.object.name === 'file' && !(FILE_FIELDS as readonly string[]).includes(e.name)) {
            problem = {
              message: `Unknown file property "file.${e.name}".${didYouMean(
                `file.${e.name}`,
                FILE_FIELDS.map((f) => `file.${f}`),
              )}`,
              at: e.at,
            };
            return;
          }
        }
        visit(e.object, bound);
        return;
      case 'call': {
        if (e.callee.kind === 'name') {
          if (!(GLOBAL_FUNCTIONS as readonly string[]).includes(e.callee.name)) {
            problem = {
              message: `Unknown function "${e.callee.name}".${didYouMean(e.callee.name, GLOBAL_FUNCTIONS)}`,
              at: e.callee.at,
            };
            return;
          }
        } else if (e.callee.kind === 'member') {
          if (!ALL_METHODS.has(e.callee.name)) {
            problem = {
              message: `Unknown function "${e.callee.name}".${didYouMean(e.callee.name, ALL_METHODS)}`,
              at: e.callee.at,
            };
            return;
          }
          visit(e.callee.object, bound);
        }
        // Inside filter/map/reduce, value, index and acc are the item, not note properties.
        const inner =
          e.callee.kind === 'member' && ['filter', 'map', 'reduce'].includes(e.callee.name)
            ? new Set([...bound, 'value', 'index', 'acc'])
            : bound;
        for (const x of e.args) visit(x, inner);
        return;
      }
      default:
        return;
    }
  };
  visit(expr, new Set());
  return problem;
}

/** The formulas `expr` uses (`formula.x`). */
export function formulaRefs(expr: Expr): Set<string> {
  const out = new Set<string>();
  const visit = (e: Expr): void => {
    switch (e.kind) {
      case 'member':
        if (e.object.kind === 'name' && e.object.name === 'formula') out.add(e.name);
        else visit(e.object);
        return;
      case 'list':
        e.items.forEach(visit);
        return;
      case 'object':
        for (const [, x] of e.entries) visit(x);
        return;
      case 'index':
        visit(e.object);
        visit(e.index);
        return;
      case 'call':
        visit(e.callee);
        e.args.forEach(visit);
        return;
      case 'unary':
        visit(e.arg);
        return;
      case 'binary':
        visit(e.left);
        visit(e.right);
        return;
      default:
        return;
    }
  };
  visit(expr);
  return out;
}

/**
 * A cycle among formulas, as the names along it with the first repeated at the end (`['a', 'b',
 * 'a']`), or null.
 */
export function formulaCycle(uses: ReadonlyMap<string, ReadonlySet<string>>): string[] | null {
  const state = new Map<string, 'active' | 'done'>();
  const path: string[] = [];
  const visit = (name: string): string[] | null => {
    const s = state.get(name);
    if (s === 'done') return null;
    if (s === 'active') return [...path.slice(path.indexOf(name)), name];
    state.set(name, 'active');
    path.push(name);
    for (const next of uses.get(name) ?? []) {
      if (!uses.has(next)) continue;
      const found = visit(next);
      if (found !== null) return found;
    }
    path.pop();
    state.set(name, 'done');
    return null;
  };
  for (const name of uses.keys()) {
    const found = visit(name);
    if (found !== null) return found;
  }
  return null;
}
