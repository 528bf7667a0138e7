/**
 * @module
 * What parsing yields ({@link Parsed}), where a sub-query stands ({@link Context}), and the few members
 * of the parser that the operator readers (parse-operators.ts) use ({@link OperatorReader}), so that the
 * parser and its operator readers can each be read without the other.
 */

import type { NotedError } from '../../../common/errors.js';
import type { QueryNode } from './nodes.js';
import type { Span, Token } from './tokens.js';

/** A word or phrase with nothing searchable in it, kept only to explain a refusal. */
export interface Dropped extends Span {
  readonly kind: 'dropped';
}

export type Parsed = QueryNode | Dropped;

/**
 * Where a sub-query stands, which decides what it may hold: the whole note takes everything; a scope's
 * operand (`line:(…)`) text terms and scopes; a property value or a field operand only text terms.
 */
export type Context = 'note' | 'scope' | 'value' | 'field';

export interface ParseOptions {
  /** Property names of the visible notes close to `name`, for "did you mean [title]?" (only on a refusal). */
  readonly propertyNames?: (name: string) => readonly string[];
}

/** The parser as the operator readers see it: the query, the token stream and how to report. */
export interface OperatorReader {
  readonly query: string;
  readonly options: ParseOptions;
  /** Where the token being read stands (see {@link Context}). */
  readonly context: Context;
  /** A property's value, the query's characters from `from` to `to`, parsed on its own. */
  parseValue(from: number, to: number): Parsed;
  /** The operand of an operator: one term, a nested operator, or a (group), parsed in `context`. */
  operand(context: Context): Parsed;
  describe(offset: number): string;
  /** The text of a token, in double quotes. */
  quote(span: Span): string;
  error(offset: number, message: string): NotedError;
  peek(): Token | undefined;
  /** Moves past the token {@link peek} returns. */
  skip(): void;
}
