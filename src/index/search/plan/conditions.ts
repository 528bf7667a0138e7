/**
 * @module
 * The SQL condition over `n` (the `notes` table) that answers a query node exactly, for the nodes
 * {@link isExact} accepts: text as a subquery on the full-text index (search/plan/fts.ts), fields on `notes`
 * and `note_tags`, tasks on `note_tasks`, properties on `note_props`; what plain SQL cannot compare (a
 * regex, exact case, a task's text, a property's value) through the SQL functions of
 * search/run/functions.ts. User text only ever travels as a `?` parameter.
 */

import { foldName } from '../../../markdown/link-key.js';
import type { QueryNode } from '../parse/nodes.js';
import { tagValue } from '../parse/tokens.js';
import { type Fts, ftsOf, necessaryFts, splitConjuncts, wrap } from './fts.js';

const FTS_SUBQUERY = 'n.id IN (SELECT rowid FROM notes_fts WHERE notes_fts MATCH ?)';

/**
 * True when SQL answers the node exactly; false when code must check it (search/check/check.ts): scopes
 * with an operand, regexes, text under match-case, properties with a value to compare or match, and
 * any group holding one of those.
 */
export function isExact(node: QueryNode): boolean {
  switch (node.kind) {
    case 'word':
    case 'phrase':
      return node.matchCase !== true;
    case 'field':
      return true;
    case 'regex':
      // On a path, a file name or a tag the index holds the text; elsewhere the note must be read.
      return node.in === 'file' || node.in === 'path' || node.in === 'tag';
    case 'scope':
      // A task's text is in the index; lines, blocks and sections are found by reading the note.
      return node.operand === null || node.scope.startsWith('task');
    case 'property':
      return true;
    case 'not':
      return isExact(node.operand);
    case 'and':
    case 'or':
      return node.operands.every(isExact);
  }
}

/** SQL for any node, pushing its parameters in the order its placeholders appear. */
export function sqlOf(node: QueryNode, params: unknown[]): string {
  const whole = ftsOf(node);
  if (whole) {
    params.push(whole.expr);
    return FTS_SUBQUERY;
  }
  switch (node.kind) {
    case 'field':
      if (node.matchCase) {
        params.push(JSON.stringify(node));
        return 'noted_text(?, n.path) = 1';
      }
      return fieldSql(node.field, node.value, params);
    case 'regex':
      params.push(JSON.stringify(node));
      return node.in === 'tag'
        ? 'EXISTS (SELECT 1 FROM note_tags t WHERE t.note_id = n.id AND noted_text(?, t.tag) = 1)'
        : 'noted_text(?, n.path) = 1';
    case 'scope':
      return taskSql(node, params);
    case 'property':
      return propertySql(node, params);
    case 'not':
      return `NOT (${sqlOf(node.operand, params)})`;
    case 'and': {
      const { text, rest } = splitConjuncts(node.operands);
      const parts: string[] = [];
      if (text.positive) {
        params.push(text.positive);
        parts.push(FTS_SUBQUERY);
      } else if (text.negative) {
        params.push(text.negative);
        parts.push(`NOT (${FTS_SUBQUERY})`);
      }
      for (const op of rest) parts.push(paren(op, sqlOf(op, params)));
      return parts.join(' AND ');
    }
    case 'or': {
      const text = node.operands.map(ftsOf).filter((f): f is Fts => f !== null);
      const parts: string[] = [];
      if (text.length > 0) {
        params.push(text.map(wrap).join(' OR '));
        parts.push(FTS_SUBQUERY);
      }
      for (const op of node.operands) {
        if (!ftsOf(op)) parts.push(paren(op, sqlOf(op, params)));
      }
      return parts.join(' OR ');
    }
    default:
      // Exact words and phrases always have an FTS form; other leaves are checked in code.
      throw new Error(`sqlOf: no SQL for a ${node.kind} node`);
  }
}

/** AND and OR operands are parenthesized so SQL's own precedence can never regroup them. */
export function paren(node: QueryNode, sql: string): string {
  return node.kind === 'and' || node.kind === 'or' ? `(${sql})` : sql;
}

function fieldSql(field: 'tag' | 'path' | 'file', value: string, params: unknown[]): string {
  if (field === 'tag') return tagSql(value, params);
  params.push(value.toLowerCase());
  return field === 'path' ? 'instr(n.path_lower, ?) > 0' : 'instr(n.file_lower, ?) > 0';
}

/** The tag or a tag nested under it, whole `/` segments from the start (TAG-21). */
export function tagSql(raw: string, params: unknown[]): string {
  const tag = tagValue(raw.toLowerCase());
  params.push(tag, `${escapeLike(tag)}/%`);
  return "EXISTS (SELECT 1 FROM note_tags t WHERE t.note_id = n.id AND (t.tag_lower = ? OR t.tag_lower LIKE ? ESCAPE '\\'))";
}

/** Escapes `\`, `%` and `_` for `LIKE … ESCAPE '\'`. */
export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, '\\$&');
}

/**
 * A note with a task (any, open, or done: TSK-02, any status but a space is done) whose text matches
 * the operand, tested by `noted_text` on the index's task rows; the words the operand needs narrow
 * the notes first through the full-text index.
 */
function taskSql(node: Extract<QueryNode, { kind: 'scope' }>, params: unknown[]): string {
  const scope = node.scope;
  const done = scope === 'task-todo' ? ' AND k.done = 0' : scope === 'task-done' ? ' AND k.done = 1' : '';
  if (node.operand === null) return `EXISTS (SELECT 1 FROM note_tasks k WHERE k.note_id = n.id${done})`;
  const words = necessaryFts(node.operand, true);
  let narrow = '';
  if (words) {
    params.push(words.expr);
    narrow = `${FTS_SUBQUERY} AND `;
  }
  params.push(JSON.stringify(node.operand));
  return `(${narrow}EXISTS (SELECT 1 FROM note_tasks k WHERE k.note_id = n.id${done} AND noted_text(?, k.text) = 1))`;
}

/**
 * `[name]`: the note has the property; `[name:null]`: with no value (null, `~` or nothing); with a
 * value to compare or match, `noted_value` tests each stored value. A regex name is tested by `noted_text`.
 */
function propertySql(node: Extract<QueryNode, { kind: 'property' }>, params: unknown[]): string {
  let name: string;
  if (node.nameRegex) {
    params.push(JSON.stringify({ kind: 'regex', source: node.name }));
    name = 'noted_text(?, p.key) = 1';
  } else {
    params.push(foldName(node.name));
    name = 'p.key_lower = ?';
  }
  let value = '';
  if (node.value?.kind === 'null') value = " AND p.value_json = 'null'";
  else if (node.value) {
    params.push(JSON.stringify(node.value));
    value = ' AND noted_value(?, p.value_json) = 1';
  }
  return `EXISTS (SELECT 1 FROM note_props p WHERE ${name} AND p.note_id = n.id${value})`;
}
