/**
 * @module
 * Host and Origin checks against DNS rebinding (SPEC 8.2), and the CORS headers for a trusted local
 * origin. A page on evil.example that rebinds its name to 127.0.0.1 still sends `Host:
 * evil.example` and `Origin: http://evil.example`; both are refused before anything else is read.
 * A public host name the person named (`--allowed-host`, or the one a tunnel reports, SPEC 15.3)
 * is accepted as `Host` and as the origin `https://NAME`, one exact name each: never a wildcard.
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

/** A public name the server is reached by through a proxy or tunnel: `name`, or `name:port`. */
export interface PublicHost {
  /** Lower case, no port. */
  readonly hostname: string;
  /** Absent: the Host header carries no port (or 443, the https default). */
  readonly port?: number;
}

const DNS_NAME = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/;

/** `NAME` or `NAME:PORT` as `--allowed-host` takes it, or why not. */
export function parsePublicHost(text: string): PublicHost | { readonly problem: string } {
  if (text.includes('*'))
    return {
      problem: `never a wildcard: name the one public host name the server is reached by (got "${text}")`,
    };
  if (/[/\s@?#]/.test(text) || text.includes('://'))
    return { problem: `give the host name only, e.g. notes.example.com (got "${text}")` };
  const m = /^([^:]+)(?::(\d{1,5}))?$/.exec(text.toLowerCase());
  const hostname = m?.[1];
  const port = m?.[2] === undefined ? undefined : Number(m[2]);
  if (hostname === undefined || !DNS_NAME.test(hostname) || /^[\d.]+$/.test(hostname))
    return {
      problem: `"${text}" is not a host name (letters, digits, "-" and dots, e.g. notes.example.com)`,
    };
  if (port !== undefined && (port < 1 || port > 65535))
    return { problem: `the port of "${text}" must be from 1 to 65535` };
  if (isLoopbackHost(hostname)) return { problem: `${hostname} is always accepted; name a public host` };
  return port === undefined ? { hostname } : { hostname, port };
}

export function publicHostText(host: PublicHost): string {
  return host.port === undefined ? host.hostname : `${host.hostname}:${host.port}`;
}

export class HostOriginGuard {
  readonly #hostnames: string[];
  readonly #port: number;
  readonly #public: PublicHost[];

  constructor(boundHost: string, port: number, publicHosts: readonly PublicHost[] = []) {
    this.#hostnames = loopbackHostnames(boundHost);
    this.#port = port;
    this.#public = [...publicHosts];
  }

  /** Accepts one more public host from now on (the name a tunnel reported once it was up). */
  allow(host: PublicHost): void {
    if (!this.#public.some((h) => publicHostText(h) === publicHostText(host))) this.#public.push(host);
  }

  /** True for a `Host` that is one of the public hosts (reached over https, through a tunnel or proxy). */
  isPublic(host: HeaderValue): boolean {
    return typeof host === 'string' && this.#public.some((h) => matchesPublic(host, h));
  }

  /** `Host` must name a loopback host and this very port, or one of the public hosts exactly. */
  checkHost(host: HeaderValue): GuardResult {
    if (typeof host !== 'string') return { ok: false, message: 'Missing or repeated Host header' };
    if (this.#public.some((h) => matchesPublic(host, h))) return { ok: true };
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
    if (this.#public.some((h) => origin.toLowerCase() === `https://${publicHostText(h)}`))
      return { ok: true };
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

/** Exactly the public name (any case), with its port, or with none or 443 when it has none. */
function matchesPublic(header: string, host: PublicHost): boolean {
  const m = /^([^:]+)(?::(\d+))?$/.exec(header.toLowerCase());
  if (!m || m[1] !== host.hostname) return false;
  const port = m[2] === undefined ? undefined : Number(m[2]);
  return host.port === undefined ? port === undefined || port === 443 : port === host.port;
}

function portOf(host: string): number {
  try {
    const url = new URL(`http://${host}`);
    return url.port === '' ? 80 : Number(url.port);
  } catch {
    return -1;
  }
}
