/**
 * @module
 * Who may use the console (SPEC 9.3): the holder of the vault's token. The token itself never needs
 * to reach the browser: a sign-in link (`/login?once=CODE`) carries a code that works once, for a few
 * minutes, and becomes a session kept in memory for this run. The session travels in an HttpOnly,
 * SameSite=Strict cookie; every state-changing request must also carry the session's CSRF token in a
 * header, which a page of another origin can neither read nor send without our consent.
 *
 * A code is signed with the token (HMAC) rather than kept in a list, so that `noted-mcp ui --link`,
 * another process that can read the token, can make one for the running console without sending the
 * token anywhere. The console remembers each code it has accepted until the code expires, so a code
 * still works only once.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** How long a sign-in code may wait to be used. */
export const LOGIN_CODE_TTL_MS = 5 * 60 * 1000;
/** A session unused this long is forgotten; the owner opens a new link. */
export const SESSION_IDLE_MS = 12 * 60 * 60 * 1000;
/** At most this many sessions at once; the oldest goes first. */
const MAX_SESSIONS = 50;
/** A code may come from a process whose clock runs a little ahead of the console's. */
const CLOCK_SKEW_MS = 60 * 1000;
/** Security: each use of the token as a key signs one kind of message only, named by its prefix. */
const LOGIN_PURPOSE = 'noted-console-login';
const HELLO_PURPOSE = 'noted-console-hello';

/** Security: cookies are shared by every port of 127.0.0.1, so the name carries this console's port. */
export function cookieNameFor(port: number): string {
  return `noted_console_${port}`;
}

/**
 * A sign-in code for any console serving with `token`, valid for `LOGIN_CODE_TTL_MS` from `nowMs`:
 * `EXPIRY.NONCE.MAC` (expiry in base 36, MAC the base64url HMAC-SHA256 of both).
 *
 * @example
 * const link = `http://127.0.0.1:${port}/login?once=${mintLoginCode(token, Date.now())}`;
 */
export function mintLoginCode(token: string, nowMs: number): string {
  const expiry = (nowMs + LOGIN_CODE_TTL_MS).toString(36);
  const nonce = randomBytes(18).toString('base64url');
  return `${expiry}.${nonce}.${mac(token, LOGIN_PURPOSE, `${expiry}.${nonce}`)}`;
}

/**
 * What a console answers to `GET /api/hello?nonce=N`: proof that it holds `token`, which
 * `noted-mcp ui --link` checks before it prints a link to that port (a port named in a file inside
 * the vault could be anyone's).
 */
export function helloProof(token: string, nonce: string): string {
  return mac(token, HELLO_PURPOSE, nonce);
}

export interface ConsoleSession {
  readonly id: string;
  readonly csrf: string;
  lastUsed: number;
}

/** The vault token, sign-in codes and sessions of one console run. */
export class ConsoleAuth {
  readonly #token: string;
  readonly #digest: Buffer;
  /** Nonces of accepted codes, with their expiry: a code works once. */
  readonly #used = new Map<string, number>();
  readonly #sessions = new Map<string, ConsoleSession>();

  constructor(
    token: string,
    private readonly now: () => number = Date.now,
  ) {
    this.#token = token;
    this.#digest = digest(token);
  }

  /** True when `presented` is the vault token (constant time). */
  isToken(presented: string): boolean {
    return timingSafeEqual(digest(presented), this.#digest);
  }

  /** A new sign-in code, valid for `LOGIN_CODE_TTL_MS`. */
  newLoginCode(): string {
    return mintLoginCode(this.#token, this.now());
  }

  /** Uses up a sign-in code: true once, within its time, when the token signed it; false ever after. */
  redeemLoginCode(code: string): boolean {
    const now = this.now();
    for (const [nonce, expiry] of this.#used) if (expiry < now) this.#used.delete(nonce);
    const parts = code.split('.');
    if (parts.length !== 3) return false;
    const [expiryText, nonce, presented] = parts as [string, string, string];
    const expected = mac(this.#token, LOGIN_PURPOSE, `${expiryText}.${nonce}`);
    if (!timingSafeEqual(digest(presented), digest(expected))) return false;
    const expiry = Number.parseInt(expiryText, 36);
    if (!Number.isSafeInteger(expiry) || expiry < now || expiry > now + LOGIN_CODE_TTL_MS + CLOCK_SKEW_MS) {
      return false;
    }
    if (this.#used.has(nonce)) return false;
    this.#used.set(nonce, expiry);
    return true;
  }

  /** See `helloProof`. */
  hello(nonce: string): string {
    return helloProof(this.#token, nonce);
  }

  newSession(): ConsoleSession {
    const session = { id: secret(), csrf: secret(), lastUsed: this.now() };
    this.#sessions.set(hashKey(session.id), session);
    while (this.#sessions.size > MAX_SESSIONS) {
      const oldest = this.#sessions.keys().next().value as string;
      this.#sessions.delete(oldest);
    }
    return session;
  }

  /** The session of a cookie value, or null when unknown or idle too long. */
  session(id: string | undefined): ConsoleSession | null {
    if (id === undefined || id === '') return null;
    const key = hashKey(id);
    const session = this.#sessions.get(key);
    if (session === undefined) return null;
    if (this.now() - session.lastUsed > SESSION_IDLE_MS) {
      this.#sessions.delete(key);
      return null;
    }
    session.lastUsed = this.now();
    return session;
  }

  endSession(id: string): void {
    this.#sessions.delete(hashKey(id));
  }
}

/** True when the CSRF header is the session's token (constant time). */
export function csrfMatches(session: ConsoleSession, header: string | undefined): boolean {
  if (header === undefined) return false;
  return timingSafeEqual(digest(header), digest(session.csrf));
}

/** The value of one cookie in a `Cookie` header. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  if (header === undefined) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq !== -1 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/**
 * The `Set-Cookie` value for a session. No `Secure`: the console is plain HTTP on a loopback address,
 * where a Secure cookie would not be sent back by every browser.
 */
export function sessionCookie(name: string, id: string): string {
  return `${name}=${id}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${SESSION_IDLE_MS / 1000}`;
}

export function clearedCookie(name: string): string {
  return `${name}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0`;
}

function secret(): string {
  return randomBytes(32).toString('base64url');
}

function mac(token: string, purpose: string, message: string): string {
  return createHmac('sha256', token).update(`${purpose}|${message}`, 'utf8').digest('base64url');
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

/** Secrets are kept by hash, so a map lookup's timing says nothing useful about a guess. */
function hashKey(value: string): string {
  return digest(value).toString('hex');
}
