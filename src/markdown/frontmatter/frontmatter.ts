/**
 * @module
 * Frontmatter: where the YAML block at the top of a note is (OBSIDIAN.md PROP-01), what it says
 * (YAML 1.2 core schema, as Obsidian reads it: PROP-03, PROP-20, PROP-21). Adding fields to it is in
 * frontmatter/edit.ts.
 */

import { Document, isMap, isScalar, isSeq, type ScalarTag } from 'yaml';
import { parseSimpleFrontmatter } from './simple.js';
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
export interface BlockBounds {
  yamlStart: number;
  yamlEnd: number;
  end: number;
}

/** Aliases may expand to at most this many nodes: the billion-laughs guard of the `yaml` package. */
const MAX_ALIAS_COUNT = 100;

// Mirrors Obsidian's parseYaml (eemeli/yaml defaults, PROP-03); logLevel keeps the library off stderr.
// Duplicate keys are an error as there (PROP-21), found by `firstDuplicateKey`: the library's own
// check compares each key with every earlier one, which takes minutes for a 5 MB block of keys.
export const YAML_OPTIONS = {
  version: '1.2',
  schema: 'core',
  uniqueKeys: false,
  merge: false,
  prettyErrors: true,
  logLevel: 'error',
} as const;

const CLOSING_LINE = /^---[ \t]*\r?$/;

export function findBlock(text: string): BlockBounds | null {
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

export type BlockResult = { data: Record<string, JsonValue> } | { error: string };

/** The yaml's first line is line 2 of the note: the opening `---` is line 1. */
const NOTE_LINE_OFFSET = 1;

/** The library's schema and options for frontmatter, and its tags that resolve plain scalars, in its order. */
const FRONTMATTER_DOCUMENT = new Document(null, YAML_OPTIONS);
const PLAIN_TAGS = FRONTMATTER_DOCUMENT.schema.tags.filter(
  (tag): tag is ScalarTag => tag.default === true && 'test' in tag && tag.test instanceof RegExp,
);

/**
 * A plain scalar's value as the library resolves it with YAML_OPTIONS (its first default tag whose
 * test matches, else the text): what frontmatter/simple.ts needs, taken from the library itself.
 *
 * @example
 * resolvePlainScalar('0x1F') // 31
 * resolvePlainScalar('2025-01-02') // '2025-01-02'
 */
export function resolvePlainScalar(text: string): unknown {
  const tag = PLAIN_TAGS.find((t) => t.test?.test(text));
  if (tag === undefined) return text;
  const value = tag.resolve(text, () => undefined, FRONTMATTER_DOCUMENT.options);
  return isScalar(value) ? value.value : value;
}

export function parseYamlBlock(yaml: string): BlockResult {
  // Most blocks: read without the library's parser, converted to JSON as its result is below.
  const simple = parseSimpleFrontmatter(yaml, resolvePlainScalar);
  if (simple !== null) return { data: toJsonObject(simple) };
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

export function readDocument(doc: Document, yaml: string): BlockResult {
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
