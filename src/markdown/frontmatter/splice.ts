/**
 * @module
 * Changing frontmatter properties as text (SPEC 13.1): each change replaces only the source span of
 * the one property it touches, new properties are appended as lines, and every other byte of the
 * block (comments, key order, quoting, blank lines, the line-break style) stays as it was. The
 * `yaml` package tells where each property's key and value are and renders new values; the result is
 * parsed again and must read back as exactly the expected properties, or nothing is written.
 *
 * A frontmatter block written as one flow mapping (`{"tags": ["a"]}`, JSON frontmatter, PROP-02) has
 * no lines to splice: it is re-printed through the `yaml` Document API, as Obsidian re-saves it as YAML.
 */

import { Document, isMap, isScalar, isSeq, type Node, type Pair, Scalar, type YAMLMap } from 'yaml';
import { NotedError } from '../../common/errors.js';
import {
  type BlockBounds,
  findBlock,
  type JsonValue,
  parseFrontmatterYaml,
  parseYamlBlock,
  readDocument,
  resolvePlainScalar,
  YAML_OPTIONS,
} from './frontmatter.js';

/** A value a property change writes: a scalar or a list of scalars (null removes the property). */
export type PropertyValue = string | number | boolean | PropertyValue[];

/** A note's frontmatter, parsed and ready for text-preserving changes. */
export interface EditableFrontmatter {
  readonly text: string;
  /** Null when the note has no frontmatter block. */
  readonly block: BlockBounds | null;
  /** The text between the `---` lines; `''` when there is no block. */
  readonly yaml: string;
  /** The properties as they read now, in order. */
  readonly data: Record<string, JsonValue>;
  /** The root mapping; null when the block is empty (or holds only comments), or there is none. */
  readonly map: YAMLMap | null;
  readonly doc: Document | null;
  /** The block's line break (the note's, when there is no block yet). */
  readonly eol: string;
  /** Columns between a key and the `-` of its block list items, as this block writes lists (default 2). */
  readonly seqIndent: number;
}

/** One replacement inside the YAML text. Splices of one change never overlap. */
export interface Splice {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

/** The most characters a property name may have: the YAML limit for a plain implicit key is 1,024. */
export const MAX_KEY_CHARS = 500;

/**
 * The largest frontmatter block the property operations change (before and after), in characters.
 * Finding where each property is takes the YAML library's full parse, about 2 µs a character: a
 * block of megabytes would hold up every other request for seconds. Real blocks are a few hundred
 * bytes; a larger one is still changed whole by edit_note replace.
 */
export const MAX_EDITABLE_YAML = 128 * 1024;

/**
 * Opens the frontmatter of `text` for changes.
 *
 * @throws NotedError `validation_error` when the block does not parse: its properties cannot be
 *   changed safely before the YAML is fixed.
 */
export function openFrontmatter(text: string, operation: string): EditableFrontmatter {
  const block = findBlock(text);
  const eolOfText = text.match(/\r?\n/)?.[0] ?? '\n';
  if (block === null) {
    return { text, block, yaml: '', data: {}, map: null, doc: null, eol: eolOfText, seqIndent: 2 };
  }
  const yaml = text.slice(block.yamlStart, block.yamlEnd);
  checkYamlSize(yaml.length, operation);
  const composed = parseFrontmatterYaml(yaml);
  const parsed = 'doc' in composed ? readDocument(composed.doc, yaml) : composed;
  if ('error' in parsed) {
    throw new NotedError(
      'validation_error',
      `The note's frontmatter does not parse (${parsed.error}), so ${operation} cannot change it safely. Nothing was written. Fix the YAML between the --- lines first (read_note shows it as frontmatterRaw; edit_note replace can correct it).`,
      { frontmatterError: parsed.error },
    );
  }
  const doc = (composed as { doc: Document }).doc;
  const map = isMap(doc.contents) ? (doc.contents as YAMLMap) : null;
  const eol = yaml.match(/\r?\n/)?.[0] ?? eolOfText;
  return { text, block, yaml, data: parsed.data, map, doc, eol, seqIndent: seqIndentOf(yaml, map) };
}

/**
 * The pairs whose key names `key`: the exact spelling if there is one, else every spelling that
 * differs only in letter case (Obsidian compares property names case-insensitively, PROP-14).
 */
export function pairsNamed(map: YAMLMap | null, key: string): Pair[] {
  if (map === null) return [];
  const named = map.items.filter((p) => isScalar(p.key) && typeof p.key.value === 'string');
  const exact = named.filter((p) => (p.key as Scalar).value === key);
  if (exact.length > 0) return exact;
  const lower = key.toLowerCase();
  return named.filter((p) => String((p.key as Scalar).value).toLowerCase() === lower);
}

/** The key of a pair as the properties name it. */
export function keyOf(pair: Pair): string {
  return String((pair.key as Scalar).value);
}

/** Splices that give `pair` the value `value`, keeping its key as written. */
export function setValueSplices(fm: EditableFrontmatter, pair: Pair, value: PropertyValue): Splice[] {
  const yaml = fm.yaml;
  const key = pair.key as Node;
  const keyEnd = key.range![1];
  const node = pair.value as Node | null;
  const column = columnOf(yaml, key.range![0]);
  const list = Array.isArray(value) && value.length > 0 ? value : null;
  if (node === null || !node.range || node.range[0] === node.range[1]) {
    // No value written (`key:`, perhaps with a comment after it): the new one goes right after the
    // colon, and whatever followed it on the line stays.
    const colon = yaml.indexOf(':', keyEnd);
    return [{ start: keyEnd, end: colon + 1, text: tailOf(fm, value, column, false) }];
  }
  const [start, end] = node.range;
  const endsLine = end > start && yaml[end - 1] === '\n';
  if (!endsLine) {
    if (list === null) return [{ start, end, text: renderScalarLike(value, styleOf(node)) }];
    if (isSeq(node) && node.flow)
      return [{ start, end, text: renderFlowList(list, yaml[start + 1] === ' ') }];
  }
  if (endsLine && list !== null && isSeq(node) && !node.flow) {
    const indent = columnOf(yaml, start);
    return [{ start, end, text: blockItems(list, indent, fm.eol).slice(indent) }];
  }
  return [{ start: keyEnd, end, text: tailOf(fm, value, column, endsLine) }];
}

/** A splice that removes `pair`: its lines, from the key to the end of its value's last line. */
export function removePairSplice(fm: EditableFrontmatter, pair: Pair): Splice {
  const yaml = fm.yaml;
  const key = pair.key as Node;
  const start = yaml.lastIndexOf('\n', key.range![0] - 1) + 1;
  const node = pair.value as Node | null;
  const valueEnd = node?.range ? node.range[1] : key.range![1];
  const endsLine = valueEnd > 0 && yaml[valueEnd - 1] === '\n';
  const nl = yaml.indexOf('\n', valueEnd);
  const end = endsLine ? valueEnd : nl === -1 ? yaml.length : nl + 1;
  return { start, end, text: '' };
}

/** The text of new properties, one `key: value` each, to go at the end of the block. */
export function newPairsText(fm: EditableFrontmatter, entries: readonly [string, PropertyValue][]): string {
  return entries.map(([key, value]) => renderKey(key) + tailOf(fm, value, 0, true)).join('');
}

/**
 * Applies the splices and appended text, builds the note's new text (a block is created at the top
 * when there was none), and checks that its frontmatter reads back as exactly `expected`.
 *
 * @throws NotedError `validation_error` when it would not: nothing is written then.
 */
export function finishFrontmatter(
  fm: EditableFrontmatter,
  splices: readonly Splice[],
  appended: string,
  expected: Record<string, JsonValue>,
  operation: string,
): string {
  let yaml = fm.yaml;
  for (const s of [...splices].sort((a, b) => b.start - a.start)) {
    yaml = yaml.slice(0, s.start) + s.text + yaml.slice(s.end);
  }
  if (appended !== '') {
    if (yaml !== '' && !yaml.endsWith('\n')) yaml += fm.eol;
    yaml += appended;
  }
  return withYaml(fm, yaml, expected, operation);
}

/**
 * For a block written as one flow mapping (JSON frontmatter): the changes made on the document and
 * the whole block re-printed, since a flow mapping has no lines to splice.
 */
export function reprintFlowFrontmatter(
  fm: EditableFrontmatter,
  changes: readonly { pair: Pair | null; key: string; value: PropertyValue | null }[],
  expected: Record<string, JsonValue>,
  operation: string,
): string {
  const doc = fm.doc!;
  const map = fm.map!;
  for (const change of changes) {
    if (change.value === null) {
      if (change.pair) map.items.splice(map.items.indexOf(change.pair), 1);
    } else if (change.pair) {
      change.pair.value = doc.createNode(change.value);
    } else {
      map.set(change.key, doc.createNode(change.value));
    }
  }
  const yaml = withEol(doc.toString({ lineWidth: 0, flowCollectionPadding: false }), fm.eol);
  return withYaml(fm, yaml, expected, operation);
}

/** True when the block is one flow mapping (`{…}`), which is re-printed rather than spliced. */
export function isFlowMapping(fm: EditableFrontmatter): boolean {
  return fm.map !== null && fm.map.flow === true;
}

function withYaml(
  fm: EditableFrontmatter,
  yaml: string,
  expected: Record<string, JsonValue>,
  operation: string,
): string {
  checkYamlSize(yaml.length, operation);
  const after = parseYamlBlock(yaml);
  if ('error' in after) {
    throw new NotedError(
      'validation_error',
      `${operation} would leave the frontmatter unreadable (${after.error}), so nothing was written. The block's layout is unusual here (anchors and aliases, or values spread over lines): change it with edit_note replace instead.`,
      { frontmatterError: after.error },
    );
  }
  if (JSON.stringify(after.data) !== JSON.stringify(expected)) {
    throw new NotedError(
      'validation_error',
      `${operation} could not be written without changing other properties (the block uses anchors, aliases or another unusual layout), so nothing was written. Change the frontmatter with edit_note replace instead.`,
    );
  }
  const text = fm.text;
  if (fm.block !== null) return text.slice(0, fm.block.yamlStart) + yaml + text.slice(fm.block.yamlEnd);
  if (yaml === '') return text;
  const bom = text.charCodeAt(0) === 0xfeff ? '\uFEFF' : '';
  return `${bom}---${fm.eol}${yaml}---${fm.eol}${text.slice(bom.length)}`;
}

function checkYamlSize(length: number, operation: string): void {
  if (length <= MAX_EDITABLE_YAML) return;
  throw new NotedError(
    'too_large',
    `The frontmatter would be ${Math.ceil(length / 1024)} KB; ${operation} changes frontmatter blocks up to ${MAX_EDITABLE_YAML / 1024} KB. Nothing was written. Keep long text in the body, or change a block this large with edit_note replace.`,
    { maxChars: MAX_EDITABLE_YAML },
  );
}

/**
 * What follows a key: `: value` for a scalar or an empty list, `:` and the items on their own lines
 * for a list. `endLine` ends it with a line break.
 */
function tailOf(fm: EditableFrontmatter, value: PropertyValue, column: number, endLine: boolean): string {
  if (Array.isArray(value) && value.length > 0) {
    const items = blockItems(value, column + fm.seqIndent, fm.eol);
    return `:${fm.eol}${endLine ? items : items.slice(0, -fm.eol.length)}`;
  }
  return `: ${renderScalarLike(value, undefined)}${endLine ? fm.eol : ''}`;
}

/** List items as block lines, `indent` spaces before each `-`, each ending with `eol`. */
export function blockItems(items: readonly PropertyValue[], indent: number, eol: string): string {
  const pad = ' '.repeat(indent);
  return items.map((item) => `${pad}- ${renderScalarLike(item, undefined)}${eol}`).join('');
}

/** A scalar (or an empty list, `[]`) as one line of YAML, in `style` when the value allows it. */
function renderScalarLike(value: PropertyValue, style: Scalar.Type | undefined): string {
  if (Array.isArray(value)) return value.length === 0 ? '[]' : renderFlowList(value, false);
  // Most values are words and dates: written plain without building a document (a list of thousands).
  if (typeof value === 'string' && (style === undefined || style === Scalar.PLAIN) && isPlainWord(value)) {
    return value;
  }
  const scalar = new Scalar(value);
  // A line break inside a plain or block value would spread it over lines: keep it on one.
  if (typeof value === 'string' && /[\r\n]/.test(value)) scalar.type = Scalar.QUOTE_DOUBLE;
  else if (typeof value === 'string' && style !== undefined && isInlineStyle(style)) scalar.type = style;
  return render(scalar);
}

/** A list as one flow sequence, `[a, b]` (`[ a, b ]` when `padded`). */
export function renderFlowList(items: readonly PropertyValue[], padded: boolean): string {
  const doc = new Document(items, YAML_OPTIONS);
  (doc.contents as { flow: boolean }).flow = true;
  return doc.toString({ lineWidth: 0, flowCollectionPadding: padded }).trimEnd();
}

/** A property name as a YAML key: plain when it can be, quoted when it must be. */
export function renderKey(key: string): string {
  return render(new Scalar(key));
}

function render(node: Scalar): string {
  return new Document(node, YAML_OPTIONS).toString({ lineWidth: 0 }).replace(/\r?\n$/, '');
}

/** Letters, digits and `_ . / -` inside, starting with a letter or digit, that the schema reads as text. */
const PLAIN_WORD = /^[\p{L}\p{N}][\p{L}\p{N}_./-]*(?: [\p{L}\p{N}_./-]+)*$/u;

function isPlainWord(value: string): boolean {
  return value.length <= 200 && PLAIN_WORD.test(value) && resolvePlainScalar(value) === value;
}

function styleOf(node: Node): Scalar.Type | undefined {
  return isScalar(node) && typeof node.value === 'string' ? node.type : undefined;
}

function isInlineStyle(style: Scalar.Type): boolean {
  return style === Scalar.PLAIN || style === Scalar.QUOTE_DOUBLE || style === Scalar.QUOTE_SINGLE;
}

/** The column of `offset` on its line. */
export function columnOf(text: string, offset: number): number {
  return offset - (text.lastIndexOf('\n', offset - 1) + 1);
}

/** How this block indents list items under their key: the first block list decides; 2 otherwise. */
function seqIndentOf(yaml: string, map: YAMLMap | null): number {
  for (const pair of map?.items ?? []) {
    const value = pair.value as Node | null;
    const key = pair.key as Node | null;
    if (isSeq(value) && !value.flow && value.range && key?.range) {
      return Math.max(0, columnOf(yaml, value.range[0]) - columnOf(yaml, key.range[0]));
    }
  }
  return 2;
}

function withEol(text: string, eol: string): string {
  return eol === '\n' ? text : text.replace(/\r?\n/g, eol);
}
