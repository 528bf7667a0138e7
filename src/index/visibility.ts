/**
 * @module
 * How the read queries leave out files the caller may not see (SPEC 4, `hidden`: as if absent).
 * Every query takes an optional `visible(path)` predicate over vault-relative paths (notes and
 * attachments). A path it rejects is dropped from results, from counts, from link candidates (so it
 * is never a link target and never takes part in a tie) and as a link source (its links count
 * nowhere). Without the predicate everything indexed is visible.
 */

import type { Db } from './database.js';

/** True when the caller may see the note or attachment at this vault-relative path. */
export type Visible = (path: string) => boolean;

export interface VisibilityOption {
  readonly visible?: Visible;
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
