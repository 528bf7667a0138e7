/**
 * @module
 * The index of a vault: opened (or rebuilt) on start, caught up with every file change before it
 * answers, and shared safely by several server processes (SQLite WAL, busy timeout).
 */

import os from 'node:os';
import { NotedError } from '../../common/errors.js';
import { createWork } from '../../common/work.js';
import { formatOf } from '../../format/formats.js';
import type { Vault } from '../../vault/vault.js';
import { watchVault } from '../../vault/watcher.js';
import { type Db, openIndexDatabase } from '../db/database.js';
import { ensureSecondaryIndexes } from '../db/secondary-indexes.js';
import { attachFeed, type ChangeClaim, pruneFeed, recordClaims, startFeed } from '../feed/feed.js';
import { mergeInSteps, restoreFtsDefaults } from '../store/fts-merge.js';
import { repairFtsTotals } from '../store/fts-totals.js';
import { setIndexFormat } from '../store/index-format.js';
import { applyVisibility, type PartitionResult } from '../store/partition.js';
import type { IndexChange } from '../store/store.js';
import { EVERYTHING_VISIBLE, type IndexVisibility } from '../store/visibility.js';
import { ChangeAnnouncer, type IndexChangesListener } from './changes.js';
import { ParserPool } from './parser-pool.js';
import { PathsToSync } from './paths-to-sync.js';
import { type SyncStats, syncAll, syncAllParallel } from './sync.js';
import { syncPaths } from './sync-paths.js';
import type { IndexLogger, IndexOptions, IndexStartInfo, IndexState } from './types.js';
import { IndexWatch } from './watch.js';

// Where they were first declared; imported from here by the rest of the server.
export type { IndexLogger, IndexOptions, IndexStartInfo, IndexState } from './types.js';

/** Without a watcher, a full rescan runs before a query when the last one is older than this. */
const RESCAN_INTERVAL_MS = 1000;
/** A sync of this many paths defers the full-text index's merging until after the answer. */
const DEFER_MERGE_AT = 100;
/**
 * What the watcher reports is applied this soon, not only before the next query: listeners want to
 * hear of it, and another server process on the vault may rely on it, its own watcher having left
 * out a change this one saw (paths-to-sync.ts), so an idle server must not sit on what it was told.
 */
const APPLY_REPORTED_AFTER_MS = 150;
/**
 * Files whose change time is this close before the watcher started may have events in its first
 * batches (file times come from a clock that runs up to a tick behind).
 */
const WATCH_START_SLACK_MS = 100;

export class NoteIndex {
  readonly db: Db;
  /** What the watcher reported, and own writes to look at again (paths-to-sync.ts). */
  private readonly dirty = new PathsToSync();
  /** Indexed files reached through symbolic links → their real vault-relative paths. */
  private linked = new Map<string, string>();
  private readonly watch: IndexWatch;
  private lastFullScan = 0;
  private closed = false;
  private merging = false;
  /** True once the start-up build is done: from then on a change of rules is applied at once. */
  private started = false;
  /** The rules of the latest request: what every sync judges notes by (visibility.ts). */
  private visibility: IndexVisibility = EVERYTHING_VISIBLE;
  private current: IndexState = { state: 'building', done: 0, total: null, step: 'starting', since: '' };
  private starting: Promise<IndexStartInfo> | null = null;
  /** Stops a build still running when the index is closed (the server is stopping). */
  private readonly stopBuild = new AbortController();
  private readonly changes: ChangeAnnouncer;
  private applySoon: NodeJS.Timeout | undefined;
  /** The watcher started again: the next refresh looks at the whole vault. */
  private needsFullSync = false;

  private constructor(
    private readonly vault: Vault,
    opened: { db: Db; rebuiltBecause: string | null },
    private readonly log: IndexLogger,
    private readonly options: IndexOptions,
  ) {
    this.db = opened.db;
    this.rebuiltBecause = opened.rebuiltBecause;
    attachFeed(this.db, vault.root);
    this.changes = new ChangeAnnouncer(log);
    this.watch = new IndexWatch(vault.root, options.watcher ?? watchVault, log, {
      onChange: (paths) => this.reported(paths),
      restarted: () => {
        this.needsFullSync = true;
        this.applyReportedSoon();
      },
    });
  }

  private readonly rebuiltBecause: string | null;

  static open(vault: Vault, log: IndexLogger, options: IndexOptions = {}): NoteIndex {
    const opened = openIndexDatabase(vault.statePath('index.sqlite'));
    setIndexFormat(opened.db, formatOf(vault));
    return new NoteIndex(vault, opened, log, options);
  }

  /**
   * Starts watching, then brings the index up to date with the files, while the server already
   * answers: `state()` says how far it is, `whenReady()` waits for it. Called once.
   */
  start(options: { watch?: boolean } = {}): Promise<IndexStartInfo> {
    if (this.starting !== null) return this.starting;
    const since = new Date().toISOString();
    this.current = { state: 'building', done: 0, total: null, step: 'starting', since };
    this.starting = this.build(options, since).then(
      (info) => {
        this.current = { state: 'ready' };
        if (info.reindexed > 0 || info.removed > 0) this.changes.announce([], true);
        // What the watcher reported during the build waited for it.
        if (this.dirty.size > 0) this.applyReportedSoon();
        return info;
      },
      (err: unknown) => {
        this.current = { state: 'failed', error: (err as Error).message };
        throw err;
      },
    );
    // Whoever waits on it hears of a failure; the promise itself is never left unhandled.
    this.starting.catch(() => undefined);
    return this.starting;
  }

  /** Where the index stands now. */
  state(): IndexState {
    return this.current;
  }

  /** Resolves once the index is ready; rejects when its start failed. */
  whenReady(): Promise<IndexStartInfo> {
    if (this.starting === null) throw new Error('The index was never started.');
    return this.starting;
  }

  private async build(options: { watch?: boolean }, since: string): Promise<IndexStartInfo> {
    const work = createWork({
      signal: this.stopBuild.signal,
      onProgress: (done, total, step) => {
        this.current = { state: 'building', done, total: total ?? null, step: step ?? 'building', since };
      },
    });
    // The watcher crawls the folders on its own thread; nothing here reads the whole index before
    // the first await, so `initialize` is answered at once whatever the vault's size (SPEC 14.1).
    const watchedFrom = Date.now();
    const watching = options.watch === false ? Promise.resolve() : this.watch.start();
    try {
      // A build stopped midway left them dropped; the sync below would delete rows by scanning.
      const created = ensureSecondaryIndexes(this.db);
      if (created > 0)
        this.log.warn(`Recreated ${created} lookup indexes that a stopped index build left missing.`);
    } catch (err) {
      this.log.warn(`Could not recreate the search index's lookup indexes: ${(err as Error).message}`);
    }
    await watching;
    // The walk comes after the watcher is live, so no change can fall between the two.
    this.dirty.clear();
    const pool = this.parserPool();
    const stats: SyncStats =
      pool === null
        ? syncAll(this.db, this.vault.root, '', undefined, this.visibility)
        : // The index is compared with the files in pages, after the walk (sync.ts, planInPages).
          await syncAllParallel(this.db, this.vault.root, pool, undefined, this.visibility, work);
    this.lastFullScan = Date.now();
    this.linked = stats.linked;
    this.started = true;
    // A note written since the watcher started has its event in a batch still to come, and a deletion
    // in that same batch would leave both out: such notes are looked at again (paths-to-sync.ts).
    if (this.watch.watching) this.dirty.wrote(changedSince(this.db, watchedFrom - WATCH_START_SLACK_MS));
    // The sync judged new and changed notes by these rules; the others may have been judged by others.
    this.applyVisibility();
    try {
      // The change feed begins with the first build; what it found were not changes (feed.ts).
      startFeed(this.db, Date.now());
      pruneFeed(this.db, Date.now());
    } catch (err) {
      this.log.warn(`Could not start or trim the change feed: ${(err as Error).message}`);
    }
    try {
      // A build stopped midway left its options, and its segments unmerged.
      if (restoreFtsDefaults(this.db)) this.mergeLater();
    } catch (err) {
      this.log.warn(`Could not check the search index's settings: ${(err as Error).message}`);
    }
    try {
      // An index written before the BM25 totals were kept right, or by a process stopped between a
      // delete and its correction, ranks differently from a rebuild until this runs (fts-totals.ts).
      repairFtsTotals(this.db);
    } catch (err) {
      this.log.warn(`Could not check the search index's ranking totals: ${(err as Error).message}`);
    }
    return { ...stats, rebuiltBecause: this.rebuiltBecause, watching: this.watch.watching };
  }

  /** How a large build parses: parser threads running the entry point's script, or none. */
  private parserPool(): (() => ParserPool) | null {
    if (this.options.parserPool !== undefined) return this.options.parserPool;
    const script = this.options.parserScript;
    if (script === undefined) return null;
    // Parser threads take the reading and scanning; this thread keeps the SQLite writes. One per
    // spare core: on 2 cores a second parser thread only competed with the writer.
    const threads = Math.max(1, Math.min(3, os.availableParallelism() - 1));
    return () => new ParserPool(script, threads);
  }

  /**
   * Judges notes by `visibility` from now on (the gate calls this with the policy of each request),
   * and brings the index in line with it first if it follows other rules: a note that became hidden
   * loses its full-text row, one that became visible is read again. Throws `busy` when
   * other processes keep changing the index by other rules.
   */
  useVisibility(visibility: IndexVisibility): PartitionResult {
    this.visibility = visibility;
    return this.started ? this.applyVisibility() : { hidden: 0, shown: 0 };
  }

  private applyVisibility(): PartitionResult {
    const result = applyVisibility(
      this.db,
      this.visibility,
      (name) => this.linked.get(name) ?? name,
      (paths) => this.applyPaths(paths),
    );
    // Rows taken out leave tombstones in FTS5's segments until they are merged away.
    if (result.hidden + result.shown >= DEFER_MERGE_AT) this.mergeLater();
    return result;
  }

  fullSync(): SyncStats {
    this.dirty.clear();
    const changes: IndexChange[] = [];
    const stats = syncAll(this.db, this.vault.root, '', undefined, this.visibility, (c) => changes.push(c));
    this.linked = stats.linked;
    this.lastFullScan = Date.now();
    this.changes.announce(changes, false);
    return stats;
  }

  /**
   * Hears every change the index applies from now on (see IndexChangesListener); returns how to stop.
   * What the watcher reports is applied within a moment, not at the next query.
   */
  onChanges(listener: IndexChangesListener): () => void {
    return this.changes.listen(listener);
  }

  /** A batch from the watcher: its paths, and this process's own recent writes, are synced soon. */
  private reported(paths: readonly string[]): void {
    this.dirty.batch(paths);
    if (this.dirty.size > 0) this.applyReportedSoon();
  }

  private applyReportedSoon(): void {
    if (this.applySoon !== undefined) return;
    this.applySoon = setTimeout(() => {
      this.applySoon = undefined;
      if (this.closed || this.current.state !== 'ready') return;
      try {
        this.refresh();
      } catch (err) {
        this.log.warn(`Could not apply the file changes the watcher reported: ${(err as Error).message}`);
        // Paths put back after a busy index are tried again (refresh).
        if (this.dirty.size > 0) this.applyReportedSoon();
      }
    }, APPLY_REPORTED_AFTER_MS);
    this.applySoon.unref();
  }

  /** Applies every change reported since the last call. Cheap when nothing changed. */
  refresh(): void {
    if (this.closed) throw new Error('The index is closed.');
    this.requireReady();
    if (!this.watch.watching) {
      if (Date.now() - this.lastFullScan >= RESCAN_INTERVAL_MS) this.fullSync();
      return;
    }
    if (this.needsFullSync) {
      this.fullSync();
      this.needsFullSync = false;
      return;
    }
    if (this.dirty.size === 0) return;
    const taken = this.dirty.take();
    try {
      this.applyPaths(taken.paths, taken.again);
    } catch (err) {
      // Another process kept the index's write lock past the busy timeout: nothing was applied, and
      // these paths are not reported again, so they wait for the next try.
      if ((err as { code?: string }).code === 'SQLITE_BUSY') this.dirty.putBack(taken);
      throw err;
    }
  }

  /**
   * Announces agents' changes about to be made, so the change feed attributes them to the agent and
   * knows a move as a move, whichever process indexes them (feed.ts). Best effort: without the claim
   * the change is still in the feed, as made from outside.
   */
  claim(claims: readonly ChangeClaim[]): void {
    try {
      recordClaims(this.db, claims, Date.now());
    } catch (err) {
      this.log.warn(`Could not note an agent's change for the change feed: ${(err as Error).message}`);
    }
  }

  /**
   * Records a change the server made itself, so the very next query sees it; the paths are looked at
   * again after the watcher's next batches, which may leave out what happens to them next (paths-to-sync.ts).
   */
  touched(names: string[]): void {
    this.requireReady();
    this.dirty.wrote(names);
    this.applyPaths(names);
  }

  /**
   * While the start-up build runs it owns the connection (its transactions span awaits), so nothing
   * else may read or write through it. The gate waits for the build before using the index
   * (access/index-wait.ts); this is the backstop for a path that did not.
   */
  private requireReady(): void {
    const now = this.current;
    if (now.state === 'ready') return;
    if (now.state === 'failed')
      throw new NotedError('not_supported', `The search index could not be built: ${now.error}`);
    throw new NotedError(
      'busy',
      'The search index is still being built. Try again in a moment; get_vault_info shows how far it is.',
    );
  }

  /**
   * Syncs `paths`; returns how many notes were read again. Those in `quiet` found as indexed are not
   * passed on to listeners: no batch reported them, they were only looked at again.
   */
  private applyPaths(paths: string[], quiet: ReadonlySet<string> = new Set()): number {
    const large = paths.length >= DEFER_MERGE_AT;
    const changes: IndexChange[] = [];
    const result = syncPaths(this.db, this.vault.root, paths, {
      deferMerge: large,
      visibility: this.visibility,
      onChange: (c) => {
        if (c.echo !== true || !quiet.has(c.path)) changes.push(c);
      },
    });
    if (large) this.mergeLater();
    // Folders inside a folder that appeared are watched under stale paths or not at all (sync/watch.ts).
    if (result.nested.length > 0) this.watch.rewatch();
    for (const p of paths) {
      this.linked.delete(p);
      const below = `${p}/`;
      for (const key of [...this.linked.keys()]) if (key.startsWith(below)) this.linked.delete(key);
    }
    for (const [k, v] of result.linked) this.linked.set(k, v);
    this.changes.announce(changes, false);
    return result.changed;
  }

  /** Does the merge work a large sync skipped, in small steps (fts-merge.ts). */
  private mergeLater(): void {
    if (this.merging) return;
    this.merging = true;
    mergeInSteps(this.db, {
      stopped: () => this.closed,
      warn: (m) => this.log.warn(m),
      done: () => {
        this.merging = false;
      },
    });
  }

  /** Indexed files reached through symbolic links, with the real paths the policy judges. */
  linkedPaths(): ReadonlyMap<string, string> {
    return this.linked;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    // A build still running stops at its next batch and lets go of the connection first.
    this.stopBuild.abort('the server is stopping');
    clearTimeout(this.applySoon);
    this.changes.stop();
    await this.starting?.catch(() => undefined);
    await this.watch.close();
    this.db.close();
  }
}

/** The notes whose files changed (by their ctime) at or after `ms`. */
function changedSince(db: Db, ms: number): string[] {
  return db
    .prepare<[number], { path: string }>('SELECT path FROM notes WHERE ctime_ms >= ?')
    .all(ms)
    .map((r) => r.path);
}
