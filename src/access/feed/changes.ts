/**
 * @module
 * The change feed through the gate (SPEC 12.1): what changed since a cursor or a time, oldest first,
 * with the policy applied as the feed is read. A hidden note never appears: a move out of a hidden
 * folder reads as `created`, into one as `deleted`, and the same holds at the edge of `folder`.
 * The feed itself is recorded by the index (index/feed/feed.ts).
 */
import { decodeCursor, encodeCursor } from '../../common/cursor.js';
import { NotedError } from '../../common/errors.js';
import {
  type ChangeRow,
  changesAfter,
  type FeedPosition,
  feedPosition,
  firstSeqFrom,
} from '../../index/feed/feed.js';
import { covers, folderKey } from '../../policy/folder-key.js';
import { normalizeFolderName } from '../../vault/names.js';
import { type AccessContext, iso } from '../context.js';
import type { Rules } from '../rules/rules.js';

export const CHANGES_PAGE = 100;
export const MAX_CHANGES_PAGE = 1000;
/** Changes looked at per call at most: a page of a feed that is mostly hidden still ends quickly. */
const MAX_SCANNED = 10_000;

export interface Change {
  readonly seq: number;
  readonly name: string;
  readonly kind: 'created' | 'modified' | 'deleted' | 'moved';
  /** For a move: the note's previous name. */
  readonly from?: string;
  /** The text's etag after the change; null when deleted. */
  readonly etag: string | null;
  readonly at: string;
  readonly by: 'agent' | 'outside';
  readonly session?: string;
  readonly client?: string;
}

export interface ChangesPage {
  readonly changes: Change[];
  /** Where to read on from: pass it as cursor next time (also when there were no changes). */
  readonly nextCursor: string;
  /** True when more changes follow right away. */
  readonly more: boolean;
  /** The feed does not cover the cursor or time asked for: re-read what you need, then go on from nextCursor. */
  readonly reset?: true;
  readonly resetReason?: string;
}

export interface ChangesInput {
  readonly cursor?: string;
  readonly since?: string;
  readonly folder?: string;
  readonly limit?: number;
}

interface FeedCursor {
  /** The feed's id (which index). */
  readonly f: string;
  /** The last change given. */
  readonly s: number;
}

function isFeedCursor(data: unknown): data is FeedCursor {
  const c = data as Partial<FeedCursor> | null;
  return typeof c?.f === 'string' && typeof c.s === 'number' && Number.isSafeInteger(c.s) && c.s >= 0;
}

function cursorAt(feed: FeedPosition, seq: number): string {
  return encodeCursor('list_changes', { f: feed.id, s: seq } satisfies FeedCursor);
}

export function listChanges(ctx: AccessContext, rules: Rules, input: ChangesInput): ChangesPage {
  if (input.cursor !== undefined && input.since !== undefined) {
    throw new NotedError(
      'validation_error',
      'Pass cursor or since, not both: cursor continues where the last call ended, since starts at a time.',
    );
  }
  const folder = input.folder === undefined ? '' : normalizeFolderName(input.folder);
  ctx.index.refresh();
  const db = ctx.index.db;
  const feed = feedPosition(db);
  if (feed === null) {
    throw new NotedError(
      'busy',
      'The change feed starts when the index has been built for the first time, which is still under way. Try again in a moment.',
    );
  }
  const reset = (reason: string): ChangesPage => ({
    changes: [],
    nextCursor: cursorAt(feed, feed.lastSeq),
    more: false,
    reset: true,
    resetReason: reason,
  });
  let after: number;
  if (input.cursor !== undefined) {
    const cursor = decodeCursor('list_changes', input.cursor, isFeedCursor);
    if (cursor.f !== feed.id) {
      return reset('the cursor comes from another index (this one was rebuilt, or it is another vault)');
    }
    if (cursor.s < feed.prunedSeq)
      return reset('the feed no longer holds changes that old (it keeps 30 days or 100,000 changes)');
    if (cursor.s > feed.lastSeq)
      return reset('the cursor is ahead of this index (it was restored from an older copy)');
    after = cursor.s;
  } else if (input.since !== undefined) {
    const ms = Date.parse(input.since);
    if (Number.isNaN(ms)) {
      throw new NotedError(
        'validation_error',
        `since "${input.since}" is not an ISO 8601 time. Pass one like "2026-05-01T09:00:00Z", or a cursor.`,
      );
    }
    if (ms < feed.startedAt || ms <= feed.prunedAt) {
      return reset(
        `the feed does not reach back to ${input.since}; it begins ${iso(Math.max(feed.startedAt, feed.prunedAt))}`,
      );
    }
    const first = firstSeqFrom(db, ms);
    after = first === null ? feed.lastSeq : first - 1;
  } else {
    return { changes: [], nextCursor: cursorAt(feed, feed.lastSeq), more: false };
  }
  const limit = Math.min(input.limit ?? CHANGES_PAGE, MAX_CHANGES_PAGE);
  const shown = visibleIn(rules, folder);
  const changes: Change[] = [];
  let last = after;
  let scanned = 0;
  scan: while (scanned < MAX_SCANNED) {
    const rows = changesAfter(db, last, Math.min(500, MAX_SCANNED - scanned));
    if (rows.length === 0) break;
    for (const row of rows) {
      if (changes.length >= limit) break scan;
      last = row.seq;
      scanned++;
      const change = asSeen(row, shown);
      if (change !== null) changes.push(change);
    }
  }
  const more = changesAfter(db, last, 1).length > 0;
  return { changes, nextCursor: cursorAt(feed, last), more };
}

/** Whether the agent may see a note at this path (and real location) inside the folder asked for. */
function visibleIn(rules: Rules, folder: string): (path: string, real: string | null) => boolean {
  const visible = rules.visible ?? (() => true);
  const key = folderKey(folder);
  return (p, real) =>
    (folder === '' || covers(key, folderKey(p))) && visible(p) && (real === null || visible(real));
}

/** A stored change as the agent may see it; null when it concerns nothing the agent may see. */
function asSeen(row: ChangeRow, shown: (path: string, real: string | null) => boolean): Change | null {
  const to = shown(row.path, row.real);
  const base = {
    seq: row.seq,
    at: iso(row.at_ms),
    by: row.session === null ? ('outside' as const) : ('agent' as const),
    ...(row.session === null ? {} : { session: row.session }),
    ...(row.client === null ? {} : { client: row.client }),
  };
  if (row.kind === 'moved' && row.from_path !== null) {
    const from = shown(row.from_path, null);
    if (from && to) return { ...base, name: row.path, kind: 'moved', from: row.from_path, etag: row.etag };
    if (to) return { ...base, name: row.path, kind: 'created', etag: row.etag };
    if (from) return { ...base, name: row.from_path, kind: 'deleted', etag: null };
    return null;
  }
  if (!to) return null;
  return { ...base, name: row.path, kind: row.kind, etag: row.kind === 'deleted' ? null : row.etag };
}
