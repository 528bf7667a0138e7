/**
 * @module
 * A stand-in for the file watcher that delivers batches only when a test says so, and exactly the
 * batches it says: what @parcel/watcher would deliver in a given interleaving (a file created and
 * deleted within one batch is left out of it), made deterministic.
 */
import type { StartWatching, WatchHandlers } from '../../src/vault/watcher.js';

export class ManualWatcher {
  private readonly subscribers = new Set<WatchHandlers>();
  /** How many times the index asked to watch every folder afresh. */
  rewatched = 0;
  /** Runs as the index subscribes, once the subscription is live and before the index walks the vault. */
  onSubscribe: () => void = () => undefined;

  /** Pass as `watcher` to connect/openVault/NoteIndex. */
  readonly start: StartWatching = async (_root, handlers) => {
    this.subscribers.add(handlers);
    this.onSubscribe();
    return {
      close: async () => void this.subscribers.delete(handlers),
      rewatch: async () => void this.rewatched++,
    };
  };

  /** Delivers one batch (vault-relative paths; empty: a batch whose events all cancelled out). */
  deliver(paths: string[]): void {
    if (this.subscribers.size === 0) throw new Error('Nothing is subscribed to this watcher.');
    for (const s of this.subscribers) s.onChange([...paths]);
  }
}
