import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DIST, ensureBuilt, runCli } from '../helpers/server-process.js';
import { makeVault } from '../helpers/vault.js';
import { rawRequest } from './console-fixture.js';

/**
 * `noted-mcp ui` from the built bundle, started from an unrelated folder: it makes the vault's token
 * like the HTTP transport does, prints a one-time link on 127.0.0.1, and that link signs in once.
 */
let child: ChildProcess | undefined;
let base: string | undefined;
beforeAll(ensureBuilt, 120_000);
afterEach(() => {
  child?.kill('SIGTERM');
  child = undefined;
  if (base) fs.rmSync(base, { recursive: true, force: true });
});

describe('noted-mcp ui', () => {
  it('serves the console and prints a one-time link that works once', async () => {
    const made = makeVault({ 'a.md': 'a\n' });
    base = made.base;
    const env = { ...process.env };
    delete env.NOTED_MCP_AUTH_TOKEN;
    child = spawn(process.execPath, [DIST, 'ui', '--notes-dir', made.dir], { cwd: os.tmpdir(), env });
    let out = '';
    child.stdout?.on('data', (c: Buffer) => {
      out += c.toString('utf8');
    });
    const link = await new Promise<URL>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no link within 15 s; printed: ${out}`)), 15_000);
      child?.stdout?.on('data', () => {
        const m = /http:\/\/127\.0\.0\.1:\d+\/login\?once=[\w-]+/.exec(out);
        if (m) {
          clearTimeout(timer);
          resolve(new URL(m[0]));
        }
      });
    });
    const tokenFile = path.join(made.dir, '.noted', 'mcp-http-token');
    expect(fs.statSync(tokenFile).mode & 0o777).toBe(0o600);
    const port = Number(link.port);
    const first = await rawRequest(port, `${link.pathname}${link.search}`);
    expect(first.status).toBe(303);
    expect((await rawRequest(port, `${link.pathname}${link.search}`)).status).toBe(403);
    const token = fs.readFileSync(tokenFile, 'utf8').trim();
    const api = await rawRequest(port, '/api/connect', { headers: { Authorization: `Bearer ${token}` } });
    expect(api.json.clients.map((c: { client: string }) => c.client)).toEqual([
      'claude-code',
      'claude-desktop',
      'vscode',
      'codex',
      'cursor',
    ]);
    expect(api.json.clients[0].text).toContain(made.dir);
  });

  it('refuses a vault that does not exist and a bad port, like the other commands', () => {
    const missing = runCli(['ui', '--notes-dir', path.join(os.tmpdir(), 'no-such-vault-for-ui')]);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toMatch(/There is no vault/);
    const badPort = runCli(['ui', '--port', 'x']);
    expect(badPort.status).toBe(2);
    expect(badPort.stderr).toMatch(/--port takes a port number/);
    const help = runCli(['ui', '--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/Usage: noted-mcp ui/);
  });
});
