/**
 * @module
 * A Bases filter given as data rather than YAML (query_notes' `where`, SPEC 16.3): one expression
 * string, or an object with exactly one of `and`, `or`, `not` holding a list of filters.
 */
import type { FilterNode } from './base-file.js';
import { parseExpression } from './parser.js';
import { BasesSyntaxError } from './syntax-error.js';
import { checkExpression } from './validate.js';

/** Thrown for a filter that cannot be read: `where` is the place (`where.and[1]`). */
export class FilterInputError extends Error {
  constructor(
    message: string,
    readonly where: string,
    readonly line?: number,
    readonly column?: number,
  ) {
    super(message);
    this.name = 'FilterInputError';
  }
}

/** @example filterFromInput({ and: ['file.hasTag("book")', 'price > 2'] }).kind // 'and' */
export function filterFromInput(value: unknown, where = 'where', depth = 0): FilterNode {
  if (depth > 50) throw new FilterInputError('The filter nests deeper than 50 levels.', where);
  if (typeof value === 'string') {
    try {
      const expr = parseExpression(value);
      const problem = checkExpression(expr, new Map());
      if (problem !== null) {
        throw new FilterInputError(problem.message, where, problem.at.line, problem.at.column);
      }
      return { kind: 'expr', expr, source: value };
    } catch (err) {
      if (err instanceof BasesSyntaxError)
        throw new FilterInputError(err.message, where, err.line, err.column);
      throw err;
    }
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new FilterInputError(
      'A filter is an expression string, or {and: [...]}, {or: [...]} or {not: [...]}.',
      where,
    );
  }
  const keys = Object.keys(value);
  const key = keys[0];
  if (keys.length !== 1 || (key !== 'and' && key !== 'or' && key !== 'not')) {
    throw new FilterInputError(
      `A filter object has exactly one key, and, or or not; got ${keys.join(', ') || 'none'}.`,
      where,
    );
  }
  const items = (value as Record<string, unknown>)[key];
  if (!Array.isArray(items)) throw new FilterInputError(`${key} holds a list of filters.`, `${where}.${key}`);
  return {
    kind: key,
    items: items.map((item, i) => filterFromInput(item, `${where}.${key}[${i}]`, depth + 1)),
  };
}
