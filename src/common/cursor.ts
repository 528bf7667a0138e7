/**
 * @module
 * Page cursors: opaque to the agent, a little JSON underneath (the position after the last item
 * given), so a page boundary stays put while items are added or removed elsewhere in the list. Each
 * cursor names its list, so one list's cursor given to another is refused rather than misread.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
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
 * A cursor that says nothing of its position and cannot be made up (issue 35): the position encrypted
 * and authenticated (AES-256-GCM) under `key`, with a fresh nonce each time, so two cursors of the same
 * position differ too. For lists whose position counts what the caller may not see (the change feed's
 * sequence counts hidden changes).
 */
export function sealCursor(key: Buffer, list: string, position: unknown): string {
  const nonce = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, nonce);
  cipher.setAAD(Buffer.from(list));
  const body = Buffer.concat([cipher.update(JSON.stringify(position), 'utf8'), cipher.final()]);
  return Buffer.concat([nonce, cipher.getAuthTag(), body]).toString('base64url');
}

/**
 * The position a {@link sealCursor} cursor of `list` holds under `key`; null when it is not one
 * (another list's, another key's, altered, or not sealed at all).
 */
export function openSealedCursor<T>(
  key: Buffer,
  list: string,
  cursor: string,
  isPosition: (data: unknown) => data is T,
): T | null {
  try {
    const raw = Buffer.from(cursor, 'base64url');
    if (raw.length < 29) return null;
    const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
    decipher.setAAD(Buffer.from(list));
    decipher.setAuthTag(raw.subarray(12, 28));
    const text = Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
    const data: unknown = JSON.parse(text);
    return isPosition(data) ? data : null;
  } catch {
    return null;
  }
}

/** True when `cursor` is a plain {@link encodeCursor} cursor of `list` (one given out before sealing). */
export function isPlainCursor(list: string, cursor: string): boolean {
  try {
    const data = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { k?: unknown } | null;
    return data !== null && typeof data === 'object' && data.k === list;
  } catch {
    return false;
  }
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
