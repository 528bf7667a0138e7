/**
 * @module
 * The index's file watcher: started before the start-up walk, given up when it fails (the index then
 * rescans before requests instead), and started again when a folder holding folders appeared, since
 * the folders inside it are watched under stale paths or not at all (VaultWatcher.rewatch).
 */
import type { StartWatching, VaultWatcher } from '../../vault/watcher.js';
import type { IndexLogger } from './types.js';

export interface IndexWatchHandlers {
  /** A batch from the watcher (see WatchHandlers.onChange). */
  onChange(paths: string[]): void;
  /** The watcher started again: changes made meanwhile were not reported, the vault must be looked at. */
  restarted(): void;
}

export class IndexWatch {
  private watcher: VaultWatcher | null = null;
  private live = false;
  /** Whether the watcher is starting again, and was asked to once more meanwhile. */
  private rewatching: 'no' | 'yes' | 'again' = 'no';
  private closed = false;

  constructor(
    private readonly root: string,
    private readonly startWatching: StartWatching,
    private readonly log: IndexLogger,
    private readonly handlers: IndexWatchHandlers,
  ) {}

  /** False before the watcher started, when it could not, and once it failed. */
  get watching(): boolean {
    return this.live;
  }

  async start(): Promise<void> {
    try {
      this.watcher = await this.startWatching(this.root, {
        onChange: (paths) => this.handlers.onChange(paths),
        onError: (err) => {
          this.log.warn(`File watching stopped (${err.message}); rescanning before each request instead.`);
          this.live = false;
        },
      });
      this.live = true;
    } catch (err) {
      this.log.warn(
        `File watching is unavailable (${(err as Error).message}); rescanning before requests instead.`,
      );
    }
  }

  /** A folder holding folders appeared: the watcher starts again (once more if asked meanwhile). */
  rewatch(): void {
    const watcher = this.watcher;
    if (watcher === null || !this.live || this.closed) return;
    if (this.rewatching !== 'no') {
      this.rewatching = 'again';
      return;
    }
    this.rewatching = 'yes';
    watcher
      .rewatch()
      .then(
        () => {
          if (!this.closed) this.handlers.restarted();
        },
        (err: unknown) => this.log.warn(`Could not start file watching again: ${(err as Error).message}`),
      )
      .finally(() => {
        const again = this.rewatching === 'again';
        this.rewatching = 'no';
        if (again) this.rewatch();
      });
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.watcher?.close().catch(() => undefined);
  }
}
