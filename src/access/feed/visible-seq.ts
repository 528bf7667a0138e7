/**
 * @module
 * The numbers list_changes gives changes (SPEC 12.1, issue 35): a change's place among the changes the
 * caller's rules let it see, so that the numbers run on without a gap where a hidden note changed.
 * The feed's own sequence counts every change; given out, its gaps told how often hidden notes changed.
 *
 * With nothing hidden the two are the same. Otherwise the changes are counted from the oldest the feed
 * holds, once per process and rules (the count is kept, by the rules' key, and carried on from there),
 * so a number stays put while the rules do; new rules number the changes they let the caller see anew.
 */

import type { Db } from '../../index/db/database.js';
import type { ChangeRow, FeedPosition } from '../../index/feed/feed.js';
import { changesAfter } from '../../index/feed/feed.js';

interface Counted {
  /** The feed's own sequence up to which changes were counted. */
  readonly seq: number;
  /** How many of them the rules let the caller see. */
  readonly count: number;
}

/** Counts kept per index, by feed and rules; few rules are ever in use at once. */
const kept = new WeakMap<Db, Map<string, Counted>>();
const MAX_KEPT = 32;
/** Changes read per query while counting. */
const CHUNK = 1000;

export class VisibleNumbering {
  private readonly key: string;

  constructor(
    private readonly db: Db,
    feed: FeedPosition,
    rulesKey: string,
    /** Whether the caller sees the change anywhere in the vault; null when nothing is hidden. */
    private readonly seen: ((row: ChangeRow) => boolean) | null,
  ) {
    this.key = `${feed.id}\u0000${rulesKey}`;
  }

  /** How many changes the caller sees among those up to the feed's sequence `seq`. */
  countUpTo(seq: number): number {
    if (this.seen === null) return seq;
    const counts = this.counts();
    const from = counts.get(this.key);
    let at = from !== undefined && from.seq <= seq ? from.seq : 0;
    let count = from !== undefined && from.seq <= seq ? from.count : 0;
    while (at < seq) {
      const rows = changesAfter(this.db, at, CHUNK);
      if (rows.length === 0) break;
      for (const row of rows) {
        if (row.seq > seq) break;
        at = row.seq;
        if (this.seen(row)) count++;
      }
      if ((rows[rows.length - 1] as ChangeRow).seq > seq) break;
    }
    this.remember(seq, count);
    return count;
  }

  /** Keeps the count reached at `seq`, to carry on from next time. */
  remember(seq: number, count: number): void {
    if (this.seen === null) return;
    const counts = this.counts();
    const had = counts.get(this.key);
    if (had !== undefined && had.seq >= seq) return;
    if (!counts.has(this.key) && counts.size >= MAX_KEPT) counts.clear();
    counts.set(this.key, { seq, count });
  }

  private counts(): Map<string, Counted> {
    let counts = kept.get(this.db);
    if (counts === undefined) {
      counts = new Map();
      kept.set(this.db, counts);
    }
    return counts;
  }
}
