/**
 * Remote access (SPEC 15.3) as a person runs it: the built server with `--allowed-host NAME` and
 * `--tunnel`, the latter with a stand-in `cloudflared` on the PATH that prints what the real one
 * prints (its quick-tunnel box among other URLs) and then waits, as the real one does, until it is
 * stopped. The public name is accepted as Host and as the origin https://NAME; the token is still
 * required; any other name is refused; the tunnel stops with the server.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parsePublicHost } from '../../src/transport/http-guard.js';
import { DIST, ensureBuilt } from '../helpers/server-process.js';
import { CLOUDFLARED_OUTPUT, recordedArgs, standIn, TUNNEL_HOST } from '../helpers/stand-ins.js';
import { makeVault } from '../helpers/vault.js';

const TOKEN = 'tunnel-test-token-0123456789abcdef';
const PUBLIC = TUNNEL_HOST;

beforeAll(async () => {
  await ensureBuilt();
}, 60_000);

let cleanups: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.reverse()) await c();
  cleanups = [];
});

function tempDir(prefix: string): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A folder holding a stand-in `cloudflared` that prints `output`, then waits or exits 1. */
function cloudflared(output: string, then: 'wait' | 1): { bin: string; record: string } {
  const bin = tempDir('noted-bin-');
  return { bin, ...standIn(bin, 'cloudflared', { stderr: output, after: then }) };
}

interface Running {
  readonly child: ChildProcess;
  readonly port: number;
  stderr(): string;
  stop(): Promise<number | null>;
}

/** The built server over HTTP on a free port; resolves once it says it is serving. */
async function serve(args: string[], env: NodeJS.ProcessEnv): Promise<Running> {
  const dir = makeVault({ 'a.md': '# A\n' });
  cleanups.push(() => fs.rmSync(dir.base, { recursive: true, force: true }));
  const child = spawn(
    process.execPath,
    [DIST, '--transport', 'http', '--port', '0', '--notes-dir', dir.dir, ...args],
    {
      cwd: os.tmpdir(),
      env: { ...process.env, NOTED_MCP_AUTH_TOKEN: TOKEN, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stderr = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const port = await new Promise<number>((resolve, reject) => {
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
      const m = /Endpoint: http:\/\/127\.0\.0\.1:(\d+)\/mcp/.exec(stderr);
      if (m && stderr.includes('Ctrl+C')) resolve(Number(m[1]));
    });
    void exited.then((code) =>
      reject(Object.assign(new Error(`exited ${code}:\n${stderr}`), { code, stderr })),
    );
  });
  const running: Running = {
    child,
    port,
    stderr: () => stderr,
    stop: async () => {
      child.kill('SIGTERM');
      return exited;
    },
  };
  cleanups.push(async () => {
    await running.stop();
  });
  return running;
}

/** Runs the server expecting it to exit at start-up; its code and stderr. */
function serveFails(args: string[], env: NodeJS.ProcessEnv): { status: number | null; stderr: string } {
  const dir = makeVault({});
  cleanups.push(() => fs.rmSync(dir.base, { recursive: true, force: true }));
  const r = spawnSync(
    process.execPath,
    [DIST, '--transport', 'http', '--port', '0', '--notes-dir', dir.dir, ...args],
    {
      cwd: os.tmpdir(),
      env: { ...process.env, NOTED_MCP_AUTH_TOKEN: TOKEN, ...env },
      encoding: 'utf8',
      timeout: 30_000,
    },
  );
  return { status: r.status, stderr: r.stderr };
}

/** An initialize POST with exactly these Host, Origin and token. */
function initialize(port: number, host: string, opts: { token?: string; origin?: string } = {}) {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'remote', version: '0' } },
  });
  const headers: Record<string, string> = {
    host,
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
    ...(opts.origin ? { origin: opts.origin } : {}),
  };
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>(
    (resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port, path: '/mcp', method: 'POST', headers }, (res) => {
        let text = '';
        res.on('data', (c: Buffer) => {
          text += c.toString('utf8');
          // An SSE answer stays open after its one event; the event is all this test needs.
          if (text.includes('"serverInfo"')) res.destroy();
        });
        const done = () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text });
        res.on('end', done);
        res.on('close', done);
      });
      req.on('error', reject);
      req.end(body);
    },
  );
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitFor(what: string, check: () => boolean): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`waited 20 s for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('--tunnel with cloudflared on the PATH', () => {
  it('starts a quick tunnel to this port, accepts its host with the token only, and prints how to connect', async () => {
    const { bin, record } = cloudflared(CLOUDFLARED_OUTPUT, 'wait');
    const r = await serve(['--tunnel'], { PATH: `${bin}${path.delimiter}${process.env.PATH}` });
    expect(recordedArgs(record)).toEqual(['tunnel', '--url', `http://127.0.0.1:${r.port}`]);
    expect(r.stderr()).toContain(`Public URL (Cloudflare quick tunnel): https://${PUBLIC}/mcp`);
    expect(r.stderr()).toMatch(/WARNING: the vault is reachable from outside this computer/);
    expect(r.stderr()).toContain('Every request must still carry the token');

    const ok = await initialize(r.port, PUBLIC, { token: TOKEN });
    expect(ok.status).toBe(200);
    expect(ok.body).toContain('"serverInfo"');
    expect((await initialize(r.port, PUBLIC)).status).toBe(401);
    expect((await initialize(r.port, PUBLIC, { token: 'wrong-token-0123456789abcdef' })).status).toBe(401);
    // Another tunnel's name, or the public name on another port, is not this server.
    expect((await initialize(r.port, 'other-words.trycloudflare.com', { token: TOKEN })).status).toBe(403);
    expect((await initialize(r.port, `${PUBLIC}:8443`, { token: TOKEN })).status).toBe(403);
    // A browser page on the public name is https://NAME; plain http or another site is refused.
    const fromPage = await initialize(r.port, PUBLIC, { token: TOKEN, origin: `https://${PUBLIC}` });
    expect(fromPage.status).toBe(200);
    expect(fromPage.headers['access-control-allow-origin']).toBe(`https://${PUBLIC}`);
    expect((await initialize(r.port, PUBLIC, { token: TOKEN, origin: `http://${PUBLIC}` })).status).toBe(403);
    expect((await initialize(r.port, PUBLIC, { token: TOKEN, origin: 'https://evil.example' })).status).toBe(
      403,
    );
    // Local clients keep working.
    expect((await initialize(r.port, `127.0.0.1:${r.port}`, { token: TOKEN })).status).toBe(200);

    const pid = Number(fs.readFileSync(`${record}.pid`, 'utf8'));
    expect(alive(pid)).toBe(true);
    expect(await r.stop()).toBe(0);
    await waitFor('cloudflared to stop with the server', () => !alive(pid));
  });

  it('a cloudflared that fails before reporting a URL: exit 1 with its last words, nothing left serving', () => {
    const { bin } = cloudflared(
      '2026-12-03T08:00:00Z INF Requesting new quick Tunnel on trycloudflare.com...\n2026-12-03T08:00:02Z ERR failed to request quick Tunnel: Post "https://api.trycloudflare.com/tunnel": dial tcp: lookup api.trycloudflare.com: no such host',
      1,
    );
    const r = serveFails(['--tunnel'], { PATH: `${bin}${path.delimiter}${process.env.PATH}` });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('cloudflared stopped (code 1) before reporting a public URL');
    expect(r.stderr).toContain('failed to request quick Tunnel');
    expect(r.stderr).not.toContain('search index');
  });

  it('without cloudflared on the PATH: exit 1, saying how to get it or what to do instead', () => {
    const empty = tempDir('noted-bin-');
    const r = serveFails(['--tunnel'], { PATH: empty });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('cloudflared is not on the PATH');
    expect(r.stderr).toContain('--allowed-host');
    // Issue 32: the index build stopped with the server is no error of its own.
    expect(r.stderr).not.toContain('search index');
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });
});

describe('--allowed-host', () => {
  it('adds exactly the named public hosts; the token is still required; the start-up message warns', async () => {
    const r = await serve(
      ['--allowed-host', 'Notes.Example.com', '--allowed-host', 'proxy.example.org:8443'],
      {},
    );
    expect(r.stderr()).toContain(
      'WARNING: the vault is reachable from outside this computer: https://notes.example.com/mcp, https://proxy.example.org:8443/mcp',
    );
    expect((await initialize(r.port, 'notes.example.com', { token: TOKEN })).status).toBe(200);
    expect((await initialize(r.port, 'NOTES.example.com:443', { token: TOKEN })).status).toBe(200);
    expect((await initialize(r.port, 'notes.example.com')).status).toBe(401);
    expect((await initialize(r.port, 'proxy.example.org:8443', { token: TOKEN })).status).toBe(200);
    expect((await initialize(r.port, 'proxy.example.org', { token: TOKEN })).status).toBe(403);
    expect((await initialize(r.port, 'sub.notes.example.com', { token: TOKEN })).status).toBe(403);
    expect((await initialize(r.port, 'notes.example.com.evil.example', { token: TOKEN })).status).toBe(403);
  });

  it('refuses *, URLs, addresses and stdio use, all at once, exit 2, before anything starts', () => {
    const r = serveFails(
      [
        '--allowed-host',
        '*',
        '--allowed-host',
        '*.example.com',
        '--allowed-host',
        'https://notes.example.com/mcp',
        '--allowed-host',
        '10.0.0.5',
      ],
      {},
    );
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('--allowed-host: never a wildcard');
    expect(r.stderr.match(/never a wildcard/g)).toHaveLength(2);
    expect(r.stderr).toContain(
      'give the host name only, e.g. notes.example.com (got "https://notes.example.com/mcp")',
    );
    expect(r.stderr).toContain('"10.0.0.5" is not a host name');
    const stdio = spawnSync(process.execPath, [DIST, '--allowed-host', 'notes.example.com', '--tunnel'], {
      encoding: 'utf8',
      timeout: 20_000,
      input: '',
    });
    expect(stdio.status).toBe(2);
    expect(stdio.stderr).toContain('--allowed-host needs --transport http');
    expect(stdio.stderr).toContain('--tunnel needs --transport http');
  });

  it('parses a name, a name with a port, and nothing looser', () => {
    expect(parsePublicHost('Notes.Example.com')).toEqual({ hostname: 'notes.example.com' });
    expect(parsePublicHost('notes.example.com:8443')).toEqual({ hostname: 'notes.example.com', port: 8443 });
    for (const bad of [
      '',
      'a..b',
      '-a.com',
      'a_b.com',
      'notes.example.com:0',
      'notes.example.com:99999',
      'localhost',
      'user@host',
    ])
      expect(parsePublicHost(bad), bad).toHaveProperty('problem');
  });
});
