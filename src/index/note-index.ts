/**
 * @module
 * The index of a vault: opened (or rebuilt) on start, caught up with every file change before it
 * answers, and shared safely by several server processes (SQLite WAL, busy timeout).
 */

import os from 'node:os';
import { formatOf } from '../format/formats.js';
import type { Vault } from '../vault/vault.js';
import { type VaultWatcher, watchVault } from '../vault/watcher.js';
import { type Db, openIndexDatabase } from './database.js';
import { attachFeed, type ChangeClaim, pruneFeed, recordClaims, startFeed } from './feed.js';
import { mergeStep, restoreFtsDefaults } from './fts-merge.js';
import { repairFtsTotals } from './fts-totals.js';
import { setIndexFormat } from './index-format.js';
import { ParserPool } from './parser-pool.js';
import { applyVisibility, type PartitionResult } from './partition.js';
import { ensureSecondaryIndexes } from './secondary-indexes.js';
import { loadIndexedFiles, type SyncStats, syncAll, syncAllParallel, syncPaths } from './sync.js';
import { EVERYTHING_VISIBLE, type IndexVisibility } from './visibility.js';

export interface IndexStartInfo extends SyncStats {
  /** Why an existing index file was discarded, if it was. */
  readonly rebuiltBecause: string | null;
  /** False when file watching is unavailable and the index rescans before queries instead. */
  readonly watching: boolean;
}

export interface IndexLogger {
  warn(message: string): void;
}

export interface IndexOptions {
  /**
   * The entry point's own script, started as parser threads for a large build (see parser-pool.ts);
   * without it everything runs on this thread.
   */
  readonly parserScript?: string;
}

/** Without a watcher, a full rescan runs before a query when the last one is older than this. */
const RESCAN_INTERVAL_MS = 1000;
/** A sync of this many paths defers the full-text index's merging until after the answer. */
const DEFER_MERGE_AT = 100;

export class NoteIndex {
  readonly db: Db;
  private readonly dirty = new Set<string>();
  /** Indexed files reached through symbolic links → their real vault-relative paths. */
  private linked = new Map<string, string>();
  private watcher: VaultWatcher | null = null;
  private watching = false;
  private lastFullScan = 0;
  private closed = false;
  private merging = false;
  private started = false;
  /** The rules of the latest request: what every sync judges notes by (visibility.ts). */
  private visibility: IndexVisibility = EVERYTHING_VISIBLE;

  private constructor(
    private readonly vault: Vault,
    opened: { db: Db; rebuiltBecause: string | null },
    private readonly log: IndexLogger,
    private readonly options: IndexOptions,
  ) {
    this.db = opened.db;
    this.rebuiltBecause = opened.rebuiltBecause;
    attachFeed(this.db, vault.root);
  }

  private readonly rebuiltBecause: string | null;

  static open(vault: Vault, log: IndexLogger, options: IndexOptions = {}): NoteIndex {
    const opened = openIndexDatabase(vault.statePath('index.sqlite'));
    setIndexFormat(opened.db, formatOf(vault));
    return new NoteIndex(vault, opened, log, options);
  }

  /** Starts watching, then brings the index up to date with the files. */
  async start(options: { watch?: boolean } = {}): Promise<IndexStartInfo> {
    // The watcher crawls the folders on its own thread while this one loads what the index holds.
    const watching = options.watch === false ? Promise.resolve() : this.startWatching();
    const indexed = loadIndexedFiles(this.db);
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
    const script = this.options.parserScript;
    let stats: SyncStats;
    if (script === undefined) {
      stats = syncAll(this.db, this.vault.root, '', indexed, this.visibility);
    } else {
      // Parser threads take the reading and scanning; this thread keeps the SQLite writes. One per
      // spare core: on 2 cores a second parser thread only competed with the writer.
      const threads = Math.max(1, Math.min(3, os.availableParallelism() - 1));
      stats = await syncAllParallel(
        this.db,
        this.vault.root,
        () => new ParserPool(script, threads),
        indexed,
        this.visibility,
      );
    }
    this.lastFullScan = Date.now();
    this.linked = stats.linked;
    this.started = true;
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
    return { ...stats, rebuiltBecause: this.rebuiltBecause, watching: this.watching };
  }

  private async startWatching(): Promise<void> {
    try {
      this.watcher = await watchVault(this.vault.root, {
        onChange: (paths) => {
          for (const p of paths) this.dirty.add(p);
        },
        onError: (err) => {
          this.log.warn(`File watching stopped (${err.message}); rescanning before each request instead.`);
          this.watching = false;
        },
      });
      this.watching = true;
    } catch (err) {
      this.log.warn(
        `File watching is unavailable (${(err as Error).message}); rescanning before requests instead.`,
      );
    }
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
    const stats = syncAll(this.db, this.vault.root, '', undefined, this.visibility);
    this.linked = stats.linked;
    this.lastFullScan = Date.now();
    return stats;
  }

  /** Applies every change reported since the last call. Cheap when nothing changed. */
  refresh(): void {
    if (this.closed) throw new Error('The index is closed.');
    if (!this.watching) {
      if (Date.now() - this.lastFullScan >= RESCAN_INTERVAL_MS) this.fullSync();
      return;
    }
    if (this.dirty.size === 0) return;
    const paths = [...this.dirty];
    this.dirty.clear();
    this.applyPaths(paths);
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

  /** Records a change the server made itself, so the very next query sees it. */
  touched(names: string[]): void {
    this.applyPaths(names);
  }

  /** Syncs `paths`; returns how many notes were read again. */
  private applyPaths(paths: string[]): number {
    const large = paths.length >= DEFER_MERGE_AT;
    const result = syncPaths(this.db, this.vault.root, paths, {
      deferMerge: large,
      visibility: this.visibility,
    });
    if (large) this.mergeLater();
    for (const p of paths) {
      this.linked.delete(p);
      const below = `${p}/`;
      for (const key of [...this.linked.keys()]) if (key.startsWith(below)) this.linked.delete(key);
    }
    for (const [k, v] of result.linked) this.linked.set(k, v);
    return result.changed;
  }

  /**
   * Does the merge work a large sync skipped, a small step per turn of the event loop, so requests
   * that arrive meanwhile wait a few milliseconds at most.
   */
  private mergeLater(): void {
    if (this.merging) return;
    this.merging = true;
    const step = () => {
      if (this.closed) return;
      let more = false;
      try {
        more = mergeStep(this.db);
      } catch (err) {
        // Another process holding the write lock: its own writes merge too; try again shortly.
        if ((err as { code?: string }).code === 'SQLITE_BUSY') {
          setTimeout(step, 100).unref();
          return;
        }
        this.log.warn(`search index merge stopped: ${(err as Error).message}`);
      }
      if (more) setTimeout(step, 0).unref();
      else this.merging = false;
    };
    setTimeout(step, 0).unref();
  }

  /** Indexed files reached through symbolic links, with the real paths the policy judges. */
  linkedPaths(): ReadonlyMap<string, string> {
    return this.linked;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.watcher?.close().catch(() => undefined);
    this.db.close();
  }
}
