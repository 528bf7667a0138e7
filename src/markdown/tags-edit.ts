/**
 * @module
 * edit_note `add_tags` and `remove_tags` (SPEC 13.1): the frontmatter `tags` list gains or loses
 * tags, every other byte kept. Tags compare as Obsidian compares them (case-insensitive, `#`
 * optional, TAG-20); every key Obsidian reads as `tags` (any letter case, TAG-11) counts. Inline
 * `#tags` in the body are never changed: `inlineTagsLeft` names those a removal left.
 */

import { isScalar, isSeq, type Node, type Pair, type Scalar, type YAMLSeq } from 'yaml';
import { NotedError } from '../common/errors.js';
import type { JsonValue } from './frontmatter/frontmatter.js';
import {
  blockItems,
  columnOf,
  type EditableFrontmatter,
  finishFrontmatter,
  isFlowMapping,
  keyOf,
  newPairsText,
  openFrontmatter,
  type PropertyValue,
  pairsNamed,
  renderFlowList,
  reprintFlowFrontmatter,
  type Splice,
  setValueSplices,
} from './frontmatter/splice.js';
import { cleanTag } from './properties/values.js';
import { scanNote } from './scan.js';
import { normalizeTag, tagMatches } from './tag-match.js';

/** An inline tag a removal left in the body: as written (with `#`), and its 1-based line. */
export interface InlineTag {
  readonly tag: string;
  readonly line: number;
}

/** At most this many inline tags are named; `inlineTagsLeft` says how many there are in all. */
export const MAX_INLINE_LISTED = 100;

/**
 * The note with `tags` added to its frontmatter `tags` list (created, with the block, when missing).
 * A tag already there, in any letter case, is not added again.
 *
 * @example
 * addTags('---\ntags:\n  - a # mine\n---\n', ['#b', 'A']) // '---\ntags:\n  - a # mine\n  - b\n---\n'
 */
export function addTags(text: string, tags: readonly string[]): string {
  const wanted = uniqueTags(tags.map(cleanTag));
  const fm = openFrontmatter(text, 'add_tags');
  const all = tagPairs(fm);
  const present = new Set(all.flatMap((p) => tagStrings(fm.data[keyOf(p)])).map(normalizeTag));
  const missing = wanted.filter((t) => !present.has(normalizeTag(t)));
  if (missing.length === 0) return text;
  const pair = pairsNamed(fm.map, 'tags')[0] ?? null;
  const expected: Record<string, JsonValue> = { ...fm.data };
  if (pair === null) {
    expected.tags = missing;
    if (isFlowMapping(fm))
      return reprintFlowFrontmatter(fm, [{ pair, key: 'tags', value: missing }], expected, 'add_tags');
    return finishFrontmatter(fm, [], newPairsText(fm, [['tags', missing]]), expected, 'add_tags');
  }
  const key = keyOf(pair);
  const old = fm.data[key] ?? null;
  if (old !== null && typeof old === 'object' && !Array.isArray(old)) {
    throw new NotedError(
      'validation_error',
      `The note's "${key}" property is a mapping, not a list of tags, so tags cannot be added to it. Nothing was written. Make it a list (${key}:\\n  - one) with edit_note, then try again.`,
    );
  }
  const kept: JsonValue[] = Array.isArray(old) ? old : old === null || old === '' ? [] : [String(old)];
  const next = [...kept, ...missing];
  expected[key] = next;
  if (isFlowMapping(fm))
    return reprintFlowFrontmatter(fm, [{ pair, key, value: next as PropertyValue[] }], expected, 'add_tags');
  const splices = Array.isArray(old)
    ? appendItems(fm, pair, missing, next as PropertyValue[])
    : setValueSplices(fm, pair, next as PropertyValue[]);
  return finishFrontmatter(fm, splices, '', expected, 'add_tags');
}

/**
 * The note with `tags` taken out of its frontmatter `tags` lists (exact tags, any letter case; a
 * nested tag such as `a/b` is a tag of its own). A list left empty reads `tags: []`.
 *
 * @example
 * removeTags('---\ntags: [a, b]\n---\n', ['#A']) // '---\ntags: [b]\n---\n'
 */
export function removeTags(text: string, tags: readonly string[]): string {
  const targets = new Set(tags.map((t) => normalizeTag(checkRemoval(t))));
  const fm = openFrontmatter(text, 'remove_tags');
  const expected: Record<string, JsonValue> = { ...fm.data };
  const splices: Splice[] = [];
  const flowChanges: { pair: Pair; key: string; value: PropertyValue[] }[] = [];
  for (const pair of tagPairs(fm)) {
    const key = keyOf(pair);
    const old = fm.data[key] ?? null;
    const items = Array.isArray(old) ? old : typeof old === 'string' ? [old] : [];
    const left = items.filter((v) => typeof v !== 'string' || !targets.has(normalizeTag(v.trim())));
    if (left.length === items.length) continue;
    expected[key] = left;
    flowChanges.push({ pair, key, value: left as PropertyValue[] });
    splices.push(...removeItems(fm, pair, targets, left as PropertyValue[]));
  }
  if (flowChanges.length === 0) return text;
  if (isFlowMapping(fm)) return reprintFlowFrontmatter(fm, flowChanges, expected, 'remove_tags');
  return finishFrontmatter(fm, splices, '', expected, 'remove_tags');
}

/**
 * The inline `#tags` of the note's body that are one of `tags` or nested below one, in document
 * order (at most MAX_INLINE_LISTED), and how many there are in all.
 */
export function inlineTagsLeft(text: string, tags: readonly string[]): { tags: InlineTag[]; total: number } {
  const found: InlineTag[] = [];
  let total = 0;
  for (const t of scanNote(text).tags) {
    if (!tags.some((removed) => tagMatches(t.tag, removed))) continue;
    total++;
    if (found.length < MAX_INLINE_LISTED) found.push({ tag: `#${t.tag}`, line: t.line });
  }
  return { tags: found, total };
}

/** Every pair Obsidian reads as the tags property (TAG-11: the key `tags` in any letter case). */
function tagPairs(fm: EditableFrontmatter): Pair[] {
  return (fm.map?.items ?? []).filter(
    (p) => isScalar(p.key) && typeof p.key.value === 'string' && p.key.value.toLowerCase() === 'tags',
  );
}

function tagStrings(value: JsonValue | undefined): string[] {
  if (typeof value === 'string') return [value.trim()];
  if (Array.isArray(value))
    return value.filter((v): v is string => typeof v === 'string').map((v) => v.trim());
  return [];
}

function uniqueTags(tags: readonly string[]): string[] {
  const seen = new Set<string>();
  return tags.filter((t) => {
    const key = normalizeTag(t);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function checkRemoval(tag: string): string {
  if (tag.trim().replace(/^#+/, '') === '') {
    throw new NotedError('validation_error', 'A tag to remove is empty. Give tags such as "project".');
  }
  return tag.trim().replace(/^#+/, '#');
}

/** New items after a list's last one, in the list's own layout; its existing items keep their bytes. */
function appendItems(
  fm: EditableFrontmatter,
  pair: Pair,
  missing: readonly string[],
  whole: PropertyValue[],
): Splice[] {
  const seq = pair.value as YAMLSeq;
  const range = (seq as Node).range;
  if (!isSeq(seq) || !range || seq.items.length === 0) return setValueSplices(fm, pair, whole);
  const yaml = fm.yaml;
  const [, end] = range;
  if (!seq.flow) {
    if (yaml[end - 1] !== '\n') return setValueSplices(fm, pair, whole);
    const indent = columnOf(yaml, range[0]);
    return [{ start: end, end, text: blockItems(missing, indent, fm.eol) }];
  }
  let at = end - 1;
  if (yaml[at] !== ']') return setValueSplices(fm, pair, whole);
  while (yaml[at - 1] === ' ') at--;
  return [{ start: at, end: at, text: `, ${renderFlowList(missing, false).slice(1, -1)}` }];
}

/** Takes the matching items out of one tags value; the other items keep their bytes. */
function removeItems(
  fm: EditableFrontmatter,
  pair: Pair,
  targets: ReadonlySet<string>,
  left: PropertyValue[],
): Splice[] {
  const seq = pair.value as YAMLSeq;
  const range = (seq as Node | null)?.range;
  if (left.length === 0 || !isSeq(seq) || !range) return setValueSplices(fm, pair, left);
  const yaml = fm.yaml;
  const matches = (item: unknown) =>
    isScalar(item) &&
    typeof (item as Scalar).value === 'string' &&
    targets.has(normalizeTag(((item as Scalar).value as string).trim()));
  if (seq.flow) {
    const kept = seq.items
      .filter((item) => !matches(item))
      .map((item) => {
        const r = (item as Node).range!;
        return yaml.slice(r[0], r[1]);
      });
    const padded = yaml[range[0] + 1] === ' ';
    const inner = kept.join(', ');
    return [{ start: range[0], end: range[1], text: padded ? `[ ${inner} ]` : `[${inner}]` }];
  }
  return seq.items.filter(matches).map((item) => {
    const r = (item as Node).range!;
    const start = yaml.lastIndexOf('\n', r[0] - 1) + 1;
    const nl = yaml.indexOf('\n', r[1]);
    return { start, end: nl === -1 ? yaml.length : nl + 1, text: '' };
  });
}
