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

/** Starts `noted-mcp ui` on a new vault; resolves with the first sign-in link it prints. */
async function startUi(files: Record<string, string> = { 'a.md': 'a\n' }) {
  const made = makeVault(files);
  base = made.base;
  const env = { ...process.env };
  delete env.NOTED_MCP_AUTH_TOKEN;
  const proc = spawn(process.execPath, [DIST, 'ui', '--notes-dir', made.dir], { cwd: os.tmpdir(), env });
  child = proc;
  const out = { text: '' };
  proc.stdout?.on('data', (c: Buffer) => {
    out.text += c.toString('utf8');
  });
  const links = (): URL[] =>
    [...out.text.matchAll(/http:\/\/127\.0\.0\.1:\d+\/login\?once=[\w.-]+/g)].map((m) => new URL(m[0]));
  await waitFor(
    () => links().length > 0,
    () => `no link; printed: ${out.text}`,
  );
  return { dir: made.dir, env, out, links, proc };
}

async function waitFor(ok: () => boolean, why: () => string, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(why());
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('noted-mcp ui', () => {
  it('serves the console and prints a one-time link that works once', async () => {
    const ui = await startUi();
    const made = { dir: ui.dir };
    const link = ui.links()[0] as URL;
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

  it('prints a new sign-in link when Enter is pressed in its terminal, and for noted-mcp ui --link', async () => {
    const ui = await startUi();
    const [first] = ui.links();
    const port = Number(first?.port);
    ui.proc.stdin?.write('\n');
    await waitFor(
      () => ui.links().length === 2,
      () => `no second link; printed: ${ui.out.text}`,
    );
    const fromTerminal = ui.links()[1] as URL;
    expect(fromTerminal.search).not.toBe(first?.search);
    expect((await rawRequest(port, `${fromTerminal.pathname}${fromTerminal.search}`)).status).toBe(303);

    const record = JSON.parse(fs.readFileSync(path.join(ui.dir, '.noted', 'console.json'), 'utf8'));
    expect(record).toMatchObject({ port, pid: ui.proc.pid });
    const linked = runCli(['ui', '--link', '--notes-dir', ui.dir]);
    expect(linked.status, linked.stderr).toBe(0);
    const link = new URL(/http:\/\/\S+/.exec(linked.stdout)?.[0] as string);
    expect(link.port).toBe(String(port));
    const signIn = await rawRequest(port, `${link.pathname}${link.search}`);
    expect(signIn.status).toBe(303);
    expect((await rawRequest(port, `${link.pathname}${link.search}`)).status).toBe(403);

    ui.proc.kill('SIGTERM');
    await waitFor(
      () => !fs.existsSync(path.join(ui.dir, '.noted', 'console.json')),
      () => 'console.json stayed',
    );
    const stopped = runCli(['ui', '--link', '--notes-dir', ui.dir]);
    expect(stopped.status).toBe(1);
    expect(stopped.stderr).toMatch(/no console is running for .*Start one with: noted-mcp ui/);
  });

  it('--link prints nothing for a port that cannot prove it holds the vault token', async () => {
    const ui = await startUi();
    const other = makeVault({ 'b.md': 'b\n' });
    try {
      const port = Number(ui.links()[0]?.port);
      // Another vault's record names this console: it answers, but with another token's proof.
      fs.mkdirSync(path.join(other.dir, '.noted'));
      fs.writeFileSync(
        path.join(other.dir, '.noted', 'console.json'),
        JSON.stringify({ port, pid: 1, startedAt: new Date().toISOString() }),
      );
      const foreign = runCli(['ui', '--link', '--notes-dir', other.dir]);
      expect(foreign.status).toBe(1);
      expect(foreign.stderr).toMatch(/does not hold this vault's token/);
      expect(foreign.stdout).not.toMatch(/login\?once=/);
      const nothing = runCli(['ui', '--link', '--port', '1', '--notes-dir', ui.dir]);
      expect(nothing.status).toBe(1);
      expect(nothing.stderr).toMatch(/no console answers on 127\.0\.0\.1:1/);
    } finally {
      fs.rmSync(other.base, { recursive: true, force: true });
    }
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
