/**
 * @module
 * The change feed through the gate (SPEC 12.1): what changed since a cursor or a time, oldest first,
 * with the policy applied as the feed is read. A hidden note never appears: a move out of a hidden
 * folder reads as `created`, into one as `deleted`, and the same holds at the edge of `folder`.
 * The feed itself is recorded by the index (index/feed/feed.ts).
 */
import { isPlainCursor, openSealedCursor, sealCursor } from '../../common/cursor.js';
import { NotedError } from '../../common/errors.js';
import { isoInstant } from '../../common/iso-time.js';
import type { Db } from '../../index/db/database.js';
import {
  type ChangeRow,
  changesAfter,
  type FeedPosition,
  feedCursorKey,
  feedPosition,
  firstSeqFrom,
} from '../../index/feed/feed.js';
import { covers, folderKey } from '../../policy/folder-key.js';
import { normalizeFolderName } from '../../vault/names.js';
import { type AccessContext, iso } from '../context.js';
import type { Rules } from '../rules/rules.js';
import { VisibleNumbering } from './visible-seq.js';

export const CHANGES_PAGE = 100;
export const MAX_CHANGES_PAGE = 1000;
/** Changes looked at per call at most: a page of a feed that is mostly hidden still ends quickly. */
const MAX_SCANNED = 10_000;
/** Changes looked at past a page to say whether one the caller sees follows (`more`). */
const MAX_LOOKAHEAD = 100_000;

export interface Change {
  /** The change's place among those the caller may see: no gaps where hidden notes changed. */
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

/**
 * Where a cursor stands, sealed (common/cursor.ts): the feed's own sequence counts hidden changes too,
 * so the agent sees neither it nor how it moves, and cannot make one up.
 */
interface FeedCursor {
  /** The feed's id (which index). */
  readonly f: string;
  /** The last change looked at, in the feed's own sequence. */
  readonly s: number;
}

function isFeedCursor(data: unknown): data is FeedCursor {
  const c = data as Partial<FeedCursor> | null;
  return typeof c?.f === 'string' && typeof c.s === 'number' && Number.isSafeInteger(c.s) && c.s >= 0;
}

/**
 * The feed's id (random, so it says nothing) in the clear, then the position sealed: a cursor from a
 * rebuilt index, whose key went with it, is still recognised as another index's.
 */
function cursorAt(key: Buffer, feed: FeedPosition, seq: number): string {
  return `${feed.id}.${sealCursor(key, 'list_changes', { f: feed.id, s: seq } satisfies FeedCursor)}`;
}

/** The sealed position of a cursor of this feed; null for another feed's; undefined when it is no cursor. */
function openCursor(key: Buffer, feed: FeedPosition, cursor: string): FeedCursor | null | undefined {
  const dot = cursor.indexOf('.');
  if (dot <= 0) return undefined;
  if (cursor.slice(0, dot) !== feed.id) return /^[0-9a-f]+$/.test(cursor.slice(0, dot)) ? null : undefined;
  const position = openSealedCursor(key, 'list_changes', cursor.slice(dot + 1), isFeedCursor);
  return position !== null && position.f === feed.id ? position : undefined;
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
  const key = feedCursorKey(db);
  const reset = (reason: string): ChangesPage => ({
    changes: [],
    nextCursor: cursorAt(key, feed, feed.lastSeq),
    more: false,
    reset: true,
    resetReason: reason,
  });
  let after: number;
  if (input.cursor !== undefined) {
    const cursor = openCursor(key, feed, input.cursor);
    if (cursor === null) {
      return reset('the cursor comes from another index (this one was rebuilt, or it is another vault)');
    }
    if (cursor === undefined) {
      if (isPlainCursor('list_changes', input.cursor)) {
        return reset(
          'the cursor was given out by an earlier version of the server, before cursors were sealed',
        );
      }
      throw new NotedError(
        'validation_error',
        'The cursor is not one this server gave out for list_changes (or it comes from another index). Pass the nextCursor of the previous call unchanged, or call list_changes without cursor for the cursor of now.',
      );
    }
    if (cursor.s < feed.prunedSeq)
      return reset('the feed no longer holds changes that old (it keeps 30 days or 100,000 changes)');
    if (cursor.s > feed.lastSeq)
      return reset('the cursor is ahead of this index (it was restored from an older copy)');
    after = cursor.s;
  } else if (input.since !== undefined) {
    // One reading of times for every tool: without an offset, UTC; an impossible date refused.
    const ms = isoInstant(input.since);
    if (ms === null) {
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
    return { changes: [], nextCursor: cursorAt(key, feed, feed.lastSeq), more: false };
  }
  const limit = Math.min(input.limit ?? CHANGES_PAGE, MAX_CHANGES_PAGE);
  const shown = visibleIn(rules, folder);
  const anywhere = visibleIn(rules, '');
  const numbering = new VisibleNumbering(
    db,
    feed,
    rules.visibility.key,
    rules.visible === undefined ? null : (row) => asSeen(row, anywhere) !== null,
  );
  let number = numbering.countUpTo(after);
  const changes: Change[] = [];
  let last = after;
  let scanned = 0;
  // Whether a change the caller sees (in the folder asked for) follows the page; null: not known yet.
  let more: boolean | null = null;
  scan: while (scanned < MAX_SCANNED) {
    const rows = changesAfter(db, last, Math.min(500, MAX_SCANNED - scanned));
    if (rows.length === 0) {
      more = false;
      break;
    }
    for (const row of rows) {
      const change = asSeen(row, shown);
      if (change !== null && changes.length >= limit) {
        more = true;
        break scan;
      }
      last = row.seq;
      scanned++;
      if (rules.visible === undefined) number = row.seq;
      else if (change !== null || asSeen(row, anywhere) !== null) number++;
      if (change !== null) changes.push({ ...change, seq: number });
    }
  }
  numbering.remember(last, number);
  // Only changes the caller would see count for `more`: hidden ones after the page say nothing.
  more ??= visibleFollows(db, last, shown);
  return { changes, nextCursor: cursorAt(key, feed, last), more };
}

/** Whether a change `shown` lets through follows `after`, looking at most {@link MAX_LOOKAHEAD}. */
function visibleFollows(
  db: Db,
  after: number,
  shown: (path: string, real: string | null) => boolean,
): boolean {
  let at = after;
  for (let looked = 0; looked < MAX_LOOKAHEAD; ) {
    const rows = changesAfter(db, at, 1000);
    if (rows.length === 0) return false;
    for (const row of rows) if (asSeen(row, shown) !== null) return true;
    at = (rows[rows.length - 1] as ChangeRow).seq;
    looked += rows.length;
  }
  // Past the lookahead, call again rather than miss a change.
  return true;
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
    // The feed's own number, replaced by the caller's (visible-seq.ts) before it is given out.
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
