/**
 * @module
 * The `search_notes` query split into tokens (search/parse/parser.ts builds the tree from them): words,
 * "phrases" (`\"` and `\\` escape inside them), `/regular expressions/`, operators (`name:`, any
 * case), `[property:value]` groups, upper-case `OR`, a leading `-`, and parentheses, each with where
 * it stands in the query so that every refusal can point at the spot.
 */

import { isOperator } from './operators.js';
import { positionError, where } from './query-errors.js';

/** What the unicode61 tokenizer keeps: letters, digits and private-use characters. */
export const SEARCHABLE = /[\p{L}\p{N}\p{Co}]/u;
const SPACE = /\s/u;
/** `name:` at a token's start; the name is checked against the known operators by the parser. */
const OPERATOR = /([A-Za-z][A-Za-z-]*):/y;

/** Where a token stands in the query, as UTF-16 offsets. */
export interface Span {
  readonly pos: number;
  readonly end: number;
}

export type Token = Span &
  (
    | { readonly type: 'word' | 'phrase'; readonly text: string }
    | { readonly type: 'regex'; readonly source: string }
    /** `name:`; the operand is the token right after it. `name` is lower-cased. */
    | { readonly type: 'op'; readonly name: string; readonly raw: string }
    /**
     * `[name]` or `[name:value]`. `name` is what stood before the colon (quotes removed), `value` what
     * stood after it (null without a colon), `valuePos` where the value starts in the query.
     */
    | {
        readonly type: 'property';
        readonly name: string;
        readonly nameKind: 'text' | 'regex';
        readonly value: string | null;
        readonly valuePos: number;
      }
    | { readonly type: 'or' | 'neg' | 'lparen' | 'rparen' }
  );

export function tokenize(query: string, offset = 0, until = query.length): Token[] {
  const tokens: Token[] = [];
  let i = offset;
  while (i < until) {
    const ch = query[i]!;
    if (SPACE.test(ch)) {
      i++;
    } else if (ch === '(' || ch === ')') {
      tokens.push({ type: ch === '(' ? 'lparen' : 'rparen', pos: i, end: i + 1 });
      i++;
    } else if (ch === '-' && startsExclusion(query, i, until)) {
      tokens.push({ type: 'neg', pos: i, end: i + 1 });
      i++;
    } else if (ch === '"') {
      const { text, end } = readPhrase(query, i, until);
      tokens.push({ type: 'phrase', pos: i, end, text });
      i = end;
    } else if (ch === '/' && regexEnd(query, i, until) !== -1) {
      const end = regexEnd(query, i, until);
      tokens.push({ type: 'regex', pos: i, end, source: query.slice(i + 1, end - 1) });
      i = end;
    } else if (ch === '[') {
      const tok = readProperty(query, i, until);
      tokens.push(tok);
      i = tok.end;
    } else {
      OPERATOR.lastIndex = i;
      const op = OPERATOR.exec(query);
      const after = op ? i + op[0].length : i;
      // An unknown `name:` followed by a space or the end is prose ("agenda: budget"), and `https://…`
      // a link; a known operator is always one (`tag:` alone is refused for its missing value).
      const known = op !== null && isOperator(op[1]!.toLowerCase());
      const prose = after >= until || SPACE.test(query[after]!) || query.startsWith('//', after);
      if (op && op.index === i && (known || !prose)) {
        tokens.push({ type: 'op', pos: i, end: after, name: op[1]!.toLowerCase(), raw: op[1]! });
        i = after;
      } else {
        const end = wordEnd(query, i, until);
        const text = query.slice(i, end);
        tokens.push(text === 'OR' ? { type: 'or', pos: i, end } : { type: 'word', pos: i, end, text });
        i = end;
      }
    }
  }
  return tokens;
}

/**
 * A '-' excludes what follows it directly: a phrase, a group, a property, a regex, an operator, or a
 * word with a letter or digit in it. Dashes in prose (`a -- b`, `a -> b`, `-&`) are punctuation,
 * dropped like any other.
 */
function startsExclusion(query: string, dash: number, until: number): boolean {
  const next = query[dash + 1];
  if (next === '"' || next === '(' || next === '[') return true;
  if (next === '/' && regexEnd(query, dash + 1, until) !== -1) return true;
  return SEARCHABLE.test(query.slice(dash + 1, wordEnd(query, dash + 1, until)));
}

/** A bare word or field value runs to the next space or parenthesis; quotes inside it are literal. */
function wordEnd(query: string, start: number, until: number): number {
  let end = start;
  while (end < until) {
    const c = query[end]!;
    if (c === '(' || c === ')' || SPACE.test(c)) break;
    end++;
  }
  return end;
}

/**
 * The offset just past a `/regex/` starting at `open`, or -1 when there is none: the closing `/` must
 * be unescaped, outside a `[…]` class, and end the token (a space, a parenthesis, `]` or the end
 * follows it), so `and/or` and `/tmp` stay words.
 */
export function regexEnd(query: string, open: number, until: number): number {
  let inClass = false;
  for (let i = open + 1; i < until; i++) {
    const c = query[i]!;
    if (c === '\\') i++;
    else if (c === '[') inClass = true;
    else if (c === ']') inClass = false;
    else if (c === '/' && !inClass) {
      if (i === open + 1) return -1;
      const next = query[i + 1];
      return next === undefined || i + 1 >= until || next === ')' || next === ']' || SPACE.test(next)
        ? i + 1
        : -1;
    } else if (c === '\n') return -1;
  }
  return -1;
}

/** A quoted phrase from its opening quote: `\"` is a quote and `\\` a backslash inside it. */
function readPhrase(query: string, open: number, until: number): { text: string; end: number } {
  let text = '';
  for (let i = open + 1; i < until; i++) {
    const c = query[i]!;
    if (c === '\\' && (query[i + 1] === '"' || query[i + 1] === '\\')) {
      text += query[i + 1];
      i++;
    } else if (c === '"') {
      if (text.trim() === '') {
        // `task:""` means every task: the parser decides whether empty quotes are allowed there.
        return { text: '', end: i + 1 };
      }
      return { text, end: i + 1 };
    } else {
      text += c;
    }
  }
  throw positionError(
    query,
    open,
    `Unclosed quote at ${where(query, open)}: every " needs a closing ". ` +
      'Add the closing quote, or remove the quote to search for the words separately.',
  );
}

/**
 * `[name]` or `[name:value]`: the `]` that closes it is the first one outside quotes, a regex and
 * parentheses. The name may be quoted (`["due date":x]`) or a regex (`[/^sta/]`).
 */
function readProperty(query: string, open: number, until: number): Token {
  let i = open + 1;
  let name: string;
  let nameKind: 'text' | 'regex' = 'text';
  if (query[i] === '"') {
    const p = readPhrase(query, i, until);
    name = p.text;
    i = p.end;
  } else if (query[i] === '/' && regexEnd(query, i, until) !== -1) {
    const end = regexEnd(query, i, until);
    name = query.slice(i + 1, end - 1);
    nameKind = 'regex';
    i = end;
  } else {
    const start = i;
    while (i < until && query[i] !== ':' && query[i] !== ']' && !SPACE.test(query[i]!)) i++;
    name = query.slice(start, i);
  }
  if (name.trim() === '') {
    throw positionError(
      query,
      open,
      `"[" at ${where(query, open)} names no property: write [status] for notes that have a status property, or [status:draft] for a value. To search for brackets as text, put them in quotes.`,
    );
  }
  if (query[i] === ']') {
    return { type: 'property', pos: open, end: i + 1, name, nameKind, value: null, valuePos: i };
  }
  if (i >= until) {
    throw positionError(
      query,
      open,
      `The "[" at ${where(query, open)} is never closed: a property is written [name] or [name:value]. Add the "]", or put text with brackets in quotes.`,
    );
  }
  if (query[i] !== ':') {
    throw positionError(
      query,
      open,
      `The property at ${where(query, open)} must be [name] or [name:value], with no space in the name (quote a name that has spaces: ["due date":today]).`,
    );
  }
  const valuePos = i + 1;
  let depth = 0;
  for (let j = valuePos; j < until; j++) {
    const c = query[j]!;
    if (c === '"') j = readPhrase(query, j, until).end - 1;
    else if (c === '/' && regexEnd(query, j, until) !== -1) j = regexEnd(query, j, until) - 1;
    else if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === ']' && depth <= 0) {
      return {
        type: 'property',
        pos: open,
        end: j + 1,
        name,
        nameKind,
        value: query.slice(valuePos, j),
        valuePos,
      };
    }
  }
  throw positionError(
    query,
    open,
    `The "[" at ${where(query, open)} is never closed: a property is written [name] or [name:value]. Add the "]", or put text with brackets in quotes.`,
  );
}

/** The tag name a `tag:` value stands for: one leading `#` and one trailing `/` do not count. */
export function tagValue(raw: string): string {
  const noHash = raw.startsWith('#') ? raw.slice(1) : raw;
  return noHash.endsWith('/') ? noHash.slice(0, -1) : noHash;
}
