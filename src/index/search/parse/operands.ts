/**
 * @module
 * What an operator does to its operand as the parser reads it (search/parse/parse-operators.ts): `file:`, `path:`
 * and `tag:` are distributed over a group (`file:(a OR -b)` is `file:a OR -file:b`), `content:` narrows
 * text terms to the body, `match-case:` / `ignore-case:` are pushed down onto the terms they cover; and
 * a regex RE2 cannot run is refused with the reason.
 */
import type { NotedError } from '../../../common/errors.js';
import type { FieldNode, PhraseNode, QueryNode, RegexNode, WordNode } from './nodes.js';
import type { FieldOperator } from './operators.js';
import { compileRegex, MAX_REGEX_PROGRAM } from './regex.js';

export const EXAMPLES: Readonly<Record<string, string>> = {
  tag: 'tag:#project',
  path: 'path:"my folder"',
  file: 'file:plan',
  content: 'content:"happy cat"',
  line: 'line:(mix flour)',
  block: 'block:(dog cat)',
  section: 'section:(dog cat)',
  task: 'task:call (task:"" finds every task)',
  'task-todo': 'task-todo:call',
  'task-done': 'task-done:call',
  'match-case': 'match-case:HappyCat',
  'ignore-case': 'ignore-case:ikea',
};

/** `file:(a OR -b)` is `file:a OR -file:b`: a field operand's terms each become a field. */
export function toField(
  node: QueryNode,
  field: Exclude<FieldOperator, 'content'>,
  fail: (m: string) => NotedError,
): QueryNode {
  switch (node.kind) {
    case 'word':
    case 'phrase': {
      const value = field === 'tag' ? node.text : node.text;
      return {
        kind: 'field',
        field,
        value,
        ...(node.matchCase && field !== 'tag' ? { matchCase: true } : {}),
      };
    }
    case 'regex':
      return {
        kind: 'regex',
        source: node.source,
        in: field,
        ...(node.matchCase ? { matchCase: true } : {}),
      };
    case 'not':
      return { kind: 'not', operand: toField(node.operand, field, fail) };
    case 'and':
    case 'or':
      return { kind: node.kind, operands: node.operands.map((op) => toField(op, field, fail)) };
    default:
      throw fail(
        `${field}: takes words, "quoted text" or a /regex/, alone or grouped with OR, - and parentheses.`,
      );
  }
}

/** `content:x`: text terms looked for in the body only (scopes already look in the body). */
export function inContent(node: QueryNode): QueryNode {
  switch (node.kind) {
    case 'word':
    case 'phrase':
      return { ...node, in: 'content' };
    case 'regex':
      return node.in === undefined ? { ...node, in: 'content' } : node;
    case 'not':
      return { kind: 'not', operand: inContent(node.operand) };
    case 'and':
    case 'or':
      return { kind: node.kind, operands: node.operands.map(inContent) };
    default:
      return node;
  }
}

/** `match-case:` / `ignore-case:` pushed down onto every text term below it; tags keep ignoring case. */
export function withCase(node: QueryNode, sensitive: boolean): QueryNode {
  const flag = (n: WordNode | PhraseNode | RegexNode | FieldNode): QueryNode => {
    const { matchCase: _old, ...rest } = n;
    return sensitive ? ({ ...rest, matchCase: true } as QueryNode) : (rest as QueryNode);
  };
  switch (node.kind) {
    case 'word':
    case 'phrase':
    case 'regex':
      return flag(node);
    case 'field':
      return node.field === 'tag' ? node : flag(node);
    case 'scope':
      return node.operand === null ? node : { ...node, operand: withCase(node.operand, sensitive) };
    case 'property':
      return node.value?.kind === 'match'
        ? { ...node, value: { kind: 'match', query: withCase(node.value.query, sensitive) } }
        : node;
    case 'not':
      return { kind: 'not', operand: withCase(node.operand, sensitive) };
    case 'and':
    case 'or':
      return { kind: node.kind, operands: node.operands.map((op) => withCase(op, sensitive)) };
  }
}

/** Refuses what RE2 cannot run (backreferences, lookaround) or cannot read, saying so. */
export function checkRegex(source: string, fail: (message: string) => NotedError): void {
  let size: number;
  try {
    // Case-insensitive, as searches run by default: folding adds to the program.
    size = compileRegex(source, false).programSize();
  } catch (err) {
    const why = (err as Error).message;
    const unsupported = /\\[1-9]|\(\?[=!<]/.test(source)
      ? ' Backreferences (\\1) and lookaround ((?=…), (?!…), (?<=…)) are not supported: regexes here run in time linear in the text, without backtracking.'
      : '';
    throw fail(`The regular expression /${source}/ cannot be used: ${why}.${unsupported}`);
  }
  if (size > MAX_REGEX_PROGRAM) {
    throw fail(
      `The regular expression /${source}/ is too costly to run: it compiles to ${size.toLocaleString('en-US')} instructions, and the limit is ${MAX_REGEX_PROGRAM.toLocaleString('en-US')}. ` +
        'Counted repetition is what makes a pattern large (x{0,1000} is a thousand copies of x): use smaller counts, or * and + where the count does not matter.',
    );
  }
}
