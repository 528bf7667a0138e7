/**
 * @module
 * Host and Origin checks against DNS rebinding (SPEC 8.2), and the CORS headers for a trusted local
 * origin. A page on evil.example that rebinds its name to 127.0.0.1 still sends `Host:
 * evil.example` and `Origin: http://evil.example`; both are refused before anything else is read.
 */
import {
  localhostAllowedHostnames,
  validateHostHeader,
  validateOriginHeader,
} from '@modelcontextprotocol/server';
import type { HeaderValue } from './http-auth.js';

/** Loopback names and addresses the server may be reached by, `[::1]` in URL form. */
export function loopbackHostnames(boundHost: string): string[] {
  const names = new Set(localhostAllowedHostnames());
  names.add(boundHost.includes(':') ? `[${boundHost}]` : boundHost);
  return [...names];
}

/** True for an address or name that stays on this machine. */
export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127(\.\d{1,3}){3}$/.test(h);
}

export type GuardResult = { readonly ok: true } | { readonly ok: false; readonly message: string };

export class HostOriginGuard {
  readonly #hostnames: string[];
  readonly #port: number;

  constructor(boundHost: string, port: number) {
    this.#hostnames = loopbackHostnames(boundHost);
    this.#port = port;
  }

  /** `Host` must name a loopback host and this very port. */
  checkHost(host: HeaderValue): GuardResult {
    if (typeof host !== 'string') return { ok: false, message: 'Missing or repeated Host header' };
    const result = validateHostHeader(host, this.#hostnames);
    if (!result.ok) return { ok: false, message: result.message };
    const port = portOf(host);
    if (port !== this.#port)
      return { ok: false, message: `Invalid Host: ${host} (this server listens on port ${this.#port})` };
    return { ok: true };
  }

  /** An absent `Origin` passes (non-browser clients send none); a present one must be a local web page. */
  checkOrigin(origin: HeaderValue): GuardResult {
    if (origin === undefined) return { ok: true };
    if (typeof origin !== 'string') return { ok: false, message: 'Repeated Origin header' };
    // Security: the opaque origin `null` (sandboxed frames, file: pages) fails to parse and is refused.
    const result = validateOriginHeader(origin, this.#hostnames);
    if (!result.ok) return { ok: false, message: result.message };
    if (origin !== '' && !/^https?:\/\//i.test(origin))
      return { ok: false, message: `Invalid Origin: ${origin}` };
    return { ok: true };
  }
}

/** Headers that let a trusted local page read the answer; never `*`. */
export function corsHeaders(origin: string): Record<string, string> {
  return {
    'Access-Control-Allow-Origin': origin,
    'Access-Control-Expose-Headers': 'Mcp-Session-Id, Mcp-Protocol-Version, WWW-Authenticate',
    Vary: 'Origin',
  };
}

/** The answer to a CORS preflight from a trusted local origin. */
export function preflightHeaders(origin: string): Record<string, string> {
  return {
    ...corsHeaders(origin),
    'Access-Control-Allow-Methods': 'GET, POST, DELETE, OPTIONS',
    'Access-Control-Allow-Headers':
      'Authorization, X-MCP-Token, Content-Type, Accept, Mcp-Session-Id, Mcp-Protocol-Version, Last-Event-ID',
    'Access-Control-Max-Age': '600',
  };
}

function portOf(host: string): number {
  try {
    const url = new URL(`http://${host}`);
    return url.port === '' ? 80 : Number(url.port);
  } catch {
    return -1;
  }
}
