/**
 * @module
 * The parts of a search SQL cannot answer, checked in code on each candidate note the index leaves
 * (search-compile.ts narrows the notes down first): scopes (`line:`, `block:`, `section:`, `task…:`),
 * regular expressions, text under `match-case:`, and property values. Also says, for a hit, where it
 * matched (`title`, `tags`, `body`, `file`, `path`, `property:status`, `task`, `line`…) and on which
 * lines.
 *
 * Text terms are compared as the index compares them (whole words, case and Latin accents ignored,
 * excerpt.ts), so a scope finds what a plain search would find, only within one part of the note.
 */
import { foldName } from '../markdown/link-key.js';
import { fold, foldText, termRegex } from './excerpt.js';
import type { Check } from './search-compile.js';
import type {
  PhraseNode,
  PropertyNode,
  PropertyValue,
  QueryNode,
  RegexNode,
  WordNode,
} from './search-query.js';
import { compileRegex } from './search-regex.js';
import type { NoteRegions, Region } from './search-regions.js';
import { tagValue } from './search-tokens.js';

export interface TaskFact {
  readonly line: number;
  readonly text: string;
  readonly done: boolean;
}

export interface PropertyFact {
  readonly key: string;
  readonly value: unknown;
}

/** What the checks may ask of one candidate note; each part is read only when asked for. */
export interface CandidateFacts {
  readonly path: string;
  readonly title: string;
  tags(): readonly string[];
  tasks(): readonly TaskFact[];
  properties(): readonly PropertyFact[];
  /** The note's text split up, or null when the file can no longer be read (the note then fails). */
  regions(): NoteRegions | null;
}

/** Where a scope matched: the lines of one line, block, section or task. */
export interface Location {
  readonly scope: 'line' | 'block' | 'section' | 'task';
  readonly from: number;
  readonly to: number;
}

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

/** Where a hit matched, gathered while `matchesNote` walks it (every branch, not just the first true one). */
export interface Found {
  readonly where: Set<string>;
  readonly lines: Location[];
}

/** The most lines one hit reports. */
export const MAX_LOCATIONS = 20;

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

type TextNode = WordNode | PhraseNode | RegexNode;

/** A text term's test on one text, made once per term. */
const tests = new WeakMap<TextNode, (text: string) => boolean>();

function textTest(node: TextNode): (text: string) => boolean {
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

function fileOf(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
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
function booleanOf(node: QueryNode, leaf: (node: QueryNode) => boolean): boolean {
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

function isText(node: QueryNode): node is TextNode {
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

type Scope = Extract<QueryNode, { kind: 'scope' }>;

/** Whether some part of the kind `scope.scope` (inside `within`, when given) matches the operand. */
function scopeMatches(node: Scope, facts: CandidateFacts, within: Region | null, found?: Found): boolean {
  const parts = partsOf(node.scope, facts, within);
  // Words and phrases are found in one pass over the whole body, not part by part (search-scan.ts).
  const regions = within === null && !node.scope.startsWith('task') ? facts.regions() : null;
  const passing = regions && node.operand ? partsMatching(node.operand, parts, regions) : null;
  let hit = false;
  for (const [i, part] of parts.entries()) {
    if (passing) {
      if (!passing.has(i)) continue;
    } else if (node.operand !== null && !inRegion(node.operand, part, facts)) continue;
    hit = true;
    if (!found) return true;
    found.where.add(node.scope.startsWith('task') ? 'task' : node.scope);
    if (
      found.lines.length < MAX_LOCATIONS &&
      !found.lines.some((l) => l.from === part.from && l.to === part.to)
    ) {
      found.lines.push({
        scope: node.scope.startsWith('task') ? 'task' : (node.scope as Location['scope']),
        from: part.from,
        to: part.to,
      });
    }
  }
  return hit;
}

/** The parts of a kind, in the whole note or clipped to `within`; a task's parts are the task itself. */
function partsOf(scope: Scope['scope'], facts: CandidateFacts, within: Region | null): readonly Region[] {
  if (scope.startsWith('task')) {
    const done = scope === 'task-done' ? true : scope === 'task-todo' ? false : null;
    return facts
      .tasks()
      .filter(
        (t) =>
          (done === null || t.done === done) &&
          (within === null || (t.line >= within.from && t.line <= within.to)),
      )
      .map((t) => ({ text: t.text, from: t.line, to: t.line }));
  }
  if (within !== null && within.from === within.to) return [within];
  const regions = facts.regions();
  if (regions === null) return [];
  const all = scope === 'line' ? regions.lines() : scope === 'block' ? regions.blocks() : regions.sections();
  if (within === null) return all;
  const out: Region[] = [];
  for (const r of all) {
    if (r.to < within.from || r.from > within.to) continue;
    if (r.from >= within.from && r.to <= within.to) out.push(r);
    else {
      const clipped = regions.clip(Math.max(r.from, within.from), Math.min(r.to, within.to));
      if (clipped) out.push(clipped);
    }
  }
  return out;
}

/**
 * The indexes of the parts (lines, blocks or sections of the body, in order) that match `node`, or null
 * when it holds a nested scope (then each part is checked on its own). Each word or phrase is found
 * once in the whole body and its matches placed in parts; a regex is tested part by part.
 */
function partsMatching(node: QueryNode, parts: readonly Region[], regions: NoteRegions): Set<number> | null {
  switch (node.kind) {
    case 'word':
    case 'phrase':
      return partsHolding(node, parts, regions);
    case 'regex': {
      const test = textTest(node);
      const out = new Set<number>();
      parts.forEach((p, i) => {
        if (test(p.text)) out.add(i);
      });
      return out;
    }
    case 'not': {
      const inner = partsMatching(node.operand, parts, regions);
      if (inner === null) return null;
      const out = new Set<number>();
      for (let i = 0; i < parts.length; i++) if (!inner.has(i)) out.add(i);
      return out;
    }
    case 'and':
    case 'or': {
      const sets: Set<number>[] = [];
      for (const op of node.operands) {
        const set = partsMatching(op, parts, regions);
        if (set === null) return null;
        sets.push(set);
      }
      if (node.kind === 'or') return new Set(sets.flatMap((set) => [...set]));
      const [first, ...rest] = sets.sort((a, b) => a.size - b.size);
      return new Set([...(first ?? [])].filter((i) => rest.every((set) => set.has(i))));
    }
    default:
      return null;
  }
}

/** Bodies folded once per note for {@link partsHolding}. */
const foldedBodies = new WeakMap<NoteRegions, ReturnType<typeof fold>>();

/** The parts wholly holding a match of a word or phrase, from one scan of the (folded) body. */
function partsHolding(
  node: WordNode | PhraseNode,
  parts: readonly Region[],
  regions: NoteRegions,
): Set<number> {
  const out = new Set<number>();
  const re = termRegex(node.text, node.matchCase === true);
  if (re === null || parts.length === 0) return out;
  const body = regions.bodyText();
  let text = body;
  let toOriginal = (i: number) => i;
  if (!node.matchCase) {
    let folded = foldedBodies.get(regions);
    if (folded === undefined) {
      folded = fold(body);
      foldedBodies.set(regions, folded);
    }
    text = folded.folded;
    toOriginal = folded.toOriginal;
  }
  const all = new RegExp(re.source, 'gu');
  // A phrase may overlap itself (`"a a"` in `a a a`): look again one character on, not past the match.
  const step = node.kind === 'phrase';
  for (let m = all.exec(text); m !== null; m = all.exec(text)) {
    const start = toOriginal(m.index);
    const end = toOriginal(m.index + m[0].length);
    const i = partAt(parts, start);
    if (i !== -1 && end <= (parts[i]!.end ?? 0)) out.add(i);
    if (step) all.lastIndex = m.index + 1;
    else if (m[0].length === 0) all.lastIndex++;
  }
  return out;
}

/** The last part starting at or before `offset` (parts are in order and do not overlap), or -1. */
function partAt(parts: readonly Region[], offset: number): number {
  let lo = 0;
  let hi = parts.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if ((parts[mid]!.start ?? 0) <= offset) {
      found = mid;
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  return found;
}

/** Whether one part of a note matches a scope's operand. */
function inRegion(node: QueryNode, region: Region, facts: CandidateFacts): boolean {
  // The parser keeps fields and properties out of scopes.
  return booleanOf(node, (leaf) =>
    isText(leaf) ? textTest(leaf)(region.text) : leaf.kind === 'scope' && scopeMatches(leaf, facts, region),
  );
}

/**
 * Whether one text (a task's, a path, a property name, a tag) matches `node`, as the SQL function
 * `noted_text` asks (search-functions.ts): a regex on a file name takes the path and tests its last
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

/** Whether a check reads the note's text: line, block and section scopes, text terms checked in code. */
export function checkNeedsText(check: Check): boolean {
  switch (check.k) {
    case 'col':
      return false;
    case 'not':
      return checkNeedsText(check.op);
    case 'and':
    case 'or':
      return check.ops.some(checkNeedsText);
    case 'node':
      return needsText(check.node);
  }
}

function needsText(node: QueryNode): boolean {
  switch (node.kind) {
    case 'word':
    case 'phrase':
      return true;
    case 'regex':
      return node.in === undefined || node.in === 'content';
    case 'scope':
      // A task's text is in the index; a scope nested in a task is the task itself.
      return !node.scope.startsWith('task');
    case 'not':
      return needsText(node.operand);
    case 'and':
    case 'or':
      return node.operands.some(needsText);
    default:
      return false;
  }
}
