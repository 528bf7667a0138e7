/**
 * @module
 * The frontmatter most notes have, read without the YAML library: top-level `name: value` lines whose
 * values are plain or simply quoted scalars, `[a, b]` lists, or `- item` lists under the name. The
 * library takes about 70 µs for a four-line block, most of the time a cold index build spends on a
 * note; this takes a few. Anything outside that small subset (comments after a value, block scalars,
 * anchors, tags, escapes, nested maps, continuation lines, duplicate names, an unusual character
 * anywhere) is left to the library, so every error and every edge case still comes from it. The
 * values are resolved as the library's YAML 1.2 core schema resolves plain scalars; a property test
 * compares the two on generated blocks (test/markdown/frontmatter-simple.test.ts).
 */
import type { JsonValue } from './frontmatter.js';

/** Returned when the block is not in the subset; the caller then parses it with the library. */
export const NOT_SIMPLE = null;

/**
 * Tabs, CR, other C0/C1 controls, BOM and the Unicode line separators: each has its own rules in YAML
 * (or makes the text invalid), so a block holding one is always left to the library.
 */
const UNUSUAL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\ufeff\u2028\u2029]/;
const KEY_LINE = /^([A-Za-z_][A-Za-z0-9_ ./-]*):(?: (.*))?$/;
const SEQ_ITEM = /^( *)-(?: (.*))?$/;
/** Longer keys are left to the library, which limits an implicit key to 1,024 characters. */
const MAX_KEY = 200;
/** Keys the core schema would read as null or a boolean instead of a string. */
const KEYWORD = /^(?:~|[Nn]ull|NULL|[Tt]rue|TRUE|[Ff]alse|FALSE)$/;

const NULL = /^(?:~|[Nn]ull|NULL)?$/;
const BOOL = /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/;
const INT_OCT = /^0o[0-7]+$/;
const INT = /^[-+]?[0-9]+$/;
const INT_HEX = /^0x[0-9a-fA-F]+$/;
const FLOAT_NAN = /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/;
const FLOAT_EXP = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/;
const FLOAT = /^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/;

/** First characters that make a YAML indicator rather than the start of a plain scalar. */
const INDICATOR_START = /^[-?:,[\]{}#&*!|>'"%@`]/;
/** Characters a plain list item inside `[…]` may not hold (flow indicators, and what starts a comment or a pair). */
const FLOW_UNSAFE = /[,[\]{}#:'"]/;

/**
 * The block's data as the library would give it, or {@link NOT_SIMPLE}.
 *
 * @example
 * parseSimpleFrontmatter('tags: [a, b]\ncreated: 2025-01-02\n') // { tags: ['a', 'b'], created: '2025-01-02' }
 * parseSimpleFrontmatter('a: |\n  text\n') // null: a block scalar
 */
export function parseSimpleFrontmatter(yaml: string): Record<string, JsonValue> | null {
  if (UNUSUAL.test(yaml)) return NOT_SIMPLE;
  const data: Record<string, JsonValue> = {};
  const lines = yaml.split('\n');
  // The key whose value is being collected from `- item` lines below it, and their indent.
  let listKey: string | null = null;
  let list: JsonValue[] = [];
  let listIndent = -1;
  for (const line of lines) {
    if (isBlankOrComment(line)) continue;
    if (listKey !== null) {
      const item = SEQ_ITEM.exec(line);
      if (item) {
        const indent = (item[1] as string).length;
        if (listIndent === -1) listIndent = indent;
        else if (indent !== listIndent) return NOT_SIMPLE;
        const value = item[2] === undefined ? null : inlineValue(item[2]);
        if (value === undefined) return NOT_SIMPLE;
        list.push(value);
        continue;
      }
      data[listKey] = listIndent === -1 ? null : list;
      listKey = null;
    }
    const entry = KEY_LINE.exec(line);
    if (!entry) return NOT_SIMPLE;
    const key = entry[1] as string;
    if (
      key.length > MAX_KEY ||
      key.endsWith(' ') ||
      KEYWORD.test(key) ||
      key === '__proto__' ||
      Object.hasOwn(data, key)
    ) {
      return NOT_SIMPLE;
    }
    const rest = entry[2]?.trim() ?? '';
    if (rest === '') {
      listKey = key;
      list = [];
      listIndent = -1;
      // Holds the key's place in the order; the list or null replaces it when the key's lines end.
      data[key] = null;
      continue;
    }
    const value = inlineValue(rest);
    if (value === undefined) return NOT_SIMPLE;
    data[key] = value;
  }
  if (listKey !== null) data[listKey] = listIndent === -1 ? null : list;
  return data;
}

function isBlankOrComment(line: string): boolean {
  const trimmed = line.trimStart();
  return trimmed === '' || trimmed.startsWith('#');
}

/** A value written on one line, or undefined when it is not in the subset. */
function inlineValue(raw: string): JsonValue | undefined {
  const text = raw.trim();
  if (text.includes(' #')) return undefined;
  const first = text[0];
  if (first === '[') return flowList(text);
  if (first === "'" || first === '"') return quoted(text);
  return plainValue(text, /[:]\s|:$/);
}

/** A plain scalar's value, or undefined when it starts with an indicator or holds `unsafe`. */
function plainValue(text: string, unsafe: RegExp): JsonValue | undefined {
  if (text === '') return undefined;
  if (INDICATOR_START.test(text)) {
    // `-5` and `-x` are plain scalars; `-`, `- x` and every other indicator are not.
    if (text[0] !== '-' || text.length === 1 || text[1] === ' ') return undefined;
  }
  if (unsafe.test(text)) return undefined;
  return resolvePlain(text);
}

/** `'text'` or `"text"` with nothing to unescape; undefined otherwise. */
function quoted(text: string): string | undefined {
  const quote = text[0] as string;
  if (text.length < 2 || text[text.length - 1] !== quote) return undefined;
  const inner = text.slice(1, -1);
  if (inner.includes(quote) || (quote === '"' && inner.includes('\\'))) return undefined;
  return inner;
}

/** `[a, 'b', 3]` on one line, items plain or simply quoted; undefined otherwise. */
function flowList(text: string): JsonValue[] | undefined {
  if (text[text.length - 1] !== ']') return undefined;
  const inner = text.slice(1, -1).trim();
  if (inner === '') return [];
  const out: JsonValue[] = [];
  for (const part of inner.split(',')) {
    const item = part.trim();
    if (item === '') return undefined;
    const first = item[0];
    const value = first === "'" || first === '"' ? quoted(item) : plainValue(item, FLOW_UNSAFE);
    if (value === undefined) return undefined;
    out.push(value);
  }
  return out;
}

/** A plain scalar as the YAML 1.2 core schema reads it, in the schema's order of tags. */
function resolvePlain(text: string): JsonValue {
  if (NULL.test(text)) return null;
  if (BOOL.test(text)) return text[0] === 't' || text[0] === 'T';
  if (INT_OCT.test(text)) return finite(Number.parseInt(text.slice(2), 8), text);
  if (INT.test(text)) return finite(Number.parseInt(text, 10), text);
  if (INT_HEX.test(text)) return finite(Number.parseInt(text.slice(2), 16), text);
  if (FLOAT_NAN.test(text))
    return text.slice(-3).toLowerCase() === 'nan' ? '.nan' : text[0] === '-' ? '-.inf' : '.inf';
  if (FLOAT_EXP.test(text) || FLOAT.test(text)) return finite(Number.parseFloat(text), text);
  return text;
}

/** Numbers past the float range come out as infinities, which frontmatter.ts's JSON form spells out. */
function finite(value: number, text: string): JsonValue {
  if (Number.isFinite(value)) return value;
  return text[0] === '-' ? '-.inf' : '.inf';
}
