/**
 * @module
 * The `search_notes` query split into tokens (search-query.ts builds the tree from them): words,
 * "phrases", `tag:`/`path:`/`file:` fields, upper-case `OR`, a leading `-`, and parentheses, each with
 * where it stands in the query so that every refusal can point at the spot.
 */

import { NotedError } from '../common/errors.js';
import type { SearchField } from './search-query.js';

const FIELD_PREFIX = /(tag|path|file):/iy;
/** What the unicode61 tokenizer keeps: letters, digits and private-use characters. */
export const SEARCHABLE = /[\p{L}\p{N}\p{Co}]/u;
const SPACE = /\s/u;

/** Where a token stands in the query, as UTF-16 offsets. */
export interface Span {
  readonly pos: number;
  readonly end: number;
}

export type Token = Span &
  (
    | { readonly type: 'word' | 'phrase'; readonly text: string }
    | { readonly type: 'field'; readonly field: SearchField; readonly value: string }
    | { readonly type: 'or' | 'neg' | 'lparen' | 'rparen' }
  );

export function tokenize(query: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < query.length) {
    const ch = query[i]!;
    if (SPACE.test(ch)) {
      i++;
    } else if (ch === '(' || ch === ')') {
      tokens.push({ type: ch === '(' ? 'lparen' : 'rparen', pos: i, end: i + 1 });
      i++;
    } else if (ch === '-' && startsExclusion(query, i)) {
      tokens.push({ type: 'neg', pos: i, end: i + 1 });
      i++;
    } else if (ch === '"') {
      const close = closingQuote(query, i);
      tokens.push({ type: 'phrase', pos: i, end: close + 1, text: query.slice(i + 1, close) });
      i = close + 1;
    } else {
      FIELD_PREFIX.lastIndex = i;
      const field = FIELD_PREFIX.exec(query);
      if (field) {
        const start = i + field[0].length;
        if (query[start] === '"') {
          const close = closingQuote(query, start);
          tokens.push(fieldToken(query, i, close + 1, field[1]!, query.slice(start + 1, close)));
          i = close + 1;
        } else {
          const end = wordEnd(query, start);
          tokens.push(fieldToken(query, i, end, field[1]!, query.slice(start, end)));
          i = end;
        }
      } else {
        const end = wordEnd(query, i);
        const text = query.slice(i, end);
        tokens.push(text === 'OR' ? { type: 'or', pos: i, end } : { type: 'word', pos: i, end, text });
        i = end;
      }
    }
  }
  return tokens;
}

/**
 * A '-' excludes what follows it directly: a phrase, a group, or a word with a letter or digit in it.
 * Dashes in prose (`a -- b`, `a -> b`, `-&`) are punctuation, dropped like any other.
 */
function startsExclusion(query: string, dash: number): boolean {
  const next = query[dash + 1];
  if (next === '"' || next === '(') return true;
  return SEARCHABLE.test(query.slice(dash + 1, wordEnd(query, dash + 1)));
}

/** A bare word or field value runs to the next space or parenthesis; quotes inside it are literal. */
function wordEnd(query: string, start: number): number {
  let end = start;
  while (end < query.length) {
    const c = query[end]!;
    if (c === '(' || c === ')' || SPACE.test(c)) break;
    end++;
  }
  return end;
}

function closingQuote(query: string, open: number): number {
  const close = query.indexOf('"', open + 1);
  if (close === -1) {
    throw positionError(
      query,
      open,
      `Unclosed quote at ${where(query, open)}: every " needs a closing ". ` +
        'Add the closing quote, or remove the quote to search for the words separately.',
    );
  }
  if (query.slice(open + 1, close).trim() === '') {
    throw positionError(
      query,
      open,
      `Empty quotes at ${where(query, open)}: put the exact words to find between the quotes, or remove them.`,
    );
  }
  return close;
}

function fieldToken(query: string, pos: number, end: number, name: string, raw: string): Token {
  const field = name.toLowerCase() as SearchField;
  const value = field === 'tag' ? tagValue(raw) : raw;
  if (value.trim() === '') {
    const example = field === 'tag' ? 'tag:#project' : field === 'path' ? 'path:"my folder"' : 'file:plan';
    const grouped =
      query[end] === '('
        ? ` A field takes one value; to accept several, write (${field}:a OR ${field}:b).`
        : '';
    throw positionError(
      query,
      pos,
      `"${name}:" at ${where(query, pos)} has no ${field === 'tag' ? 'tag name' : 'value'}: ` +
        `write it right after the colon, with no space, as in ${example} (quote a value that has spaces).${grouped}`,
    );
  }
  return { type: 'field', pos, end, field, value: raw };
}

/** The tag name a `tag:` value stands for: one leading `#` and one trailing `/` do not count. */
export function tagValue(raw: string): string {
  const noHash = raw.startsWith('#') ? raw.slice(1) : raw;
  return noHash.endsWith('/') ? noHash.slice(0, -1) : noHash;
}

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
