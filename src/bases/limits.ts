/**
 * @module
 * The bounds of an evaluation, so no expression runs away (SPEC 16.4): list sizes, text sizes, and
 * the work of one row. Exceeding one is an evaluation error in that cell, never a stall.
 */

/** The most items a list may hold (a literal, `map`, `filter`, `flat`, `split`, `+`). */
export const MAX_LIST_ITEMS = 100_000;
/** The longest text an expression may build (`repeat`, `+`, `join`, `replace`). */
export const MAX_TEXT_LENGTH = 1_000_000;
/** Evaluation steps per row, all its formulas and filters together. */
export const MAX_STEPS = 2_000_000;
/** How deep formulas may call formulas (cycles are refused before; this bounds long chains). */
export const MAX_FORMULA_DEPTH = 64;

/** An expression that failed on a row: shown in the cell as `{error}`, the row kept. */
export class BasesEvalError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BasesEvalError';
  }
}

export function checkList<T>(items: readonly T[]): readonly T[] {
  if (items.length > MAX_LIST_ITEMS) {
    throw new BasesEvalError(`A list of ${items.length} items is longer than the ${MAX_LIST_ITEMS} allowed.`);
  }
  return items;
}

export function checkText(text: string): string {
  if (text.length > MAX_TEXT_LENGTH) {
    throw new BasesEvalError(
      `A text of ${text.length} characters is longer than the ${MAX_TEXT_LENGTH} allowed.`,
    );
  }
  return text;
}
