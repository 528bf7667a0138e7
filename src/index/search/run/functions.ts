/**
 * @module
 * SQL functions that let the index answer operators over what it stores, in the statement itself:
 * a property's value (`[status:draft OR final]`, `[due:<2025-01-01]`), a task's text (`task-todo:call`),
 * a path, file name or tag by regex or exact case. Each takes the term it tests as JSON (a parameter,
 * never SQL), parsed once per statement run.
 */
import type { Db } from '../../db/database.js';
import { textMatches, valueMatches } from '../check/text.js';
import type { PropertyValue, QueryNode } from '../parse/query.js';
import { rankScore } from './phrase-scores.js';

const registered = new WeakSet<Db>();
const specs = new Map<string, unknown>();
const MAX_SPECS = 500;

function spec<T>(json: unknown): T {
  const key = String(json);
  let parsed = specs.get(key);
  if (parsed === undefined) {
    parsed = JSON.parse(key) as unknown;
    if (specs.size >= MAX_SPECS) specs.clear();
    specs.set(key, parsed);
  }
  return parsed as T;
}

/**
 * Makes `noted_value(spec, value_json)`, `noted_text(spec, text)`, `noted_rank(rowid, bm25)` and the
 * aggregate `noted_scores(id, score)` available on this connection.
 */
export function registerSearchFunctions(db: Db): void {
  if (registered.has(db)) return;
  db.function('noted_value', { deterministic: true }, (s: unknown, json: unknown) =>
    typeof json === 'string' && valueMatches(spec<PropertyValue>(s), JSON.parse(json)) ? 1 : 0,
  );
  db.function('noted_text', { deterministic: true }, (s: unknown, text: unknown) =>
    typeof text === 'string' && textMatches(spec<QueryNode>(s), text) ? 1 : 0,
  );
  // Rows and scores of the rows that pass the aggregate's FILTER, as JSON (doubles survive it
  // exactly), so one pass over a text's matches counts them all and scores a few (top-rows.ts).
  db.aggregate('noted_scores', {
    varargs: true,
    start: () => [] as number[],
    step: (acc: number[], ...row: unknown[]) => {
      acc.push(Number(row[0]), Number(row[1]));
      return acc;
    },
    result: (acc: number[]) => JSON.stringify(acc),
  });
  // Lucene's BM25 of a row for a text of several phrases, from the parts scored before the statement
  // runs and the row's bm25() of the whole text.
  db.function('noted_rank', (id: unknown, whole: unknown) => rankScore(db, Number(id), Number(whole)));
  registered.add(db);
}
