/**
 * @module
 * Signing in and out of the console: the sign-in link (`GET /login?once=CODE`), the token form
 * (`POST /login`), sign-out (`POST /logout`), and `GET /api/hello`, with which `noted-mcp ui --link`
 * makes sure the port it found belongs to a console holding this vault's token. Every request has
 * passed the Host and Origin checks before it gets here.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { loginPage } from './assets/pages.js';
import { type ConsoleAuth, type ConsoleSession, clearedCookie, csrfMatches, sessionCookie } from './auth.js';
import { readText, SECURE_HEADERS, send, sendError, sendJson } from './http-util.js';

const HTML = 'text/html; charset=utf-8';
const NEW_LINK =
  'Get a new one: press Enter in the terminal where noted-mcp ui runs, or run noted-mcp ui --link. Or sign in with the vault token below.';

export interface SignInContext {
  readonly auth: ConsoleAuth;
  readonly cookieName: string;
}

/** `GET|POST /login`: a session for a valid code or the token, then on to the console. */
export async function login(
  ctx: SignInContext,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
): Promise<void> {
  const method = req.method ?? 'GET';
  if (method === 'GET') {
    const once = url.searchParams.get('once');
    if (once === null) return send(res, 200, HTML, loginPage(null));
    if (!ctx.auth.redeemLoginCode(once)) {
      return send(
        res,
        403,
        HTML,
        loginPage(
          `This sign-in link was already used or has expired (a link works once, for 5 minutes). ${NEW_LINK}`,
        ),
      );
    }
  } else if (method === 'POST') {
    const form = new URLSearchParams(await readText(req));
    const token = form.get('token')?.trim() ?? '';
    if (!ctx.auth.isToken(token)) {
      const why =
        token === ''
          ? 'Enter the vault token to sign in.'
          : 'That is not the vault token. Copy it from .noted/mcp-http-token inside your vault (or the NOTED_MCP_AUTH_TOKEN the console was started with).';
      return send(res, 401, HTML, loginPage(why));
    }
  } else {
    return sendError(res, 405, 'method_not_allowed', 'Use GET or POST.');
  }
  const session = ctx.auth.newSession();
  // 303: the browser goes on with a GET, and the one-time code leaves the address bar.
  res.writeHead(303, {
    ...SECURE_HEADERS,
    Location: '/',
    'Set-Cookie': sessionCookie(ctx.cookieName, session.id),
  });
  res.end();
}

/** `POST /logout`: only the page itself (its CSRF header) may end its session. */
export function logout(
  ctx: SignInContext,
  res: ServerResponse,
  session: ConsoleSession | null,
  csrf: string | undefined,
): void {
  if (session === null || !csrfMatches(session, csrf)) {
    sendError(res, 403, 'forbidden', 'Refused: sign out from the console page.');
    return;
  }
  ctx.auth.endSession(session.id);
  send(res, 200, 'application/json; charset=utf-8', '{"ok":true}', {
    'Set-Cookie': clearedCookie(ctx.cookieName),
  });
}

/** `GET /api/hello?nonce=N`: this console's proof that it holds the vault token (see auth.ts). */
export function hello(ctx: SignInContext, res: ServerResponse, url: URL): void {
  const nonce = url.searchParams.get('nonce') ?? '';
  if (!/^[\w-]{16,128}$/.test(nonce)) {
    sendError(res, 400, 'validation_error', 'Give a nonce of 16 to 128 letters, digits, "-" or "_".');
    return;
  }
  sendJson(res, 200, { console: 'noted-mcp', proof: ctx.auth.hello(nonce) });
}
