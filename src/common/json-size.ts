/**
 * @module
 * What a text costs inside a message as it travels: a JSON string, escapes included. A control
 * character is one UTF-16 unit but six bytes (`\u0001`), so a note's size on disk says little about the
 * size of an answer that carries it (issue 35: a 1.5 MB note made an 18 MB conflict answer).
 */

/** An answer stays under 8 MB (SPEC 3.3): MCP SDK stdio clients drop a message over 10 MB. */
export const MESSAGE_LIMIT = 8 * 1024 * 1024;

/**
 * How many UTF-16 units of `text`, from its start, fit in `budget` bytes once serialized as a JSON
 * string (without its quotes); never ends inside a surrogate pair. `text.length` when all of it fits.
 */
export function jsonPrefixWithin(text: string, budget: number): number {
  // At most six bytes per unit: most texts need no counting.
  if (text.length * 6 <= budget) return text.length;
  let used = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const pair = c >= 0xd800 && c <= 0xdbff && isLowSurrogate(text.charCodeAt(i + 1));
    const cost = pair ? 4 : unitBytes(c);
    if (used + cost > budget) return i;
    used += cost;
    if (pair) i++;
  }
  return text.length;
}

/** Whether `text` fits in `budget` bytes as a JSON string. */
export function jsonFits(text: string, budget: number): boolean {
  return jsonPrefixWithin(text, budget) === text.length;
}

function isLowSurrogate(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}

/** Bytes of one UTF-16 unit (not part of a pair) inside a JSON string. */
function unitBytes(c: number): number {
  if (c === 0x22 || c === 0x5c) return 2;
  if (c < 0x20) return c === 8 || c === 9 || c === 10 || c === 12 || c === 13 ? 2 : 6;
  if (c < 0x80) return 1;
  if (c < 0x800) return 2;
  if (c >= 0xd800 && c <= 0xdfff) return 6; // a lone surrogate is escaped
  return 3;
}
