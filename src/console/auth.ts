/**
 * @module
 * Who may use the console (SPEC 9.3): the holder of the vault's token. The token itself never needs
 * to reach the browser: the console prints a one-time link (`/login?once=CODE`) whose code works once,
 * for a few minutes, and becomes a session kept in memory for this run. The session travels in an
 * HttpOnly, SameSite=Strict cookie; every state-changing request must also carry the session's CSRF
 * token in a header, which a page of another origin can neither read nor send without our consent.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** How long a one-time login code may wait to be used. */
export const LOGIN_CODE_TTL_MS = 5 * 60 * 1000;
/** A session unused this long is forgotten; the owner opens a new link. */
export const SESSION_IDLE_MS = 12 * 60 * 60 * 1000;
/** At most this many sessions at once; the oldest goes first. */
const MAX_SESSIONS = 50;
/** Security: cookies are shared by every port of 127.0.0.1, so the name carries this console's port. */
export function cookieNameFor(port: number): string {
  return `noted_console_${port}`;
}

export interface ConsoleSession {
  readonly id: string;
  readonly csrf: string;
  lastUsed: number;
}

/** The vault token, login codes and sessions of one console run. */
export class ConsoleAuth {
  readonly #token: Buffer;
  readonly #codes = new Map<string, number>();
  readonly #sessions = new Map<string, ConsoleSession>();

  constructor(
    token: string,
    private readonly now: () => number = Date.now,
  ) {
    this.#token = digest(token);
  }

  /** True when `presented` is the vault token (constant time). */
  isToken(presented: string): boolean {
    return timingSafeEqual(digest(presented), this.#token);
  }

  /** A new one-time login code, valid for `LOGIN_CODE_TTL_MS`. */
  newLoginCode(): string {
    const code = secret();
    this.#codes.set(hashKey(code), this.now() + LOGIN_CODE_TTL_MS);
    return code;
  }

  /** Uses up a login code: true once, within its time; false ever after. */
  redeemLoginCode(code: string): boolean {
    const key = hashKey(code);
    const expires = this.#codes.get(key);
    // Security: deleted before the check, so even an expired code cannot be tried twice.
    this.#codes.delete(key);
    return expires !== undefined && this.now() <= expires;
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

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

/** Secrets are kept by hash, so a map lookup's timing says nothing useful about a guess. */
function hashKey(value: string): string {
  return digest(value).toString('hex');
}
