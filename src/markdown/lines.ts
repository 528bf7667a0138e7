/**
 * @module
 * Line iteration with fenced-code awareness: the one place that knows where code fences start and
 * end, so headings, tags, links and tasks are never read from inside code.
 */

/** One line of a text. Offsets are UTF-16 indexes into the text the line came from. */
export interface Line {
  /** 0-based line number. */
  readonly index: number;
  /** Offset of the first character of the line. */
  readonly start: number;
  /** Offset just past the last character of the line, before its line break. */
  readonly end: number;
  /** Offset of the first character of the next line (after the line break), or the text's length. */
  readonly next: number;
  /** The line's text without its line break (a trailing `\r` is removed too). */
  readonly text: string;
  /** True for a fence delimiter line and every line inside a fenced code block. */
  readonly inCode: boolean;
}

const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})(.*)$/;

/**
 * Splits `text` into lines and marks fenced code (CommonMark: up to three spaces of indentation, three
 * or more backticks or tildes; the closing fence uses the same character, at least as many, and
 * nothing else but spaces). An unclosed fence runs to the end of the text, as in CommonMark.
 *
 * @example
 * splitLines('a\n```\n# not a heading\n```\n').filter((l) => !l.inCode).map((l) => l.text) // ['a', '']
 */
export function splitLines(text: string): Line[] {
  const out: Line[] = [];
  let fenceChar = '';
  let fenceLen = 0;
  let start = 0;
  let index = 0;
  while (start <= text.length) {
    const nl = text.indexOf('\n', start);
    const rawEnd = nl === -1 ? text.length : nl;
    const end = rawEnd > start && text.charCodeAt(rawEnd - 1) === 13 ? rawEnd - 1 : rawEnd;
    const next = nl === -1 ? text.length : nl + 1;
    const lineText = text.slice(start, end);
    let inCode = false;
    if (fenceChar !== '') {
      inCode = true;
      if (isClosingFence(lineText, fenceChar, fenceLen)) fenceChar = '';
    } else {
      const m = FENCE_OPEN.exec(lineText);
      if (m?.[1] && !(m[1][0] === '`' && m[2]?.includes('`'))) {
        fenceChar = m[1][0] ?? '';
        fenceLen = m[1].length;
        inCode = true;
      }
    }
    out.push({ index, start, end, next, text: lineText, inCode });
    index++;
    if (nl === -1) break;
    start = next;
  }
  return out;
}

function isClosingFence(line: string, char: string, minLen: number): boolean {
  let i = 0;
  while (i < 3 && line[i] === ' ') i++;
  let n = 0;
  while (line[i + n] === char) n++;
  if (n < minLen) return false;
  return line.slice(i + n).trim() === '';
}
