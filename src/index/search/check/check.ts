/**
 * @module
 * The parts of a search SQL cannot answer, checked in code on each candidate note the index leaves
 * (search/plan/candidates.ts narrows the notes down first): scopes (`line:`, `block:`, `section:`, `task…:`),
 * regular expressions, text under `match-case:`, and property values. Also says, for a hit, where it
 * matched (`title`, `tags`, `body`, `file`, `path`, `property:status`, `task`, `line`…) and on which
 * lines.
 *
 * Text terms are compared as the index compares them (whole words, case and Latin accents ignored,
 * excerpt.ts), so a scope finds what a plain search would find, only within one part of the note.
 */
import { foldName } from '../../../markdown/link-key.js';
import type { PropertyNode, QueryNode } from '../parse/query.js';
import { compileRegex } from '../parse/regex.js';
import { tagValue } from '../parse/tokens.js';
import type { Check } from '../plan/compiled.js';
import { indexAnswers } from './positions.js';
import { type CandidateFacts, type Found, type Location, scopeMatches } from './scopes.js';
import { fileOf, type TextNode, textTest, valueMatches } from './text.js';

export type { CandidateFacts, Found, Location, PropertyFact, TaskFact } from './scopes.js';
export { MAX_LOCATIONS } from './scopes.js';
export { textMatches, valueMatches } from './text.js';

/** Whether a candidate passes `check`; `row` holds the exact columns `c0`, `c1`… SQL computed. */
export function passes(check: Check, row: object, facts: CandidateFacts): boolean {
  switch (check.k) {
    case 'col':
      return (row as Record<string, unknown>)[`c${check.i}`] === 1;
    case 'and':
      return check.ops.every((op) => passes(op, row, facts));
    case 'or':
      return check.ops.some((op) => passes(op, row, facts));
    case 'not':
      return !passes(check.op, row, facts);
    case 'node':
      return matchesNote(check.node, facts);
  }
}

/** Whether the note matches `node` as a whole (all of a note's parts count). */
export function matchesNote(node: QueryNode, facts: CandidateFacts, found?: Found): boolean {
  switch (node.kind) {
    case 'word':
    case 'phrase':
    case 'regex':
      return textInNote(node, facts, found);
    case 'field':
      return fieldMatches(node, facts, found);
    case 'property':
      return propertyMatches(node, facts, found);
    case 'scope':
      return scopeMatches(node, facts, null, found);
    case 'not':
      return !matchesNote(node.operand, facts);
    case 'and':
      return found
        ? all(node.operands, (op) => matchesNote(op, facts, found))
        : node.operands.every((op) => matchesNote(op, facts));
    case 'or':
      return found
        ? any(node.operands, (op) => matchesNote(op, facts, found))
        : node.operands.some((op) => matchesNote(op, facts));
  }
}

/** Where a hit matched its query: its wanted (not excluded) terms' places, and the scopes' lines. */
export function explainHit(node: QueryNode, facts: CandidateFacts): { matched: string[]; lines: Location[] } {
  const found: Found = { where: new Set(), lines: [] };
  matchesNote(node, facts, found);
  const order = ['title', 'tags', 'body', 'file', 'path', 'task', 'line', 'block', 'section'];
  const matched = [...found.where].sort((a, b) => rank(a, order) - rank(b, order) || (a < b ? -1 : 1));
  return { matched, lines: found.lines };
}

function rank(entry: string, order: readonly string[]): number {
  const i = order.indexOf(entry);
  return i === -1 ? order.length : i;
}

/** `every` and `some` that still visit every operand, so each leaves its mark in `found`. */
function all<T>(items: readonly T[], fn: (t: T) => boolean): boolean {
  let ok = true;
  for (const t of items) ok = fn(t) && ok;
  return ok;
}

function any<T>(items: readonly T[], fn: (t: T) => boolean): boolean {
  let ok = false;
  for (const t of items) ok = fn(t) || ok;
  return ok;
}

function textInNote(node: TextNode, facts: CandidateFacts, found?: Found): boolean {
  const test = textTest(node);
  const target = node.in;
  if (target === 'file') return mark(test(fileOf(facts.path)), 'file', found);
  if (target === 'path') return mark(test(facts.path), 'path', found);
  if (target === 'tag') return mark(facts.tags().some(test), 'tags', found);
  let hit = false;
  if (target !== 'content') {
    if (test(facts.title)) {
      hit = true;
      if (!found) return true;
      found.where.add('title');
    }
    const tags = facts.tags();
    if (tags.length > 0 && test(tags.join(' '))) {
      hit = true;
      if (!found) return true;
      found.where.add('tags');
    }
  }
  const regions = facts.regions();
  if (regions && test(regions.bodyText())) {
    hit = true;
    found?.where.add('body');
  }
  return hit;
}

function mark(hit: boolean, where: string, found?: Found): boolean {
  if (hit) found?.where.add(where);
  return hit;
}

function fieldMatches(
  node: Extract<QueryNode, { kind: 'field' }>,
  facts: CandidateFacts,
  found?: Found,
): boolean {
  if (node.field === 'tag') {
    const tag = tagValue(node.value.toLowerCase());
    const hit = facts.tags().some((t) => {
      const lower = t.toLowerCase();
      return lower === tag || lower.startsWith(`${tag}/`);
    });
    return mark(hit, 'tags', found);
  }
  const text = node.field === 'file' ? fileOf(facts.path) : facts.path;
  const hit = node.matchCase ? text.includes(node.value) : foldName(text).includes(foldName(node.value));
  return mark(hit, node.field, found);
}

function propertyMatches(node: PropertyNode, facts: CandidateFacts, found?: Found): boolean {
  let hit = false;
  const name = node.nameRegex ? compileRegex(node.name, false) : null;
  const wanted = foldName(node.name);
  for (const prop of facts.properties()) {
    if (name ? !name.test(prop.key) : foldName(prop.key) !== wanted) continue;
    if (node.value === null || valueMatches(node.value, prop.value)) {
      hit = true;
      if (!found) return true;
      found.where.add(`property:${prop.key}`);
    }
  }
  return hit;
}

/**
 * Whether a check reads the note's text: line, block and section scopes, text terms checked in code.
 * With `layout`, for a note whose layout the index keeps: the scopes the index answers
 * (search/check/positions.ts) then read nothing.
 */
export function checkNeedsText(check: Check, layout = false): boolean {
  switch (check.k) {
    case 'col':
      return false;
    case 'not':
      return checkNeedsText(check.op, layout);
    case 'and':
    case 'or':
      return check.ops.some((op) => checkNeedsText(op, layout));
    case 'node':
      return needsText(check.node, layout);
  }
}

function needsText(node: QueryNode, layout: boolean): boolean {
  switch (node.kind) {
    case 'word':
    case 'phrase':
      return true;
    case 'regex':
      return node.in === undefined || node.in === 'content';
    case 'scope':
      // A task's text is in the index; a scope nested in a task is the task itself.
      return !node.scope.startsWith('task') && !(layout && indexAnswers(node));
    case 'not':
      return needsText(node.operand, layout);
    case 'and':
    case 'or':
      return node.operands.some((op) => needsText(op, layout));
    default:
      return false;
  }
}
