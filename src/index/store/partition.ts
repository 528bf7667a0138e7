/**
 * @module
 * Brings the index in line with the rules of a request (visibility.ts): a note agents may no longer see
 * loses its full-text row and its other rows are flagged hidden, one they may now see gets it back,
 * read again from its file (the table is contentless, so its words are nowhere else). The first request
 * after the policy changed pays for it: hiding costs a delete and a few flag changes per note,
 * re-reading a note what indexing it costs.
 *
 * Several processes share the index and each reads the policy for itself, so the work is written in
 * IMMEDIATE transactions that look again at what they change, and the rules' key is recorded only by
 * the transaction that finds nothing left to change.
 */
import { NotedError } from '../../common/errors.js';
import type { Db } from '../db/database.js';
import { IndexWriter } from './store.js';
import {
  EVERYTHING_VISIBLE,
  type IndexVisibility,
  setStoredVisibility,
  storedVisibility,
} from './visibility.js';

export interface PartitionResult {
  /** Notes that lost their full-text row. */
  readonly hidden: number;
  /** Notes read again to get it back. */
  readonly shown: number;
}

/** Notes re-read per transaction, so that other processes wait for the write lock briefly. */
const SHOW_BATCH = 500;
/**
 * Passes over the notes before giving up; each pass but the last makes progress unless another
 * process keeps changing the index by other rules (a policy file being rewritten as we go).
 */
const MAX_PASSES = 4;

/**
 * Makes every note's `visible` flag and full-text row follow `visibility`. `realPathOf` gives a note's
 * real vault-relative path (the one the policy judges); `reindex` syncs the notes to show by these
 * rules (re-reading them) and says how many it read. Cheap when the index already follows these rules:
 * one read of `meta`.
 */
export function applyVisibility(
  db: Db,
  visibility: IndexVisibility,
  realPathOf: (name: string) => string,
  reindex: (paths: string[]) => number,
): PartitionResult {
  let hidden = 0;
  let shown = 0;
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    if (storedVisibility(db) === visibility.key) return { hidden, shown };
    const writer = new IndexWriter(db, visibility.key);
    let toShow: string[] = [];
    writer.write(() => {
      // Looked at again under the write lock: another process may have done it meanwhile.
      if (storedVisibility(db) === visibility.key) return;
      // With nothing hidden, only the hidden rows need looking at.
      const everything = visibility.key === EVERYTHING_VISIBLE.key;
      const rows = db
        .prepare<[], [number, string, number]>(
          `SELECT id, path, visible FROM notes${everything ? ' WHERE visible = 0' : ''}`,
        )
        .raw()
        .all();
      toShow = [];
      for (const [id, path, flag] of rows) {
        const wanted = visibility.visible(realPathOf(path));
        if (wanted === (flag === 1)) continue;
        if (wanted) {
          toShow.push(path);
        } else {
          writer.hide(id);
          hidden++;
        }
      }
      setStoredVisibility(db, toShow.length === 0 ? visibility.key : '');
    });
    // A note no longer there is taken out instead; one changed meanwhile is read as it is now.
    for (let i = 0; i < toShow.length; i += SHOW_BATCH) shown += reindex(toShow.slice(i, i + SHOW_BATCH));
  }
  if (storedVisibility(db) === visibility.key) return { hidden, shown };
  throw new NotedError(
    'busy',
    'The search index could not be brought in line with the access policy: another server process kept changing it by other rules (is the policy file being rewritten?). Try again in a moment.',
  );
}
