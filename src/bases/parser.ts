/**
 * @module
 * The parser of Bases expressions: precedence from loosest to tightest `||`, `&&`, `==` `!=`,
 * `>` `<` `>=` `<=`, `+` `-`, `*` `/` `%`, the prefix `!` and `-`, then calls, `.name` and `[index]`.
 * A syntax error names its line and column and says what was expected.
 */
import type { BinaryOperator, Expr, Position } from './ast.js';
import { BasesSyntaxError } from './syntax-error.js';
import { type Token, tokenize } from './tokens.js';

/** How deeply expressions may nest (parentheses, calls, lists): bounds the parser's recursion. */
export const MAX_NESTING = 100;

const LEVELS: readonly (readonly BinaryOperator[])[] = [
  ['||'],
  ['&&'],
  ['==', '!='],
  ['>', '<', '>=', '<='],
  ['+', '-'],
  ['*', '/', '%'],
];

const KEYWORDS: Record<string, Expr['kind']> = { true: 'boolean', false: 'boolean', null: 'null' };

/**
 * Parses one expression.
 *
 * @throws BasesSyntaxError with the line and column of the first problem.
 * @example
 * parseExpression('file.hasTag("book")').kind // 'call'
 */
export function parseExpression(source: string): Expr {
  const parser = new Parser(tokenize(source));
  if (parser.peek().kind === 'end') throw new BasesSyntaxError('The expression is empty.', 1, 1);
  const expr = parser.expression(0);
  const rest = parser.peek();
  if (rest.kind !== 'end') parser.fail(rest, `Unexpected "${rest.text}" after a complete expression.`);
  return expr;
}

class Parser {
  private i = 0;
  private depth = 0;

  constructor(private readonly tokens: readonly Token[]) {}

  peek(): Token {
    return this.tokens[this.i] as Token;
  }

  private next(): Token {
    const t = this.peek();
    if (t.kind !== 'end') this.i++;
    return t;
  }

  private isOp(text: string): boolean {
    const t = this.peek();
    return t.kind === 'op' && t.text === text;
  }

  private expect(text: string, what: string): Token {
    const t = this.peek();
    if (t.kind !== 'op' || t.text !== text) this.fail(t, `Expected "${text}" ${what}, found ${describe(t)}.`);
    return this.next();
  }

  fail(t: Token, message: string): never {
    throw new BasesSyntaxError(message, t.at.line, t.at.column);
  }

  private enter(t: Token): void {
    if (++this.depth > MAX_NESTING) this.fail(t, `The expression nests deeper than ${MAX_NESTING} levels.`);
  }

  expression(level: number): Expr {
    if (level >= LEVELS.length) return this.unary();
    let left = this.expression(level + 1);
    const ops = LEVELS[level] as readonly string[];
    for (;;) {
      const t = this.peek();
      if (t.kind !== 'op' || !ops.includes(t.text)) return left;
      this.next();
      const right = this.expression(level + 1);
      left = { kind: 'binary', op: t.text as BinaryOperator, left, right, at: left.at };
    }
  }

  private unary(): Expr {
    const t = this.peek();
    if (t.kind === 'op' && (t.text === '!' || t.text === '-')) {
      this.next();
      this.enter(t);
      const arg = this.unary();
      this.depth--;
      return { kind: 'unary', op: t.text, arg, at: t.at };
    }
    return this.postfix(this.primary());
  }

  private postfix(start: Expr): Expr {
    let expr = start;
    for (;;) {
      const t = this.peek();
      if (t.kind !== 'op') return expr;
      if (t.text === '.') {
        this.next();
        const name = this.next();
        if (name.kind !== 'name')
          this.fail(name, `Expected a property or function name after ".", found ${describe(name)}.`);
        expr = { kind: 'member', object: expr, name: name.text, at: name.at };
      } else if (t.text === '[') {
        this.next();
        this.enter(t);
        const index = this.expression(0);
        this.depth--;
        this.expect(']', 'to close the index');
        expr = { kind: 'index', object: expr, index, at: t.at };
      } else if (t.text === '(') {
        if (expr.kind !== 'name' && expr.kind !== 'member')
          this.fail(t, 'Only a function or a method can be called.');
        this.next();
        this.enter(t);
        const args = this.items(')');
        this.depth--;
        expr = { kind: 'call', callee: expr, args, at: expr.at };
      } else return expr;
    }
  }

  /** Comma-separated expressions up to `close` (a trailing comma allowed), `close` consumed. */
  private items(close: string): Expr[] {
    const items: Expr[] = [];
    while (!this.isOp(close)) {
      items.push(this.expression(0));
      if (this.isOp(',')) this.next();
      else if (!this.isOp(close))
        this.fail(this.peek(), `Expected "," or "${close}", found ${describe(this.peek())}.`);
    }
    this.next();
    return items;
  }

  private primary(): Expr {
    const t = this.next();
    switch (t.kind) {
      case 'number':
        return { kind: 'number', value: t.value as number, at: t.at };
      case 'string':
        return { kind: 'string', value: t.text, at: t.at };
      case 'regex':
        return { kind: 'regex', source: t.text, flags: t.flags ?? '', at: t.at };
      case 'name': {
        const keyword = KEYWORDS[t.text];
        if (keyword === 'boolean') return { kind: 'boolean', value: t.text === 'true', at: t.at };
        if (keyword === 'null') return { kind: 'null', at: t.at };
        return { kind: 'name', name: t.text, at: t.at };
      }
      case 'end':
        return this.fail(t, 'The expression ends where a value was expected.');
      default:
        break;
    }
    if (t.text === '(') {
      this.enter(t);
      const inner = this.expression(0);
      this.depth--;
      this.expect(')', 'to close the parenthesis');
      return inner;
    }
    if (t.text === '[') {
      this.enter(t);
      const items = this.items(']');
      this.depth--;
      return { kind: 'list', items, at: t.at };
    }
    if (t.text === '{') {
      this.enter(t);
      const entries = this.objectEntries(t.at);
      this.depth--;
      return entries;
    }
    return this.fail(t, `Unexpected ${describe(t)} where a value was expected.`);
  }

  private objectEntries(at: Position): Expr {
    const entries: [string, Expr][] = [];
    while (!this.isOp('}')) {
      const key = this.next();
      if (key.kind !== 'string' && key.kind !== 'name')
        this.fail(key, `Expected an object key, found ${describe(key)}.`);
      this.expect(':', 'after an object key');
      entries.push([key.text, this.expression(0)]);
      if (this.isOp(',')) this.next();
      else if (!this.isOp('}'))
        this.fail(this.peek(), `Expected "," or "}", found ${describe(this.peek())}.`);
    }
    this.next();
    return { kind: 'object', entries, at };
  }
}

function describe(t: Token): string {
  if (t.kind === 'end') return 'the end of the expression';
  if (t.kind === 'string') return `the string "${t.text}"`;
  return `"${t.text}"`;
}
