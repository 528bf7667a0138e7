/**
 * @module
 * The error of an expression or a `.base` file that does not parse: what is wrong, and where.
 */

export class BasesSyntaxError extends Error {
  constructor(
    message: string,
    /** 1-based line in the expression (or the `.base` file). */
    readonly line: number,
    /** 1-based column. */
    readonly column: number,
  ) {
    super(message);
    this.name = 'BasesSyntaxError';
  }
}
