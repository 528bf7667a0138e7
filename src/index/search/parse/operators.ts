/**
 * @module
 * The operators of Obsidian's search that `search_notes` understands, and what to suggest for a name
 * that is none of them (`titel:` → "did you mean file: or [title]?"): nothing is ever answered empty
 * because an operator was misspelt.
 */

import type { NotedError } from '../../../common/errors.js';
import { positionError, where } from './query-errors.js';

/** Operators on a note as a whole, whose operand is a value (distributed over a group). */
export type FieldOperator = 'file' | 'path' | 'tag' | 'content';
/** Operators that look for their operand inside one part of a note at a time. */
export type ScopeOperator = 'line' | 'block' | 'section' | 'task' | 'task-todo' | 'task-done';
export type CaseOperator = 'match-case' | 'ignore-case';
export type Operator = FieldOperator | ScopeOperator | CaseOperator;

export const OPERATORS: readonly Operator[] = [
  'file',
  'path',
  'content',
  'tag',
  'line',
  'block',
  'section',
  'task',
  'task-todo',
  'task-done',
  'match-case',
  'ignore-case',
];

export function isOperator(name: string): name is Operator {
  return (OPERATORS as readonly string[]).includes(name);
}

export function isScope(op: Operator): op is ScopeOperator {
  return op === 'line' || op === 'block' || op === 'section' || op.startsWith('task');
}

/** Words people reach for that mean one of the operators. */
const MEANS: Readonly<Record<string, Operator>> = {
  title: 'file',
  name: 'file',
  filename: 'file',
  folder: 'path',
  dir: 'path',
  directory: 'path',
  tags: 'tag',
  hashtag: 'tag',
  text: 'content',
  body: 'content',
  paragraph: 'block',
  heading: 'section',
  todo: 'task-todo',
  done: 'task-done',
  tasks: 'task',
  case: 'match-case',
  matchcase: 'match-case',
  ignorecase: 'ignore-case',
};

/**
 * The refusal of an unknown operator `name:`: it names it, the operators that come close (by spelling or
 * meaning), properties of the vault whose names come close (`[title]`), and lists all operators.
 */
export function unknownOperator(
  query: string,
  pos: number,
  raw: string,
  propertyNames: readonly string[],
): NotedError {
  const name = raw.toLowerCase();
  const ops = new Set<string>();
  for (const op of OPERATORS) if (close(name, op)) ops.add(`${op}:`);
  for (const [word, op] of Object.entries(MEANS)) if (close(name, word)) ops.add(`${op}:`);
  const props = new Set<string>();
  for (const key of propertyNames) if (close(name, key.toLowerCase())) props.add(`[${key}]`);
  if (props.size === 0 && close(name, 'title')) props.add('[title]');
  const guesses = [...ops, ...props];
  const guess = guesses.length === 0 ? '' : ` Did you mean ${orList(guesses)}?`;
  return positionError(
    query,
    pos,
    `"${raw}:" at ${where(query, pos)} is not a search operator.${guess} The operators are ${OPERATORS.map((o) => `${o}:`).join(', ')}; a property is searched as [name] or [name:value]. To search for the text "${raw}:" itself, put it in quotes.`,
  );
}

function orList(items: readonly string[]): string {
  if (items.length === 1) return items[0]!;
  return `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;
}

/** Close enough to be a slip: one of them starts the other, or few edits apart for its length. */
export function close(a: string, b: string): boolean {
  if (a === b) return true;
  if (a.length >= 3 && b.length >= 3 && (a.startsWith(b) || b.startsWith(a))) return true;
  const limit = Math.max(a.length, b.length) <= 4 ? 1 : 2;
  return editDistance(a, b, limit) <= limit;
}

/** Damerau–Levenshtein (adjacent swaps count one), stopping early past `limit`. Names are short. */
function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  const d: number[][] = [];
  for (let i = 0; i <= a.length; i++) d.push([i]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  }
  return d[a.length]![b.length]!;
}
