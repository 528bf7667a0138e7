/**
 * @module
 * Passing on the changes the index applied (SPEC 14.3; a change feed may build on it): after each sync
 * is committed, its listeners hear what was added, changed in content or removed, from any source.
 * A path the watcher reports that the index already holds as it is on disk comes from another
 * process (which indexed it first) or is this process's own write seen again; the last state this
 * process announced for each path tells the two apart.
 */

import type { IndexChange } from '../store/store.js';
import type { IndexLogger } from './types.js';

/**
 * Hears the changes the index applied, after they are committed, from any source: this server's
 * tools, the watcher (an editor, git, a sync tool), another server process on the vault. `all`: the
 * start-up build or re-sync changed the index as a whole (any path may have changed).
 */
export type IndexChangesListener = (changes: readonly IndexChange[], all: boolean) => void;

/** Paths whose last announced state is remembered, to tell changes coming back from the watcher. */
const ANNOUNCED_KEPT = 10_000;

export class ChangeAnnouncer {
  private readonly listeners = new Set<IndexChangesListener>();
  /** Path → the etag last announced for it (null: removed), oldest first. */
  private readonly announced = new Map<string, string | null>();

  constructor(private readonly log: IndexLogger) {}

  listen(listener: IndexChangesListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  stop(): void {
    this.listeners.clear();
  }

  /** Passes applied changes on, each path's own changes coming back from the watcher left out. */
  announce(changes: readonly IndexChange[], all: boolean): void {
    const fresh: IndexChange[] = [];
    for (const c of changes) {
      if (c.echo === true && this.announced.has(c.path) && this.announced.get(c.path) === c.etag) continue;
      this.announced.delete(c.path);
      this.announced.set(c.path, c.etag);
      if (this.announced.size > ANNOUNCED_KEPT) {
        const oldest = this.announced.keys().next().value;
        if (oldest !== undefined) this.announced.delete(oldest);
      }
      fresh.push({ path: c.path, kind: c.kind, etag: c.etag });
    }
    if (fresh.length === 0 && !all) return;
    for (const listener of this.listeners) {
      try {
        listener(fresh, all);
      } catch (err) {
        this.log.warn(`A listener for index changes failed: ${(err as Error).message}`);
      }
    }
  }
}
