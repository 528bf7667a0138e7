/**
 * @module
 * Watches the vault for changes made outside the server (an editor, git, a sync tool) and reports
 * the vault-relative paths that changed. The index drains these before answering (SPEC 1.7).
 */
import watcher from '@parcel/watcher';

export interface VaultWatcher {
  close(): Promise<void>;
  /**
   * Watches every folder afresh, under the path it has now. With inotify (Linux) a folder renamed or
   * moved in is watched itself, but the folders inside it are not: those renamed with it go on being
   * reported under their old paths, those moved in from outside the vault not at all. Call it when a
   * folder holding folders appeared. Changes made while it runs are not reported: the caller looks
   * at the whole vault again once it is done. Rejects (and reports onError) when watching could not
   * start again.
   */
  rewatch(): Promise<void>;
}

export interface WatchHandlers {
  /**
   * Called once for each batch of events the watcher delivers, with the paths (vault-relative,
   * `/`-separated) that were created, changed or deleted. A batch nets each path's events out, and a
   * file created and deleted (or renamed away) within one batch is left out entirely: the list may
   * then be empty. A caller that learned of such a file some other way (it wrote the file itself)
   * must look at it again after the batches that follow (see NoteIndex).
   */
  onChange(paths: string[]): void;
  /** The watcher failed after starting; the caller should fall back to rescanning. */
  onError(err: Error): void;
}

function hasHiddenSegment(rel: string): boolean {
  return rel.startsWith('.') || rel.includes('/.');
}

/** How the index starts watching a vault: watchVault, or a stand-in in tests. */
export type StartWatching = (root: string, handlers: WatchHandlers) => Promise<VaultWatcher>;

/** The usual hidden folders at the top: not watched at all (any other hidden path is dropped). */
const IGNORED = ['.noted', '.git', '.obsidian', '.trash', '.stversions'];

/** Starts watching `root` (a real path). Rejects when the platform cannot watch it. */
export async function watchVault(root: string, handlers: WatchHandlers): Promise<VaultWatcher> {
  const prefix = root.endsWith('/') ? root : `${root}/`;
  const subscribe = () =>
    watcher.subscribe(root, onEvents, {
      // Plain paths, not globs: glob ignores cost the watcher a match per file (230 ms at 10k notes).
      ignore: IGNORED,
      // Without a backend named, the watcher first probes for watchman through a shell, which leaves
      // an unreaped child process behind for the whole run.
      ...(process.platform === 'linux' ? { backend: 'inotify' as const } : {}),
    });
  const onEvents = (err: Error | null, events: watcher.Event[]) => {
    if (err) {
      handlers.onError(err);
      return;
    }
    const paths: string[] = [];
    for (const event of events) {
      if (!event.path.startsWith(prefix)) continue;
      const rel = event.path.slice(prefix.length).split('\\').join('/');
      if (rel === '' || hasHiddenSegment(rel)) continue;
      paths.push(rel);
    }
    handlers.onChange(paths);
  };
  let current: watcher.AsyncSubscription | null = await subscribe();
  let closed = false;
  /** Rewatches one after another; close waits for the one under way. */
  let rewatching: Promise<void> = Promise.resolve();
  return {
    close: async () => {
      closed = true;
      await rewatching.catch(() => undefined);
      await current?.unsubscribe();
      current = null;
    },
    rewatch: () => {
      // The other platforms' watchers (FSEvents, ReadDirectoryChangesW) watch the tree as a whole.
      if (process.platform !== 'linux') return Promise.resolve();
      rewatching = rewatching
        .catch(() => undefined)
        .then(async () => {
          if (closed || current === null) return;
          // The watcher keeps one listing of the vault's folders while any subscription to it lives,
          // and a new subscription beside the old one would be handed that listing, stale; so the old
          // one stops first and the new one lists the folders as they are. (Another subscription to
          // the vault in this process, as tests make, keeps the listing alive.)
          await current.unsubscribe();
          current = null;
          try {
            current = await subscribe();
          } catch (err) {
            handlers.onError(err as Error);
            throw err;
          }
        });
      return rewatching;
    },
  };
}
