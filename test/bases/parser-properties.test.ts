/**
 * Property tests of the Bases parser (fast-check): any text either parses or is refused with a
 * BasesSyntaxError naming a line and column, never another error; a printed tree parses back to the
 * same tree; evaluating whatever parses fails only as an evaluation error in the cell.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { BinaryOperator, Expr } from '../../src/bases/ast.js';
import { readBase } from '../../src/bases/base-file.js';
import { Evaluator } from '../../src/bases/evaluate.js';
import type { BasesHost, FileFacts } from '../../src/bases/host.js';
import { BasesEvalError } from '../../src/bases/limits.js';
import { parseExpression } from '../../src/bases/parser.js';
import { printExpression } from '../../src/bases/print.js';
import { BasesSyntaxError } from '../../src/bases/syntax-error.js';
import { memoryHost } from './memory-host.js';

const AT = { line: 1, column: 1, offset: 0 };
const NAMES = ['price', 'status', 'file', 'note', 'formula', 'this', 'value', 'tags', 'x', 'résumé'];
const METHODS = ['contains', 'map', 'filter', 'round', 'toString', 'hasTag', 'lower', 'slice', 'isEmpty'];
const OPS: BinaryOperator[] = ['+', '-', '*', '/', '%', '==', '!=', '>', '<', '>=', '<=', '&&', '||'];

const exprArb: fc.Arbitrary<Expr> = fc.letrec<{ e: Expr }>((tie) => ({
  e: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.nat({ max: 1_000_000 }).map((value): Expr => ({ kind: 'number', value, at: AT })),
    fc
      .double({ min: 0, max: 1e6, noNaN: true, noDefaultInfinity: true })
      .map((value): Expr => ({ kind: 'number', value, at: AT })),
    fc.string({ maxLength: 8, unit: 'binary' }).map((value): Expr => ({ kind: 'string', value, at: AT })),
    fc.boolean().map((value): Expr => ({ kind: 'boolean', value, at: AT })),
    fc.constant<Expr>({ kind: 'null', at: AT }),
    fc
      .constantFrom('a+', '[a-z]', '\\d{2}')
      .map((source): Expr => ({ kind: 'regex', source, flags: 'g', at: AT })),
    fc.constantFrom(...NAMES).map((name): Expr => ({ kind: 'name', name, at: AT })),
    fc.array(tie('e'), { maxLength: 3 }).map((items): Expr => ({ kind: 'list', items, at: AT })),
    fc
      .array(fc.tuple(fc.string({ maxLength: 4 }), tie('e')), { maxLength: 2 })
      .map((entries): Expr => ({ kind: 'object', entries, at: AT })),
    fc
      .tuple(tie('e'), fc.constantFrom(...NAMES))
      .map(([object, name]): Expr => ({ kind: 'member', object, name, at: AT })),
    fc.tuple(tie('e'), tie('e')).map(([object, index]): Expr => ({ kind: 'index', object, index, at: AT })),
    fc.tuple(tie('e'), fc.constantFrom(...METHODS), fc.array(tie('e'), { maxLength: 2 })).map(
      ([object, name, args]): Expr => ({
        kind: 'call',
        callee: { kind: 'member', object, name, at: AT },
        args,
        at: AT,
      }),
    ),
    fc
      .tuple(fc.constantFrom('if', 'list', 'max', 'date', 'link'), fc.array(tie('e'), { maxLength: 3 }))
      .map(([name, args]): Expr => ({ kind: 'call', callee: { kind: 'name', name, at: AT }, args, at: AT })),
    fc
      .tuple(fc.constantFrom<'!' | '-'>('!', '-'), tie('e'))
      .map(([op, arg]): Expr => ({ kind: 'unary', op, arg, at: AT })),
    fc
      .tuple(tie('e'), fc.constantFrom(...OPS), tie('e'))
      .map(([left, op, right]): Expr => ({ kind: 'binary', op, left, right, at: AT })),
  ),
})).e;

/** The tree without positions, for comparison. */
function shape(e: unknown): unknown {
  if (Array.isArray(e)) return e.map(shape);
  if (e !== null && typeof e === 'object') {
    return Object.fromEntries(
      Object.entries(e)
        .filter(([k]) => k !== 'at')
        .map(([k, v]) => [k, shape(v)]),
    );
  }
  return e;
}

const SYNTAX_CHARS = fc.constantFrom(
  ...'abc.()[]{},:"\'/\\+-*%=!<>&|0123456789 \n\t_$é'.split(''),
  '==',
  '&&',
  '||',
  'file.',
  'formula.',
  'true',
  'null',
);

let host: BasesHost & { all: FileFacts[] };
beforeAll(async () => {
  host = await memoryHost([{ path: 'a.md', props: { price: 3, status: 'x', tags: ['t'] }, tags: ['t'] }]);
});

describe('the Bases parser (property tests)', () => {
  it('any text parses or is refused with a line and column, never another error', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ maxLength: 60 }),
          fc.array(SYNTAX_CHARS, { maxLength: 40 }).map((a) => a.join('')),
        ),
        (text) => {
          try {
            parseExpression(text);
          } catch (err) {
            expect(err).toBeInstanceOf(BasesSyntaxError);
            const e = err as BasesSyntaxError;
            expect(e.line).toBeGreaterThanOrEqual(1);
            expect(e.column).toBeGreaterThanOrEqual(1);
          }
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('a printed tree parses back to the same tree', () => {
    fc.assert(
      fc.property(exprArb, (e) => {
        const printed = printExpression(e);
        expect(shape(parseExpression(printed))).toEqual(shape(e));
      }),
      { numRuns: 2000 },
    );
  });

  it('evaluating any tree fails only as an evaluation error in the cell', () => {
    const ev = new Evaluator(host, new Map(), 'a.md');
    fc.assert(
      fc.property(exprArb, (e) => {
        const v = ev.tryEvaluate(e, ev.row(host.all[0] as FileFacts));
        if (v instanceof Error) expect(v).toBeInstanceOf(BasesEvalError);
      }),
      { numRuns: 2000 },
    );
  });

  it('any text as a .base file reads or is refused with a line and column', () => {
    const yamlish = fc
      .array(
        fc.constantFrom(
          'filters:',
          'views:',
          '  - ',
          'type: table',
          'name: x',
          'order: [a, b]',
          "'x > 1'",
          ': ',
          '\n',
          '  ',
          'and:',
          'formulas:',
          'f: "1 +"',
          '{',
          '[',
          '"',
        ),
        {
          maxLength: 30,
        },
      )
      .map((a) => a.join(''));
    fc.assert(
      fc.property(fc.oneof(yamlish, fc.string({ maxLength: 80 })), (text) => {
        try {
          readBase(text);
        } catch (err) {
          expect(err).toBeInstanceOf(BasesSyntaxError);
        }
      }),
      { numRuns: 2000 },
    );
  });
});
