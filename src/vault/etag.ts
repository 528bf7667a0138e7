/**
 * @module
 * Content fingerprints (SPEC 1.5): an etag names the bytes, not the time they were written.
 */
import { createHash } from 'node:crypto';

/** `sha256:` + hex SHA-256 of the bytes. */
export function etagOf(data: string | Uint8Array): string {
  return `sha256:${createHash('sha256').update(data).digest('hex')}`;
}
