/**
 * @module
 * The index of a vault: opened (or rebuilt) on start, caught up with every file change before it
 * answers, and shared safely by several server processes (SQLite WAL, busy timeout).
 */
import type { Vault } from '../vault/vault.js';
import { type VaultWatcher, watchVault } from '../vault/watcher.js';
import { type Db, openIndexDatabase } from './database.js';
import { type SyncStats, syncAll, syncPaths } from './sync.js';

export interface IndexStartInfo extends SyncStats {
  /** Why an existing index file was discarded, if it was. */
  readonly rebuiltBecause: string | null;
  /** False when file watching is unavailable and the index rescans before queries instead. */
  readonly watching: boolean;
}

export interface IndexLogger {
  warn(message: string): void;
}

/** Without a watcher, a full rescan runs before a query when the last one is older than this. */
const RESCAN_INTERVAL_MS = 1000;

export class NoteIndex {
  readonly db: Db;
  private readonly dirty = new Set<string>();
  private watcher: VaultWatcher | null = null;
  private watching = false;
  private lastFullScan = 0;
  private closed = false;

  private constructor(
    private readonly vault: Vault,
    opened: { db: Db; rebuiltBecause: string | null },
    private readonly log: IndexLogger,
  ) {
    this.db = opened.db;
    this.rebuiltBecause = opened.rebuiltBecause;
  }

  private readonly rebuiltBecause: string | null;

  static open(vault: Vault, log: IndexLogger): NoteIndex {
    return new NoteIndex(vault, openIndexDatabase(vault.statePath('index.sqlite')), log);
  }

  /** Starts watching, then brings the index up to date with the files. */
  async start(options: { watch?: boolean } = {}): Promise<IndexStartInfo> {
    if (options.watch !== false) {
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
    const stats = this.fullSync();
    return { ...stats, rebuiltBecause: this.rebuiltBecause, watching: this.watching };
  }

  fullSync(): SyncStats {
    this.dirty.clear();
    const stats = syncAll(this.db, this.vault.root);
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
    syncPaths(this.db, this.vault.root, paths);
  }

  /** Records a change the server made itself, so the very next query sees it. */
  touched(names: string[]): void {
    syncPaths(this.db, this.vault.root, names);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.watcher?.close().catch(() => undefined);
    this.db.close();
  }
}
