/**
 * @module
 * What the search checks (search/check/check.ts) read of one note from the index: its tags, its tasks and
 * its properties, each with one reused statement.
 */
import { type Db, reusedStatement } from '../../db/database.js';
import type { PropertyFact, TaskFact } from '../check/check.js';

export function noteTags(db: Db, id: number): string[] {
  return reusedStatement<[number], { tag: string }>(db, 'SELECT tag FROM note_tags WHERE note_id = ?')
    .all(id)
    .map((r) => r.tag);
}

/**
 * The tags of several notes in one statement (a page of hits asks for all of theirs at once; one
 * statement per note was a tenth of a plain search's time). A note without tags maps to [].
 */
export function tagsOfNotes(db: Db, ids: readonly number[]): Map<number, string[]> {
  const out = new Map<number, string[]>(ids.map((id) => [id, []]));
  if (ids.length === 0) return out;
  const rows = reusedStatement<number[], { note_id: number; tag: string }>(
    db,
    `SELECT note_id, tag FROM note_tags WHERE note_id IN (${ids.map(() => '?').join(',')}) ORDER BY note_id, rowid`,
  ).all(...ids);
  for (const r of rows) out.get(r.note_id)?.push(r.tag);
  return out;
}

export function noteTasks(db: Db, id: number): TaskFact[] {
  return reusedStatement<[number], { line: number; text: string; done: number }>(
    db,
    'SELECT line, text, done FROM note_tasks WHERE note_id = ? ORDER BY line',
  )
    .all(id)
    .map((r) => ({ line: r.line, text: r.text, done: r.done === 1 }));
}

export function noteProperties(db: Db, id: number): PropertyFact[] {
  return reusedStatement<[number], { key: string; value_json: string }>(
    db,
    'SELECT key, value_json FROM note_props WHERE note_id = ? ORDER BY ord',
  )
    .all(id)
    .map((r) => ({ key: r.key, value: JSON.parse(r.value_json) as unknown }));
}

/**
 * Property names of visible notes close to `name` (for "did you mean [title]?"): only names a note
 * the request may see holds, so a refusal never tells of a hidden note's properties.
 */
export function visiblePropertyNames(
  db: Db,
  isClose: (key: string) => boolean,
  visible: (path: string) => boolean,
): string[] {
  const keys = reusedStatement<[], { key: string }>(
    db,
    'SELECT DISTINCT p.key AS key FROM note_props p JOIN notes n ON n.id = p.note_id WHERE n.visible = 1 LIMIT 10000',
  ).all();
  const out: string[] = [];
  for (const { key } of keys) {
    if (!isClose(key)) continue;
    const holders = reusedStatement<[string], { path: string }>(
      db,
      'SELECT n.path AS path FROM note_props p JOIN notes n ON n.id = p.note_id WHERE p.key = ? AND n.visible = 1 LIMIT 50',
    ).all(key);
    if (holders.some((h) => visible(h.path))) out.push(key);
    if (out.length >= 3) break;
  }
  return out;
}
