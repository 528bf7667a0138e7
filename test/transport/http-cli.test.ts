/**
 * `noted-mcp --transport http` as a person runs it: the built `dist-mcp/index.cjs` in a child
 * process, its token file, its start-up message, its refusals (SPEC 8.2, 8.3).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DIST, ensureBuilt, runCli } from '../helpers/server-process.js';
import { checkResult, makeVault, readBytes } from '../helpers/vault.js';

beforeAll(async () => {
  await ensureBuilt();
}, 60_000);

interface Running {
  readonly child: ChildProcess;
  readonly url: string;
  stderr(): string;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
}

const running: Running[] = [];
let bases: string[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((r) => r.stop()));
  for (const base of bases) fs.rmSync(base, { recursive: true, force: true });
  bases = [];
});

function vault(files: Record<string, string> = {}): string {
  const made = makeVault(files);
  bases.push(made.base);
  return made.dir;
}

async function start(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Running> {
  const child = spawn(process.execPath, [DIST, '--transport', 'http', '--port', '0', ...args], {
    cwd: os.tmpdir(),
    env: { ...process.env, NOTED_MCP_AUTH_TOKEN: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start-up message:\n${stderr}`)), 20_000);
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
      const m = /Endpoint: (\S+)/.exec(stderr);
      if (m && stderr.includes('Ctrl+C')) {
        clearTimeout(timer);
        resolve(m[1] as string);
      }
    });
    void exited.then((code) => reject(new Error(`exited ${code} before listening:\n${stderr}`)));
  });
  const r: Running = {
    child,
    url,
    stderr: () => stderr,
    stop: async () => {
      child.kill('SIGTERM');
      return exited;
    },
  };
  running.push(r);
  return r;
}

const TOKEN_FILE = ['.noted', 'mcp-http-token'];

describe('the token file', () => {
  it('is made once with mode 0600, printed with where it is and how to send it, and reused', async () => {
    const dir = vault({ 'a.md': '# A\n' });
    const first = await start(['--notes-dir', dir]);
    const file = path.join(dir, ...TOKEN_FILE);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const token = fs.readFileSync(file, 'utf8').trim();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(first.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect(first.stderr()).toContain(`made now and kept in ${file}`);
    expect(first.stderr()).toContain(token);
    expect(first.stderr()).toContain('Authorization: Bearer <token>');
    expect(first.stderr()).toContain('X-MCP-Token: <token>');

    // A real client with that token gets in; the built server journals its write.
    const client = new Client({ name: 'cli-test', version: '0' });
    const transport = new StreamableHTTPClientTransport(new URL(first.url), {
      authProvider: { token: async () => token },
    });
    await client.connect(transport);
    const created = checkResult(
      await client.callTool({ name: 'create_note', arguments: { name: 'b', content: 'over http\n' } }),
    );
    expect(created.isError).toBe(false);
    await transport.terminateSession();
    await client.close();
    expect(readBytes(dir, 'b.md')?.toString()).toBe('over http\n');
    expect(await first.stop()).toBe(0);
    running.splice(running.indexOf(first), 1);

    const second = await start(['--notes-dir', dir]);
    expect(fs.readFileSync(file, 'utf8').trim()).toBe(token);
    expect(second.stderr()).toContain(`kept in ${file}`);
    expect(second.stderr()).not.toContain('made now');
  });

  it('a token file readable by others is set back to 0600, with a warning', async () => {
    const dir = vault();
    const file = path.join(dir, ...TOKEN_FILE);
    fs.mkdirSync(path.dirname(file));
    fs.writeFileSync(file, 'an-old-token-that-others-could-read\n', { mode: 0o644 });
    fs.chmodSync(file, 0o644);
    const r = await start(['--notes-dir', dir]);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(r.stderr()).toMatch(/had mode 0644, readable by others; it is 0600 now/);
  });

  it('$NOTED_MCP_AUTH_TOKEN comes first: no file is made and the token is not printed', async () => {
    const dir = vault();
    const token = 'from-the-environment-0123456789';
    const r = await start(['--notes-dir', dir, '--auth-token', 'from-the-flag-0123456789'], {
      NOTED_MCP_AUTH_TOKEN: token,
    });
    expect(fs.existsSync(path.join(dir, ...TOKEN_FILE))).toBe(false);
    expect(r.stderr()).toContain('from $NOTED_MCP_AUTH_TOKEN (not shown)');
    expect(r.stderr()).not.toContain(token);
    const ok = await fetch(r.url, {
      method: 'POST',
      headers: {
        'x-mcp-token': token,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'f', version: '0' } },
      }),
    });
    expect(ok.status).toBe(200);
    await ok.body?.cancel();
    const flagToken = await fetch(r.url, {
      method: 'POST',
      headers: { 'x-mcp-token': 'from-the-flag-0123456789' },
    });
    expect(flagToken.status).toBe(401);
  });
});

describe('refusals', () => {
  it('a port in use is a clear error, exit 1', async () => {
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as net.AddressInfo).port;
    try {
      const run = runCli(['--transport', 'http', '--port', String(port), '--notes-dir', vault()]);
      expect(run.status).toBe(1);
      expect(run.stderr).toContain(`port ${port} on 127.0.0.1 is already in use`);
      expect(run.stdout).toBe('');
    } finally {
      blocker.close();
    }
  });

  it('a --host that is not a loopback address is refused loudly, exit 2, before anything is opened', () => {
    for (const host of ['0.0.0.0', '192.168.1.10', '::', 'example.com']) {
      const dir = path.join(vault(), 'not-made');
      const run = runCli(['--transport', 'http', '--host', host, '--notes-dir', dir]);
      expect(run.status, host).toBe(2);
      expect(run.stderr).toContain(`refusing --host ${host}`);
      expect(run.stderr).toContain('loopback');
      expect(fs.existsSync(dir)).toBe(false);
    }
  });

  it('HTTP flags without an HTTP transport, an unknown transport and a short token are usage errors', () => {
    const dir = vault();
    const stdioPort = runCli(['--port', '3000', '--legacy-sse', '--notes-dir', dir]);
    expect(stdioPort.status).toBe(2);
    expect(stdioPort.stderr).toContain('--port needs --transport http');
    expect(stdioPort.stderr).toContain('--legacy-sse needs --transport http');
    const bogus = runCli(['--transport', 'websocket', '--notes-dir', dir]);
    expect(bogus.status).toBe(2);
    expect(bogus.stderr).toContain('--transport takes stdio, http, sse');
    const short = runCli(['--transport', 'http', '--auth-token', 'short', '--notes-dir', dir]);
    expect(short.status).toBe(2);
    expect(short.stderr).toContain('at least 16 characters');
  });
});

describe('--transport sse', () => {
  it('serves /mcp and /sse, and warns that it is deprecated', async () => {
    const dir = vault();
    const r = await start(['--notes-dir', dir, '--transport', 'sse']);
    expect(r.stderr()).toContain('--transport sse is deprecated');
    expect(r.stderr()).toContain('Legacy HTTP+SSE (deprecated):');
    const token = fs.readFileSync(path.join(dir, ...TOKEN_FILE), 'utf8').trim();
    const controller = new AbortController();
    const sse = await fetch(new URL('/sse', r.url), {
      headers: { 'x-mcp-token': token },
      signal: controller.signal,
    });
    expect(sse.status).toBe(200);
    expect(sse.headers.get('content-type')).toBe('text/event-stream');
    controller.abort();
  });
});
