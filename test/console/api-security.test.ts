import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { helloProof, mintLoginCode } from '../../src/console/auth.js';
import { type ConsoleFixture, startFixture, TOKEN } from './console-fixture.js';

/**
 * SPEC 9.3: the console is the vault owner's alone. The token (or a one-time link made from it)
 * signs in; a cookie session needs its CSRF header to change anything; other origins and other
 * host names are refused; every answer carries the secure headers.
 */
let f: ConsoleFixture;
beforeEach(async () => {
  f = await startFixture({ 'notes/a.md': 'hello\n' });
});
afterEach(async () => f?.close());

function expectSecureHeaders(headers: Record<string, unknown>) {
  const csp = String(headers['content-security-policy']);
  expect(csp).toContain("script-src 'self'");
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toContain("default-src 'none'");
  expect(csp).not.toContain('unsafe-inline');
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['x-frame-options']).toBe('DENY');
  expect(headers['referrer-policy']).toBe('same-origin');
  expect(headers['cache-control']).toBe('no-store');
}

describe('console sign-in', () => {
  it('refuses the API and shows the sign-in page without a session', async () => {
    const api = await f.request('/api/pending');
    expect(api.status).toBe(401);
    expect(api.json.error.code).toBe('unauthorized');
    const page = await f.request('/');
    expect(page.status).toBe(401);
    expect(page.text).toContain('Vault token');
    expect(page.text).not.toContain('/app.js');
  });

  it('a one-time link signs in once: HttpOnly SameSite=Strict cookie, redirect to /, then refused', async () => {
    const link = new URL(f.ui.loginUrl());
    expect(link.origin).toBe(`http://127.0.0.1:${f.port}`);
    const first = await f.request(`${link.pathname}${link.search}`);
    expect(first.status).toBe(303);
    expect(first.headers.location).toBe('/');
    const cookie = first.headers['set-cookie']?.[0] ?? '';
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    expect(cookie).toMatch(/Path=\//);
    const session = cookie.split(';')[0] as string;
    const page = await f.request('/', { cookie: session });
    expect(page.status).toBe(200);
    expect(page.text).toContain('<script src="/app.js" defer></script>');

    const again = await f.request(`${link.pathname}${link.search}`);
    expect(again.status).toBe(403);
    expect(again.headers['set-cookie']).toBeUndefined();
    expect(again.text).toMatch(/already used or has expired/);
  });

  it('a one-time link expires after five minutes', async () => {
    const link = new URL(f.ui.loginUrl());
    f.advance(5 * 60 * 1000 + 1000);
    const late = await f.request(`${link.pathname}${link.search}`);
    expect(late.status).toBe(403);
    expect(late.headers['set-cookie']).toBeUndefined();
  });

  it('a made-up session cookie or code is refused', async () => {
    const bogus = await f.request('/api/session', { cookie: `noted_console_${f.port}=abc` });
    expect(bogus.status).toBe(401);
    expect((await f.request('/login?once=guess')).status).toBe(403);
  });

  it('a sign-in code is signed with the token: one made elsewhere with it works once; altered, foreign or late ones do not', async () => {
    const made = mintLoginCode(TOKEN, Date.now());
    const [expiry, nonce, mac] = made.split('.') as [string, string, string];
    const refused = [
      `${expiry}.${nonce}.${mac.slice(0, -2)}${mac.endsWith('AA') ? 'BB' : 'AA'}`,
      `${(Number.parseInt(expiry, 36) + 60_000).toString(36)}.${nonce}.${mac}`,
      mintLoginCode('another-vaults-token-0123456789', Date.now()),
      mintLoginCode(TOKEN, Date.now() + 60 * 60 * 1000),
      mintLoginCode(TOKEN, Date.now() - 6 * 60 * 1000),
    ];
    for (const code of refused) {
      const reply = await f.request(`/login?once=${encodeURIComponent(code)}`);
      expect(reply.status, code).toBe(403);
      expect(reply.headers['set-cookie']).toBeUndefined();
    }
    expect((await f.request(`/login?once=${made}`)).status).toBe(303);
    const again = await f.request(`/login?once=${made}`);
    expect(again.status).toBe(403);
    expect(again.text).toMatch(/already used or has expired.*noted-mcp ui --link/s);
  });

  it('proves it holds the token to whoever asks, without revealing it (for noted-mcp ui --link)', async () => {
    const nonce = 'n0nce-of-the-test-0123';
    const hello = await f.request(`/api/hello?nonce=${nonce}`);
    expect(hello.status).toBe(200);
    expect(hello.json).toEqual({ console: 'noted-mcp', proof: helloProof(TOKEN, nonce) });
    expect(hello.text).not.toContain(TOKEN);
    expect((await f.request('/api/hello?nonce=short')).status).toBe(400);
    const crossSite = await f.request(`/api/hello?nonce=${nonce}`, {
      headers: { 'Sec-Fetch-Site': 'cross-site' },
    });
    expect(crossSite.status).toBe(403);
  });

  it('signs in with the vault token posted from the sign-in form, and refuses a wrong one', async () => {
    const form = {
      'Content-Type': 'application/x-www-form-urlencoded',
      Origin: `http://127.0.0.1:${f.port}`,
    };
    const wrong = await f.request('/login', { method: 'POST', headers: form, body: undefined });
    expect(wrong.status).toBe(401);
    const ok = await rawForm(f, `token=${encodeURIComponent(TOKEN)}`);
    expect(ok.status).toBe(303);
    expect(ok.headers['set-cookie']?.[0]).toMatch(/HttpOnly; SameSite=Strict/);
  });

  it('refuses the sign-in form from another site, with the right token; the refusal is a page', async () => {
    const attempts: Record<string, string>[] = [
      { Origin: 'null', 'Sec-Fetch-Site': 'cross-site' },
      { Origin: 'null' },
      { Origin: 'http://evil.example', 'Sec-Fetch-Site': 'cross-site' },
      { Origin: `http://127.0.0.1:${f.port}`, 'Sec-Fetch-Site': 'cross-site' },
    ];
    for (const headers of attempts) {
      const reply = await rawForm(f, `token=${encodeURIComponent(TOKEN)}`, headers);
      expect(reply.status, JSON.stringify(headers)).toBe(403);
      expect(reply.headers['set-cookie']).toBeUndefined();
      expect(reply.headers['content-type']).toMatch(/^text\/html/);
    }
  });

  it('accepts the vault token as a bearer header, without CSRF (no browser sends it on its own)', async () => {
    const auth = { Authorization: `Bearer ${TOKEN}` };
    expect((await f.request('/api/pending', { headers: auth })).status).toBe(200);
    const post = await f.request('/api/pending-all/reject', {
      method: 'POST',
      headers: auth,
      body: { ids: [] },
    });
    expect(post.status).toBe(200);
    const wrong = await f.request('/api/pending', {
      headers: { Authorization: 'Bearer nope-nope-nope-nope' },
    });
    expect(wrong.status).toBe(401);
  });

  it('signing out ends the session', async () => {
    const { cookie, csrf } = await f.signIn();
    expect((await f.request('/logout', { method: 'POST', cookie })).status).toBe(403);
    const out = await f.request('/logout', { method: 'POST', cookie, csrf });
    expect(out.status).toBe(200);
    expect((await f.request('/api/session', { cookie })).status).toBe(401);
  });
});

describe('console CSRF and origin checks', () => {
  it('refuses a state-changing request without the CSRF header, or with a wrong one', async () => {
    const { cookie, csrf } = await f.signIn();
    const none = await f.request('/api/pending-all/reject', { method: 'POST', cookie, body: { ids: [] } });
    expect(none.status).toBe(403);
    expect(none.json.error.code).toBe('csrf');
    const wrong = await f.request('/api/pending-all/reject', {
      method: 'POST',
      cookie,
      csrf: 'x',
      body: { ids: [] },
    });
    expect(wrong.status).toBe(403);
    const put = await f.request('/api/access', { method: 'PUT', cookie, body: { ids: [] } });
    expect(put.status).toBe(403);
    const ok = await f.request('/api/pending-all/reject', {
      method: 'POST',
      cookie,
      csrf,
      body: { ids: [] },
    });
    expect(ok.status).toBe(200);
  });

  it('refuses a JSON API call sent as a form (a plain HTML form cannot send JSON)', async () => {
    const { cookie, csrf } = await f.signIn();
    const reply = await f.request('/api/pending-all/reject', {
      method: 'POST',
      cookie,
      csrf,
      headers: { 'Content-Type': 'text/plain' },
      body: { ids: [] },
    });
    expect(reply.status).toBe(415);
  });

  it('refuses other origins, even another port of 127.0.0.1, with the right cookie and CSRF token', async () => {
    const { cookie, csrf } = await f.signIn();
    for (const origin of [
      'http://evil.example',
      `http://127.0.0.1:${f.port + 1}`,
      'null',
      `https://127.0.0.1:${f.port}`,
    ]) {
      const reply = await f.request('/api/pending-all/reject', {
        method: 'POST',
        cookie,
        csrf,
        headers: { Origin: origin },
        body: { ids: [] },
      });
      expect(reply.status, origin).toBe(403);
    }
    const same = await f.request('/api/pending-all/reject', {
      method: 'POST',
      cookie,
      csrf,
      headers: { Origin: `http://127.0.0.1:${f.port}` },
      body: { ids: [] },
    });
    expect(same.status).toBe(200);
  });

  it('refuses a cross-site API read and a foreign Host (DNS rebinding)', async () => {
    const { cookie } = await f.signIn();
    const crossSite = await f.request('/api/pending', {
      cookie,
      headers: { 'Sec-Fetch-Site': 'cross-site' },
    });
    expect(crossSite.status).toBe(403);
    const sameSite = await f.request('/api/pending', { cookie, headers: { 'Sec-Fetch-Site': 'same-site' } });
    expect(sameSite.status).toBe(403);
    const rebound = await f.request('/api/pending', { cookie, headers: { Host: `evil.example:${f.port}` } });
    expect(rebound.status).toBe(403);
    const otherPort = await f.request('/', { headers: { Host: `127.0.0.1:${f.port + 1}` } });
    expect(otherPort.status).toBe(403);
    const localhost = await f.request('/api/pending', { cookie, headers: { Host: `localhost:${f.port}` } });
    expect(localhost.status).toBe(200);
  });
});

describe('console pages for refusals', () => {
  it('a page the browser navigates to is refused with a page, the API with JSON', async () => {
    const { cookie } = await f.signIn();
    const missing = await f.request('/nothing', { cookie });
    expect(missing.status).toBe(404);
    expect(missing.headers['content-type']).toMatch(/^text\/html/);
    expect(missing.text).toMatch(/Nothing here.*There is no page at \/nothing/s);
    const rebound = await f.request('/', { headers: { Host: 'evil.example' } });
    expect(rebound.status).toBe(403);
    expect(rebound.text).toMatch(/<h1>Refused<\/h1>/);
    const api = await f.request('/api/nothing', { cookie });
    expect(api.json.error.code).toBe('not_found');
  });
});

describe('console secure headers', () => {
  it('every answer carries them: page, script, API, refusals', async () => {
    const { cookie } = await f.signIn();
    const answers = await Promise.all([
      f.request('/', { cookie }),
      f.request('/'),
      f.request('/app.js'),
      f.request('/app.css'),
      f.request('/api/session', { cookie }),
      f.request('/api/pending'),
      f.request('/api/pending', { headers: { Host: 'evil.example' } }),
      f.request('/nothing', { cookie }),
    ]);
    for (const answer of answers) expectSecureHeaders(answer.headers);
    expect(answers[2]?.headers['content-type']).toMatch(/^text\/javascript/);
    expect(answers[4]?.headers['content-type']).toMatch(/^application\/json/);
  });

  it('the pages hold no inline script or style, and the code never uses innerHTML', async () => {
    const { cookie } = await f.signIn();
    for (const page of [await f.request('/', { cookie }), await f.request('/')]) {
      expect(page.text).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
      expect(page.text).not.toMatch(/<style|\sstyle=|\son[a-z]+=/i);
    }
    const js = (await f.request('/app.js')).text;
    expect(js).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write|eval\(/);
    expect(() => new Function(js)).not.toThrow();
  });
});

async function rawForm(fx: ConsoleFixture, body: string, extra: Record<string, string> = {}) {
  const { default: http } = await import('node:http');
  return new Promise<{ status: number; headers: Record<string, string[] | string | undefined> }>(
    (resolve, reject) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port: fx.port,
          path: '/login',
          method: 'POST',
          headers: {
            Host: `127.0.0.1:${fx.port}`,
            Origin: `http://127.0.0.1:${fx.port}`,
            'Content-Type': 'application/x-www-form-urlencoded',
            'Content-Length': String(Buffer.byteLength(body)),
            ...extra,
          },
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
        },
      );
      req.on('error', reject);
      req.end(body);
    },
  );
}
