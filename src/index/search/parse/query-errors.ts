/**
 * @module
 * Where in a search query something went wrong, said as a reader counts (code points) with the text
 * around it, and the `validation_error` that carries it: shared by the tokenizer, the operator table and
 * the parser.
 */

import { NotedError } from '../../../common/errors.js';

/**
 * `position 6 (near `plan "budget rev…`)`: the 1-based position counted in characters (code points, as
 * a reader counts), and the query around it to show the spot.
 */
export function where(query: string, offset: number): string {
  const before = Array.from(query.slice(0, offset));
  const after = Array.from(query.slice(offset));
  const head = before.length > 12 ? `…${before.slice(-12).join('')}` : before.join('');
  const tail = after.length > 18 ? `${after.slice(0, 18).join('')}…` : after.join('');
  return `position ${before.length + 1} (near \`${head}${tail}\`)`;
}

export function positionError(query: string, offset: number, message: string): NotedError {
  return new NotedError('validation_error', `Malformed search query. ${message}`, {
    position: Array.from(query.slice(0, offset)).length + 1,
  });
}
