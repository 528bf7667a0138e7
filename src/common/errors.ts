/**
 * @module
 * Expected outcomes as typed errors. Every layer throws `NotedError` for things a caller can act on
 * (a missing note, a stale etag, a bad name); the MCP edge turns them into `isError` results.
 * Anything else that is thrown is a bug.
 */

export const ERROR_CODES = [
  'not_found',
  'already_exists',
  'invalid_name',
  'validation_error',
  'conflict',
  'ambiguous',
  'read_only',
  'staged',
  'policy_error',
  'too_large',
  'busy',
  'not_supported',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/** Extra data an error carries to the caller (candidates, currentEtag, …). Must be JSON-safe. */
export type ErrorDetails = Record<string, unknown>;

export class NotedError extends Error {
  readonly code: ErrorCode;
  readonly details: ErrorDetails;

  constructor(code: ErrorCode, message: string, details: ErrorDetails = {}) {
    super(message);
    this.name = 'NotedError';
    this.code = code;
    this.details = details;
  }
}

export function isNotedError(value: unknown): value is NotedError {
  return value instanceof NotedError;
}
