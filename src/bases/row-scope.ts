/**
 * @module
 * What the functions and methods of the language (globals.ts, methods.ts, list-methods.ts) need of the
 * evaluator: the state of the row being evaluated ({@link RowScope}) and a way to evaluate a
 * sub-expression, such as a list method's lambda ({@link ExprEvaluator}). Kept apart from evaluate.ts so
 * that the evaluator and the functions it calls can each be read without the other.
 */
import type { Expr } from './ast.js';
import type { BasesHost, FileFacts } from './host.js';
import type { BasesEvalError } from './limits.js';
import type { Value } from './values.js';

/** The state of one row: its file, its formulas computed so far, the work spent on it. */
export class RowScope {
  readonly formulaValues = new Map<string, Value | BasesEvalError>();
  readonly active: string[] = [];
  steps = 0;
  constructor(readonly facts: FileFacts) {}
}

/** The evaluator as the functions and methods see it. */
export interface ExprEvaluator {
  readonly host: BasesHost;
  evaluate(e: Expr, row: RowScope, locals: ReadonlyMap<string, Value>): Value;
}
