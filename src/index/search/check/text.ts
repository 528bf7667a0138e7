/**
 * @module
 * One text, or one property value, against a search term (search/parse/query.ts): words and phrases as the
 * index compares them (whole words, case and Latin accents ignored, excerpt.ts; exactly as typed under
 * `match-case:`), regexes by RE2, values as Obsidian matches them (`null`, comparisons, a query over the
 * value's items). The checks of search/check/check.ts and the SQL functions of search/run/functions.ts use these.
 */
import { foldName } from '../../../markdown/link-key.js';
import type { PhraseNode, PropertyValue, QueryNode, RegexNode, WordNode } from '../parse/query.js';
import { compileRegex } from '../parse/regex.js';
import { foldText, termRegex } from './excerpt.js';

export type TextNode = WordNode | PhraseNode | RegexNode;

/** A text term's test on one text, made once per term. */
const tests = new WeakMap<TextNode, (text: string) => boolean>();

export function textTest(node: TextNode): (text: string) => boolean {
  let test = tests.get(node);
  if (test === undefined) {
    if (node.kind === 'regex') {
      const re = compileRegex(node.source, node.matchCase === true);
      test = (text) => text !== '' && re.test(text);
    } else {
      const re = termRegex(node.text, node.matchCase === true);
      if (re === null) test = () => false;
      else if (node.matchCase) test = (text) => re.test(text);
      else test = (text) => re.test(foldText(text));
    }
    tests.set(node, test);
  }
  return test;
}

export function fileOf(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}
/** Obsidian's value matching (PROP-30): `null`, comparisons, or a text query over the value's items. */
export function valueMatches(value: PropertyValue, stored: unknown): boolean {
  switch (value.kind) {
    case 'null':
      return stored === null;
    case 'compare':
      return itemsOf(stored).some((item) => compares(item, value.op, value.value));
    case 'match': {
      const items = itemsOf(stored)
        .filter((v) => v !== null)
        .map((v) => (typeof v === 'object' ? JSON.stringify(v) : String(v)));
      return items.length > 0 && valueQuery(value.query, items);
    }
  }
}

function itemsOf(stored: unknown): unknown[] {
  return Array.isArray(stored) ? stored : [stored];
}

/** A value query over a list's items: a word must be in some item, a phrase inside one item. */
function valueQuery(node: QueryNode, items: readonly string[]): boolean {
  // The parser keeps fields, scopes and properties out of a value.
  return booleanOf(node, (leaf) => isText(leaf) && items.some(textTest(leaf)));
}

/** A tree of AND, OR and `-` answered with `leaf` for everything else. */
export function booleanOf(node: QueryNode, leaf: (node: QueryNode) => boolean): boolean {
  switch (node.kind) {
    case 'not':
      return !booleanOf(node.operand, leaf);
    case 'and':
      return node.operands.every((op) => booleanOf(op, leaf));
    case 'or':
      return node.operands.some((op) => booleanOf(op, leaf));
    default:
      return leaf(node);
  }
}

export function isText(node: QueryNode): node is TextNode {
  return node.kind === 'word' || node.kind === 'phrase' || node.kind === 'regex';
}

const NUMBER = /^[-+]?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?$/i;
const DATE = /^\d{4}-\d{2}(?:-\d{2}(?:[T ][\d:.]+(?:Z|[-+]\d{2}:?\d{2})?)?)?$/;

/** Numbers compare as numbers and ISO dates as dates; anything else matches no comparison. */
function compares(stored: unknown, op: '<' | '>' | '<=' | '>=', wanted: string): boolean {
  let a: number | string;
  let b: number | string;
  const text =
    typeof stored === 'number' ? String(stored) : typeof stored === 'string' ? stored.trim() : null;
  if (text === null) return false;
  if (NUMBER.test(text) && NUMBER.test(wanted)) {
    a = Number(text);
    b = Number(wanted);
  } else if (DATE.test(text) && DATE.test(wanted)) {
    a = text.replace(' ', 'T');
    b = wanted.replace(' ', 'T');
  } else {
    return false;
  }
  switch (op) {
    case '<':
      return a < b;
    case '>':
      return a > b;
    case '<=':
      return a <= b;
    case '>=':
      return a >= b;
  }
}

/**
 * Whether one text (a task's, a path, a property name, a tag) matches `node`, as the SQL function
 * `noted_text` asks (search/run/functions.ts): a regex on a file name takes the path and tests its last
 * segment; a scope inside a task is the task itself.
 */
export function textMatches(node: QueryNode, text: string): boolean {
  return booleanOf(node, (leaf) => {
    switch (leaf.kind) {
      case 'word':
      case 'phrase':
        return textTest(leaf)(text);
      case 'regex':
        return textTest(leaf)(leaf.in === 'file' ? fileOf(text) : text);
      case 'field': {
        const target = leaf.field === 'file' ? fileOf(text) : text;
        return leaf.matchCase ? target.includes(leaf.value) : foldName(target).includes(foldName(leaf.value));
      }
      case 'scope':
        return leaf.operand === null || textMatches(leaf.operand, text);
      default:
        return false;
    }
  });
}
