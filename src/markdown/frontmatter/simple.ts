/**
 * @module
 * The frontmatter most notes have, read without the YAML library: top-level `name: value` lines whose
 * values are plain or simply quoted scalars, `[a, b]` lists, or `- item` lists under the name. The
 * library takes about 70 µs for a four-line block, most of the time a cold index build spends on a
 * note; this takes a few. Anything outside that small subset (comments after a value, block scalars,
 * anchors, tags, escapes, nested maps, continuation lines, duplicate names, an unusual character
 * anywhere) is left to the library, so every error and every edge case still comes from it. Plain
 * scalars are resolved by the caller's `resolvePlain`, which frontmatter.ts builds from the library's
 * own schema tags; a property test compares the two readings on generated blocks
 * (test/markdown/frontmatter-simple.test.ts).
 */

/** A plain scalar's value as the YAML library resolves it (null, boolean, number or the text itself). */
export type ResolvePlain = (text: string) => unknown;

/** What the block holds, as the library's `toJS` would give it before JSON conversion. */
export type SimpleData = Record<string, unknown>;

/**
 * Tabs, CR, other C0/C1 controls, BOM and the Unicode line separators: each has its own rules in YAML
 * (or makes the text invalid), so a block holding one is always left to the library. So are the other
 * Unicode spaces (U+00A0, U+1680, U+2000–U+200A, U+202F, U+205F, U+3000): `trim()` here would strip
 * them, but YAML white space is only the space and the tab, so the library keeps them in a value.
 */
const UNUSUAL =
  /[\u0000-\u0009\u000b-\u001f\u007f-\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000\ufeff\u2028\u2029]/;
const KEY_LINE = /^([A-Za-z_][A-Za-z0-9_ ./-]*):(?: (.*))?$/;
const SEQ_ITEM = /^( *)-(?: (.*))?$/;
/** Longer keys are left to the library, which limits an implicit key to 1,024 characters. */
const MAX_KEY = 200;

/** First characters that make a YAML indicator rather than the start of a plain scalar. */
const INDICATOR_START = /^[-?:,[\]{}#&*!|>'"%@`]/;
/** What a plain value on a `name:` line may not hold: `: ` or a final `:` would make it a nested pair. */
const BLOCK_UNSAFE = /:\s|:$/;
/** Characters a plain list item inside `[…]` may not hold (flow indicators, and what starts a comment or a pair). */
const FLOW_UNSAFE = /[,[\]{}#:'"]/;

/**
 * The block's data as the library would give it, or null when the block is not in the subset (the
 * caller then parses it with the library).
 *
 * @example
 * parseSimpleFrontmatter('tags: [a, b]\ncreated: 2025-01-02\n', resolve) // { tags: ['a', 'b'], created: '2025-01-02' }
 * parseSimpleFrontmatter('a: |\n  text\n', resolve) // null: a block scalar
 */
export function parseSimpleFrontmatter(yaml: string, resolvePlain: ResolvePlain): SimpleData | null {
  if (UNUSUAL.test(yaml)) return null;
  const data: SimpleData = {};
  const lines = yaml.split('\n');
  // The key whose value is being collected from `- item` lines below it, and their indent.
  let listKey: string | null = null;
  let list: unknown[] = [];
  let listIndent = -1;
  for (const line of lines) {
    if (isBlankOrComment(line)) continue;
    if (listKey !== null) {
      const item = SEQ_ITEM.exec(line);
      if (item) {
        const indent = (item[1] as string).length;
        if (listIndent === -1) listIndent = indent;
        else if (indent !== listIndent) return null;
        const value = item[2] === undefined ? null : inlineValue(item[2], resolvePlain);
        if (value === undefined) return null;
        list.push(value);
        continue;
      }
      data[listKey] = listIndent === -1 ? null : list;
      listKey = null;
    }
    const entry = KEY_LINE.exec(line);
    if (!entry) return null;
    const key = entry[1] as string;
    // A key the schema would read as anything but itself (`null`, `true`) is not a plain name.
    if (
      key.length > MAX_KEY ||
      key.endsWith(' ') ||
      resolvePlain(key) !== key ||
      key === '__proto__' ||
      Object.hasOwn(data, key)
    ) {
      return null;
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
    const value = inlineValue(rest, resolvePlain);
    if (value === undefined) return null;
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
function inlineValue(raw: string, resolvePlain: ResolvePlain): unknown {
  const text = raw.trim();
  if (text.includes(' #')) return undefined;
  const first = text[0];
  if (first === '[') return flowList(text, resolvePlain);
  if (first === "'" || first === '"') return quoted(text);
  return plainValue(text, BLOCK_UNSAFE, resolvePlain);
}

/** A plain scalar's value, or undefined when it starts with an indicator or holds `unsafe`. */
function plainValue(text: string, unsafe: RegExp, resolvePlain: ResolvePlain): unknown {
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
function flowList(text: string, resolvePlain: ResolvePlain): unknown[] | undefined {
  if (text[text.length - 1] !== ']') return undefined;
  const inner = text.slice(1, -1).trim();
  if (inner === '') return [];
  const out: unknown[] = [];
  for (const part of inner.split(',')) {
    const item = part.trim();
    if (item === '') return undefined;
    const first = item[0];
    const value = first === "'" || first === '"' ? quoted(item) : plainValue(item, FLOW_UNSAFE, resolvePlain);
    if (value === undefined) return undefined;
    out.push(value);
  }
  return out;
}
