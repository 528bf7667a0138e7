/**
 * @module
 * search_notes' page cursors: the last hit's place in the order (score, time, path) and a fingerprint
 * of the search, so a cursor given with another query, folder or tag is refused rather than misread.
 */
import { createHash } from 'node:crypto';
import { decodeCursor, encodeCursor } from '../../../common/cursor.js';
import { NotedError } from '../../../common/errors.js';
import type { SearchPosition } from '../plan/sql.js';
import type { SearchRow } from './run.js';

interface Stored extends SearchPosition {
  readonly q: string;
}

export function searchFingerprint(
  query: string,
  folder: string,
  tag: string | undefined,
  /** The time filters, as `rangeKey` (access/date-range.ts) writes them. */
  range: string,
): string {
  return createHash('sha256')
    .update(JSON.stringify([query, folder.toLowerCase(), tag ?? '', range]))
    .digest('base64url')
    .slice(0, 16);
}

export function encodeSearchCursor(row: SearchRow, fingerprint: string): string {
  return encodeCursor('search', {
    s: row.score,
    m: row.mtime_ms,
    p: row.path,
    q: fingerprint,
  } satisfies Stored);
}

export function decodeSearchCursor(cursor: string, fingerprint: string): SearchPosition {
  const at = decodeCursor('search', cursor, (d): d is Stored => {
    const c = d as Partial<Stored> | null;
    return (
      typeof c?.s === 'number' &&
      Number.isFinite(c.s) &&
      typeof c.m === 'number' &&
      Number.isFinite(c.m) &&
      typeof c.p === 'string' &&
      typeof c.q === 'string'
    );
  });
  if (at.q !== fingerprint) {
    throw new NotedError(
      'validation_error',
      'This cursor belongs to another search: pass it with the same query, folder, tag and time filters as the search that gave it, or leave it out to start from the first page.',
    );
  }
  return { s: at.s, m: at.m, p: at.p };
}
