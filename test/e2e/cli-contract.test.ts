/**
 * Issue 18, the command line: a named vault folder that does not exist is an error (exit 2) naming
 * it and suggesting --create, so a typo never serves a new empty vault (SPEC 1.2), while ~/notes is
 * made by default; a usage error is one line and a pointer to --help; a reader that closes the pipe
 * early (`| head`) gets no stack trace. Runs the built server (dist-mcp/index.cjs).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DIST, ensureBuilt, runCli } from '../helpers/server-process.js';
import { agentWrite, journalVault } from '../journal/fixtures/journal-vault.js';

beforeAll(async () => {
  await ensureBuilt();
}, 60_000);

const temps: string[] = [];
afterEach(() => {
  for (const t of temps.splice(0)) fs.rmSync(t, { recursive: true, force: true });
});

function temp(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'noted-cli-'));
  temps.push(dir);
  return dir;
}

/** The environment of a person with a fresh home and no vault variables. */
function envWith(home: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, ...extra };
  for (const key of ['NOTED_VAULT', 'NOTES_VAULT'] as const) if (!(key in extra)) delete env[key];
  return env;
}

/** Starts the built server with `args` and `env`, lists its tools over stdio, and stops it. */
async function serveOnce(args: string[], env: NodeJS.ProcessEnv): Promise<string[]> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [DIST, ...args],
    env: env as Record<string, string>,
    cwd: os.tmpdir(),
    stderr: 'pipe',
  });
  const client = new Client({ name: 'cli-contract', version: '0' });
  await client.connect(transport);
  try {
    return (await client.listTools()).tools.map((t) => t.name);
  } finally {
    await client.close();
  }
}

describe('which vault (SPEC 1.2)', () => {
  it('a --notes-dir that does not exist is exit 2, naming it and suggesting --create; nothing is made', () => {
    const home = temp();
    const missing = path.join(home, 'Notse');
    const run = runCli(['--notes-dir', missing], os.tmpdir(), envWith(home));
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(`there is no folder ${missing} (from --notes-dir)`);
    expect(run.stderr).toContain('--create');
    expect(run.stderr.trimEnd().split('\n')).toHaveLength(2);
    expect(fs.existsSync(missing)).toBe(false);
  });

  it('so is a $NOTED_VAULT or $NOTES_VAULT that does not exist', () => {
    const home = temp();
    for (const key of ['NOTED_VAULT', 'NOTES_VAULT']) {
      const missing = path.join(home, `missing-${key}`);
      const run = runCli([], os.tmpdir(), envWith(home, { [key]: missing }));
      expect(run.status, key).toBe(2);
      expect(run.stderr).toContain(`there is no folder ${missing} (from $${key})`);
      expect(fs.existsSync(missing)).toBe(false);
    }
  });

  it('--create makes the named folder and serves it', async () => {
    const home = temp();
    const wanted = path.join(home, 'new', 'vault');
    const tools = await serveOnce(['--notes-dir', wanted, '--create'], envWith(home));
    expect(tools).toContain('list_notes');
    expect(fs.statSync(wanted).isDirectory()).toBe(true);
  });

  it('without a name, ~/notes is made on start', async () => {
    const home = temp();
    const tools = await serveOnce([], envWith(home));
    expect(tools).toContain('read_note');
    expect(fs.statSync(path.join(home, 'notes')).isDirectory()).toBe(true);
  });

  it('config and install for a folder still to be made start the server with --create, and say so', () => {
    const home = temp();
    const missing = path.join(home, 'later');
    const config = runCli(['config', 'claude-desktop', '--notes-dir', missing], os.tmpdir(), envWith(home));
    expect(config.status).toBe(0);
    expect(JSON.parse(config.stdout).mcpServers.noted.args).toEqual([
      DIST,
      '--notes-dir',
      missing,
      '--create',
    ]);
    expect(config.stderr).toContain('--create');
    fs.mkdirSync(missing);
    const again = runCli(['config', 'claude-desktop', '--notes-dir', missing], os.tmpdir(), envWith(home));
    expect(JSON.parse(again.stdout).mcpServers.noted.args).toEqual([DIST, '--notes-dir', missing]);
  });
});

describe('usage errors: one line and a pointer to --help (exit 2)', () => {
  const cases: [string[], string, string][] = [
    [['--bogus-flag'], 'noted-mcp', 'unknown option --bogus-flag'],
    [['journal', '--bogus'], 'noted-mcp journal', 'unknown option --bogus'],
    [['journal', 'show'], 'noted-mcp journal', 'journal show needs an ENTRY id'],
    [['undo'], 'noted-mcp undo', 'say what to undo'],
    [['review', '--bogus'], 'noted-mcp review', '--bogus'],
    [['config'], 'noted-mcp config', 'name the client'],
    [['install', 'vscode'], 'noted-mcp install', 'only claude-desktop'],
    [['ui', '--port', 'x'], 'noted-mcp ui', '--port'],
  ];
  for (const [args, who, problem] of cases) {
    it(`${args.join(' ')}`, () => {
      const run = runCli(args, os.tmpdir(), envWith(temp()));
      expect(run.status).toBe(2);
      expect(run.stdout).toBe('');
      const lines = run.stderr.trimEnd().split('\n');
      expect(lines).toHaveLength(2);
      expect(lines[0]).toContain(`${who}: `);
      expect(lines[0]).toContain(problem);
      expect(lines[1]).toBe(`See '${who} --help'.`);
      expect(run.stderr).not.toContain('Usage:');
    });
  }

  it('every problem is still reported, on that one line', () => {
    const run = runCli(
      ['--bogus', '--trash-retention-days', 'soon', 'extra-command'],
      os.tmpdir(),
      envWith(temp()),
    );
    expect(run.status).toBe(2);
    const [line] = run.stderr.split('\n');
    expect(line).toContain('unknown option --bogus');
    expect(line).toContain('--trash-retention-days');
    expect(line).toContain('extra-command');
  });
});

describe('a closed pipe (issue 18)', () => {
  it('journal show X | head ends quietly: no stack trace, no EPIPE', async () => {
    const jv = journalVault({ 'big.md': 'small\n' });
    temps.push(jv.base);
    // A diff far larger than a pipe holds (64 KB), so the writer meets the closed pipe.
    const big = Array.from({ length: 20_000 }, (_, i) => `line ${i} of a long note`).join('\n');
    const entry = await agentWrite(jv, 'big.md', big);
    for (const command of [`journal show ${entry.id}`, 'journal list']) {
      const errors = path.join(jv.base, 'stderr.txt');
      const run = spawnSync(
        'sh',
        [
          '-c',
          `"${process.execPath}" "${DIST}" ${command} --notes-dir "${jv.dir}" 2>"${errors}" | head -c 100`,
        ],
        { encoding: 'utf8', timeout: 20_000, env: envWith(jv.base) },
      );
      expect(run.status).toBe(0);
      expect(run.stdout.length).toBeGreaterThan(0);
      expect(fs.readFileSync(errors, 'utf8'), command).toBe('');
    }
  });
});
