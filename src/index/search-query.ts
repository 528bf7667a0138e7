/**
 * @module
 * The `search_notes` query language, parsed into a small tree. It follows Obsidian's search: plain words
 * must all match, `"exact phrase"`, `-term` / `-"phrase"` / `-(group)` exclude, upper-case `OR` (AND binds
 * tighter), parentheses group, and the field operators `tag:`, `path:`, `file:` (value quoted when it has
 * spaces). Anything else, FTS5 syntax included (`*`, `^`, `NEAR`, `AND`, `NOT`, `col:x`), is an ordinary
 * word: the compiler sends every word to FTS5 as a quoted string, never as syntax.
 *
 * A word or phrase with no letter or digit (`&`, `--`, `->`) is dropped: the index keeps only letters and
 * digits, so it could never be matched, and `rock & roll` should still find "rock and roll". Where
 * dropping would change the meaning (an excluded phrase or group, one side of an OR, the whole query)
 * the query is refused instead.
 */

import { NotedError } from '../common/errors.js';
import { positionError, SEARCHABLE, type Span, type Token, tokenize, where } from './search-tokens.js';

/** A word the note must contain (compared by token, case- and accent-insensitively). */
export interface WordNode {
  readonly kind: 'word';
  readonly text: string;
}

/** `"exact phrase"`: these words, consecutive. `text` is what stood between the quotes. */
export interface PhraseNode {
  readonly kind: 'phrase';
  readonly text: string;
}

export type SearchField = 'tag' | 'path' | 'file';

/** `tag:x`, `path:x`, `file:x`. `value` is as typed, quotes removed (`#Work`, `my folder`); never empty. */
export interface FieldNode {
  readonly kind: 'field';
  readonly field: SearchField;
  readonly value: string;
}

/** `-x`: notes that do not match `operand`. */
export interface NotNode {
  readonly kind: 'not';
  readonly operand: QueryNode;
}

/** All operands must match. Always two or more operands, none of them an `and`. */
export interface AndNode {
  readonly kind: 'and';
  readonly operands: readonly QueryNode[];
}

/** At least one operand must match. Always two or more operands, none of them an `or`. */
export interface OrNode {
  readonly kind: 'or';
  readonly operands: readonly QueryNode[];
}

export type QueryNode = WordNode | PhraseNode | FieldNode | NotNode | AndNode | OrNode;

/** Longest query accepted, in UTF-16 units (what `string.length` counts). */
export const MAX_QUERY_CHARS = 2000;
/** Most words, phrases and field operators one query may hold. */
export const MAX_QUERY_TERMS = 100;
/**
 * Deepest nesting of parenthesized groups (`-(…)` included). Deeper queries overflowed the parser's
 * stack (a `RangeError` from 1,999 open parentheses) and FTS5's expression parser, whose fixed stack
 * took about 16 alternating `a (b OR (…))` levels ("fts5: parser stack overflow").
 */
export const MAX_GROUP_DEPTH = 10;

/** A word or phrase with nothing searchable in it, kept only to explain a refusal. */
interface Dropped extends Span {
  readonly kind: 'dropped';
}

type Parsed = QueryNode | Dropped;

/**
 * Parses a search query. Throws `NotedError('validation_error')` for a malformed query, naming the
 * 1-based character position and quoting the spot, and `NotedError('too_large')` past
 * {@link MAX_QUERY_CHARS} characters, {@link MAX_QUERY_TERMS} terms or {@link MAX_GROUP_DEPTH} nested
 * groups.
 *
 * @example
 * parseSearchQuery('plan -draft OR tag:#work')
 * // { kind: 'or', operands: [
 * //   { kind: 'and', operands: [{ kind: 'word', text: 'plan' }, { kind: 'not', operand: { kind: 'word', text: 'draft' } }] },
 * //   { kind: 'field', field: 'tag', value: '#work' } ] }
 */
export function parseSearchQuery(query: string): QueryNode {
  if (query.length > MAX_QUERY_CHARS) {
    throw new NotedError(
      'too_large',
      `The search query is ${query.length} characters long; the limit is ${MAX_QUERY_CHARS}. ` +
        'Shorten it to the words that matter most.',
      { limit: MAX_QUERY_CHARS, actual: query.length },
    );
  }
  const tokens = tokenize(query);
  if (tokens.length === 0) {
    throw new NotedError(
      'validation_error',
      'The search query is empty: give at least one word, "exact phrase", or field such as tag:#project to look for.',
    );
  }
  const terms = tokens.filter((t) => t.type === 'word' || t.type === 'phrase' || t.type === 'field').length;
  if (terms > MAX_QUERY_TERMS) {
    throw new NotedError(
      'too_large',
      `The search query has ${terms} terms (words, phrases and fields); the limit is ${MAX_QUERY_TERMS}. ` +
        'Keep the most distinctive terms and search again.',
      { limit: MAX_QUERY_TERMS, actual: terms },
    );
  }
  const parser = new Parser(query, tokens);
  const root = parser.parseQuery();
  if (root.kind === 'dropped') {
    throw parser.error(
      root.pos,
      `The query has nothing to search for: ${parser.quote(root)} at ${parser.describe(root.pos)} has no ` +
        'letters or digits, and the index keeps only words. Search for at least one word.',
    );
  }
  if (!hasPositiveTerm(root, false)) {
    throw new NotedError(
      'validation_error',
      `The query ${JSON.stringify(query.trim())} only excludes; it needs at least one term to look for. ` +
        'Add a word, "exact phrase" or field (tag:, path:, file:) that results must contain, as in: project -draft',
    );
  }
  return root;
}

/** Excluded terms inside an excluded group count as wanted again (`-(-a)` looks for a). */
function hasPositiveTerm(node: QueryNode, negated: boolean): boolean {
  switch (node.kind) {
    case 'not':
      return hasPositiveTerm(node.operand, !negated);
    case 'and':
    case 'or':
      return node.operands.some((n) => hasPositiveTerm(n, negated));
    default:
      return !negated;
  }
}

class Parser {
  private next = 0;
  /** How many groups enclose the current token. */
  private depth = 0;

  constructor(
    private readonly query: string,
    private readonly tokens: readonly Token[],
  ) {}

  parseQuery(): Parsed {
    const node = this.parseOr();
    const stray = this.tokens[this.next];
    // parseOr stops only at ')' or the end, so this is a ')' with no '(' before it.
    if (stray) throw this.unmatched(stray);
    return node;
  }

  private unmatched(tok: Token): NotedError {
    return this.error(
      tok.pos,
      `Unmatched ")" at ${this.describe(tok.pos)}: there is no "(" before it to close. ` +
        'Remove it, or put text with parentheses in quotes.',
    );
  }

  describe(offset: number): string {
    return where(this.query, offset);
  }

  /** The text of a token, in double quotes. */
  quote(span: Span): string {
    return JSON.stringify(this.query.slice(span.pos, span.end));
  }

  error(offset: number, message: string): NotedError {
    return positionError(this.query, offset, message);
  }

  private peek(): Token | undefined {
    return this.tokens[this.next];
  }

  private parseOr(): Parsed {
    const first = this.peek();
    if (first?.type === 'or') throw this.orMissing(first, 'before');
    // Groups refuse '()' themselves, so a ')' here is one the query never opened.
    if (first?.type === 'rparen') throw this.unmatched(first);
    const operands = [this.parseAnd()];
    for (let tok = this.peek(); tok?.type === 'or'; tok = this.peek()) {
      this.next++;
      const after = this.peek();
      if (!after || after.type === 'or' || after.type === 'rparen') throw this.orMissing(tok, 'after');
      operands.push(this.parseAnd());
      this.checkOrSide(tok, operands[operands.length - 2]!, 'before');
      this.checkOrSide(tok, operands[operands.length - 1]!, 'after');
    }
    if (operands.length === 1) return operands[0]!;
    return {
      kind: 'or',
      operands: (operands as QueryNode[]).flatMap((n) => (n.kind === 'or' ? n.operands : [n])),
    };
  }

  private orMissing(tok: Token, side: 'before' | 'after'): NotedError {
    return this.error(
      tok.pos,
      `"OR" at ${this.describe(tok.pos)} has nothing ${side} it: OR needs a term on each side, ` +
        'as in draft OR final. To search for the word "or", write it in lower case.',
    );
  }

  private checkOrSide(tok: Token, side: Parsed, which: 'before' | 'after'): void {
    if (side.kind !== 'dropped') return;
    throw this.error(
      tok.pos,
      `"OR" at ${this.describe(tok.pos)} has nothing searchable ${which} it: ` +
        `${this.quote(side)} has no letters or digits, and the index keeps only words. ` +
        'Replace it with a word, or remove the OR.',
    );
  }

  /** One or more terms side by side, up to an OR, a ')' or the end. Never called at one of those. */
  private parseAnd(): Parsed {
    const operands: QueryNode[] = [];
    let firstDropped: Dropped | undefined;
    for (let tok = this.peek(); tok && tok.type !== 'or' && tok.type !== 'rparen'; tok = this.peek()) {
      const node = this.parseUnary();
      if (node.kind === 'dropped') firstDropped ??= node;
      else if (node.kind === 'and') operands.push(...node.operands);
      else operands.push(node);
    }
    if (operands.length === 0) return firstDropped!;
    if (operands.length === 1) return operands[0]!;
    return { kind: 'and', operands };
  }

  private parseUnary(): Parsed {
    const tok = this.peek()!;
    if (tok.type !== 'neg') return this.parsePrimary();
    this.next++;
    const target = this.peek();
    if (!target || target.type === 'neg' || target.type === 'or') {
      const found = target ? ` found ${this.quote(target)}` : ' found the end of the query';
      throw this.error(
        tok.pos,
        `"-" at ${this.describe(tok.pos)} must be followed directly by the word, "phrase", field or ` +
          `(group) to exclude, as in -draft;${found}.`,
      );
    }
    const operand = this.parsePrimary();
    if (operand.kind === 'dropped') {
      throw this.error(
        tok.pos,
        `The exclusion at ${this.describe(tok.pos)} has no letters or digits, so it cannot be ` +
          'searched (the index keeps only words). Remove it, or exclude a word instead.',
      );
    }
    return { kind: 'not', operand };
  }

  private parsePrimary(): Parsed {
    const tok = this.peek()!;
    this.next++;
    switch (tok.type) {
      case 'word':
      case 'phrase':
        return SEARCHABLE.test(tok.text)
          ? { kind: tok.type, text: tok.text }
          : { kind: 'dropped', pos: tok.pos, end: tok.end };
      case 'field':
        return { kind: 'field', field: tok.field, value: tok.value };
      case 'lparen':
        return this.parseGroup(tok);
      default:
        // parseUnary and parseAnd never call here at 'or', 'neg' or 'rparen'.
        throw new Error(`parsePrimary reached a ${tok.type} token`);
    }
  }

  private parseGroup(open: Token): Parsed {
    const first = this.peek();
    if (first?.type === 'rparen') {
      throw this.error(
        open.pos,
        `Empty parentheses at ${this.describe(open.pos)}: put at least one term inside, or remove them.`,
      );
    }
    if (!first) throw this.unclosed(open);
    if (this.depth === MAX_GROUP_DEPTH) {
      throw new NotedError(
        'too_large',
        `The search query nests groups more than ${MAX_GROUP_DEPTH} deep, the limit: the "(" at ` +
          `${this.describe(open.pos)} is one too many. Remove parentheses that are not needed, or split the search in two.`,
        { limit: MAX_GROUP_DEPTH, position: Array.from(this.query.slice(0, open.pos)).length + 1 },
      );
    }
    this.depth++;
    const inner = this.parseOr();
    this.depth--;
    if (this.peek()?.type !== 'rparen') throw this.unclosed(open);
    this.next++;
    return inner;
  }

  private unclosed(open: Token): NotedError {
    return this.error(
      open.pos,
      `The "(" at ${this.describe(open.pos)} is never closed: add ")" after the group, ` +
        'or put text with parentheses in quotes.',
    );
  }
}
