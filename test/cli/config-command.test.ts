/**
 * `noted-mcp config CLIENT [--http]` (SPEC 8.4): each client's own format, naming the vault and the
 * running script; the HTTP token is referred to, never written, unless asked.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { configCommand } from '../../src/cli/config-command.js';
import type { CliIo } from '../../src/cli/io.js';

const SCRIPT = '/opt/noted mcp/dist-mcp/index.cjs';
// The clients' own interpolation syntax, written out literally.
const VSCODE_INPUT = `\${input:noted-mcp-token}`;
const CURSOR_ENV = `\${env:NOTED_MCP_AUTH_TOKEN}`;
let base: string;
afterEach(() => fs.rmSync(base, { recursive: true, force: true }));

function setup(): string {
  base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'noted-config-')));
  const vault = path.join(base, 'my vault');
  fs.mkdirSync(vault);
  return vault;
}

async function run(argv: string[], env: NodeJS.ProcessEnv = {}, script = SCRIPT) {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    env: { HOME: base, ...env },
    stdout: (t) => {
      stdout += t;
    },
    stderr: (t) => {
      stderr += t;
    },
    script,
    isTty: false,
  };
  const code = await configCommand(argv, io);
  return { code, stdout, stderr };
}

describe('stdio configuration', () => {
  it('claude-code: a claude mcp add command, quoted for the shell', async () => {
    const vault = setup();
    const out = await run(['claude-code', '--notes-dir', vault]);
    expect(out.code).toBe(0);
    expect(out.stdout).toBe(
      `claude mcp add noted -- ${process.execPath} '${SCRIPT}' --notes-dir '${vault}'\n`,
    );
    expect(out.stderr).toContain('--scope user');
  });

  it('claude-desktop and cursor: JSON mcpServers with command and args', async () => {
    const vault = setup();
    for (const client of ['claude-desktop', 'cursor']) {
      const out = await run([client, '--notes-dir', vault]);
      expect(out.code).toBe(0);
      expect(JSON.parse(out.stdout)).toEqual({
        mcpServers: { noted: { command: process.execPath, args: [SCRIPT, '--notes-dir', vault] } },
      });
    }
  });

  it('vscode: .vscode/mcp.json servers with type stdio', async () => {
    const vault = setup();
    const out = await run(['vscode', '--notes-dir', vault, '--name', 'work-notes']);
    expect(JSON.parse(out.stdout)).toEqual({
      servers: {
        'work-notes': { type: 'stdio', command: process.execPath, args: [SCRIPT, '--notes-dir', vault] },
      },
    });
    expect(out.stderr).toContain('.vscode/mcp.json');
  });

  it('codex: a [mcp_servers.noted] TOML table', async () => {
    const vault = setup();
    const out = await run(['codex', '--notes-dir', vault]);
    expect(out.stdout).toBe(
      [
        '[mcp_servers.noted]',
        `command = ${JSON.stringify(process.execPath)}`,
        `args = [${JSON.stringify(SCRIPT)}, "--notes-dir", ${JSON.stringify(vault)}]`,
        // Codex's own 10 s would do (the server answers at once), with room for a slow first start.
        'startup_timeout_sec = 30',
        '',
      ].join('\n'),
    );
    expect(out.stderr).toContain('~/.codex/config.toml');
  });

  it('the vault comes from $NOTED_VAULT when no flag names it, made absolute', async () => {
    const vault = setup();
    const out = await run(['cursor'], { NOTED_VAULT: vault });
    expect(JSON.parse(out.stdout).mcpServers.noted.args).toEqual([SCRIPT, '--notes-dir', vault]);
  });
});

describe('the published package (--npx, SPEC 15.1)', () => {
  const NPX = ['-y', '--allow-scripts=better-sqlite3,@parcel/watcher', 'noted-mcp'];

  it('--npx starts npx -y noted-mcp in every client, naming the install scripts npm must run', async () => {
    const vault = setup();
    const code = await run(['claude-code', '--npx', '--notes-dir', vault]);
    expect(code.stdout).toBe(
      `claude mcp add noted -- npx -y --allow-scripts=better-sqlite3,@parcel/watcher noted-mcp --notes-dir '${vault}'\n`,
    );
    expect(code.stderr).toContain('first start downloads it');
    // Issue 36.7: not published yet, so the npx form says how to install today.
    expect(code.stderr).toContain('not on the npm registry yet');
    expect(code.stderr).toContain(
      'npm install -g --allow-scripts=better-sqlite3,@parcel/watcher ./noted-mcp-VERSION.tgz',
    );
    const desktop = await run(['claude-desktop', '--npx', '--notes-dir', vault]);
    expect(JSON.parse(desktop.stdout)).toEqual({
      mcpServers: { noted: { command: 'npx', args: [...NPX, '--notes-dir', vault] } },
    });
    const codex = await run(['codex', '--npx', '--notes-dir', vault]);
    expect(codex.stdout).toContain(
      `command = "npx"\nargs = [${[...NPX, '--notes-dir', vault].map((a) => JSON.stringify(a)).join(', ')}]`,
    );
  });

  it('without --npx the configuration starts this copy and says how to get the npx form', async () => {
    const vault = setup();
    const out = await run(['cursor', '--notes-dir', vault]);
    expect(JSON.parse(out.stdout).mcpServers.noted.command).toBe(process.execPath);
    expect(out.stderr).toContain(`This starts the server at ${SCRIPT}`);
    expect(out.stderr).toContain('add --npx');
  });

  it("run through npx, it never points a client into npx's cache", async () => {
    const vault = setup();
    const cached = '/home/me/.npm/_npx/5f3a2b/node_modules/noted-mcp/dist-mcp/index.cjs';
    const out = await run(['claude-desktop', '--notes-dir', vault], {}, cached);
    expect(JSON.parse(out.stdout)).toEqual({
      mcpServers: { noted: { command: 'npx', args: [...NPX, '--notes-dir', vault] } },
    });
    expect(out.stdout).not.toContain('_npx');
    expect(out.stderr).toContain('ran through npx');
  });

  it('the HTTP form says how to start the server the same way', async () => {
    const vault = setup();
    const out = await run(['vscode', '--http', '--npx', '--notes-dir', vault]);
    expect(out.stderr).toContain(
      `Start the server first: npx -y --allow-scripts=better-sqlite3,@parcel/watcher noted-mcp --transport http --port 3000 --notes-dir '${vault}'`,
    );
  });
});

describe('Streamable HTTP configuration (--http)', () => {
  it('names the URL and where the token is, without writing the token', async () => {
    const vault = setup();
    const tokenFile = path.join(vault, '.noted', 'mcp-http-token');
    fs.mkdirSync(path.dirname(tokenFile));
    fs.writeFileSync(tokenFile, 'secret-token-that-must-not-appear\n', { mode: 0o600 });
    const url = 'http://127.0.0.1:3123/mcp';
    const outputs: Record<string, string> = {};
    for (const client of ['claude-code', 'vscode', 'codex', 'cursor']) {
      const out = await run([client, '--http', '--port', '3123', '--notes-dir', vault]);
      expect(out.code, client).toBe(0);
      expect(out.stdout, client).not.toContain('secret-token');
      expect(out.stderr, client).not.toContain('secret-token');
      expect(out.stdout, client).toContain(url);
      expect(out.stderr, client).toContain('--transport http --port 3123');
      outputs[client] = out.stdout;
    }
    // Claude Code: a headersHelper that reads the token file each time it connects, so what the
    // shell passes to `claude mcp add-json` (and what Claude Code stores) holds no token.
    // --scope user (issue 36.9): a local-scope entry in a folder Claude Code has not trusted never
    // runs its headersHelper.
    expect(outputs['claude-code']).toMatch(/^claude mcp add-json --scope user noted '/);
    const stored = execFileSync(
      'sh',
      [
        '-c',
        `printf '%s' ${(outputs['claude-code'] as string).slice('claude mcp add-json --scope user noted '.length).trim()}`,
      ],
      {
        encoding: 'utf8',
      },
    );
    expect(stored).not.toContain('secret-token');
    const config = JSON.parse(stored);
    expect(config).toMatchObject({ type: 'http', url });
    const headers = execFileSync('sh', ['-c', config.headersHelper], { encoding: 'utf8' });
    expect(JSON.parse(headers)).toEqual({ Authorization: 'Bearer secret-token-that-must-not-appear' });
    expect(JSON.parse(outputs.vscode as string)).toEqual({
      inputs: [
        {
          type: 'promptString',
          id: 'noted-mcp-token',
          description: `Noted MCP token (in ${tokenFile})`,
          password: true,
        },
      ],
      servers: {
        noted: { type: 'http', url, headers: { Authorization: `Bearer ${VSCODE_INPUT}` } },
      },
    });
    expect(JSON.parse(outputs.cursor as string)).toEqual({
      mcpServers: { noted: { url, headers: { Authorization: `Bearer ${CURSOR_ENV}` } } },
    });
    expect(outputs.codex).toBe(
      `[mcp_servers.noted]\nurl = "${url}"\nbearer_token_env_var = "NOTED_MCP_AUTH_TOKEN"\nstartup_timeout_sec = 30\n`,
    );
  });

  it('--with-token writes the token itself, and says to keep the file private', async () => {
    const vault = setup();
    const tokenFile = path.join(vault, '.noted', 'mcp-http-token');
    fs.mkdirSync(path.dirname(tokenFile));
    fs.writeFileSync(tokenFile, 'secret-token-0123456789\n', { mode: 0o600 });
    const cursor = await run(['cursor', '--http', '--with-token', '--notes-dir', vault]);
    expect(JSON.parse(cursor.stdout).mcpServers.noted.headers).toEqual({
      Authorization: 'Bearer secret-token-0123456789',
    });
    expect(cursor.stderr).toContain('keep it out of shared files');
    const codex = await run(['codex', '--http', '--with-token', '--notes-dir', vault]);
    expect(codex.stdout).toContain('http_headers = { "X-MCP-Token" = "secret-token-0123456789" }');
    const claude = await run(['claude-code', '--http', '--with-token', '--notes-dir', vault], {
      NOTED_MCP_AUTH_TOKEN: 'from-env-token-0123456789',
    });
    expect(claude.stdout).toContain(`--header 'Authorization: Bearer from-env-token-0123456789'`);
  });

  it('--with-token before any token exists is an error, exit 1', async () => {
    const vault = setup();
    const out = await run(['vscode', '--http', '--with-token', '--notes-dir', vault]);
    expect(out.code).toBe(1);
    expect(out.stdout).toBe('');
    expect(out.stderr).toContain('there is no token yet');
  });

  it('claude-desktop has no HTTP form in its configuration file: exit 2, saying why', async () => {
    const vault = setup();
    const out = await run(['claude-desktop', '--http', '--notes-dir', vault]);
    expect(out.code).toBe(2);
    expect(out.stdout).toBe('');
    expect(out.stderr).toContain('over stdio');
  });
});

describe('usage', () => {
  it('reports every problem at once, exit 2', async () => {
    setup();
    const out = await run(['emacs', 'extra', '--port', 'x', '--with-token', '--bogus']);
    expect(out.code).toBe(2);
    expect(out.stderr).toContain('unknown client "emacs"');
    expect(out.stderr).toContain('unexpected argument "extra"');
    expect(out.stderr).toContain('--port takes a port number');
    expect(out.stderr).toContain('--with-token goes with --http');
    expect(out.stderr).toContain('unknown option --bogus');
    expect(out.stdout).toBe('');
  });

  it('--help prints the usage on stdout', async () => {
    setup();
    const out = await run(['--help']);
    expect(out.code).toBe(0);
    expect(out.stdout).toMatch(/^Usage: noted-mcp config CLIENT/);
  });
});
