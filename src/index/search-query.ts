/**
 * @module
 * The `search_notes` query language, parsed into a small tree. It follows Obsidian's search: plain words
 * must all match, `"exact phrase"`, `-term` / `-"phrase"` / `-(group)` exclude, upper-case `OR` (AND binds
 * tighter), parentheses group, `/regular expressions/`, and Obsidian's operators (search-operators.ts):
 * `file:` `path:` `content:` `tag:` (a value, or a group distributed over its terms: `file:(a OR b)` is
 * `file:a OR file:b`), `line:` `block:` `section:` `task:` `task-todo:` `task-done:` (their operand
 * must match inside one line, block, section or task), `match-case:` / `ignore-case:` (pushed down onto
 * the terms they cover), and properties `[name]` / `[name:value]`. Anything else, FTS5 syntax included
 * (`*`, `^`, `NEAR`, `AND`, `NOT`), is an ordinary word: the compiler sends every word to FTS5 as a
 * quoted string, never as syntax. An unknown `name:` is refused, naming the operators that come close.
 *
 * A word or phrase with no letter or digit (`&`, `--`, `->`) is dropped: the index keeps only letters and
 * digits, so it could never be matched, and `rock & roll` should still find "rock and roll". Where
 * dropping would change the meaning (an excluded phrase or group, one side of an OR, the whole query)
 * the query is refused instead.
 */

import { NotedError } from '../common/errors.js';
import type { QueryNode, RegexNode } from './search-nodes.js';
import { checkRegex, EXAMPLES, inContent, toField, withCase } from './search-operands.js';
import { isOperator, isScope, unknownOperator } from './search-operators.js';
import { dedupeQuery } from './search-terms.js';
import { positionError, SEARCHABLE, type Span, type Token, tokenize, where } from './search-tokens.js';

export type {
  AndNode,
  FieldNode,
  NotNode,
  OrNode,
  PhraseNode,
  PropertyNode,
  PropertyValue,
  QueryNode,
  RegexNode,
  ScopeNode,
  SearchField,
  TextTarget,
  WordNode,
} from './search-nodes.js';

/** Longest query accepted, in UTF-16 units (what `string.length` counts). */
export const MAX_QUERY_CHARS = 2000;
/** Most distinct words, phrases, regexes, fields, properties and scopes one query may hold. */
export const MAX_QUERY_TERMS = 100;
/**
 * Deepest nesting of parenthesized groups (`-(…)` and operator groups included). Deeper queries
 * overflowed the parser's stack (a `RangeError` from 1,999 open parentheses) and FTS5's expression
 * parser, whose fixed stack took about 16 alternating `a (b OR (…))` levels ("fts5: parser stack overflow").
 */
export const MAX_GROUP_DEPTH = 10;
/** Longest regex accepted, in characters: RE2's compiled program grows with it. */
export const MAX_REGEX_CHARS = 500;

/** A word or phrase with nothing searchable in it, kept only to explain a refusal. */
interface Dropped extends Span {
  readonly kind: 'dropped';
}

type Parsed = QueryNode | Dropped;

/**
 * Where a sub-query stands, which decides what it may hold: the whole note takes everything; a scope's
 * operand (`line:(…)`) text terms and scopes; a property value or a field operand only text terms.
 */
type Context = 'note' | 'scope' | 'value' | 'field';

export interface ParseOptions {
  /** Property names of the visible notes close to `name`, for "did you mean [title]?" (only on a refusal). */
  readonly propertyNames?: (name: string) => readonly string[];
}

/**
 * Parses a search query and keeps each repeated term once (search-terms.ts). Throws
 * `NotedError('validation_error')` for a malformed query, naming the 1-based character position and
 * quoting the spot, and `NotedError('too_large')` past {@link MAX_QUERY_CHARS} characters,
 * {@link MAX_QUERY_TERMS} distinct terms or {@link MAX_GROUP_DEPTH} nested groups.
 *
 * @example
 * parseSearchQuery('plan -draft OR tag:#work')
 * // { kind: 'or', operands: [
 * //   { kind: 'and', operands: [{ kind: 'word', text: 'plan' }, { kind: 'not', operand: { kind: 'word', text: 'draft' } }] },
 * //   { kind: 'field', field: 'tag', value: '#work' } ] }
 */
export function parseSearchQuery(query: string, options: ParseOptions = {}): QueryNode {
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
      'The search query is empty: give at least one word, "exact phrase", or operator such as tag:#project to look for.',
    );
  }
  const parser = new Parser(query, tokens, options);
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
        'Add a word, "exact phrase" or operator (tag:, path:, file:, line:, [property]…) that results must contain, as in: project -draft',
    );
  }
  const unique = dedupeQuery(root);
  const terms = countTerms(unique);
  if (terms > MAX_QUERY_TERMS) {
    throw new NotedError(
      'too_large',
      `The search query has ${terms} different terms (words, phrases, regexes, operators and properties); the limit is ${MAX_QUERY_TERMS}. ` +
        'Keep the most distinctive terms and search again.',
      { limit: MAX_QUERY_TERMS, actual: terms },
    );
  }
  return unique;
}

/** Leaves of the tree: what the term limit counts (a scope counts with the terms inside it). */
export function countTerms(node: QueryNode): number {
  switch (node.kind) {
    case 'not':
      return countTerms(node.operand);
    case 'and':
    case 'or':
      return node.operands.reduce((n, op) => n + countTerms(op), 0);
    case 'scope':
      return 1 + (node.operand === null ? 0 : countTerms(node.operand));
    case 'property':
      return 1 + (node.value?.kind === 'match' ? countTerms(node.value.query) : 0);
    default:
      return 1;
  }
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
  private context: Context = 'note';

  constructor(
    private readonly query: string,
    private readonly tokens: readonly Token[],
    private readonly options: ParseOptions,
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
        if (this.context === 'field') return { kind: 'word', text: tok.text };
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
        if (this.context === 'field') return { kind: 'phrase', text: tok.text };
        return SEARCHABLE.test(tok.text)
          ? { kind: 'phrase', text: tok.text }
          : { kind: 'dropped', pos: tok.pos, end: tok.end };
      case 'regex':
        return this.regex(tok.source, tok.pos);
      case 'op':
        return this.parseOperator(tok);
      case 'property':
        return this.parseProperty(tok);
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

  /** `name:` and its operand, the token right after the colon. */
  private parseOperator(tok: Extract<Token, { type: 'op' }>): Parsed {
    if (!isOperator(tok.name)) {
      throw unknownOperator(this.query, tok.pos, tok.raw, this.options.propertyNames?.(tok.name) ?? []);
    }
    const op = tok.name;
    const operandTok = this.peek();
    if (
      !operandTok ||
      operandTok.pos !== tok.end ||
      operandTok.type === 'rparen' ||
      operandTok.type === 'or'
    ) {
      throw this.error(
        tok.pos,
        `"${tok.raw}:" at ${this.describe(tok.pos)} has no ${op === 'tag' ? 'tag name' : 'value'}: ` +
          `write it right after the colon, with no space, as in ${EXAMPLES[op]} (quote a value that has spaces, group several in parentheses).`,
      );
    }
    if (
      op === 'tag' &&
      operandTok.type === 'word' &&
      operandTok.text.replace(/^#/, '').replace(/\/$/, '') === ''
    ) {
      throw this.error(
        tok.pos,
        `"${tok.raw}:" at ${this.describe(tok.pos)} has no tag name: write it right after the colon, as in tag:#project.`,
      );
    }
    if (isScope(op)) {
      if (this.context === 'value' || this.context === 'field') throw this.misplaced(tok, op);
      if (operandTok.type === 'phrase' && operandTok.text === '' && op.startsWith('task')) {
        this.next++;
        return { kind: 'scope', scope: op, operand: null };
      }
      const operand = this.operand('scope');
      return operand.kind === 'dropped' ? operand : { kind: 'scope', scope: op, operand };
    }
    if (op === 'match-case' || op === 'ignore-case') {
      const operand = this.operand(this.context);
      return operand.kind === 'dropped' ? operand : withCase(operand, op === 'match-case');
    }
    if (this.context !== 'note' && op !== 'content') throw this.misplaced(tok, op);
    if (op === 'content') {
      const operand = this.operand(this.context === 'note' ? 'scope' : this.context);
      return operand.kind === 'dropped' ? operand : inContent(operand);
    }
    const operand = this.operand('field');
    if (operand.kind === 'dropped') return operand;
    return toField(operand, op, (message) => this.error(tok.pos, message));
  }

  /** The operand of an operator: one term, a nested operator, or a (group), parsed in `context`. */
  private operand(context: Context): Parsed {
    const outer = this.context;
    this.context = context;
    try {
      const tok = this.peek()!;
      if (tok.type === 'neg') return this.parseUnary();
      return this.parsePrimary();
    } finally {
      this.context = outer;
    }
  }

  private misplaced(tok: Extract<Token, { type: 'op' }>, op: string): NotedError {
    const where =
      this.context === 'value'
        ? 'inside a property value, which takes words, "phrases", /regexes/, OR, - and parentheses'
        : this.context === 'field'
          ? 'inside file:, path: or tag:, which take values'
          : 'inside line:, block:, section: or task…:, which look inside one part of a note';
    const fix =
      op === 'tag'
        ? ' To find a tag inside a line or task, write the tag as a word (task-todo:urgent).'
        : ` Put ${op}: outside the parentheses, as in ${op}:x line:(a b).`;
    return this.error(tok.pos, `"${tok.raw}:" at ${this.describe(tok.pos)} cannot stand ${where}.${fix}`);
  }

  private parseProperty(tok: Extract<Token, { type: 'property' }>): Parsed {
    if (this.context !== 'note') {
      throw this.error(
        tok.pos,
        `The property ${this.quote(tok)} at ${this.describe(tok.pos)} cannot stand inside an operator or another property: put it on its own, as in [status:draft] line:(a b).`,
      );
    }
    if (tok.nameKind === 'regex') checkRegex(tok.name, (m) => this.error(tok.pos, m));
    const base = {
      kind: 'property' as const,
      name: tok.name,
      ...(tok.nameKind === 'regex' ? { nameRegex: true as const } : {}),
    };
    if (tok.value === null) return { ...base, value: null };
    const raw = tok.value.trim();
    if (raw === '') {
      throw this.error(
        tok.pos,
        `The property ${this.quote(tok)} at ${this.describe(tok.pos)} has nothing after the colon: write [${tok.name}] for notes that have it, [${tok.name}:null] for an empty value, or a value to look for.`,
      );
    }
    if (raw === 'null') return { ...base, value: { kind: 'null' } };
    const cmp = /^(<=|>=|<|>)\s*(\S.*)$/s.exec(raw);
    if (cmp) return { ...base, value: { kind: 'compare', op: cmp[1] as '<', value: cmp[2]!.trim() } };
    const inner = new Parser(this.query, tokenize(this.query, tok.valuePos, tok.end - 1), this.options);
    inner.context = 'value';
    inner.depth = this.depth;
    const query = inner.parseQuery();
    if (query.kind === 'dropped') {
      throw this.error(
        tok.pos,
        `The value of ${this.quote(tok)} at ${this.describe(tok.pos)} has no letters or digits to look for: give a word, "phrase", /regex/, null, or a comparison such as <5.`,
      );
    }
    return { ...base, value: { kind: 'match', query } };
  }
}
