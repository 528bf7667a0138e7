/**
 * @module
 * The paths the index syncs at its next refresh: those the watcher reported, and those this process
 * wrote ahead of its watcher, which the watcher may never report again. The watcher (@parcel/watcher) nets each path's events out over a batch, and a file
 * created and then deleted or renamed away within one batch is left out entirely. That is right for
 * someone who learns of files only from the watcher, but this process indexes its own writes at once
 * (an agent's note, a folder moved) and the start-up sync reads what it finds: when an editor deletes
 * such a file within the same batch as its creation, no event ever says so, and the index (shared
 * with other server processes) would keep the note, and the change feed would never say it is gone.
 *
 * So each such path is looked at again after every batch that follows, until the watcher has
 * reported the path itself (its own event was delivered on its own, so a later deletion is reported
 * too) and long enough has passed that the batch holding that event is behind us; a path never
 * reported is let go after a longer while. Looking again is a stat, and nothing is written when
 * the file is as indexed.
 */

/** How long after the write a path is still looked at, once the watcher has reported it. */
export const CONFIRM_MS = 3000;
/** How long a path the watcher never reports is looked at. */
export const GIVE_UP_MS = 60_000;
/** Paths kept at most; the oldest are let go first. */
const KEPT = 10_000;

interface Awaited {
  readonly at: number;
  reported: boolean;
}

class OwnWrites {
  private readonly awaited = new Map<string, Awaited>();

  constructor(private readonly now: () => number = Date.now) {}

  get size(): number {
    return this.awaited.size;
  }

  /** Paths just written or indexed ahead of the watcher. */
  add(paths: Iterable<string>): void {
    const at = this.now();
    for (const p of paths) {
      this.awaited.delete(p);
      this.awaited.set(p, { at, reported: false });
      if (this.awaited.size > KEPT) {
        const oldest = this.awaited.keys().next().value;
        if (oldest !== undefined) this.awaited.delete(oldest);
      }
    }
  }

  /**
   * A batch arrived with `reported` paths: returns every awaited path, to look at again now. Those
   * reported long enough ago, or awaited for too long, are let go after this last look.
   */
  batch(reported: readonly string[]): string[] {
    if (this.awaited.size === 0) return [];
    const now = this.now();
    const inBatch = new Set(reported);
    const again: string[] = [];
    for (const [p, entry] of this.awaited) {
      again.push(p);
      if (inBatch.has(p)) entry.reported = true;
      const age = now - entry.at;
      if ((entry.reported && age >= CONFIRM_MS) || age >= GIVE_UP_MS) this.awaited.delete(p);
    }
    return again;
  }
}

/** What a refresh syncs: every path, and those of them only looked at again. */
export interface TakenPaths {
  readonly paths: string[];
  /**
   * Paths looked at again that no batch reported: found as indexed, they are no news (a listener
   * would take a path found as indexed for another process's change, sync/changes.ts).
   */
  readonly again: ReadonlySet<string>;
}

export class PathsToSync {
  private readonly reported = new Set<string>();
  private readonly again = new Set<string>();
  private readonly own: OwnWrites;

  constructor(now: () => number = Date.now) {
    this.own = new OwnWrites(now);
  }

  get size(): number {
    return this.reported.size + this.again.size;
  }

  /** A batch from the watcher: its paths, and this process's own recent writes (OwnWrites). */
  batch(paths: readonly string[]): void {
    for (const p of paths) {
      this.reported.add(p);
      this.again.delete(p);
    }
    for (const p of this.own.batch(paths)) if (!this.reported.has(p)) this.again.add(p);
  }

  /** Paths this process just wrote, or indexed ahead of the watcher. */
  wrote(paths: Iterable<string>): void {
    this.own.add(paths);
  }

  /** Forgets what was reported (a full sync follows); own writes are still looked at again later. */
  clear(): void {
    this.reported.clear();
    this.again.clear();
  }

  /** Takes everything to sync now. */
  take(): TakenPaths {
    const taken = { paths: [...this.reported, ...this.again], again: new Set(this.again) };
    this.clear();
    return taken;
  }

  /** Puts back what was taken and could not be synced, to be tried again. */
  putBack(taken: TakenPaths): void {
    for (const p of taken.paths) {
      if (taken.again.has(p)) {
        if (!this.reported.has(p)) this.again.add(p);
      } else {
        this.reported.add(p);
        this.again.delete(p);
      }
    }
  }
}
