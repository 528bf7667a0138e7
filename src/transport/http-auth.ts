/**
 * @module
 * The shared-secret check every HTTP request passes (SPEC 8.2): `Authorization: Bearer T` or
 * `X-MCP-Token: T`, compared in constant time. A session id is no credential of its own.
 */
import { createHash, timingSafeEqual } from 'node:crypto';

/** Header values as Node gives them: a string, several strings, or nothing. */
export type HeaderValue = string | string[] | undefined;

/** The smallest token accepted: shorter secrets can be guessed over a local socket. */
export const MIN_TOKEN_LENGTH = 16;

/**
 * Why a token is unusable, or null when it is fine. Tokens travel in headers and URLs, so only
 * visible ASCII without spaces is allowed.
 */
export function tokenProblem(token: string): string | null {
  if (token.length < MIN_TOKEN_LENGTH) return `it must be at least ${MIN_TOKEN_LENGTH} characters long`;
  if (!/^[\x21-\x7e]+$/.test(token)) return 'it may hold only visible ASCII characters (no spaces)';
  return null;
}

export interface TokenCheck {
  /** True when one of the presented credentials is the token. */
  readonly ok: boolean;
  /** True when no credential was presented at all (for the `WWW-Authenticate` error code). */
  readonly missing: boolean;
}

/** Compares presented credentials with the token; `queryToken` only where the caller allows it. */
export class TokenGuard {
  readonly #digest: Buffer;

  constructor(token: string) {
    const problem = tokenProblem(token);
    if (problem !== null) throw new Error(`The HTTP token is unusable: ${problem}.`);
    this.#digest = digest(token);
  }

  check(
    headers: { authorization?: HeaderValue; 'x-mcp-token'?: HeaderValue },
    queryToken?: string,
  ): TokenCheck {
    const presented: string[] = [];
    const bearer = bearerOf(single(headers.authorization));
    if (bearer !== undefined) presented.push(bearer);
    const header = single(headers['x-mcp-token']);
    if (header !== undefined) presented.push(header.trim());
    if (queryToken !== undefined) presented.push(queryToken);
    // Every candidate is compared (no early exit), so the time taken says nothing about which one
    // was close; each comparison is between equal-length digests, as timingSafeEqual needs.
    let ok = false;
    for (const candidate of presented) {
      if (timingSafeEqual(digest(candidate), this.#digest)) ok = true;
    }
    return { ok, missing: presented.length === 0 };
  }
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

/** A header sent twice is joined or listed by Node; neither is a single credential. */
function single(value: HeaderValue): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function bearerOf(authorization: string | undefined): string | undefined {
  if (authorization === undefined) return undefined;
  const m = /^\s*Bearer\s+(\S+)\s*$/i.exec(authorization);
  return m ? m[1] : undefined;
}
