/**
 * @module
 * The SQL conditions over `n` (the `notes` table) of the query tree's leaves, for the planner
 * (plan-node.ts): fields on `notes` and `note_tags`, tasks on `note_tasks`, properties on `note_props`,
 * and the full-text subquery; what plain SQL cannot compare (a regex, exact case, a task's text, a
 * property's value) through the SQL functions of search/run/functions.ts. User text only ever travels
 * as a `?` parameter: each condition carries its parameters in the order of its placeholders.
 */

import { foldName } from '../../../markdown/link-key.js';
import { escapeLike } from '../../db/like.js';
import type { QueryNode } from '../parse/nodes.js';
import { tagValue } from '../parse/tokens.js';
import type { SqlPart } from './compiled.js';
import type { Fts } from './fts.js';

export const FTS_SUBQUERY = 'n.id IN (SELECT rowid FROM notes_fts WHERE notes_fts MATCH ?)';

/** AND and OR operands are parenthesized so SQL's own precedence can never regroup them. */
export function paren(node: QueryNode, p: SqlPart): SqlPart {
  return node.kind === 'and' || node.kind === 'or' ? { sql: `(${p.sql})`, params: p.params } : p;
}

/** `tag:`, `path:` and `file:`; under match-case the value is compared by `noted_text`. */
export function fieldSql(node: Extract<QueryNode, { kind: 'field' }>): SqlPart {
  if (node.matchCase) return { sql: 'noted_text(?, n.path) = 1', params: [JSON.stringify(node)] };
  const params: unknown[] = [];
  return { sql: valueSql(node.field, node.value, params), params };
}

/** A regex over a file name, a path or each tag, which the index holds. */
export function regexSql(node: Extract<QueryNode, { kind: 'regex' }>): SqlPart {
  const sql =
    node.in === 'tag'
      ? 'EXISTS (SELECT 1 FROM note_tags t WHERE t.note_id = n.id AND noted_text(?, t.tag) = 1)'
      : 'noted_text(?, n.path) = 1';
  return { sql, params: [JSON.stringify(node)] };
}

function valueSql(field: 'tag' | 'path' | 'file', value: string, params: unknown[]): string {
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

/**
 * A note with a task (any, open, or done: TSK-02, any status but a space is done) whose text matches
 * the operand, tested by `noted_text` on the index's task rows; the words the operand needs narrow
 * the notes first through the full-text index.
 */
export function taskSql(node: Extract<QueryNode, { kind: 'scope' }>, words: Fts | null): SqlPart {
  const scope = node.scope;
  const done = scope === 'task-todo' ? ' AND k.done = 0' : scope === 'task-done' ? ' AND k.done = 1' : '';
  if (node.operand === null)
    return { sql: `EXISTS (SELECT 1 FROM note_tasks k WHERE k.note_id = n.id${done})`, params: [] };
  const params: unknown[] = [];
  let narrow = '';
  if (words) {
    params.push(words.expr);
    narrow = `${FTS_SUBQUERY} AND `;
  }
  params.push(JSON.stringify(node.operand));
  return {
    sql: `(${narrow}EXISTS (SELECT 1 FROM note_tasks k WHERE k.note_id = n.id${done} AND noted_text(?, k.text) = 1))`,
    params,
  };
}

/**
 * `[name]`: the note has the property; `[name:null]`: with no value (null, `~` or nothing); with a
 * value to compare or match, `noted_value` tests each stored value. A regex name is tested by `noted_text`.
 */
export function propertySql(node: Extract<QueryNode, { kind: 'property' }>): SqlPart {
  const params: unknown[] = [];
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
  return { sql: `EXISTS (SELECT 1 FROM note_props p WHERE ${name} AND p.note_id = n.id${value})`, params };
}
