/**
 * @module
 * The feed's recorder: what one index writer reports (notes put and removed) becomes numbered changes
 * in the writer's transaction, with moves paired (claimed by the gate, or found by inode and etag) and
 * agents' claims taken. feed.ts holds the feed's tables, claims, cursors and retention.
 */
import fs from 'node:fs';
import path from 'node:path';
import { type Db, reusedStatement } from '../db/database.js';
import {
  type ChangeKind,
  type FeedState,
  feedStarted,
  type Pending,
  type Put,
  pruneFeed,
  type Removal,
  stateOf,
} from './feed.js';

/** Retention is applied every this many changes. */
const PRUNE_EVERY = 1000;

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
      if (source !== null) {
        movedFrom.add(source);
        carryKey(db, source, change.path, removals);
      }
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
  /** Removed path → the stable key its note had (the last removal of the path, if several). */
  private readonly paths = new Map<string, number>();
  /** `ino etag` → the paths removed with that inode and etag, in order. */
  private readonly twins = new Map<string, string[]>();

  constructor(pending: readonly Pending[]) {
    for (const p of pending) {
      if (p.op !== 'remove') continue;
      this.paths.set(p.path, p.uid);
      const key = `${p.ino} ${p.etag}`;
      const same = this.twins.get(key);
      if (same === undefined) this.twins.set(key, [p.path]);
      else same.push(p.path);
    }
  }

  has(rel: string): boolean {
    return this.paths.has(rel);
  }

  keyOf(rel: string): number | undefined {
    return this.paths.get(rel);
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

/**
 * A move keeps the note's stable key (SPEC 17.3): the new path's row takes the key the old path's row
 * had. When the old row is still there (its file gone, its removal to come), the two rows trade keys,
 * so that no key is ever held by two rows.
 */
function carryKey(db: Db, from: string, to: string, removals: Removals): void {
  // Statements kept with the connection: a folder move pairs one move per note.
  const keyAt = reusedStatement<[string], { uid: number }>(
    db,
    'SELECT coalesce(uid, id) AS uid FROM notes WHERE path = ?',
  );
  const setKey = reusedStatement<[number, string], unknown>(db, 'UPDATE notes SET uid = ? WHERE path = ?');
  const removed = removals.keyOf(from);
  if (removed !== undefined) {
    setKey.run(removed, to);
    return;
  }
  const old = keyAt.get(from);
  const now = keyAt.get(to);
  if (old === undefined || now === undefined) return;
  setKey.run(now.uid, from);
  setKey.run(old.uid, to);
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
