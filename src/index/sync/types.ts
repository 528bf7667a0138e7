/**
 * @module
 * What the index tells and is told: how its start went, where it stands, how it logs, and the
 * options it opens with (note-index.ts).
 */
import type { StartWatching } from '../../vault/watcher.js';
import type { ParserPool } from './parser-pool.js';
import type { SyncStats } from './sync.js';

export interface IndexStartInfo extends SyncStats {
  /** Why an existing index file was discarded, if it was. */
  readonly rebuiltBecause: string | null;
  /** False when file watching is unavailable and the index rescans before queries instead. */
  readonly watching: boolean;
}

export interface IndexLogger {
  warn(message: string): void;
}

/**
 * Where the index stands (SPEC 14.1, 12.4): built or caught up (`ready`), being built or caught up on
 * start (`building`, with how far: `done` of `total` notes read, `total` null while the files are
 * still being listed), or a start that failed (`failed`, with why).
 */
export type IndexState =
  | { readonly state: 'ready' }
  | {
      readonly state: 'building';
      readonly done: number;
      readonly total: number | null;
      /** What the build is doing: "listing the vault's files", "reading notes", … */
      readonly step: string;
      /** When the build began, ISO 8601. */
      readonly since: string;
    }
  | { readonly state: 'failed'; readonly error: string };

export interface IndexOptions {
  /**
   * The entry point's own script, started as parser threads for a large build (see parser-pool.ts);
   * without it everything runs on this thread.
   */
  readonly parserScript?: string;
  /** Makes the parser pool of a large build instead (tests hold a build midway with it). */
  readonly parserPool?: () => ParserPool;
  /** Watches the vault instead of watchVault (tests deliver the watcher's batches by hand with it). */
  readonly watcher?: StartWatching;
}
