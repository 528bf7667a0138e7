/**
 * @module
 * Recording the change feed (SPEC 12.1). The index's writer (store.ts) reports each note it puts or
 * removes; the changes of a transaction are written into `changes`, numbered, inside that same
 * transaction, so the feed and the notes' rows never disagree, whoever made the change (a tool, the
 * watcher, the start-up sync, another server process on the same index).
 *
 * - The feed starts when the index is first built: the notes found then are not changes (a cursor from
 *   before cannot exist, the index being new). `feed_id` in `meta` names this feed; a cursor carries it.
 * - A note whose text is unchanged (same etag) is no change, whatever its time or inode; except at a
 *   path the feed last said a note moved away from: a note there now is a new one (`created`).
 * - Moves: a new path is a move when the gate claimed it as one (below), or when it has the inode and
 *   etag of a note that is gone, the way an editor's rename, `mv` or `git mv` leave it. Both ends must be
 *   seen by one transaction (a tool's move, a watcher batch, the start-up sync), or the old one still
 *   indexed with its file gone; a rename seen in two steps is a deletion and a creation, which replay to
 *   the same vault. The old path's rows go with a move the index found (store.ts), so they cannot later
 *   pass for a note that is still there.
 * - Attribution: before an agent's change is made, the gate records a claim (path, etag after, session,
 *   client, source of a move). The change that matches it is the agent's, in any process.
 * - Retention: a change is dropped when it is both older than 30 days and not among the latest
 *   100,000; `feed_pruned_seq` remembers the last dropped, so an older cursor is told to reset.
 */
import { randomBytes } from 'node:crypto';
import type { Db } from '../db/database.js';

export const FEED_KEEP_DAYS = 30;
export const FEED_KEEP_CHANGES = 100_000;
/** A claim the gate made is forgotten after this long (the change it announced did not happen). */
const CLAIM_TTL_MS = 10 * 60 * 1000;

export type ChangeKind = 'created' | 'modified' | 'deleted' | 'moved';

/** What the gate announces before an agent's change is made. */
export interface ChangeClaim {
  readonly path: string;
  /** The note's etag after the change; null for a deletion. */
  readonly etag: string | null;
  /** For a move, the note's old path. */
  readonly from?: string;
  readonly session: string;
  readonly client: string | null;
}

export interface Put {
  readonly op: 'put';
  readonly path: string;
  readonly ino: number;
  readonly etag: string;
  /** The etag the index held for this path, or null for a new path. */
  readonly before: string | null;
  /** An indexed note this new path was renamed from, whose rows are still there (renamedFrom). */
  readonly movedFrom?: string;
}

export interface Removal {
  readonly op: 'remove';
  readonly path: string;
  readonly ino: number;
  readonly etag: string;
  /** The note's stable key (notes.uid, or its row id): a move paired with this removal carries it on. */
  readonly uid: number;
}

export type Pending = Put | Removal;

export interface FeedState {
  root: string | null;
  pending: Pending[];
}

const states = new WeakMap<Db, FeedState>();

export function stateOf(db: Db): FeedState {
  let state = states.get(db);
  if (state === undefined) {
    state = { root: null, pending: [] };
    states.set(db, state);
  }
  return state;
}

/** Tells the feed where the vault is, to see whether a renamed note's old file is gone. */
export function attachFeed(db: Db, root: string): void {
  stateOf(db).root = root;
}

function meta(db: Db, key: string): string | undefined {
  return db.prepare<[string], { value: string }>('SELECT value FROM meta WHERE key = ?').get(key)?.value;
}

/** True once the feed records: after the index's first build. */
export function feedStarted(db: Db): boolean {
  return meta(db, 'feed_id') !== undefined;
}

/** Starts the feed after the first build (a no-op later, also when another process started it). */
export function startFeed(db: Db, nowMs: number): void {
  if (feedStarted(db)) return;
  db.transaction(() => {
    const insert = db.prepare('INSERT OR IGNORE INTO meta(key, value) VALUES (?, ?)');
    insert.run('feed_id', randomBytes(8).toString('hex'));
    insert.run('feed_started_at', String(nowMs));
    // The key list_changes seals cursors with, made with the feed (feedCursorKey makes it for a feed from before).
    insert.run('feed_cursor_key', randomBytes(32).toString('hex'));
  }).immediate();
}

/** The feed's identity and where it stands: its id, the last seq given, what retention dropped. */
export interface FeedPosition {
  readonly id: string;
  readonly startedAt: number;
  readonly lastSeq: number;
  readonly prunedSeq: number;
  readonly prunedAt: number;
}

export function feedPosition(db: Db): FeedPosition | null {
  const id = meta(db, 'feed_id');
  if (id === undefined) return null;
  const last = db
    .prepare<[], { seq: number }>("SELECT seq FROM sqlite_sequence WHERE name = 'changes'")
    .get();
  return {
    id,
    startedAt: Number(meta(db, 'feed_started_at') ?? 0),
    lastSeq: last?.seq ?? 0,
    prunedSeq: Number(meta(db, 'feed_pruned_seq') ?? 0),
    prunedAt: Number(meta(db, 'feed_pruned_at') ?? 0),
  };
}

/**
 * The key list_changes seals its cursors with (common/cursor.ts), made at random the first time it is
 * asked for and kept in `meta` with the feed, so that every server process on the index reads the
 * others' cursors, and a cursor outlives restarts as the feed does.
 */
export function feedCursorKey(db: Db): Buffer {
  const stored = meta(db, 'feed_cursor_key');
  if (stored !== undefined) return Buffer.from(stored, 'hex');
  db.prepare('INSERT OR IGNORE INTO meta(key, value) VALUES (?, ?)').run(
    'feed_cursor_key',
    randomBytes(32).toString('hex'),
  );
  // Another process may have made it first: the stored one holds.
  return Buffer.from(meta(db, 'feed_cursor_key') as string, 'hex');
}

/** Records the gate's claims for changes about to be made, in one small transaction. */
export function recordClaims(db: Db, claims: readonly ChangeClaim[], nowMs: number): void {
  if (claims.length === 0) return;
  db.transaction(() => {
    db.prepare('DELETE FROM change_claims WHERE at_ms < ?').run(nowMs - CLAIM_TTL_MS);
    const insert = db.prepare(
      'INSERT INTO change_claims(path, etag, from_path, session, client, at_ms) VALUES (?, ?, ?, ?, ?, ?)',
    );
    for (const c of claims) insert.run(c.path, c.etag, c.from ?? null, c.session, c.client, nowMs);
  }).immediate();
}

/** Drops changes both older than 30 days and beyond the latest 100,000; remembers what it dropped. */
export function pruneFeed(db: Db, nowMs: number): void {
  const last = feedPosition(db)?.lastSeq ?? 0;
  const cutoff = nowMs - FEED_KEEP_DAYS * 86_400_000;
  const dropped = db
    .prepare<[number, number], { seq: number | null; at: number | null }>(
      'SELECT max(seq) AS seq, max(at_ms) AS at FROM changes WHERE seq <= ? AND at_ms < ?',
    )
    .get(last - FEED_KEEP_CHANGES, cutoff);
  if (dropped?.seq == null) return;
  const run = () => {
    db.prepare('DELETE FROM changes WHERE seq <= ?').run(dropped.seq);
    const upsert = db.prepare(
      'INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value',
    );
    upsert.run('feed_pruned_seq', String(dropped.seq));
    upsert.run('feed_pruned_at', String(dropped.at));
  };
  if (db.inTransaction) run();
  else db.transaction(run).immediate();
}

/** One recorded change, as stored. */
export interface ChangeRow {
  readonly seq: number;
  readonly at_ms: number;
  readonly path: string;
  readonly kind: ChangeKind;
  readonly from_path: string | null;
  readonly etag: string | null;
  readonly session: string | null;
  readonly client: string | null;
  readonly real: string | null;
}

/** Up to `limit` changes after `afterSeq`, oldest first. */
export function changesAfter(db: Db, afterSeq: number, limit: number): ChangeRow[] {
  return db
    .prepare<[number, number], ChangeRow>(
      `SELECT seq, at_ms, path, kind, from_path, etag, session, client, real FROM changes
       WHERE seq > ? ORDER BY seq LIMIT ?`,
    )
    .all(afterSeq, limit);
}

/** The first change recorded at or after `ms`, or null when there is none yet. */
export function firstSeqFrom(db: Db, ms: number): number | null {
  return (
    db
      .prepare<[number], { seq: number | null }>('SELECT min(seq) AS seq FROM changes WHERE at_ms >= ?')
      .get(ms)?.seq ?? null
  );
}
