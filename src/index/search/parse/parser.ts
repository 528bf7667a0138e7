/**
 * @module
 * The recursive-descent parser of the `search_notes` language (search/parse/query.ts describes the language
 * and is where to call it): upper-case `OR` over terms side by side (AND binds tighter), `-` before a
 * term, parenthesized groups nested at most {@link MAX_GROUP_DEPTH} deep, and the terms themselves.
 * `name:` operators and `[property]` groups are read by search/parse/parse-operators.ts, through the few
 * members of {@link Parser} it needs.
 *
 * A word or phrase with no letter or digit parses to a `dropped` placeholder rather than a node, so
 * that the caller decides whether leaving it out keeps the meaning (`rock & roll`) or whether the query
 * must be refused (`a OR &`, `-"--"`).
 */

import { NotedError } from '../../../common/errors.js';
import { MAX_GROUP_DEPTH, MAX_REGEX_CHARS } from './limits.js';
import type { QueryNode, RegexNode } from './nodes.js';
import { checkRegex } from './operands.js';
import { parseOperator, parseProperty } from './parse-operators.js';
import type { Context, Dropped, OperatorReader, Parsed, ParseOptions } from './parsed.js';
import { positionError, where } from './query-errors.js';
import { SEARCHABLE, type Span, type Token, tokenize } from './tokens.js';

export class Parser implements OperatorReader {
  private next = 0;

  /**
   * @param context Where the tokens stand: `'value'` for a property's value, parsed on its own.
   * @param depth How many groups enclose the current token.
   */
  constructor(
    readonly query: string,
    private readonly tokens: readonly Token[],
    readonly options: ParseOptions,
    private current: Context = 'note',
    private depth = 0,
  ) {}

  /** Where the token being read stands (see {@link Context}). */
  get context(): Context {
    return this.current;
  }

  parseQuery(): Parsed {
    const node = this.parseOr();
    const stray = this.tokens[this.next];
    // parseOr stops only at ')' or the end, so this is a ')' with no '(' before it.
    if (stray) throw this.unmatched(stray);
    return node;
  }

  /**
   * A property's value, the query's characters from `from` to `to`, parsed as a query of its own in the
   * `'value'` context; its groups count towards the depth limit with those around the property.
   */
  parseValue(from: number, to: number): Parsed {
    return new Parser(
      this.query,
      tokenize(this.query, from, to),
      this.options,
      'value',
      this.depth,
    ).parseQuery();
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

  peek(): Token | undefined {
    return this.tokens[this.next];
  }

  /** Moves past the token {@link peek} returns. */
  skip(): void {
    this.next++;
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
    if (!target || target.type === 'neg' || target.type === 'or' || target.type === 'rparen') {
      const found = target ? ` found ${this.quote(target)}` : ' found the end of the query';
      throw this.error(
        tok.pos,
        `"-" at ${this.describe(tok.pos)} must be followed directly by the word, "phrase", operator or ` +
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
        // Inside file:, path: and tag: a value is taken as typed (`file:.jpg`), never dropped.
        if (this.current === 'field') return { kind: 'word', text: tok.text };
        return SEARCHABLE.test(tok.text)
          ? { kind: 'word', text: tok.text }
          : { kind: 'dropped', pos: tok.pos, end: tok.end };
      case 'phrase':
        if (tok.text === '') {
          throw this.error(
            tok.pos,
            `Empty quotes at ${this.describe(tok.pos)}: put the exact words to find between the quotes, or remove them. (task:"" alone finds every task.)`,
          );
        }
        if (this.current === 'field') return { kind: 'phrase', text: tok.text };
        return SEARCHABLE.test(tok.text)
          ? { kind: 'phrase', text: tok.text }
          : { kind: 'dropped', pos: tok.pos, end: tok.end };
      case 'regex':
        return this.regex(tok.source, tok.pos);
      case 'op':
        return parseOperator(this, tok);
      case 'property':
        return parseProperty(this, tok);
      case 'lparen':
        return this.parseGroup(tok);
      default:
        // parseUnary and parseAnd never call here at 'or', 'neg' or 'rparen'.
        throw new Error(`parsePrimary reached a ${tok.type} token`);
    }
  }

  private regex(source: string, pos: number): RegexNode {
    if (source.length > MAX_REGEX_CHARS) {
      throw new NotedError(
        'too_large',
        `The regular expression at ${this.describe(pos)} is ${source.length} characters long; the limit is ${MAX_REGEX_CHARS}.`,
        { limit: MAX_REGEX_CHARS, actual: source.length },
      );
    }
    checkRegex(source, (message) => this.error(pos, message));
    return { kind: 'regex', source };
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

  /** The operand of an operator: one term, a nested operator, or a (group), parsed in `context`. */
  operand(context: Context): Parsed {
    const outer = this.current;
    this.current = context;
    try {
      const tok = this.peek()!;
      if (tok.type === 'neg') return this.parseUnary();
      return this.parsePrimary();
    } finally {
      this.current = outer;
    }
  }
}
