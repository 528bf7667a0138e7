/**
 * @module
 * How the parser (search/parse/parser.ts) reads the terms that take an operand: a `name:` operator and the
 * token right after its colon, and a `[property]` / `[property:value]` group. Here are the rules for where
 * each may stand: a scope (`line:`, `task:`…) not inside a field or a property value, a field
 * (`file:`, `path:`, `tag:`) only on the whole note, a property never inside an operator or another
 * property; `content:`, `match-case:` and `ignore-case:` anywhere. What an operator then does to its
 * operand is search/parse/operands.ts.
 */

import type { NotedError } from '../../../common/errors.js';
import { checkRegex, EXAMPLES, inContent, toField, withCase } from './operands.js';
import { isOperator, isScope, unknownOperator } from './operators.js';
import type { OperatorReader, Parsed } from './parsed.js';
import type { Token } from './tokens.js';

/** `name:` and its operand, the token right after the colon. */
export function parseOperator(p: OperatorReader, tok: Extract<Token, { type: 'op' }>): Parsed {
  if (!isOperator(tok.name)) {
    throw unknownOperator(p.query, tok.pos, tok.raw, p.options.propertyNames?.(tok.name) ?? []);
  }
  const op = tok.name;
  const operandTok = p.peek();
  if (!operandTok || operandTok.pos !== tok.end || operandTok.type === 'rparen' || operandTok.type === 'or') {
    throw p.error(
      tok.pos,
      `"${tok.raw}:" at ${p.describe(tok.pos)} has no ${op === 'tag' ? 'tag name' : 'value'}: ` +
        `write it right after the colon, with no space, as in ${EXAMPLES[op]} (quote a value that has spaces, group several in parentheses).`,
    );
  }
  if (
    op === 'tag' &&
    operandTok.type === 'word' &&
    operandTok.text.replace(/^#/, '').replace(/\/$/, '') === ''
  ) {
    throw p.error(
      tok.pos,
      `"${tok.raw}:" at ${p.describe(tok.pos)} has no tag name: write it right after the colon, as in tag:#project.`,
    );
  }
  if (isScope(op)) {
    if (p.context === 'value' || p.context === 'field') throw misplaced(p, tok, op);
    if (operandTok.type === 'phrase' && operandTok.text === '' && op.startsWith('task')) {
      p.skip();
      return { kind: 'scope', scope: op, operand: null };
    }
    const operand = p.operand('scope');
    return operand.kind === 'dropped' ? operand : { kind: 'scope', scope: op, operand };
  }
  if (op === 'match-case' || op === 'ignore-case') {
    const operand = p.operand(p.context);
    return operand.kind === 'dropped' ? operand : withCase(operand, op === 'match-case');
  }
  if (p.context !== 'note' && op !== 'content') throw misplaced(p, tok, op);
  if (op === 'content') {
    const operand = p.operand(p.context === 'note' ? 'scope' : p.context);
    return operand.kind === 'dropped' ? operand : inContent(operand);
  }
  const operand = p.operand('field');
  if (operand.kind === 'dropped') return operand;
  return toField(operand, op, (message) => p.error(tok.pos, message));
}

function misplaced(p: OperatorReader, tok: Extract<Token, { type: 'op' }>, op: string): NotedError {
  const where =
    p.context === 'value'
      ? 'inside a property value, which takes words, "phrases", /regexes/, OR, - and parentheses'
      : p.context === 'field'
        ? 'inside file:, path: or tag:, which take values'
        : 'inside line:, block:, section: or task…:, which look inside one part of a note';
  const fix =
    op === 'tag'
      ? ' To find a tag inside a line or task, write the tag as a word (task-todo:urgent).'
      : ` Put ${op}: outside the parentheses, as in ${op}:x line:(a b).`;
  return p.error(tok.pos, `"${tok.raw}:" at ${p.describe(tok.pos)} cannot stand ${where}.${fix}`);
}

/** `[name]`, `[name:null]`, `[name:<5]`, or `[name:value]` whose value is a query of text terms. */
export function parseProperty(p: OperatorReader, tok: Extract<Token, { type: 'property' }>): Parsed {
  if (p.context !== 'note') {
    throw p.error(
      tok.pos,
      `The property ${p.quote(tok)} at ${p.describe(tok.pos)} cannot stand inside an operator or another property: put it on its own, as in [status:draft] line:(a b).`,
    );
  }
  if (tok.nameKind === 'regex') checkRegex(tok.name, (m) => p.error(tok.pos, m));
  const base = {
    kind: 'property' as const,
    name: tok.name,
    ...(tok.nameKind === 'regex' ? { nameRegex: true as const } : {}),
  };
  if (tok.value === null) return { ...base, value: null };
  const raw = tok.value.trim();
  if (raw === '') {
    throw p.error(
      tok.pos,
      `The property ${p.quote(tok)} at ${p.describe(tok.pos)} has nothing after the colon: write [${tok.name}] for notes that have it, [${tok.name}:null] for an empty value, or a value to look for.`,
    );
  }
  if (raw === 'null') return { ...base, value: { kind: 'null' } };
  const cmp = /^(<=|>=|<|>)\s*(\S.*)$/s.exec(raw);
  if (cmp) return { ...base, value: { kind: 'compare', op: cmp[1] as '<', value: cmp[2]!.trim() } };
  const query = p.parseValue(tok.valuePos, tok.end - 1);
  if (query.kind === 'dropped') {
    throw p.error(
      tok.pos,
      `The value of ${p.quote(tok)} at ${p.describe(tok.pos)} has no letters or digits to look for: give a word, "phrase", /regex/, null, or a comparison such as <5.`,
    );
  }
  return { ...base, value: { kind: 'match', query } };
}
