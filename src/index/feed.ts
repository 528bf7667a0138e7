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
import fs from 'node:fs';
import path from 'node:path';
import type { Db } from './database.js';

export const FEED_KEEP_DAYS = 30;
export const FEED_KEEP_CHANGES = 100_000;
/** A claim the gate made is forgotten after this long (the change it announced did not happen). */
const CLAIM_TTL_MS = 10 * 60 * 1000;
/** Retention is applied every this many changes. */
const PRUNE_EVERY = 1000;

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

interface Put {
  readonly op: 'put';
  readonly path: string;
  readonly ino: number;
  readonly etag: string;
  /** The etag the index held for this path, or null for a new path. */
  readonly before: string | null;
  /** An indexed note this new path was renamed from, whose rows are still there (renamedFrom). */
  readonly movedFrom?: string;
}

interface Removal {
  readonly op: 'remove';
  readonly path: string;
  readonly ino: number;
  readonly etag: string;
}

type Pending = Put | Removal;

interface FeedState {
  root: string | null;
  pending: Pending[];
}

const states = new WeakMap<Db, FeedState>();

function stateOf(db: Db): FeedState {
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

interface ClaimRow {
  readonly rowid: number;
  readonly from_path: string | null;
  readonly session: string;
  readonly client: string | null;
}

/**
 * What one index writer reports to the feed. Inactive until the feed has started, so the first build
 * records nothing and pays nothing.
 */
export class FeedRecorder {
  readonly active: boolean;
  private readonly state: FeedState;

  constructor(private readonly db: Db) {
    this.active = feedStarted(db);
    this.state = stateOf(db);
  }

  /** A note written; with its text unchanged it is recorded only where a note had moved away (flush). */
  put(change: Omit<Put, 'op'>): void {
    this.state.pending.push({ op: 'put', ...change });
  }

  removed(change: Omit<Removal, 'op'>): void {
    this.state.pending.push({ op: 'remove', ...change });
  }

  /**
   * For a new path: the indexed note it was renamed from, when one has its inode and etag and its own
   * file is gone (or is another file now). The caller takes its rows out as part of the move.
   */
  renamedFrom(newPath: string, ino: number, etag: string): string | null {
    const root = this.state.root;
    if (root === null) return null;
    // A bulk build drops the inode index (secondary-indexes.ts): without it this look-up would read
    // every note for every new one, so a rename found then is a deletion and a creation instead.
    const indexed = this.db
      .prepare("SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = 'notes_ino'")
      .get();
    if (indexed === undefined) return null;
    const rows = this.db
      .prepare<[number, string], { path: string; etag: string }>(
        'SELECT path, etag FROM notes WHERE ino = ? AND path != ?',
      )
      .all(ino, newPath);
    for (const row of rows) {
      if (row.etag === etag && !stillThere(root, row.path, ino)) return row.path;
    }
    return null;
  }

  /** Forgets the changes of a transaction that did not commit. */
  discard(): void {
    this.state.pending = [];
  }

  /** Writes the transaction's changes. Call inside the transaction, once, at its end. */
  flush(nowMs: number): void {
    const pending = this.state.pending;
    this.state.pending = [];
    if (!this.active || pending.length === 0) return;
    const db = this.db;
    const takeClaim = claimTaker(db);
    const removals = new Removals(pending);
    /** Old paths of the moves of this transaction. */
    const movedFrom = new Set<string>();
    const rows: Row[] = [];
    for (const change of pending) {
      if (change.op === 'remove') {
        rows.push({ path: change.path, kind: 'deleted', from: null, etag: null, claim: null });
        continue;
      }
      if (change.before !== null) {
        // Rows left at a path a note moved away from (the move was claimed and found before this path
        // was synced) describe the note that left: what is there now is new, even with the same text.
        const renewed = movedFrom.has(change.path) || movedAway(db, change.path);
        if (change.before === change.etag && !renewed) continue;
        const claim = takeClaim(change.path, change.etag);
        rows.push({
          path: change.path,
          kind: renewed ? 'created' : 'modified',
          from: null,
          etag: change.etag,
          claim,
        });
        continue;
      }
      const claim = takeClaim(change.path, change.etag);
      const source = this.sourceOf(change, claim, removals, movedFrom);
      if (source !== null) movedFrom.add(source);
      rows.push({
        path: change.path,
        kind: source === null ? 'created' : 'moved',
        from: source,
        etag: change.etag,
        claim,
      });
    }
    const insert = db.prepare(
      'INSERT INTO changes(at_ms, path, kind, from_path, etag, session, client, real) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    );
    const root = this.state.root;
    let written = 0;
    let last = 0;
    for (const row of rows) {
      // The removal of a moved note's old rows is part of its move: in this transaction, or later (the
      // start-up sync removes what it did not find after writing what it found; another process may
      // remove rows whose move this one recorded).
      if (row.kind === 'deleted' && (movedFrom.has(row.path) || movedAway(db, row.path))) continue;
      const claim = row.kind === 'deleted' ? takeClaim(row.path, null) : row.claim;
      const real = row.kind === 'deleted' ? lastReal(db, row.path) : realOf(root, row.path);
      const info = insert.run(
        nowMs,
        row.path,
        row.kind,
        row.from,
        row.etag,
        claim?.session ?? null,
        claim?.client ?? null,
        real,
      );
      last = Number(info.lastInsertRowid);
      written++;
    }
    if (last !== 0 && Math.floor(last / PRUNE_EVERY) !== Math.floor((last - written) / PRUNE_EVERY)) {
      pruneFeed(db, nowMs);
    }
  }

  /**
   * Where a new note was moved from, if anywhere: the old path a claim names (when that note goes in
   * this transaction, or its rows are still there but its file is gone), the note renamedFrom found,
   * or a note removed in this transaction that had the same inode and etag. Each old path pairs once.
   */
  private sourceOf(
    change: Put,
    claim: ClaimRow | null,
    removals: Removals,
    taken: ReadonlySet<string>,
  ): string | null {
    const free = (p: string) => !taken.has(p);
    const claimed = claim?.from_path ?? null;
    if (claimed !== null && free(claimed)) {
      if (removals.has(claimed)) return claimed;
      const root = this.state.root;
      const indexed = this.db
        .prepare<[string], { ino: number }>('SELECT ino FROM notes WHERE path = ?')
        .get(claimed);
      if (root !== null && indexed !== undefined && !stillThere(root, claimed, indexed.ino)) return claimed;
    }
    if (change.movedFrom !== undefined && free(change.movedFrom)) return change.movedFrom;
    return removals.twinOf(change, taken);
  }
}

/**
 * A transaction's removals, by path and by inode and etag: a folder renamed as a whole is thousands of
 * removals and as many new paths, each paired with its twin in one look-up, not a search of the batch.
 */
class Removals {
  private readonly paths = new Set<string>();
  /** `ino etag` → the paths removed with that inode and etag, in order. */
  private readonly twins = new Map<string, string[]>();

  constructor(pending: readonly Pending[]) {
    for (const p of pending) {
      if (p.op !== 'remove') continue;
      this.paths.add(p.path);
      const key = `${p.ino} ${p.etag}`;
      const same = this.twins.get(key);
      if (same === undefined) this.twins.set(key, [p.path]);
      else same.push(p.path);
    }
  }

  has(rel: string): boolean {
    return this.paths.has(rel);
  }

  /** The first removed path with the note's inode and etag not yet `taken`. */
  twinOf(note: { readonly ino: number; readonly etag: string }, taken: ReadonlySet<string>): string | null {
    const same = this.twins.get(`${note.ino} ${note.etag}`);
    if (same === undefined) return null;
    // Paths taken (paired already) stay taken: dropping them keeps each list's look-ups short.
    while (same.length > 0 && taken.has(same[0] as string)) same.shift();
    return same[0] ?? null;
  }
}

interface Row {
  readonly path: string;
  readonly kind: ChangeKind;
  readonly from: string | null;
  readonly etag: string | null;
  readonly claim: ClaimRow | null;
}

/** Finds and uses up the claim for a change: the path and its etag after (null: deleted). */
function claimTaker(db: Db): (path: string, etag: string | null) => ClaimRow | null {
  const select = db.prepare<[string, string | null], ClaimRow>(
    'SELECT rowid, from_path, session, client FROM change_claims WHERE path = ? AND etag IS ? ORDER BY rowid LIMIT 1',
  );
  const remove = db.prepare('DELETE FROM change_claims WHERE rowid = ?');
  return (path, etag) => {
    const claim = select.get(path, etag);
    if (claim !== undefined) remove.run(claim.rowid);
    return claim ?? null;
  };
}

/** True when the feed's last word on `rel` is that it moved away (no change to it since). */
function movedAway(db: Db, rel: string): boolean {
  const away = db
    .prepare<[string], { seq: number }>(
      "SELECT seq FROM changes WHERE from_path = ? AND kind = 'moved' ORDER BY seq DESC LIMIT 1",
    )
    .get(rel);
  if (away === undefined) return false;
  const since = db
    .prepare<[string, number], { seq: number }>('SELECT seq FROM changes WHERE path = ? AND seq > ? LIMIT 1')
    .get(rel, away.seq);
  return since === undefined;
}

/** True when `rel` is still the file with inode `ino`. */
function stillThere(root: string, rel: string, ino: number): boolean {
  try {
    return fs.statSync(path.join(root, ...rel.split('/'))).ino === ino;
  } catch {
    return false;
  }
}

/** Where a note reached through a symbolic link really is (vault-relative), or null when it is not linked. */
function realOf(root: string | null, rel: string): string | null {
  if (root === null) return null;
  try {
    const real = path
      .relative(root, fs.realpathSync(path.join(root, ...rel.split('/'))))
      .split(path.sep)
      .join('/');
    return real === rel ? null : real;
  } catch {
    return null;
  }
}

/** A removed note's real location, as its last recorded change gave it. */
function lastReal(db: Db, rel: string): string | null {
  return (
    db
      .prepare<[string], { real: string | null }>(
        'SELECT real FROM changes WHERE path = ? ORDER BY seq DESC LIMIT 1',
      )
      .get(rel)?.real ?? null
  );
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
