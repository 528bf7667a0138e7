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
  'out_of_scope',
  'cancelled',
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

/** A failure of the file system or the disk under the vault: expected in the field, not a bug. */
export interface FileSystemFailure {
  /** The system's error code: `ENOSPC`, `EIO`, `SQLITE_FULL`, … */
  readonly errno: string;
  /** What went wrong, in words: "the disk is full". */
  readonly why: string;
  /** What the owner can do about it, as a sentence. */
  readonly fix: string;
}

const FILE_SYSTEM_FAILURES: Record<string, { why: string; fix: string }> = {
  ENOSPC: { why: 'the disk is full', fix: 'Free disk space on the disk that holds the vault.' },
  EDQUOT: { why: 'the disk quota is used up', fix: 'Free disk space or raise the quota.' },
  EIO: { why: 'the disk reported an input/output error', fix: 'Check the disk (and its connection).' },
  EROFS: { why: 'the file system is read-only', fix: 'Mount the file system that holds the vault writable.' },
  EACCES: { why: 'the server has no permission', fix: 'Fix the permissions of the vault folder.' },
  EPERM: { why: 'the operation is not permitted', fix: 'Fix the permissions of the vault folder.' },
  EMFILE: {
    why: 'the server has too many files open',
    fix: 'Raise the open-file limit, or restart the server.',
  },
  ENFILE: {
    why: 'the system has too many files open',
    fix: 'Raise the open-file limit, or restart the server.',
  },
  EBUSY: { why: 'a file is busy', fix: 'Close the program holding it.' },
  SQLITE_FULL: { why: 'the disk is full', fix: 'Free disk space on the disk that holds the vault.' },
};

/**
 * The file system failure `err` stands for, or null when it is something else (a bug). Node's system
 * errors carry an `E…` code and the failed `syscall`; SQLite's carry `SQLITE_…` codes.
 */
export function fileSystemFailure(err: unknown): FileSystemFailure | null {
  if (!(err instanceof Error)) return null;
  const { code, syscall } = err as NodeJS.ErrnoException;
  if (typeof code !== 'string') return null;
  const known = FILE_SYSTEM_FAILURES[code];
  if (known !== undefined && (typeof syscall === 'string' || code.startsWith('SQLITE_'))) {
    return { errno: code, ...known };
  }
  if (/^SQLITE_(IOERR|READONLY|CANTOPEN)/.test(code)) {
    return {
      errno: code,
      why: 'the index database could not be written',
      fix: 'Check the disk, and the permissions of the .noted folder in the vault.',
    };
  }
  if (/^E[A-Z0-9]+$/.test(code) && typeof syscall === 'string') {
    return { errno: code, why: err.message, fix: 'Check the vault folder and its disk.' };
  }
  return null;
}
