/**
 * @module
 * The scope operators checked on one note: whether some line, block, section or task of it matches
 * the operand, and which (their lines, for the hit). Words and phrases are found once in the whole
 * body and their matches placed in parts; regexes and nested scopes are tested part by part.
 */

import { lastAtOrBefore } from '../../../common/sorted.js';
import type { NoteRegions, Region } from '../../words/regions.js';
import type { PhraseNode, QueryNode, WordNode } from '../parse/query.js';
import { fold, termRegex } from './excerpt.js';
import type { IndexedNote } from './indexed-note.js';
import { partSets } from './part-sets.js';
import { indexAnswers } from './positions.js';
import { booleanOf, isText, textTest } from './text.js';

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
  /** The note as the index knows its parts and words, when it does (search/check/positions.ts). */
  indexed?(): IndexedNote | null;
}

/** Where a scope matched: the lines of one line, block, section or task. */
export interface Location {
  readonly scope: 'line' | 'block' | 'section' | 'task';
  readonly from: number;
  readonly to: number;
}

/** Where a hit matched, gathered while `matchesNote` walks it (every branch, not just the first true one). */
export interface Found {
  readonly where: Set<string>;
  readonly lines: Location[];
}

/** The most lines one hit reports. */
export const MAX_LOCATIONS = 20;

type Scope = Extract<QueryNode, { kind: 'scope' }>;

/** Whether some part of the kind `scope.scope` (inside `within`, when given) matches the operand. */
export function scopeMatches(
  node: Scope,
  facts: CandidateFacts,
  within: Region | null,
  found?: Found,
): boolean {
  if (within === null && indexAnswers(node)) {
    const answered = facts.indexed?.()?.matching(node.scope as 'line' | 'block' | 'section', node.operand!);
    if (answered) {
      if (found) for (const part of answered) note(found, node.scope, part);
      return answered.length > 0;
    }
  }
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
    note(found, node.scope, part);
  }
  return hit;
}

/** Notes in `found` that a part of kind `scope` matched, and its lines (up to {@link MAX_LOCATIONS}). */
function note(found: Found, scope: Scope['scope'], part: { from: number; to: number }): void {
  const kind: Location['scope'] = scope.startsWith('task') ? 'task' : (scope as Location['scope']);
  found.where.add(kind);
  if (
    found.lines.length < MAX_LOCATIONS &&
    !found.lines.some((l) => l.from === part.from && l.to === part.to)
  ) {
    found.lines.push({ scope: kind, from: part.from, to: part.to });
  }
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
  return partSets(node, parts.length, (leaf) => {
    switch (leaf.kind) {
      case 'word':
      case 'phrase':
        return partsHolding(leaf, parts, regions);
      case 'regex': {
        const test = textTest(leaf);
        const out = new Set<number>();
        parts.forEach((p, i) => {
          if (test(p.text)) out.add(i);
        });
        return out;
      }
      default:
        return null;
    }
  });
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
  return lastAtOrBefore(parts.length, (i) => parts[i]!.start ?? 0, offset);
}

/** Whether one part of a note matches a scope's operand. */
function inRegion(node: QueryNode, region: Region, facts: CandidateFacts): boolean {
  // The parser keeps fields and properties out of scopes.
  return booleanOf(node, (leaf) =>
    isText(leaf) ? textTest(leaf)(region.text) : leaf.kind === 'scope' && scopeMatches(leaf, facts, region),
  );
}
