/**
 * @module
 * Host and Origin checks for the console, as the HTTP transport makes them (SPEC 8.2) but stricter:
 * the console is a web page, so a request from any other origin — another port of 127.0.0.1 included,
 * which counts as the same site for cookies — is refused. Kept here rather than imported from
 * `transport/`, which sits above the console.
 */

/** Names the console may be reached by. A rebinding page still sends its own name as `Host`. */
const LOOPBACK_NAMES = new Set(['127.0.0.1', 'localhost', '[::1]']);

export type Verdict = { readonly ok: true } | { readonly ok: false; readonly message: string };

export interface RequestFacts {
  readonly method: string;
  readonly host: string | string[] | undefined;
  readonly origin: string | string[] | undefined;
  readonly secFetchSite: string | string[] | undefined;
}

/** The origin this request was addressed to (`http://HOST`), or a refusal. */
export function checkHost(host: RequestFacts['host'], port: number): Verdict {
  if (typeof host !== 'string') return { ok: false, message: 'Missing or repeated Host header.' };
  const m = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(host.toLowerCase());
  if (m === null || !LOOPBACK_NAMES.has(m[1] as string) || Number(m[2] ?? 80) !== port) {
    return {
      ok: false,
      message: `Refused: the console answers only at 127.0.0.1:${port}, localhost:${port} or [::1]:${port} (Host was ${JSON.stringify(host)}).`,
    };
  }
  return { ok: true };
}

/**
 * Security: a request that says where it comes from must come from this very origin; a state-changing
 * one must say so. Browsers send `Origin` on every POST/PUT/DELETE (and `Sec-Fetch-Site` on every
 * request), so only tools without a browser omit them, and those need the token or the CSRF header.
 */
export function checkOrigin(facts: RequestFacts, apiRequest: boolean): Verdict {
  const { origin, secFetchSite, host } = facts;
  if (Array.isArray(origin) || Array.isArray(secFetchSite)) {
    return { ok: false, message: 'Refused: repeated Origin or Sec-Fetch-Site header.' };
  }
  if (origin !== undefined && origin !== `http://${String(host).toLowerCase()}`) {
    return { ok: false, message: `Refused: a page of another origin (${origin}) may not use the console.` };
  }
  // `none`: the person typed the address or opened the printed link. A page (not the API) may be
  // opened from a link elsewhere: its SameSite=Strict cookie stays behind, so it is only a login page.
  const foreign = secFetchSite !== undefined && secFetchSite !== 'same-origin' && secFetchSite !== 'none';
  if (foreign && (apiRequest || isStateChanging(facts.method))) {
    return { ok: false, message: `Refused: a ${secFetchSite} request may not use the console.` };
  }
  return { ok: true };
}

/** Methods that change something, and so need the CSRF header. */
export function isStateChanging(method: string): boolean {
  return method !== 'GET' && method !== 'HEAD';
}
