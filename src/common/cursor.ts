/**
 * @module
 * Page cursors: opaque to the agent, a little JSON underneath (the position after the last item
 * given), so a page boundary stays put while items are added or removed elsewhere in the list.
 */
import { NotedError } from './errors.js';

export function encodeCursor(position: object): string {
  return Buffer.from(JSON.stringify(position)).toString('base64url');
}

/** The position a cursor holds; `validation_error` for anything this server did not give out. */
export function decodeCursor<T>(cursor: string, isPosition: (data: unknown) => data is T): T {
  try {
    const data: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (isPosition(data)) return data;
  } catch {
    // fall through to the error below
  }
  throw new NotedError(
    'validation_error',
    'The cursor is not one this server gave out. Pass the nextCursor of the previous page unchanged, or leave it out to start from the first page.',
  );
}
