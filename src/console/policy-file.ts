/**
 * @module
 * Reading and writing `.noted/mcp-policy.yaml` for the console (SPEC 4). A file that cannot be read or
 * understood is reported with the parser's own message (the gate answers `policy_error` meanwhile).
 * A new policy — rendered from the form, or the text as typed — is checked with `parsePolicy` (what the
 * gate will read is exactly what was validated) and written atomically, only if the file is still the
 * one the page was shown (`etag`), so an edit made by hand meanwhile is never overwritten unseen. While
 * the file on disk is invalid, the form may not open anything the file keeps closed.
 */
import { createHash } from 'node:crypto';
import { stringify } from 'yaml';
import { isNotedError } from '../common/errors.js';
import { ACCESS_LEVELS, type Access, POLICY_FILE_NAME, type Policy, parsePolicy } from '../policy/policy.js';
import { openings, type Salvaged, salvagePolicy } from '../policy/salvage.js';
import { writeFileAtomic } from '../vault/atomic-write.js';
import { readStateFile } from '../vault/state-file.js';
import type { Vault } from '../vault/vault.js';
import { ConsoleError } from './http-util.js';

export interface PolicyState {
  /** The file's text, or null when there is no file (read-write everywhere). */
  readonly text: string | null;
  /** Identifies the file's current content for a later write: its SHA-256, or `none`. */
  readonly etag: string;
  readonly policy: Policy | null;
  /** Why the file cannot be used, when it cannot. */
  readonly error: string | null;
  /** The line the error names, from 1. */
  readonly errorLine: number | null;
}

export interface PolicyEdit {
  readonly default: Access;
  readonly folders: readonly { readonly folder: string; readonly access: Access }[];
}

export function policyPath(vault: Vault): string {
  return vault.statePath(POLICY_FILE_NAME);
}

/** A policy file larger than this is shown as unusable rather than read (the console reads synchronously). */

export function readPolicyState(vault: Vault): PolicyState {
  let text: string | null;
  try {
    text = readStateFile(policyPath(vault), MAX_POLICY_BYTES, { followLink: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') {
      return { text: null, etag: 'unreadable', policy: null, error: (err as Error).message, errorLine: null };
    }
    text = null;
  }
  const etag = text === null ? 'none' : createHash('sha256').update(text, 'utf8').digest('hex');
  if (text === null) return { text, etag, policy: null, error: null, errorLine: null };
  try {
    return { text, etag, policy: parsePolicy(text), error: null, errorLine: null };
  } catch (err) {
    if (!isNotedError(err)) throw err;
    const line = err.details.line;
    return {
      text,
      etag,
      policy: null,
      error: err.message,
      errorLine: typeof line === 'number' ? line : null,
    };
  }
}

/** The file's text for an edit: a comment, `default`, then the folders in the order given. */
export function renderPolicy(edit: PolicyEdit): string {
  const folders: Record<string, Access> = {};
  for (const { folder, access } of edit.folders) folders[folder] = access;
  const body = stringify({ default: edit.default, folders }, { lineWidth: 0 });
  return `# Access for agents to the notes of this vault (see noted-mcp --help).\n# Written by noted-mcp ui; levels: ${ACCESS_LEVELS.join(', ')}.\n${body}`;
}

/**
 * Validates and writes a policy edited in the form. `validation_error` (400) for an edit the parser
 * refuses (its message says why), `conflict` (409) when the file changed since `etag`, or when the
 * file on disk is invalid and the edit would open something that the readable part of the file keeps
 * closed (see policy/salvage.ts); nothing is written then.
 */
export function writePolicy(vault: Vault, etag: string, edit: PolicyEdit): PolicyState {
  const text = renderPolicy(edit);
  const policy = checked(text);
  return writeIfCurrent(vault, etag, text, (current) => {
    if (current.error === null) return;
    const opened = openings(checked(renderPolicy(salvageOf(current))), policy);
    if (opened.length > 0) {
      throw new ConsoleError(
        409,
        'conflict',
        `The policy file on disk cannot be used, so agents are shut out now; saving this would open more than the file could be read as: ${opened.join('; ')}. Nothing was written. Save what could be read first (or something more closed), then open folders in a second step; or fix the file's text.`,
      );
    }
  });
}

/** The largest policy text the console writes. */
export const MAX_POLICY_BYTES = 256 * 1024;

/**
 * Writes a policy file's text as the owner typed it (comments and all), once `parsePolicy` accepts
 * it: `validation_error` (400) with the parser's message when it does not, `conflict` (409) when the
 * file changed since `etag`.
 */
export function writePolicyText(vault: Vault, etag: string, text: string): PolicyState {
  if (Buffer.byteLength(text, 'utf8') > MAX_POLICY_BYTES) {
    throw new ConsoleError(413, 'too_large', 'A policy file may hold at most 256 KB here.');
  }
  checked(text);
  return writeIfCurrent(vault, etag, text, () => undefined);
}

/**
 * For a file that cannot be used: what could be read of it, everything else hidden (a file that could
 * not even be read is hidden everywhere).
 */
export function salvageOf(state: PolicyState): Salvaged {
  if (state.text !== null) return salvagePolicy(state.text);
  return { default: 'hidden', folders: [], notes: ['The file could not be read, so everything is hidden.'] };
}

/** The policy a text reads as, or the parser's refusal as a `validation_error`. */
function checked(text: string): Policy {
  try {
    return parsePolicy(text);
  } catch (err) {
    if (!isNotedError(err)) throw err;
    throw new ConsoleError(400, 'validation_error', err.message);
  }
}

/** Under the policy lock: the file must still be the one the page was shown, and pass `guard`. */
function writeIfCurrent(
  vault: Vault,
  etag: string,
  text: string,
  guard: (current: PolicyState) => void,
): PolicyState {
  return vault.withLockSync('policy', () => {
    const current = readPolicyState(vault);
    if (current.etag !== etag) {
      throw new ConsoleError(
        409,
        'conflict',
        'The policy file changed since this page showed it (edited by hand or in another window). Nothing was written; reload to see the current rules, then make your change again.',
      );
    }
    guard(current);
    writeFileAtomic(policyPath(vault), text);
    return readPolicyState(vault);
  });
}

/** The edit in a request body, or a `validation_error` naming what is wrong. */
export function policyEditOf(body: unknown): { etag: string; edit: PolicyEdit } {
  const bad = (why: string): never => {
    throw new ConsoleError(400, 'validation_error', why);
  };
  const record = (body !== null && typeof body === 'object' ? body : {}) as Record<string, unknown>;
  if (typeof record.etag !== 'string') bad('"etag" (from the last read of the policy) must be given.');
  if (!isAccess(record.default)) bad(`"default" must be one of ${ACCESS_LEVELS.join(', ')}.`);
  if (!Array.isArray(record.folders)) bad('"folders" must be a list of {folder, access}.');
  const folders = (record.folders as unknown[]).map((item) => {
    const { folder, access } = (item ?? {}) as Record<string, unknown>;
    if (typeof folder !== 'string' || !isAccess(access)) {
      return bad('Each folder rule needs a "folder" (text) and an "access" level.');
    }
    return { folder, access };
  });
  return { etag: record.etag as string, edit: { default: record.default as Access, folders } };
}

function isAccess(value: unknown): value is Access {
  return (ACCESS_LEVELS as readonly unknown[]).includes(value);
}
