/**
 * @module
 * The tokenizer of Bases expressions: numbers, strings in single or double quotes, regular
 * expression literals (`/abc/gi`, where an operand is expected), names, and the operators of the
 * Bases syntax page. Errors name the line and column.
 */
import type { Position } from './ast.js';
import { BasesSyntaxError } from './syntax-error.js';

export type TokenKind = 'number' | 'string' | 'regex' | 'name' | 'op' | 'end';

export interface Token {
  readonly kind: TokenKind;
  /** The operator or name as written; the decoded text of a string; the source of a regex. */
  readonly text: string;
  readonly value?: number;
  readonly flags?: string;
  readonly at: Position;
}

/** The longest expression accepted, in characters: a formula is a line, not a program. */
export const MAX_EXPRESSION_LENGTH = 20_000;

const OPERATORS = ['==', '!=', '>=', '<=', '&&', '||', '+', '-', '*', '/', '%', '>', '<', '!'];
const PUNCTUATION = '()[]{},.:';
const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', v: '\v', '0': '\0' };
const NAME_START = /[\p{L}_$]/u;
const NAME_PART = /[\p{L}\p{N}_$]/u;

/**
 * Splits an expression into tokens. A `/` starts a regular expression where an operand is expected
 * (at the start, after an operator, `(`, `[`, `,` or `{`), and divides elsewhere.
 *
 * @example
 * tokenize('price * 2').map((t) => t.text) // ['price', '*', '2', '']
 */
export function tokenize(source: string): Token[] {
  if (source.length > MAX_EXPRESSION_LENGTH) {
    throw new BasesSyntaxError(
      `The expression is ${source.length} characters long; at most ${MAX_EXPRESSION_LENGTH} are accepted.`,
      1,
      1,
    );
  }
  const out: Token[] = [];
  let i = 0;
  let line = 1;
  let lineStart = 0;
  const at = (offset: number): Position => ({ line, column: offset - lineStart + 1, offset });
  const fail = (message: string, offset: number): never => {
    throw new BasesSyntaxError(message, line, offset - lineStart + 1);
  };
  const operandExpected = (): boolean => {
    const last = out[out.length - 1];
    if (last === undefined) return true;
    if (last.kind === 'op') return !(last.text === ')' || last.text === ']' || last.text === '}');
    return false;
  };
  while (i < source.length) {
    const c = source[i] as string;
    if (c === '\n') {
      i++;
      line++;
      lineStart = i;
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\r') {
      i++;
      continue;
    }
    const start = i;
    if (c >= '0' && c <= '9') {
      while (i < source.length && isDigit(source[i])) i++;
      // `1.isTruthy()`: a dot followed by a digit continues the number, otherwise it is a member access.
      if (source[i] === '.' && isDigit(source[i + 1])) {
        i++;
        while (i < source.length && isDigit(source[i])) i++;
      }
      if ((source[i] === 'e' || source[i] === 'E') && /^[eE][+-]?\d/.test(source.slice(i, i + 3))) {
        i++;
        if (source[i] === '+' || source[i] === '-') i++;
        while (i < source.length && isDigit(source[i])) i++;
      }
      const text = source.slice(start, i);
      out.push({ kind: 'number', text, value: Number(text), at: at(start) });
      continue;
    }
    if (c === '"' || c === "'") {
      const startAt = at(start);
      i++;
      let text = '';
      for (;;) {
        if (i >= source.length || source[i] === '\n') fail(`A string opened with ${c} is not closed.`, start);
        const d = source[i] as string;
        if (d === c) {
          i++;
          break;
        }
        if (d === '\\') {
          const e = source[i + 1];
          if (e === undefined) fail('A string ends with a lone backslash.', i);
          if (e === 'u') {
            const hex = source.slice(i + 2, i + 6);
            if (!/^[0-9a-fA-F]{4}$/.test(hex)) fail('\\u must be followed by four hex digits.', i);
            text += String.fromCharCode(Number.parseInt(hex, 16));
            i += 6;
            continue;
          }
          text += ESCAPES[e as string] ?? (e as string);
          i += 2;
          continue;
        }
        text += d;
        i++;
      }
      out.push({ kind: 'string', text, at: startAt });
      continue;
    }
    if (c === '/' && operandExpected()) {
      const startAt = at(start);
      i++;
      let body = '';
      let inClass = false;
      for (;;) {
        if (i >= source.length || source[i] === '\n')
          fail('A regular expression opened with / is not closed.', start);
        const d = source[i] as string;
        if (d === '\\') {
          body += d + (source[i + 1] ?? '');
          i += 2;
          continue;
        }
        if (d === '[') inClass = true;
        else if (d === ']') inClass = false;
        else if (d === '/' && !inClass) break;
        body += d;
        i++;
      }
      i++;
      let flags = '';
      while (i < source.length && /[a-z]/i.test(source[i] as string)) flags += source[i++];
      for (const f of flags) {
        if (!'gimsu'.includes(f)) fail(`Unknown regular expression flag "${f}"; use g, i, m, s or u.`, i - 1);
      }
      if (body === '') fail('An empty regular expression // is not allowed.', start);
      out.push({ kind: 'regex', text: body, flags, at: startAt });
      continue;
    }
    if (NAME_START.test(c)) {
      while (i < source.length && NAME_PART.test(source[i] as string)) i++;
      out.push({ kind: 'name', text: source.slice(start, i), at: at(start) });
      continue;
    }
    const op = OPERATORS.find((o) => source.startsWith(o, i));
    if (op !== undefined) {
      i += op.length;
      out.push({ kind: 'op', text: op, at: at(start) });
      continue;
    }
    if (PUNCTUATION.includes(c)) {
      i++;
      out.push({ kind: 'op', text: c, at: at(start) });
      continue;
    }
    if (c === '=' || c === '&' || c === '|') {
      fail(
        `Unexpected "${c}": write ${c === '=' ? '== to compare' : c === '&' ? '&& for and' : '|| for or'}.`,
        start,
      );
    }
    fail(`Unexpected character "${c}".`, start);
  }
  out.push({ kind: 'end', text: '', at: at(i) });
  return out;
}

function isDigit(c: string | undefined): boolean {
  return c !== undefined && c >= '0' && c <= '9';
}
