/**
 * @module
 * What the list of pending changes shows beside each note without opening it: how many lines the
 * change adds and removes, and whether it is outdated — its note changed since the agent saw it, so
 * approving would be refused (the same test `approve` makes). The list is asked for again every few
 * seconds while the page is open, with up to 200 changes, so both are kept until the file they come
 * from changes (its size, times and inode): a change's counts until its pending file changes, a note's
 * etag until the note does.
 */
import fs from 'node:fs';
import { type Hunk, hunksOf } from '../staging/hunks.js';
import type { PendingStore } from '../staging/pending-store.js';
import type { PendingChange, PendingSummary } from '../staging/types.js';
import { ANYWHERE } from '../vault/checked-folder.js';
import type { Vault } from '../vault/vault.js';
import { lineCounts } from './diff-view.js';

export interface ChangeFacts {
  readonly added: number;
  readonly removed: number;
  /** Why approving would be refused now, or null when the note is as the agent saw it. */
  readonly outdated: string | null;
}

/** At most this many entries of each kind are kept; the oldest go first. */
const MAX_KEPT = 1000;
/** Hunks of this many changes are kept (a long rewrite's take a second to compute). */
const MAX_KEPT_HUNKS = 8;

export class PendingFacts {
  readonly #counts = new Map<string, { stamp: string; added: number; removed: number }>();
  readonly #etags = new Map<string, { stamp: string; etag: string | null }>();
  readonly #hunks = new Map<string, { stamp: string; hunks: Hunk[] }>();

  constructor(
    private readonly vault: Vault,
    private readonly store: PendingStore,
  ) {}

  of(change: PendingSummary): ChangeFacts {
    return { ...this.counts(change.id), outdated: this.outdated(change) };
  }

  private counts(id: string): { added: number; removed: number } {
    const stamp = this.store.stamp(id);
    const kept = this.#counts.get(id);
    if (stamp !== null && kept?.stamp === stamp) return kept;
    let counts = { added: 0, removed: 0 };
    try {
      const change = this.store.get(id);
      counts = lineCounts(change.baseText, change.newText, this.hunksOf(change));
    } catch {
      return counts; // removed or damaged meanwhile: the next listing shows it as it is
    }
    if (stamp !== null) remember(this.#counts, id, { stamp, ...counts });
    return counts;
  }

  /**
   * The hunks of an update (undefined for a creation or a deletion), kept until its pending file
   * changes: the list's counts, the first screen of its diff and every page of it after share them.
   */
  hunksOf(change: PendingChange): Hunk[] | undefined {
    if (change.baseText === null || change.newText === null) return undefined;
    const stamp = this.store.stamp(change.id);
    const kept = this.#hunks.get(change.id);
    if (stamp !== null && kept?.stamp === stamp) return kept.hunks;
    const hunks = hunksOf(change.baseText, change.newText);
    if (stamp !== null) {
      this.#hunks.delete(change.id);
      this.#hunks.set(change.id, { stamp, hunks });
      if (this.#hunks.size > MAX_KEPT_HUNKS) this.#hunks.delete(this.#hunks.keys().next().value as string);
    }
    return hunks;
  }

  private outdated(change: PendingSummary): string | null {
    let etag: string | null;
    try {
      etag = this.etagOf(change.note);
    } catch (err) {
      return `the note cannot be read now (${(err as Error).message})`;
    }
    if (change.kind === 'create') {
      return etag === null ? null : 'a note of that name exists now, and approving would replace it';
    }
    if (etag === null) return 'the note was deleted or moved since the agent saw it';
    return etag === change.baseEtag ? null : 'the note was changed since the agent saw it';
  }

  /** The note's etag now (null when there is no such note), read again only when its file changed. */
  private etagOf(note: string): string | null {
    let stamp: string;
    try {
      const st = fs.statSync(this.vault.pathOf(note));
      stamp = `${st.size}:${st.mtimeMs}:${st.ctimeMs}:${st.ino}`;
    } catch (err) {
      if (
        (err as NodeJS.ErrnoException).code === 'ENOENT' ||
        (err as NodeJS.ErrnoException).code === 'ENOTDIR'
      ) {
        return null;
      }
      throw err;
    }
    const kept = this.#etags.get(note);
    if (kept?.stamp === stamp) return kept.etag;
    // The owner's console: it sees every note.
    const etag = this.vault.read(note, ANYWHERE)?.etag ?? null;
    remember(this.#etags, note, { stamp, etag });
    return etag;
  }
}

function remember<V>(map: Map<string, V>, key: string, value: V): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > MAX_KEPT) map.delete(map.keys().next().value as string);
}
