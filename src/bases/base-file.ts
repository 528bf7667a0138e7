/**
 * @module
 * Reads a `.base` file (or a ` ```base ` block): YAML with `filters`, `formulas`, `properties`,
 * `summaries` and `views`, as the Bases syntax page defines them. Every expression is parsed and
 * checked here (unknown functions and fields, formulas that do not exist, formula cycles), so a base
 * that reads without error evaluates without a syntax error. Errors name the line and column in the
 * file.
 */
import {
  isMap,
  isScalar,
  isSeq,
  LineCounter,
  type Node,
  type Scalar,
  type YAMLMap,
  type YAMLSeq,
} from 'yaml';
import { YAML_OPTIONS } from '../markdown/frontmatter/frontmatter.js';
import { parseYamlDocument } from '../markdown/frontmatter/yaml-document.js';
import type { Expr } from './ast.js';
import { parseExpression } from './parser.js';
import { BasesSyntaxError } from './syntax-error.js';
import { checkExpression, formulaCycle, formulaRefs } from './validate.js';

export type FilterNode =
  | { readonly kind: 'expr'; readonly expr: Expr; readonly source: string }
  | { readonly kind: 'and' | 'or' | 'not'; readonly items: readonly FilterNode[] };

export type Direction = 'ASC' | 'DESC';

export interface SortKey {
  readonly property: string;
  readonly direction: Direction;
}

export interface ViewDef {
  readonly type: string;
  readonly name: string;
  readonly filters: FilterNode | null;
  /** Property ids of the columns, as written (`file.name`, `status`, `formula.ppu`). */
  readonly order: readonly string[];
  readonly sort: readonly SortKey[];
  readonly groupBy: SortKey | null;
  readonly limit: number | null;
  /** Property id → summary name (a default one or one of the base's `summaries`). */
  readonly summaries: ReadonlyMap<string, string>;
}

export interface BaseDef {
  readonly filters: FilterNode | null;
  readonly formulas: ReadonlyMap<string, Expr>;
  readonly displayNames: ReadonlyMap<string, string>;
  readonly summaries: ReadonlyMap<string, Expr>;
  readonly views: readonly ViewDef[];
}

/** The default summaries of the Bases syntax page. */
export const DEFAULT_SUMMARIES = [
  'Average',
  'Min',
  'Max',
  'Sum',
  'Range',
  'Median',
  'Stddev',
  'Earliest',
  'Latest',
  'Checked',
  'Unchecked',
  'Empty',
  'Filled',
  'Unique',
] as const;

const TOP_KEYS = ['filters', 'formulas', 'properties', 'summaries', 'views'];
const VIEW_KEYS = ['type', 'name', 'filters', 'order', 'sort', 'groupBy', 'limit', 'summaries'];

/**
 * Reads a base. `lineOffset` is added to every line (a block's first line in its note, minus one).
 *
 * @throws BasesSyntaxError naming the line and column of the first problem.
 */
export function readBase(source: string, lineOffset = 0): BaseDef {
  const lines = new LineCounter();
  const doc = parseYamlDocument(source, { ...YAML_OPTIONS, lineCounter: lines });
  if ('tooDeep' in doc) throw new BasesSyntaxError('The YAML nests too deeply.', doc.line + lineOffset, 1);
  const yamlError = doc.errors[0];
  if (yamlError !== undefined) {
    const pos = yamlError.linePos?.[0];
    throw new BasesSyntaxError(
      `The YAML does not parse: ${yamlError.message}`,
      (pos?.line ?? 1) + lineOffset,
      pos?.col ?? 1,
    );
  }
  const reader = new Reader(lines, lineOffset);
  const root = doc.contents;
  if (root === null || (isScalar(root) && (root.value === null || root.value === ''))) {
    return { filters: null, formulas: new Map(), displayNames: new Map(), summaries: new Map(), views: [] };
  }
  if (!isMap(root))
    reader.fail(root, 'A base is a YAML mapping with filters, formulas, properties, summaries and views.');
  const map = root as YAMLMap;
  reader.onlyKeys(map, TOP_KEYS, 'a base');

  const formulaSources = new Map<string, [Expr, Node]>();
  const formulasNode = map.get('formulas', true) as Node | undefined;
  if (formulasNode !== undefined && !isNull(formulasNode)) {
    for (const [key, value] of reader.entries(formulasNode, 'formulas')) {
      formulaSources.set(key, [reader.expression(value, `formula "${key}"`), value]);
    }
  }
  const formulas = new Map([...formulaSources].map(([k, [e]]) => [k, e]));
  const check = (expr: Expr, node: Node, what: string): void => {
    const problem = checkExpression(expr, formulas);
    if (problem !== null) reader.failAt(node, problem.message, problem.at, what);
  };
  for (const [key, [expr, node]] of formulaSources) check(expr, node, `formula "${key}"`);
  const cycle = formulaCycle(new Map([...formulas].map(([k, e]) => [k, formulaRefs(e)])));
  if (cycle !== null) {
    const node = formulaSources.get(cycle[0] as string)?.[1] as Node;
    reader.fail(
      node,
      `The formulas refer to each other in a cycle: ${cycle.map((c) => `formula.${c}`).join(' → ')}.`,
    );
  }

  const displayNames = new Map<string, string>();
  const propsNode = map.get('properties', true) as Node | undefined;
  if (propsNode !== undefined && !isNull(propsNode)) {
    for (const [key, value] of reader.entries(propsNode, 'properties')) {
      if (isNull(value)) continue;
      if (!isMap(value))
        reader.fail(value, `properties.${key} is a mapping such as {displayName: "Status"}.`);
      const name = (value as YAMLMap).get('displayName', true) as Node | undefined;
      if (name !== undefined && isScalar(name) && name.value !== null)
        displayNames.set(key, String(name.value));
    }
  }

  const summaries = new Map<string, Expr>();
  const summariesNode = map.get('summaries', true) as Node | undefined;
  if (summariesNode !== undefined && !isNull(summariesNode)) {
    for (const [key, value] of reader.entries(summariesNode, 'summaries')) {
      const expr = reader.expression(value, `summary "${key}"`);
      check(expr, value, `summary "${key}"`);
      summaries.set(key, expr);
    }
  }

  const filtersNode = map.get('filters', true) as Node | undefined;
  const filters = filtersNode === undefined ? null : reader.filter(filtersNode, 'filters', check);

  const views: ViewDef[] = [];
  const viewsNode = map.get('views', true) as Node | undefined;
  if (viewsNode !== undefined && !isNull(viewsNode)) {
    if (!isSeq(viewsNode)) reader.fail(viewsNode, 'views is a list of views, each with a type and a name.');
    (viewsNode as YAMLSeq).items.forEach((item, i) => {
      views.push(reader.view(item as Node, i, check, summaries));
    });
  }
  return { filters, formulas, displayNames, summaries, views };
}

function isNull(node: Node): boolean {
  return isScalar(node) && node.value === null;
}

type Check = (expr: Expr, node: Node, what: string) => void;

class Reader {
  constructor(
    private readonly lines: LineCounter,
    private readonly lineOffset: number,
  ) {}

  fail(node: Node | null | undefined, message: string): never {
    const offset = node?.range?.[0] ?? 0;
    const pos = this.lines.linePos(offset);
    throw new BasesSyntaxError(message, pos.line + this.lineOffset, pos.col);
  }

  /** An error inside an expression written in `node`: its place in the expression mapped to the file. */
  failAt(node: Node, message: string, at: { line: number; column: number }, what: string): never {
    const offset = node.range?.[0] ?? 0;
    const pos = this.lines.linePos(offset);
    const quoted = isScalar(node) && (node.type === 'QUOTE_DOUBLE' || node.type === 'QUOTE_SINGLE') ? 1 : 0;
    const line = pos.line + at.line - 1 + this.lineOffset;
    const column = at.line === 1 ? pos.col + quoted + at.column - 1 : at.column;
    throw new BasesSyntaxError(`In ${what}: ${message}`, line, column);
  }

  onlyKeys(map: YAMLMap, allowed: readonly string[], what: string): void {
    for (const pair of map.items) {
      const key = isScalar(pair.key) ? String(pair.key.value) : '';
      if (!allowed.includes(key)) {
        this.fail(pair.key as Node, `Unknown key "${key}" in ${what}; the keys are ${allowed.join(', ')}.`);
      }
    }
  }

  entries(node: Node, what: string): [string, Node][] {
    if (!isMap(node)) this.fail(node, `${what} is a mapping of names to values.`);
    return (node as YAMLMap).items.map((pair) => {
      if (!isScalar(pair.key)) this.fail(pair.key as Node, `The keys of ${what} are names.`);
      return [String((pair.key as Scalar).value), (pair.value ?? pair.key) as Node];
    });
  }

  expression(node: Node, what: string): Expr {
    if (!isScalar(node) || node.value === null || typeof node.value === 'object') {
      this.fail(node, `${what} is an expression written as a string.`);
    }
    const source = String((node as Scalar).value);
    try {
      return parseExpression(source);
    } catch (err) {
      if (err instanceof BasesSyntaxError) this.failAt(node, err.message, err, what);
      throw err;
    }
  }

  filter(node: Node, where: string, check: Check): FilterNode | null {
    if (isNull(node)) return null;
    if (isScalar(node)) {
      const expr = this.expression(node, `the filter at ${where}`);
      check(expr, node, `the filter at ${where}`);
      return { kind: 'expr', expr, source: String(node.value) };
    }
    if (!isMap(node) || node.items.length !== 1) {
      this.fail(node, `A filter at ${where} is a string, or an object with exactly one of and, or, not.`);
    }
    const pair = (node as YAMLMap).items[0];
    const key = isScalar(pair?.key) ? String(pair.key.value) : '';
    if (key !== 'and' && key !== 'or' && key !== 'not') {
      this.fail(pair?.key as Node, `Unknown filter key "${key}" at ${where}; use and, or or not.`);
    }
    const list = pair?.value as Node | null;
    if (list === null || list === undefined || isNull(list)) return { kind: key, items: [] };
    if (!isSeq(list)) this.fail(list, `${where}.${key} is a list of filters.`);
    const items: FilterNode[] = [];
    list.items.forEach((item, i) => {
      const f = this.filter(item as Node, `${where}.${key}[${i}]`, check);
      if (f !== null) items.push(f);
    });
    return { kind: key, items };
  }

  view(node: Node, i: number, check: Check, custom: ReadonlyMap<string, Expr>): ViewDef {
    if (!isMap(node)) this.fail(node, `views[${i}] is a mapping with a type and a name.`);
    const map = node as YAMLMap;
    const scalar = (key: string): unknown => {
      const v = map.get(key, true) as Node | undefined;
      if (v === undefined || isNull(v)) return undefined;
      if (!isScalar(v)) this.fail(v, `views[${i}].${key} is a single value.`);
      return (v as Scalar).value;
    };
    const type = scalar('type');
    const name = scalar('name');
    const limit = scalar('limit');
    if (limit !== undefined && (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 0)) {
      this.fail(map.get('limit', true) as Node, `views[${i}].limit is a whole number of rows.`);
    }
    const filtersNode = map.get('filters', true) as Node | undefined;
    const order: string[] = [];
    const orderNode = map.get('order', true) as Node | undefined;
    if (orderNode !== undefined && !isNull(orderNode)) {
      if (!isSeq(orderNode)) this.fail(orderNode, `views[${i}].order is a list of property names.`);
      for (const item of orderNode.items) {
        if (!isScalar(item) || item.value === null)
          this.fail(item as Node, `views[${i}].order lists property names.`);
        order.push(String((item as Scalar).value));
      }
    }
    const sort: SortKey[] = [];
    const sortNode = map.get('sort', true) as Node | undefined;
    if (sortNode !== undefined && !isNull(sortNode)) {
      if (!isSeq(sortNode)) this.fail(sortNode, `views[${i}].sort is a list of {property, direction}.`);
      for (const item of sortNode.items) sort.push(this.sortKey(item as Node, `views[${i}].sort`));
    }
    const groupNode = map.get('groupBy', true) as Node | undefined;
    const groupBy =
      groupNode === undefined || isNull(groupNode) ? null : this.sortKey(groupNode, `views[${i}].groupBy`);
    const summaries = new Map<string, string>();
    const summariesNode = map.get('summaries', true) as Node | undefined;
    if (summariesNode !== undefined && !isNull(summariesNode)) {
      for (const [prop, value] of this.entries(summariesNode, `views[${i}].summaries`)) {
        const s = isScalar(value) ? String(value.value) : '';
        const known = DEFAULT_SUMMARIES.find((d) => d.toLowerCase() === s.toLowerCase());
        if (known === undefined && !custom.has(s)) {
          this.fail(
            value,
            `Unknown summary "${s}"; use one of ${DEFAULT_SUMMARIES.join(', ')} or a name from the base's summaries.`,
          );
        }
        summaries.set(prop, known ?? s);
      }
    }
    for (const prop of [...order, ...sort.map((s) => s.property), ...(groupBy ? [groupBy.property] : [])]) {
      this.checkProperty(prop, map, check);
    }
    return {
      type: typeof type === 'string' ? type : 'table',
      name: name === undefined ? `View ${i + 1}` : String(name),
      filters: filtersNode === undefined ? null : this.filter(filtersNode, `views[${i}].filters`, check),
      order,
      sort,
      groupBy,
      limit: typeof limit === 'number' ? limit : null,
      summaries,
    };
  }

  private checkProperty(prop: string, view: YAMLMap, check: Check): void {
    let expr: Expr;
    try {
      expr = parseExpression(prop);
    } catch {
      return; // a property whose name is not an identifier (`note["a b"]` written bare) reads as a note property
    }
    check(expr, view, `the property "${prop}"`);
  }

  private sortKey(node: Node, where: string): SortKey {
    if (isScalar(node) && typeof node.value === 'string') return { property: node.value, direction: 'ASC' };
    if (!isMap(node)) this.fail(node, `${where} is {property, direction}.`);
    const map = node as YAMLMap;
    const property = map.get('property');
    const direction = String(map.get('direction') ?? 'ASC').toUpperCase();
    if (typeof property !== 'string') this.fail(node, `${where} needs a property.`);
    if (direction !== 'ASC' && direction !== 'DESC') this.fail(node, `${where}.direction is ASC or DESC.`);
    return { property: property as string, direction: direction as Direction };
  }
}

/** The unknown keys of a view are kept for the view type (Obsidian lets views store their state). */
export const KNOWN_VIEW_KEYS = VIEW_KEYS;
