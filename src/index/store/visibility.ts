/**
 * @module
 * How the read queries leave out files the caller may not see (SPEC 4, `hidden`: as if absent).
 *
 * Most queries take an optional `visible(path)` predicate over vault-relative paths (notes and
 * attachments). A path it rejects is dropped from results, from counts, from link candidates (so it
 * is never a link target and never takes part in a tie) and as a link source (its links count
 * nowhere). Without the predicate everything indexed is visible.
 *
 * Search goes further, because a score is something an agent can read: FTS5 ranks with statistics
 * over every row of its table (the number of notes, their average length, how many hold each word),
 * so a hidden note that had a row there would change the scores and order of visible ones, and the
 * time a word takes would show how many hidden notes hold it. A hidden note therefore has no full-text
 * row at all, and `notes.visible` is 0. The other tools' time has the same concern (issue 35 finding
 * 5): the rows of its links, tags, tasks and aliases carry the flag too, first in the index each is
 * looked up by ({@link visibleRows}), so a lookup for visible notes never reaches them. Which notes
 * those are follows from the policy, which the gate reads on every request and which may change at any
 * moment, while several server processes share the one index file: so the index records, in `meta`,
 * the key of the rules its rows follow ({@link IndexVisibility}), and partition.ts brings the rows in
 * line when a request comes with other rules.
 */

import { type Db, reusedStatement } from '../db/database.js';

/** True when the caller may see the note or attachment at this vault-relative path. */
export type Visible = (path: string) => boolean;

export interface VisibilityOption {
  readonly visible?: Visible;
  /**
   * The key of the rules `visible` follows ({@link IndexVisibility}). When the index's rows follow
   * the same rules, queries leave hidden notes out in SQL by `notes.visible` (hiddenNotesOut), so that
   * how long they take does not grow with what hidden notes hold (issue 35); `visible` still has the
   * last word on every row.
   */
  readonly visibilityKey?: string;
}

/**
 * The SQL condition, over the notes table's alias `alias`, that leaves hidden notes out of a query
 * itself; null when nothing is hidden, or when the index's rows do not follow the caller's rules.
 */
export function hiddenNotesOut(db: Db, options: VisibilityOption, alias = 'n'): string | null {
  if (options.visible === undefined || options.visibilityKey === undefined) return null;
  return storedVisibility(db) === options.visibilityKey ? `${alias}.visible = 1` : null;
}

/**
 * The SQL condition on the `visible` flag that the rows of note_links, note_tag_prefixes, note_tasks and
 * note_aliases carry (their note's, schema.ts), over the alias `alias`. Their lookup indexes lead with
 * the flag, so `= 1` reads the visible notes' rows alone: how long a lookup takes does not grow with
 * what hidden notes hold, as no full-text row of theirs exists for search (issue 35 finding 5). That
 * is the condition when the index's rows follow the caller's rules, and without a predicate when they
 * follow EVERYTHING_VISIBLE (every flag is 1). Otherwise `IN (0, 1)`, which drops nothing (`visible`
 * then judges every row) but keeps those indexes usable.
 */
export function visibleRows(db: Db, options: VisibilityOption, alias: string): string {
  return rowsFollow(db, options) ? `${alias}.visible = 1` : `${alias}.visible IN (0, 1)`;
}

/** Whether every row's `visible` flag is what the caller's rules say of its note (see visibleRows). */
export function rowsFollow(db: Db, options: VisibilityOption): boolean {
  const key = options.visible === undefined ? EVERYTHING_VISIBLE.key : options.visibilityKey;
  return key !== undefined && storedVisibility(db) === key;
}

/**
 * The ids of the notes `visible` rejects, for queries that count over the whole vault in SQL (tag
 * counts). One pass over the notes table; empty without a predicate.
 */
export function hiddenNoteIds(db: Db, visible: Visible | undefined): number[] {
  if (!visible) return [];
  const hidden: number[] = [];
  const rows = db.prepare<[], [number, string]>('SELECT id, path FROM notes').raw().all();
  for (const [id, path] of rows) if (!visible(path)) hidden.push(id);
  return hidden;
}

/**
 * The rules deciding which notes agents may see, as the index applies them: `visible` judges a note by
 * its real vault-relative path (symbolic links resolved); `key` names the rules, so that two requests
 * with equal keys would judge every path alike (a policy that changes only read-only into read-write
 * keeps its key).
 */
export interface IndexVisibility {
  readonly key: string;
  visible(realPath: string): boolean;
}

/** No policy, or one that hides nothing: every note is visible. */
export const EVERYTHING_VISIBLE: IndexVisibility = { key: 'all', visible: () => true };

const META_KEY = 'visibility';

/**
 * The key of the rules every note's `visible` flag and full-text row follow; `''` when they follow no
 * one set of rules (a new index, a partition left half done, writes by other rules).
 */
export function storedVisibility(db: Db): string {
  // Read on every request: a statement prepared once (about 40 µs less).
  const row = reusedStatement<[string], { value: string }>(db, 'SELECT value FROM meta WHERE key = ?').get(
    META_KEY,
  );
  return row?.value ?? '';
}

export function setStoredVisibility(db: Db, key: string): void {
  db.prepare(
    'INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value',
  ).run(META_KEY, key);
}

/**
 * Inside a transaction that judged notes by the rules `key`: when the index follows other rules, it
 * no longer follows any one set, and says so.
 */
export function markVisibilityStale(db: Db, key: string): void {
  const stored = storedVisibility(db);
  if (stored !== key && stored !== '') setStoredVisibility(db, '');
}
