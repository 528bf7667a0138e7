/**
 * @module
 * Watches the vault for changes made outside the server (an editor, git, a sync tool) and reports
 * the vault-relative paths that changed. The index drains these before answering (SPEC 1.7).
 */
import watcher from '@parcel/watcher';

export interface VaultWatcher {
  close(): Promise<void>;
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

/** Starts watching `root` (a real path). Rejects when the platform cannot watch it. */
export async function watchVault(root: string, handlers: WatchHandlers): Promise<VaultWatcher> {
  const prefix = root.endsWith('/') ? root : `${root}/`;
  const subscription = await watcher.subscribe(
    root,
    (err, events) => {
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
    },
    // The usual hidden folders at the top are not watched at all; any other hidden path is dropped
    // above. Plain paths, not globs: glob ignores cost the watcher a match per file (230 ms at 10k notes).
    {
      ignore: ['.noted', '.git', '.obsidian', '.trash', '.stversions'],
      // Without a backend named, the watcher first probes for watchman through a shell, which leaves
      // an unreaped child process behind for the whole run.
      ...(process.platform === 'linux' ? { backend: 'inotify' as const } : {}),
    },
  );
  return { close: () => subscription.unsubscribe() };
}
