/**
 * @module
 * A query's terms as the full-text index sees them, and a query with every repeated term kept once
 * (SPEC 3.3a: `lorem OR lorem OR …` is `lorem`, `Café café` is `café`). Two terms are the same when
 * FTS5 splits them into the same words: they then match the same notes, so dropping the repeat
 * changes which notes match in no case, and ranks them as if the term had been typed once.
 *
 * The words are FTS5's own: ASCII text is split here (letters and digits, lower-cased: all unicode61
 * does with it), anything else by FTS5's tokenizer itself on a scratch table in memory, so no
 * imitation in JavaScript ever decides that two terms are one.
 */

import Database from 'better-sqlite3';
import { FTS_TOKENIZER } from '../../db/schema.js';
import { segmentCjk } from '../../words/cjk.js';
import type { QueryNode } from './nodes.js';
import { tagValue } from './tokens.js';

const ASCII = /^[\x00-\x7f]*$/;
const ASCII_WORD = /[a-z0-9]+/g;

interface Scratch {
  readonly db: Database.Database;
  readonly insert: Database.Statement<[number, string]>;
  readonly words: Database.Statement<[], { doc: number; term: string }>;
  readonly clear: Database.Statement<[]>;
}

let scratch: Scratch | undefined;

function scratchTable(): Scratch {
  if (scratch === undefined) {
    const db = new Database(':memory:');
    db.exec(
      `CREATE VIRTUAL TABLE t USING fts5(x, tokenize='${FTS_TOKENIZER}');
       CREATE VIRTUAL TABLE w USING fts5vocab(t, 'instance');`,
    );
    scratch = {
      db,
      insert: db.prepare('INSERT INTO t(rowid, x) VALUES (?, ?)'),
      words: db.prepare('SELECT doc, term FROM w ORDER BY doc, "offset"'),
      clear: db.prepare('DELETE FROM t'),
    };
  }
  return scratch;
}

/**
 * The words the index makes of each text, in order: what a word or phrase term matches.
 *
 * @example
 * termWords(['Café crème', 'plan-B', '東京']) // [['cafe', 'creme'], ['plan', 'b'], ['東', '京']]
 */
export function termWords(texts: readonly string[]): (readonly string[])[] {
  const out: string[][] = texts.map(() => []);
  const others: number[] = [];
  texts.forEach((text, i) => {
    const known = ASCII.test(text) ? (text.toLowerCase().match(ASCII_WORD) ?? []) : splitWords.get(text);
    if (known === undefined) others.push(i);
    else out[i] = known as string[];
  });
  if (others.length === 0) return out;
  const { db, insert, words, clear } = scratchTable();
  db.transaction(() => {
    // As ftsString sends it: CJK spaced out, NUL read as the separator it is.
    for (const i of others) insert.run(i + 1, segmentCjk(texts[i] as string).replaceAll('\u0000', ' '));
    for (const row of words.all()) out[row.doc - 1]?.push(row.term);
    clear.run();
  })();
  if (splitWords.size + others.length > MAX_REMEMBERED) splitWords.clear();
  for (const i of others) splitWords.set(texts[i] as string, out[i] as string[]);
  return out;
}

/**
 * Non-ASCII texts already split: a search asks for its terms' words more than once (to drop repeats,
 * to count its work), and a scratch-table round costs about 0.1 ms.
 */
const splitWords = new Map<string, readonly string[]>();
const MAX_REMEMBERED = 2000;

/**
 * The query with each repeated term kept once: in every AND and OR, an operand equal to an earlier one
 * is dropped, groups of the same kind are merged into their parent, and a group left with one operand
 * is that operand. Equal means: words and phrases that split into the same words, fields with the same
 * value as compared, and groups and exclusions made of equal parts.
 *
 * @example
 * dedupeQuery(parseSearchQuery('lorem OR Lorem OR lorem')) // { kind: 'word', text: 'lorem' }
 */
export function dedupeQuery(node: QueryNode): QueryNode {
  if (
    node.kind !== 'and' &&
    node.kind !== 'or' &&
    node.kind !== 'not' &&
    node.kind !== 'scope' &&
    node.kind !== 'property'
  ) {
    return node;
  }
  const texts = termTexts(node);
  const words = termWords(texts);
  const keys = new Map<string, string>();
  texts.forEach((text, i) => {
    const split = words[i] as readonly string[];
    // A text the index finds no word in can match nothing; it is kept as typed.
    keys.set(text, split.length > 0 ? `t:${split.join(' ')}` : `raw:${text}`);
  });
  return dedupe(node, (text) => keys.get(text) as string).node;
}

/**
 * The word and phrase terms of a query that reach the full-text index (search/plan/fts.ts), excluded
 * ones and those inside scopes too (FTS5 reads them as well), in order; property values and field
 * values never do.
 */
export function termTexts(node: QueryNode, out: string[] = []): string[] {
  switch (node.kind) {
    case 'word':
    case 'phrase':
      out.push(node.text);
      break;
    case 'not':
      termTexts(node.operand, out);
      break;
    case 'scope':
      if (node.operand !== null) termTexts(node.operand, out);
      break;
    case 'and':
    case 'or':
      for (const op of node.operands) termTexts(op, out);
      break;
    default:
      break;
  }
  return out;
}

interface Keyed {
  readonly node: QueryNode;
  readonly key: string;
}

function dedupe(node: QueryNode, textKey: (text: string) => string): Keyed {
  switch (node.kind) {
    case 'word':
    case 'phrase': {
      // A word is sent to FTS5 as a quoted phrase of its words, so `plan-b` and `"plan b"` are equal;
      // under match-case the characters themselves count.
      const text = node.matchCase ? `case:${node.kind}:${node.text}` : textKey(node.text);
      return { node, key: `${node.in ?? ''}|${text}` };
    }
    case 'regex':
      return { node, key: `re:${node.in ?? ''}:${node.matchCase ? 'c' : 'i'}:${node.source}` };
    case 'field':
      return {
        node,
        key: `${node.field}:${node.matchCase ? `case:${node.value}` : fieldValue(node.field, node.value)}`,
      };
    case 'scope': {
      if (node.operand === null) return { node, key: `${node.scope}:*` };
      const inner = dedupe(node.operand, textKey);
      return { node: { ...node, operand: inner.node }, key: `${node.scope}:(${inner.key})` };
    }
    case 'property': {
      const name = node.nameRegex ? `re:${node.name}` : node.name.toLowerCase();
      const value = node.value;
      if (value?.kind === 'match') {
        const inner = dedupe(value.query, (t) => `v:${t.toLowerCase()}`);
        return {
          node: { ...node, value: { kind: 'match', query: inner.node } },
          key: `[${name}:${inner.key}]`,
        };
      }
      return { node, key: `[${name}:${JSON.stringify(value)}]` };
    }
    case 'not': {
      const inner = dedupe(node.operand, textKey);
      return { node: { kind: 'not', operand: inner.node }, key: `-(${inner.key})` };
    }
    case 'and':
    case 'or': {
      const kept: Keyed[] = [];
      const seen = new Set<string>();
      const add = (op: Keyed) => {
        if (seen.has(op.key)) return;
        seen.add(op.key);
        kept.push(op);
      };
      for (const op of node.operands) {
        const done = dedupe(op, textKey);
        // A group reduced to the parent's own kind joins the parent (`a (a b)` is `a b`).
        if (done.node.kind === node.kind) {
          for (const inner of done.node.operands) add(dedupe(inner, textKey));
        } else {
          add(done);
        }
      }
      if (kept.length === 1) return kept[0] as Keyed;
      const key = `${node.kind}(${kept
        .map((k) => k.key)
        .sort()
        .join(',')})`;
      return { node: { kind: node.kind, operands: kept.map((k) => k.node) }, key };
    }
  }
}

/** A field's value as the compiler compares it (search/plan/conditions.ts): case ignored, `#` and a final `/` off a tag. */
function fieldValue(field: string, value: string): string {
  return field === 'tag' ? tagValue(value.toLowerCase()) : value.toLowerCase();
}
