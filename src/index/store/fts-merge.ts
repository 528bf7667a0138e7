/**
 * @module
 * When FTS5 merges its segments. Every commit that writes to `notes_fts` adds a segment, and with
 * FTS5's `automerge` on, the same commit also does merge work in proportion: re-indexing the
 * thousand notes a move rewrote wrote 4,500 pages where the notes themselves needed 260, and the
 * commit took 100–350 ms more (measured on a 100k-note index). Large writes therefore run with
 * automerge off and leave the merging to `mergeStep`, which the caller runs in small steps after it
 * has answered; a bulk load uses its own settings.
 *
 * FTS5 keeps these options in the index file itself, shared by every process: a process stopped in
 * the middle leaves them changed, and `restoreFtsDefaults` puts them back on the next start.
 */
import type { Db } from '../db/database.js';

/** FTS5's defaults, which every write but the ones below runs with. */
const DEFAULT_AUTOMERGE = 4;
const DEFAULT_CRISISMERGE = 16;
/**
 * During a build, segments pile up unmerged (a 2,000-note commit makes one, 50 at 100k notes) and are
 * merged once, into one, at the end; FTS5 merges anyway if a level ever holds this many.
 */
const BUILD_CRISISMERGE = 200;
/** FTS5's own default for the terms it gathers in memory before writing them out (1 MiB). */
const DEFAULT_FTS_HASH_BYTES = 1024 * 1024;
/**
 * During a build, FTS5 may gather up to this much before writing: a commit's notes then make one
 * segment, not one per MiB. Memory is bounded by what one commit writes (about 60 MB at most).
 */
const BUILD_FTS_HASH_BYTES = 64 * 1024 * 1024;
/** Pages of merge work per step: a few milliseconds, so a request waits at most that long. */
const MERGE_STEP_PAGES = 64;

type FtsOption = 'automerge' | 'crisismerge' | 'hashsize';

/**
 * FTS5 takes an option's value only as an SQL integer; better-sqlite3 binds every JS number as a
 * real, so the (constant, integer) value goes into the statement's text.
 */
function setFtsOption(db: Db, name: FtsOption, value: number): void {
  db.prepare(`INSERT INTO notes_fts(notes_fts, rank) VALUES('${name}', ${Math.trunc(value)})`).run();
}

function ftsOption(db: Db, name: FtsOption): number | null {
  const row = db.prepare('SELECT v FROM notes_fts_config WHERE k = ?').get(name) as { v: number } | undefined;
  return row === undefined ? null : Number(row.v);
}

/**
 * Puts back the defaults a stopped bulk load or large write may have left changed. True when it had
 * to: the segments that load left unmerged then still want merging.
 */
export function restoreFtsDefaults(db: Db): boolean {
  let changed = false;
  for (const [name, value] of [
    ['automerge', DEFAULT_AUTOMERGE],
    ['crisismerge', DEFAULT_CRISISMERGE],
    ['hashsize', DEFAULT_FTS_HASH_BYTES],
  ] as const) {
    const now = ftsOption(db, name);
    if (now === null || now === value) continue;
    setFtsOption(db, name, value);
    changed = true;
  }
  return changed;
}

/** Runs `write` (one transaction) without FTS5's merge work; follow it with `mergeStep`s. */
export function withoutAutomerge<T>(db: Db, write: () => T): T {
  setFtsOption(db, 'automerge', 0);
  try {
    return write();
  } finally {
    setFtsOption(db, 'automerge', DEFAULT_AUTOMERGE);
  }
}

/**
 * Does one small step of the merge work automerge would have done; false when there was none left.
 * FTS5 documents the test: the command itself counts as one change, so fewer than two means no work.
 */
export function mergeStep(db: Db): boolean {
  const before = totalChanges(db);
  db.prepare(`INSERT INTO notes_fts(notes_fts, rank) VALUES('merge', ${MERGE_STEP_PAGES})`).run();
  return totalChanges(db) - before >= 2;
}

function totalChanges(db: Db): number {
  return (db.prepare('SELECT total_changes() AS n').get() as { n: number }).n;
}

/**
 * Settings for writing thousands of notes at once; returns a function that puts the usual ones back
 * (and, when asked, merges every segment).
 * The index is a cache, so skipping fsync while it is built risks only a rebuild after a power cut.
 * FTS5 does no merging during the load, and at the end merges every segment into one in a single
 * pass ('optimize'): merging level by level as the load goes rewrites the same data more than once
 * (100k notes, writes and merging: 30.3–31.7 s with automerge 16, 26.5–28.9 s so, of which the final
 * merge takes about 3 s; alternating runs).
 */
export function bulkLoadSettings(db: Db): (merge: boolean) => void {
  const putBack = (merge: boolean) => {
    try {
      setFtsOption(db, 'hashsize', DEFAULT_FTS_HASH_BYTES);
      setFtsOption(db, 'crisismerge', DEFAULT_CRISISMERGE);
      setFtsOption(db, 'automerge', DEFAULT_AUTOMERGE);
      if (merge) db.prepare(OPTIMIZE_SQL).run();
    } finally {
      db.pragma('synchronous = NORMAL');
    }
  };
  try {
    db.pragma('synchronous = OFF');
    setFtsOption(db, 'automerge', 0);
    setFtsOption(db, 'crisismerge', BUILD_CRISISMERGE);
    setFtsOption(db, 'hashsize', BUILD_FTS_HASH_BYTES);
  } catch (err) {
    // Left half applied, the options would stay in the file, for every process, until the next start.
    putBack(false);
    throw err;
  }
  // Without the merge (a load that was stopped), FTS5's automerge takes the segments in hand later.
  return (merge) => putBack(merge);
}

const OPTIMIZE_SQL = "INSERT INTO notes_fts(notes_fts) VALUES('optimize')";
/**
 * Pages written per step of {@link mergeAllInSteps}: tens of milliseconds of work, enough that the
 * restarts of the merge between steps cost little.
 */
const FINAL_MERGE_STEP_PAGES = 500;

/**
 * What 'optimize' does at the end of a bulk load (every segment merged into one, each page written
 * once), in steps with `pause` between them, so the thread is never held for the whole index (at
 * 100k notes 'optimize' held it for seconds; it grows with the index). FTS5's 'merge' with a negative
 * page count first puts every segment on one level and starts merging them all, whatever usermerge
 * says; a positive one continues a merge already started, until none is left.
 */
export async function mergeAllInSteps(db: Db, pause: () => Promise<void>): Promise<void> {
  for (let pages = -FINAL_MERGE_STEP_PAGES; ; pages = FINAL_MERGE_STEP_PAGES) {
    await pause();
    const before = totalChanges(db);
    db.prepare(`INSERT INTO notes_fts(notes_fts, rank) VALUES('merge', ${pages})`).run();
    if (totalChanges(db) - before < 2) return;
  }
}

/**
 * Does the merge work a large sync skipped, a small step per turn of the event loop, so requests that
 * arrive meanwhile wait a few milliseconds at most; `done` once there is none left (or it failed).
 */
export function mergeInSteps(
  db: Db,
  on: { stopped: () => boolean; warn: (message: string) => void; done: () => void },
): void {
  const step = () => {
    if (on.stopped()) return;
    let more = false;
    try {
      more = mergeStep(db);
    } catch (err) {
      // Another process holding the write lock: its own writes merge too; try again shortly.
      if ((err as { code?: string }).code === 'SQLITE_BUSY') {
        setTimeout(step, 100).unref();
        return;
      }
      on.warn(`search index merge stopped: ${(err as Error).message}`);
    }
    if (more) setTimeout(step, 0).unref();
    else on.done();
  };
  setTimeout(step, 0).unref();
}
