/**
 * @module
 * `.base` files as vault files agents read and write (SPEC 16.3): a name ending `.base` names the
 * file itself (no note ending added), and what is written must parse, YAML and every expression,
 * else `validation_error` with the line and column, and nothing is written.
 */
import { readBase } from '../../bases/base-file.js';
import { BasesSyntaxError } from '../../bases/syntax-error.js';
import { NotedError } from '../../common/errors.js';
import { normalizeFolderName } from '../../vault/names.js';

/** The canonical path of a `.base` file an agent named, or null when the name is not one. */
export function baseFileName(input: string): string | null {
  const trimmed = input.trim();
  if (!/\.base$/i.test(trimmed)) return null;
  // The same checks as any name (confinement, `..`, NUL, lengths), without a note ending added.
  return normalizeFolderName(trimmed);
}

/** Refuses a base that does not parse, naming the line and column; nothing has been written. */
export function checkBaseText(name: string, text: string): void {
  try {
    readBase(text);
  } catch (err) {
    if (!(err instanceof BasesSyntaxError)) throw err;
    throw new NotedError(
      'validation_error',
      `The base "${name}" does not parse at line ${err.line}, column ${err.column}: ${err.message} Nothing was written; fix the text and call again.`,
      { name, line: err.line, column: err.column, committed: false },
    );
  }
}
