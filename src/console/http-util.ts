/**
 * @module
 * The console's HTTP plumbing: the secure headers every answer carries, JSON bodies in and out, and an
 * error that knows its status. Typed vault errors (`NotedError`) become JSON `{error: {code, message}}`
 * with a status that says what kind of refusal it was.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isNotedError } from '../common/errors.js';

/** The largest JSON body the API reads: a policy, a list of hunks, an id. */
export const MAX_API_BODY_BYTES = 1024 * 1024;

/**
 * Security: no inline script or style anywhere (the page's code is served as files), nothing framed,
 * nothing sent to other origins, no caching of notes. The referrer goes to this origin only: the
 * sign-in code is in a URL once, and the page links nowhere else. (`no-referrer` would also make
 * Chromium send `Origin: null` on the sign-in form's POST, which the Origin check must refuse.)
 */
export const SECURE_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'same-origin',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Cache-Control': 'no-store',
};

/** An expected refusal with its HTTP status; `code` matches the vault's error codes where it can. */
export class ConsoleError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const STATUS_OF: Record<string, number> = {
  not_found: 404,
  conflict: 409,
  already_exists: 409,
  busy: 409,
  validation_error: 400,
  invalid_name: 400,
  policy_error: 422,
  not_supported: 422,
  too_large: 413,
};

/** The JSON error answer for a thrown error, or null when it is a bug (rethrow it). */
export function errorReply(err: unknown): { status: number; body: unknown } | null {
  if (err instanceof ConsoleError) {
    return { status: err.status, body: { error: { code: err.code, message: err.message } } };
  }
  if (isNotedError(err)) {
    return {
      status: STATUS_OF[err.code] ?? 400,
      body: { error: { code: err.code, message: err.message } },
    };
  }
  return null;
}

export function send(
  res: ServerResponse,
  status: number,
  contentType: string,
  body: string,
  extra: Record<string, string> = {},
): void {
  res.writeHead(status, {
    ...SECURE_HEADERS,
    'Content-Type': contentType,
    'Content-Length': String(Buffer.byteLength(body, 'utf8')),
    ...extra,
  });
  res.end(body);
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  send(res, status, 'application/json; charset=utf-8', JSON.stringify(body));
}

export function sendError(res: ServerResponse, status: number, code: string, message: string): void {
  sendJson(res, status, { error: { code, message } });
}

/** Reads a JSON body; refuses another content type (a plain form cannot send JSON) or a large body. */
export async function readJson(req: IncomingMessage): Promise<unknown> {
  const type = String(req.headers['content-type'] ?? '')
    .split(';')[0]
    ?.trim()
    .toLowerCase();
  const text = await readText(req);
  if (text === '') return {};
  if (type !== 'application/json') {
    throw new ConsoleError(415, 'validation_error', 'Send the body as application/json.');
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new ConsoleError(400, 'validation_error', 'The body is not valid JSON.');
  }
}

/** Reads the body as UTF-8 text, at most `MAX_API_BODY_BYTES`. */
export async function readText(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_API_BODY_BYTES) {
      throw new ConsoleError(413, 'too_large', 'The request body is too large for the console.');
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}
