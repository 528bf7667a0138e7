/**
 * @module
 * Query trees (index/search/parse/query.ts) written the short way, for the parser and dedupe tests.
 */
import type { QueryNode } from '../../src/index/search/parse/query.js';

export const word = (text: string): QueryNode => ({ kind: 'word', text });
export const phrase = (text: string): QueryNode => ({ kind: 'phrase', text });
export const not = (operand: QueryNode): QueryNode => ({ kind: 'not', operand });
export const and = (...operands: QueryNode[]): QueryNode => ({ kind: 'and', operands });
export const or = (...operands: QueryNode[]): QueryNode => ({ kind: 'or', operands });
export const field = (f: 'tag' | 'path' | 'file', value: string): QueryNode => ({
  kind: 'field',
  field: f,
  value,
});
