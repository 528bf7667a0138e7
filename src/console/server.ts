/**
 * @module
 * The local web console (SPEC 9.3) on 127.0.0.1: a one-page app and its JSON API. Every request
 * passes, in order, before anything else is read: the Host check and the Origin check (403, against
 * DNS rebinding and other local pages), then the session or the vault token (401), then — for
 * anything that changes state — the session's CSRF header (403). Only then is it routed.
 *
 * @example
 * const console = await startConsole({ vault, token, port: 0, recordApprovedWrite, clients });
 * process.stderr.write(`${console.loginUrl()}\n`); // http://127.0.0.1:PORT/login?once=…
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Journal } from '../journal/journal.js';
import { PendingStore } from '../staging/pending-store.js';
import { RejectedStore } from '../staging/rejected-store.js';
import { ACCESS_ROUTES } from './api-access.js';
import { ACTIVITY_ROUTES } from './api-activity.js';
import { CONNECT_ROUTES } from './api-connect.js';
import { DECISION_ROUTES } from './api-decisions.js';
import { PENDING_ROUTES } from './api-pending.js';
import { appCss } from './assets/app-css.js';
import { appJs } from './assets/app-js.js';
import { appPage, errorPage, loginPage } from './assets/pages.js';
import { ConsoleAuth, type ConsoleSession, cookieNameFor, cookieValue, csrfMatches } from './auth.js';
import type { ApiContext, ConsoleDeps, Route } from './context.js';
import { checkHost, checkOrigin, isStateChanging } from './guard.js';
import { errorReply, readJson, SECURE_HEADERS, send, sendError, sendJson } from './http-util.js';
import { PendingFacts } from './pending-facts.js';
import { hello, login, logout } from './sign-in.js';

/** How the console appears in the journal when it undoes: self-declared, like any client's name. */
export const CONSOLE_CLIENT = 'noted-mcp-console';
const HOST = '127.0.0.1';

export interface ConsoleOptions extends ConsoleDeps {
  /** The vault's token: whoever holds it may sign in. */
  readonly token: string;
  /** 0 picks a free port. */
  readonly port: number;
  /** Milliseconds since the epoch, for login codes and sessions (tests move it). */
  readonly clock?: () => number;
  /** Errors no request can be told about. */
  readonly onerror?: (error: Error) => void;
}

export interface ConsoleHandle {
  /** `http://127.0.0.1:PORT/` */
  readonly url: string;
  readonly port: number;
  /** A new one-time sign-in link. */
  loginUrl(): string;
  close(): Promise<void>;
}

const ROUTES: readonly Route[] = [
  ...PENDING_ROUTES,
  ...DECISION_ROUTES,
  ...ACTIVITY_ROUTES,
  ...ACCESS_ROUTES,
  ...CONNECT_ROUTES,
];

export class PortInUseError extends Error {}

export async function startConsole(options: ConsoleOptions): Promise<ConsoleHandle> {
  const auth = new ConsoleAuth(options.token, options.clock);
  const now = options.now ?? (() => new Date());
  const store = new PendingStore(options.vault, now);
  const ctx: ApiContext = {
    deps: options,
    vault: options.vault,
    store,
    rejected: new RejectedStore(options.vault, now),
    facts: new PendingFacts(options.vault, store),
    journal: new Journal(options.vault, { now, key: options.journalKey }),
    now,
    actor: { session: `console-${randomUUID()}`, client: CONSOLE_CLIENT, owner: true },
  };
  const onerror = options.onerror ?? (() => undefined);
  let port = options.port;
  const server: Server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      onerror(err instanceof Error ? err : new Error(String(err)));
      if (!res.headersSent) {
        const why = 'The console hit an unexpected error; its terminal shows what happened.';
        if ((req.url ?? '/').startsWith('/api/')) sendError(res, 500, 'internal', why);
        else send(res, 500, 'text/html; charset=utf-8', errorPage('Something went wrong', [why]));
      } else res.destroy();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = req.method ?? 'GET';
    const url = new URL(req.url ?? '/', 'http://console.invalid');
    const path = url.pathname;
    const isApi = path.startsWith('/api/');
    // A page the browser navigates to gets a page back; the API and the page's own calls get JSON.
    const refuse = (status: number, code: string, title: string, message: string): void =>
      isApi || path === '/logout'
        ? sendError(res, status, code, message)
        : send(res, status, 'text/html; charset=utf-8', errorPage(title, [message]));
    const host = checkHost(req.headers.host, port);
    if (!host.ok) return refuse(403, 'forbidden', 'Refused', host.message);
    const facts = {
      method,
      host: req.headers.host,
      origin: req.headers.origin,
      secFetchSite: req.headers['sec-fetch-site'],
    };
    const origin = checkOrigin(facts, isApi);
    if (!origin.ok) return refuse(403, 'forbidden', 'Refused', origin.message);

    const signIn = { auth, cookieName: cookieNameFor(port) };
    const session = auth.session(cookieValue(req.headers.cookie, signIn.cookieName));
    if (method === 'GET' && path === '/app.js')
      return send(res, 200, 'text/javascript; charset=utf-8', appJs());
    if (method === 'GET' && path === '/app.css') return send(res, 200, 'text/css; charset=utf-8', appCss());
    if (method === 'GET' && path === '/favicon.ico') {
      res.writeHead(204, SECURE_HEADERS);
      return void res.end();
    }
    if (path === '/login') return login(signIn, req, res, url);
    if (path === '/logout' && method === 'POST')
      return logout(signIn, res, session, header(req, 'x-csrf-token'));
    if (method === 'GET' && path === '/api/hello') return hello(signIn, res, url);
    if (method === 'GET' && path === '/') {
      if (session === null) return send(res, 401, 'text/html; charset=utf-8', loginPage(null));
      return send(res, 200, 'text/html; charset=utf-8', appPage(ctx.store.count()));
    }
    if (!isApi) {
      return refuse(404, 'not_found', 'Nothing here', `There is no page at ${path}; the console lives at /.`);
    }
    return api(req, res, method, url, session);
  }

  async function api(
    req: IncomingMessage,
    res: ServerResponse,
    method: string,
    url: URL,
    session: ConsoleSession | null,
  ): Promise<void> {
    const bearer = /^\s*Bearer\s+(\S+)\s*$/i.exec(header(req, 'authorization') ?? '')?.[1];
    // Security: a bearer token is never sent by a browser on its own, so it needs no CSRF header; a
    // cookie is, so a cookie session must prove with the header that the request is the page's own.
    const byToken = bearer !== undefined && auth.isToken(bearer);
    if (!byToken && session === null) {
      return sendError(
        res,
        401,
        'unauthorized',
        'Sign in first: open the link noted-mcp ui printed (press Enter in its terminal, or run noted-mcp ui --link, for a new one).',
      );
    }
    if (
      !byToken &&
      isStateChanging(method) &&
      !csrfMatches(session as ConsoleSession, header(req, 'x-csrf-token'))
    ) {
      return sendError(res, 403, 'csrf', 'Refused: the request lacks the console page’s CSRF token.');
    }
    const rest = url.pathname.slice('/api/'.length);
    if (method === 'GET' && rest === 'session') {
      return sendJson(res, 200, {
        csrf: session?.csrf ?? null,
        vault: ctx.vault.root,
        pending: ctx.store.count(),
      });
    }
    const found = match(method, rest);
    if (found === null) return sendError(res, 404, 'not_found', `No API route ${method} /api/${rest}.`);
    if (found === 'method')
      return sendError(res, 405, 'method_not_allowed', `${method} is not allowed here.`);
    try {
      const body = isStateChanging(method) ? await readJson(req) : undefined;
      const result = await found.route.handle(ctx, { params: found.params, query: url.searchParams, body });
      return sendJson(res, 200, result);
    } catch (err) {
      const reply = errorReply(err);
      if (reply === null) throw err;
      return sendJson(res, reply.status, reply.body);
    }
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) =>
      reject(err.code === 'EADDRINUSE' ? new PortInUseError(err.message) : err),
    );
    server.listen(options.port, HOST, () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  const base = `http://${HOST}:${port}/`;
  return {
    url: base,
    port,
    loginUrl: () => `${base}login?once=${auth.newLoginCode()}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return typeof value === 'string' ? value : undefined;
}

function match(
  method: string,
  rest: string,
): { route: Route; params: Record<string, string> } | 'method' | null {
  const parts = rest.split('/');
  let pathMatched = false;
  for (const route of ROUTES) {
    const pattern = route.path.split('/');
    if (pattern.length !== parts.length) continue;
    const params: Record<string, string> = {};
    let ok = true;
    pattern.forEach((p, i) => {
      const part = parts[i] as string;
      if (p.startsWith(':')) {
        try {
          params[p.slice(1)] = decodeURIComponent(part);
        } catch {
          ok = false;
        }
      } else if (p !== part) ok = false;
    });
    if (!ok) continue;
    pathMatched = true;
    if (route.method === method) return { route, params };
  }
  return pathMatched ? 'method' : null;
}
