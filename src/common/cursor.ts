/**
 * @module
 * Page cursors: opaque to the agent, a little JSON underneath (the position after the last item
 * given), so a page boundary stays put while items are added or removed elsewhere in the list. Each
 * cursor names its list, so one list's cursor given to another is refused rather than misread.
 */
import { NotedError } from './errors.js';

export function encodeCursor(list: string, position: unknown): string {
  return Buffer.from(JSON.stringify({ k: list, at: position })).toString('base64url');
}

/** The position a cursor of `list` holds; `validation_error` for anything this server did not give out. */
export function decodeCursor<T>(list: string, cursor: string, isPosition: (data: unknown) => data is T): T {
  try {
    const data = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as {
      k?: unknown;
      at?: unknown;
    };
    if (data !== null && typeof data === 'object' && data.k === list && isPosition(data.at)) return data.at;
  } catch {
    // fall through to the error below
  }
  throw new NotedError(
    'validation_error',
    'The cursor is not one this server gave out for this list. Pass the nextCursor of the previous page unchanged, with the same other arguments, or leave it out to start from the first page.',
  );
}

/**
 * A guard for a position made of string and number fields, e.g. `positionOf({ c: 'number', t:
 * 'string' })` for `{c: 3, t: "project"}`.
 */
export function positionOf<T extends object>(
  fields: {
    [K in keyof T]: T[K] extends number ? 'number' : 'string';
  },
): (data: unknown) => data is T {
  return (data): data is T => {
    if (data === null || typeof data !== 'object') return false;
    const record = data as Record<string, unknown>;
    return Object.entries(fields).every(([key, type]) => typeof record[key] === type);
  };
}
