/**
 * @module
 * An expression written back as source, fully parenthesized: `parseExpression(print(e))` gives `e`
 * again (the parser's round-trip property).
 */
import type { Expr } from './ast.js';

/** @example print(parseExpression('1 + 2 * 3')) // '(1 + (2 * 3))' */
export function printExpression(e: Expr): string {
  switch (e.kind) {
    case 'number':
      return e.value < 0 || Object.is(e.value, -0) ? `(-${-e.value})` : String(e.value);
    case 'string':
      return JSON.stringify(e.value);
    case 'boolean':
      return String(e.value);
    case 'null':
      return 'null';
    case 'regex':
      return `/${e.source}/${e.flags}`;
    case 'name':
      return e.name;
    case 'list':
      return `[${e.items.map(printExpression).join(', ')}]`;
    case 'object':
      return `{${e.entries.map(([k, v]) => `${JSON.stringify(k)}: ${printExpression(v)}`).join(', ')}}`;
    case 'member':
      return `${printExpression(e.object)}.${e.name}`;
    case 'index':
      return `${printExpression(e.object)}[${printExpression(e.index)}]`;
    case 'call':
      return `${printExpression(e.callee)}(${e.args.map(printExpression).join(', ')})`;
    case 'unary':
      return `(${e.op}${printExpression(e.arg)})`;
    case 'binary':
      return `(${printExpression(e.left)} ${e.op} ${printExpression(e.right)})`;
  }
}
