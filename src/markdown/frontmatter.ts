/**
 * @module
 * Frontmatter: where the YAML block at the top of a note is (OBSIDIAN.md PROP-01), what it says
 * (YAML 1.2 core schema, as Obsidian reads it: PROP-03, PROP-20, PROP-21), and how create_note
 * adds `title` and `tags` to it without disturbing the rest.
 */

import { Document, isMap, isScalar, isSeq, type Pair, type YAMLMap, type YAMLSeq } from 'yaml';
import { NotedError } from '../common/errors.js';
import { parseYamlDocument } from './yaml-document.js';

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** A note cut into its frontmatter block and its body; `raw + body === text` always. */
export interface FrontmatterSplit {
  /** The block exactly as stored: BOM, delimiters and the line break after the closing `---`; `""` when none. */
  raw: string;
  body: string;
  /** The text between the delimiters; `null` when there is no block. */
  yaml: string | null;
}

export interface ParsedFrontmatter extends FrontmatterSplit {
  /** `null` when there is no block or it does not parse; `{}` for an empty block. */
  data: Record<string, JsonValue> | null;
  /** One line, with the line number inside the note; present only when the block does not parse. */
  error?: string;
}

/** Offsets of a frontmatter block inside a text. */
interface BlockBounds {
  yamlStart: number;
  yamlEnd: number;
  end: number;
}

/** Aliases may expand to at most this many nodes: the billion-laughs guard of the `yaml` package. */
const MAX_ALIAS_COUNT = 100;

// Mirrors Obsidian's parseYaml (eemeli/yaml defaults, PROP-03); logLevel keeps the library off stderr.
// Duplicate keys are an error as there (PROP-21), found by `firstDuplicateKey`: the library's own
// check compares each key with every earlier one, which takes minutes for a 5 MB block of keys.
const YAML_OPTIONS = {
  version: '1.2',
  schema: 'core',
  uniqueKeys: false,
  merge: false,
  prettyErrors: true,
  logLevel: 'error',
} as const;

const CLOSING_LINE = /^---[ \t]*\r?$/;

function findBlock(text: string): BlockBounds | null {
  const offset = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  if (!text.startsWith('---', offset)) return null;
  let yamlStart = offset + 3;
  if (text.startsWith('\r\n', yamlStart)) yamlStart += 2;
  else if (text[yamlStart] === '\n') yamlStart += 1;
  else return null;
  let lineStart = yamlStart;
  while (lineStart <= text.length) {
    const nl = text.indexOf('\n', lineStart);
    const lineEnd = nl === -1 ? text.length : nl;
    if (text.startsWith('---', lineStart) && CLOSING_LINE.test(text.slice(lineStart, lineEnd))) {
      return { yamlStart, yamlEnd: lineStart, end: nl === -1 ? text.length : nl + 1 };
    }
    if (nl === -1) return null;
    lineStart = nl + 1;
  }
  return null;
}

/**
 * Cuts `text` into its frontmatter block and body. The block must open on the very first line with
 * `---` (a BOM before it is allowed) and close at a line that is `---`; without a closing line the
 * whole text is body.
 *
 * @example
 * splitFrontmatter('---\na: 1\n---\nHi\n') // { raw: '---\na: 1\n---\n', body: 'Hi\n', yaml: 'a: 1\n' }
 */
export function splitFrontmatter(text: string): FrontmatterSplit {
  const block = findBlock(text);
  if (!block) return { raw: '', body: text, yaml: null };
  return {
    raw: text.slice(0, block.end),
    body: text.slice(block.end),
    yaml: text.slice(block.yamlStart, block.yamlEnd),
  };
}

/**
 * Splits and parses the frontmatter of `text`. Never throws for bad YAML: the result carries `error`
 * instead, and `data` is then `null`, as Obsidian records no properties for such a note (PROP-20).
 *
 * @example
 * parseFrontmatter('---\ndone: yes\n---\n').data // { done: 'yes' }
 */
export function parseFrontmatter(text: string): ParsedFrontmatter {
  const split = splitFrontmatter(text);
  if (split.yaml === null) return { ...split, data: null };
  const result = parseYamlBlock(split.yaml);
  return 'error' in result ? { ...split, data: null, error: result.error } : { ...split, data: result.data };
}

type BlockResult = { data: Record<string, JsonValue> } | { error: string };

/** The yaml's first line is line 2 of the note: the opening `---` is line 1. */
const NOTE_LINE_OFFSET = 1;

function parseYamlBlock(yaml: string): BlockResult {
  const parsed = parseFrontmatterYaml(yaml);
  return 'error' in parsed ? parsed : readDocument(parsed.doc, yaml);
}

/**
 * The frontmatter YAML (the text between the `---` lines) as a document, or why it cannot be one
 * before it is composed: nesting deeper than the composer can safely take (see yaml-document.ts).
 * The document's own errors, and duplicate keys, are left for `frontmatterDocumentError`.
 */
export function parseFrontmatterYaml(yaml: string): { doc: Document } | { error: string } {
  const doc = parseYamlDocument(yaml, YAML_OPTIONS);
  if ('tooDeep' in doc)
    return { error: invalidAt(doc.line + NOTE_LINE_OFFSET, 'the YAML is nested too deeply') };
  return { doc };
}

/** Why a parsed frontmatter document cannot be used, or null: the YAML error, then a duplicate key. */
export function frontmatterDocumentError(doc: Document, yaml: string): string | null {
  const first = doc.errors[0];
  if (first) {
    const line = (first.linePos?.[0].line ?? 1) + NOTE_LINE_OFFSET;
    return invalidAt(line, describeYamlError(first.message));
  }
  const duplicate = firstDuplicateKey(doc.contents);
  if (duplicate !== null) {
    return invalidAt(lineOfOffset(yaml, duplicate) + NOTE_LINE_OFFSET, 'Map keys must be unique');
  }
  return null;
}

/**
 * The offset of the first key that repeats an earlier key of its mapping, or null. Keys compare as the
 * yaml package's `uniqueKeys` compares them: scalars by value, other keys by identity. One pass with a
 * set per mapping, and no recursion.
 */
function firstDuplicateKey(root: unknown): number | null {
  let first: number | null = null;
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const node = stack.pop();
    if (isMap(node)) {
      const seen = new Set<unknown>();
      for (const pair of node.items) {
        const key = pair.key;
        if (isScalar(key) && !Number.isNaN(key.value)) {
          if (!seen.has(key.value)) seen.add(key.value);
          else if (first === null || (key.range?.[0] ?? 0) < first) first = key.range?.[0] ?? 0;
        } else {
          stack.push(key);
        }
        stack.push(pair.value);
      }
    } else if (isSeq(node)) {
      for (const item of node.items) stack.push(item);
    }
  }
  return first;
}

function readDocument(doc: Document, yaml: string): BlockResult {
  const error = frontmatterDocumentError(doc, yaml);
  if (error !== null) return { error };
  const root = doc.contents;
  if (root !== null && !isMap(root)) {
    const line = lineOfOffset(yaml, root.range?.[0] ?? 0) + NOTE_LINE_OFFSET;
    const kind = isSeq(root) ? 'a list' : 'a single value';
    return {
      error: invalidAt(line, `the top level must be "name: value" properties, but it is ${kind}`),
    };
  }
  let js: unknown;
  try {
    js = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (err) {
    // toJS throws for alias expansion over the limit and, on pathological nesting, a RangeError.
    const reason =
      err instanceof ReferenceError
        ? 'aliases (*name) expand to too many values; write the values out instead'
        : 'the YAML is nested too deeply';
    return { error: `frontmatter YAML is invalid: ${reason}` };
  }
  if (js === null || js === undefined) return { data: {} };
  return { data: toJsonObject(js as Record<string, unknown>) };
}

function invalidAt(line: number, reason: string): string {
  return `frontmatter YAML is invalid at line ${line}: ${reason}`;
}

/** The yaml package appends "at line X, column Y:" and a source excerpt; keep only the reason. */
function describeYamlError(message: string): string {
  if (message.includes('Maximum call stack size exceeded')) return 'the YAML is nested too deeply';
  const firstLine = message.split('\n', 1)[0] ?? message;
  return firstLine.replace(/ at line \d+, column \d+:?$/, '').trim();
}

function lineOfOffset(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

/** Makes the output of `toJS` JSON-safe: explicit tags (`!!set`, `!!binary`, `!!timestamp`) and `.inf`/`.nan`. */
function toJson(value: unknown): JsonValue {
  if (value === null || value === undefined) return null;
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      if (Number.isFinite(value)) return value;
      return Number.isNaN(value) ? '.nan' : value > 0 ? '.inf' : '-.inf';
    case 'bigint':
      return value.toString();
    case 'object':
      break;
    default:
      return String(value);
  }
  if (Array.isArray(value)) return value.map(toJson);
  if (value instanceof Set) return [...value].map(toJson);
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  if (value instanceof Uint8Array) return Buffer.from(value).toString('base64');
  if (value instanceof Map) {
    const out: Record<string, JsonValue> = {};
    for (const [k, v] of value) setOwn(out, typeof k === 'string' ? k : JSON.stringify(toJson(k)), toJson(v));
    return out;
  }
  return toJsonObject(value as Record<string, unknown>);
}

function toJsonObject(value: Record<string, unknown>): Record<string, JsonValue> {
  const out: Record<string, JsonValue> = {};
  for (const key of Object.keys(value)) setOwn(out, key, toJson(value[key]));
  return out;
}

/** Security: a `__proto__` key must become an own property, never the object's prototype. */
function setOwn(target: Record<string, JsonValue>, key: string, value: JsonValue): void {
  Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
}

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

function normalizeNewTags(tags: readonly string[]): string[] {
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
