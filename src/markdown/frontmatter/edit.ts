/**
 * @module
 * How create_note (and the workflow notes) add `title` and `tags` to a note's frontmatter without
 * disturbing the rest: new keys are appended as text, and only a value that must change is re-printed
 * through the `yaml` Document API. Reading the block is frontmatter.ts.
 */

import { Document, isScalar, isSeq, type Pair, type YAMLMap, type YAMLSeq } from 'yaml';
import { NotedError } from '../../common/errors.js';
import {
  findBlock,
  type JsonValue,
  parseFrontmatterYaml,
  parseYamlBlock,
  readDocument,
  YAML_OPTIONS,
} from './frontmatter.js';

/** Fields create_note may add to a note's frontmatter. */
export interface FrontmatterFields {
  title?: string;
  tags?: string[];
}

/**
 * Adds `title` (when the note has none) and merges `tags` into the note's frontmatter, creating the
 * block when there is none. Keys are matched case-insensitively (`Tags:` is the tags property, as in
 * Obsidian, TAG-11). Tags lose a leading `#`, duplicates are dropped case-insensitively, and existing
 * tags keep their order; a string `tags` value becomes a list. New keys are appended as text so the
 * existing YAML keeps every byte; only when an existing value must change is the block re-printed
 * through the `yaml` Document API (which keeps comments and order).
 *
 * @throws NotedError `validation_error` when the existing frontmatter does not parse, when `tags`
 *   holds a mapping, or when a tag is empty or contains whitespace.
 */
export function withFrontmatterFields(text: string, fields: FrontmatterFields): string {
  const title = fields.title?.trim() ?? '';
  const newTags = normalizeNewTags(fields.tags ?? []);
  if (title === '' && newTags.length === 0) return text;

  const eol = text.match(/\r?\n/)?.[0] ?? '\n';
  const block = findBlock(text);
  if (!block) {
    const bom = text.charCodeAt(0) === 0xfeff ? '\uFEFF' : '';
    const fresh: Record<string, JsonValue> = {};
    if (title !== '') fresh.title = title;
    if (newTags.length > 0) fresh.tags = newTags;
    const yaml = withEol(new Document(fresh, YAML_OPTIONS).toString(), eol);
    return `${bom}---${eol}${yaml}---${eol}${text.slice(bom.length)}`;
  }

  const yaml = text.slice(block.yamlStart, block.yamlEnd);
  const composed = parseFrontmatterYaml(yaml);
  const parsed = 'doc' in composed ? readDocument(composed.doc, yaml) : composed;
  if ('error' in parsed) {
    throw new NotedError(
      'validation_error',
      `The content's frontmatter cannot take the title and tags: ${parsed.error}. Fix the YAML between the --- lines (or remove the block) and try again.`,
      { frontmatterError: parsed.error },
    );
  }
  const { doc } = composed as { doc: Document };
  if (doc.contents === null) doc.contents = doc.createNode({}) as YAMLMap;
  const map = doc.contents as YAMLMap;
  const blockEol = yaml.match(/\r?\n/)?.[0] ?? eol;
  const splice = (newYaml: string) => text.slice(0, block.yamlStart) + newYaml + text.slice(block.yamlEnd);

  const appended: Record<string, JsonValue> = {};
  let changedExisting = false;
  if (title !== '') {
    const pair = findPair(map, 'title');
    if (!pair) appended.title = title;
    else if (isEmptyValue(pair.value)) {
      pair.value = doc.createNode(title);
      changedExisting = true;
    }
  }
  if (newTags.length > 0) {
    const pair = findPair(map, 'tags');
    if (!pair) appended.tags = newTags;
    else if (isEmptyValue(pair.value)) {
      pair.value = doc.createNode(newTags);
      changedExisting = true;
    } else if (mergeTags(doc, pair, newTags)) changedExisting = true;
  }
  if (!changedExisting && Object.keys(appended).length === 0) return text;
  if (!changedExisting) {
    const appendedYaml = appendKeys(yaml, parsed.data, appended, blockEol);
    if (appendedYaml !== null) return splice(appendedYaml);
  }
  for (const [key, value] of Object.entries(appended)) map.set(key, doc.createNode(value));
  return splice(withEol(doc.toString(), blockEol));
}

export function normalizeNewTags(tags: readonly string[]): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const tag of tags) {
    const clean = tag.trim().replace(/^#+/, '');
    if (clean === '' || /\s/.test(clean)) {
      throw new NotedError(
        'validation_error',
        `The tag ${JSON.stringify(tag)} is ${clean === '' ? 'empty' : 'not usable: tags cannot contain spaces'}. Give tags like "project" or "area/work" (a leading # is optional; use - or _ instead of spaces).`,
        { tag },
      );
    }
    const key = clean.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(clean);
  }
  return out;
}

function findPair(map: YAMLMap, name: string): Pair | undefined {
  const exact = map.items.find((p) => isScalar(p.key) && p.key.value === name);
  if (exact) return exact;
  return map.items.find(
    (p) => isScalar(p.key) && typeof p.key.value === 'string' && p.key.value.toLowerCase() === name,
  );
}

function isEmptyValue(node: unknown): boolean {
  if (node === null || node === undefined) return true;
  if (!isScalar(node)) return false;
  return node.value === null || (typeof node.value === 'string' && node.value.trim() === '');
}

/** Adds the missing tags to an existing, non-empty `tags` value; returns whether anything changed. */
function mergeTags(doc: Document, pair: Pair, newTags: readonly string[]): boolean {
  const value = pair.value;
  const existing = isSeq(value) ? value.items : [value];
  const seen = new Set<string>();
  for (const item of existing) {
    if (isScalar(item) && item.value !== null) seen.add(tagKey(String(item.value)));
  }
  const missing = newTags.filter((tag) => !seen.has(tagKey(tag)));
  if (missing.length === 0) return false;
  if (isSeq(value)) {
    for (const tag of missing) value.items.push(doc.createNode(tag));
    return true;
  }
  if (!isScalar(value)) {
    throw new NotedError(
      'validation_error',
      "The content's frontmatter has a `tags` property that is not a list or a single tag, so the tags cannot be merged into it. Make `tags` a YAML list (tags:\n  - one\n  - two) and try again.",
    );
  }
  // A single tag string becomes a list that starts with it; the original node keeps its quoting.
  const seq = doc.createNode([]) as YAMLSeq;
  seq.items.push(value, ...missing.map((tag) => doc.createNode(tag)));
  pair.value = seq;
  return true;
}

function tagKey(tag: string): string {
  return tag.trim().replace(/^#+/, '').toLowerCase();
}

/**
 * Appends new keys as text, so every existing byte stays. Returns null when the block's layout (a flow
 * mapping, a `...` end marker) does not read back as the same data plus the new keys.
 */
function appendKeys(
  yaml: string,
  data: Record<string, JsonValue>,
  keys: Record<string, JsonValue>,
  eol: string,
): string | null {
  const base = yaml === '' || yaml.endsWith('\n') ? yaml : yaml + eol;
  const candidate = base + withEol(new Document(keys, YAML_OPTIONS).toString(), eol);
  const after = parseYamlBlock(candidate);
  if ('error' in after) return null;
  return JSON.stringify(after.data) === JSON.stringify({ ...data, ...keys }) ? candidate : null;
}

function withEol(text: string, eol: string): string {
  return eol === '\n' ? text : text.replace(/\r?\n/g, eol);
}
