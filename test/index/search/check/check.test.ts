/**
 * What the code checks of a candidate note (issue 26): property values as Obsidian matches them,
 * one text against a term, and that a regex costs a scan whatever its pattern.
 */
import { describe, expect, it } from 'vitest';
import { textMatches, valueMatches } from '../../../../src/index/search/check/check.js';
import {
  type PropertyValue,
  parseSearchQuery,
  type QueryNode,
} from '../../../../src/index/search/parse/query.js';

/** The value part of `[p:…]`. */
function value(query: string): PropertyValue {
  const node = parseSearchQuery(`[p:${query}]`);
  if (node.kind !== 'property' || node.value === null) throw new Error('not a property value');
  return node.value;
}

describe('valueMatches: [name:value] (OBSIDIAN.md PROP-30)', () => {
  it('null is an empty value only: not "", not [], not the word null', () => {
    expect(valueMatches(value('null'), null)).toBe(true);
    expect(valueMatches(value('null'), '')).toBe(false);
    expect(valueMatches(value('null'), [])).toBe(false);
    expect(valueMatches(value('null'), 'null')).toBe(false);
    expect(valueMatches(value('"null"'), 'null')).toBe(true);
  });

  it('compares numbers as numbers and ISO dates as dates, nothing else', () => {
    expect(valueMatches(value('<5'), 4)).toBe(true);
    expect(valueMatches(value('<5'), 10)).toBe(false);
    expect(valueMatches(value('<5'), '4.5')).toBe(true);
    expect(valueMatches(value('>=10'), 10)).toBe(true);
    expect(valueMatches(value('<2024-06-01'), '2024-03-15')).toBe(true);
    expect(valueMatches(value('>2024-06-01'), '2024-06-01T10:00')).toBe(true);
    expect(valueMatches(value('<5'), 'five')).toBe(false);
    expect(valueMatches(value('<5'), null)).toBe(false);
    expect(valueMatches(value('<5'), true)).toBe(false);
    expect(valueMatches(value('<5'), [7, 3])).toBe(true);
  });

  it('matches words in any item of a list, a phrase inside one item, -word against all items', () => {
    expect(valueMatches(value('bob'), ['Ann', 'Bob'])).toBe(true);
    expect(valueMatches(value('(ann bob)'), ['Ann', 'Bob'])).toBe(true);
    expect(valueMatches(value('"ann bob"'), ['Ann', 'Bob'])).toBe(false);
    expect(valueMatches(value('"ann bob"'), ['Ann Bob'])).toBe(true);
    expect(valueMatches(value('-carol'), ['Ann', 'Bob'])).toBe(true);
    expect(valueMatches(value('-bob'), ['Ann', 'Bob'])).toBe(false);
    expect(valueMatches(value('draft OR final'), 'Final')).toBe(true);
    expect(valueMatches(value('true'), true)).toBe(true);
    expect(valueMatches(value('4'), 4)).toBe(true);
    expect(valueMatches(value('/^dra/'), 'Draft')).toBe(true);
    expect(valueMatches(value('draft'), 'drafted')).toBe(false);
    expect(valueMatches(value('draft'), null)).toBe(false);
  });
});

describe('textMatches: one text (a task, a path) against a term', () => {
  const q = (s: string): QueryNode => parseSearchQuery(s);

  it('reads a scope inside a task as the task itself', () => {
    const task = q('task:(call line:(bob))');
    if (task.kind !== 'scope' || task.operand === null) throw new Error('scope expected');
    expect(textMatches(task.operand, 'call Bob today')).toBe(true);
    expect(textMatches(task.operand, 'call Ann')).toBe(false);
  });

  it('tests a file-name regex on the last segment of a path', () => {
    expect(textMatches(q('file:/^\\d{4}/'), 'work/2024 notes.md')).toBe(true);
    expect(textMatches(q('file:/^\\d{4}/'), '2024/notes.md')).toBe(false);
  });

  it('runs a pathological pattern in linear time (RE2), where a backtracking engine would not return', () => {
    // JavaScript's own engine takes exponential time here; RE2 scans the text once.
    const text = `${'a'.repeat(200_000)}!`;
    expect(textMatches(q('/(a|aa)*b/'), text)).toBe(false);
    expect(textMatches(q('/(a+)+$/'), `${'a'.repeat(100_000)}`)).toBe(true);
  });
});
