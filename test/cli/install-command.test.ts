/**
 * `noted-mcp install claude-desktop` (SPEC 8.4) on real files: merge, keep the rest, `.bak`, atomic
 * write, and a file that is not valid JSON left exactly as it was.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { claudeDesktopConfigPath, installCommand, mergeServerEntry } from '../../src/cli/install-command.js';
import type { CliIo } from '../../src/cli/io.js';

const SCRIPT = '/opt/noted/dist-mcp/index.cjs';
let base: string;
afterEach(() => fs.rmSync(base, { recursive: true, force: true }));

function setup(): { vault: string; config: string } {
  base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'noted-install-')));
  const vault = path.join(base, 'vault');
  fs.mkdirSync(vault);
  return { vault, config: path.join(base, 'Claude', 'claude_desktop_config.json') };
}

async function run(argv: string[]) {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    env: { HOME: base },
    stdout: (t) => {
      stdout += t;
    },
    stderr: (t) => {
      stderr += t;
    },
    script: SCRIPT,
    isTty: false,
  };
  const code = await installCommand(argv, io);
  return { code, stdout, stderr };
}

const ENTRY = (vault: string) => ({ command: process.execPath, args: [SCRIPT, '--notes-dir', vault] });

describe('install claude-desktop', () => {
  it('merges the entry, keeps every other entry and setting, and saves the previous file as .bak', async () => {
    const { vault, config } = setup();
    fs.mkdirSync(path.dirname(config));
    const previous = `${JSON.stringify(
      {
        globalShortcut: 'Ctrl+Space',
        mcpServers: {
          github: { command: 'gh-mcp', env: { GITHUB_TOKEN: 'x' } },
          files: { command: 'fs-mcp' },
        },
      },
      null,
      4,
    )}\n`;
    fs.writeFileSync(config, previous, { mode: 0o600 });

    const out = await run(['claude-desktop', '--config', config, '--notes-dir', vault]);
    expect(out.code).toBe(0);
    expect(out.stdout).toContain(`Added "noted" in ${config}`);
    expect(out.stdout).toContain(`${config}.bak`);
    expect(JSON.parse(fs.readFileSync(config, 'utf8'))).toEqual({
      globalShortcut: 'Ctrl+Space',
      mcpServers: {
        github: { command: 'gh-mcp', env: { GITHUB_TOKEN: 'x' } },
        files: { command: 'fs-mcp' },
        noted: ENTRY(vault),
      },
    });
    expect(fs.readFileSync(`${config}.bak`, 'utf8')).toBe(previous);
    expect(fs.statSync(config).mode & 0o777).toBe(0o600);
    expect(fs.statSync(`${config}.bak`).mode & 0o777).toBe(0o600);
    // No temporary file is left beside it.
    expect(fs.readdirSync(path.dirname(config)).sort()).toEqual([
      'claude_desktop_config.json',
      'claude_desktop_config.json.bak',
    ]);
  });

  it('creates a missing file (and its folder), without a .bak', async () => {
    const { vault, config } = setup();
    const out = await run(['claude-desktop', '--config', config, '--notes-dir', vault]);
    expect(out.code).toBe(0);
    expect(JSON.parse(fs.readFileSync(config, 'utf8'))).toEqual({ mcpServers: { noted: ENTRY(vault) } });
    expect(fs.existsSync(`${config}.bak`)).toBe(false);
  });

  it('running it again changes nothing; another vault replaces the entry', async () => {
    const { vault, config } = setup();
    await run(['claude-desktop', '--config', config, '--notes-dir', vault]);
    const first = fs.readFileSync(config, 'utf8');
    const again = await run(['claude-desktop', '--config', config, '--notes-dir', vault]);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('nothing to change');
    expect(fs.readFileSync(config, 'utf8')).toBe(first);
    expect(fs.existsSync(`${config}.bak`)).toBe(false);

    const other = path.join(base, 'other');
    fs.mkdirSync(other);
    const replaced = await run(['claude-desktop', '--config', config, '--notes-dir', other]);
    expect(replaced.stdout).toContain('Replaced "noted"');
    expect(JSON.parse(fs.readFileSync(config, 'utf8')).mcpServers.noted.args[2]).toBe(other);
    expect(fs.readFileSync(`${config}.bak`, 'utf8')).toBe(first);
  });

  const broken: [string, string][] = [
    ['a trailing comma', '{\n  "mcpServers": {\n    "github": { "command": "gh" },\n  }\n}\n'],
    ['a comment', '{\n  // my servers\n  "mcpServers": {}\n}\n'],
    ['half a file', '{"mcpServers": {"github": '],
    ['an array', '[1, 2]\n'],
    ['mcpServers that is not an object', '{"mcpServers": []}\n'],
  ];
  for (const [what, text] of broken) {
    it(`leaves a file with ${what} untouched and says so, exit 1`, async () => {
      const { vault, config } = setup();
      fs.mkdirSync(path.dirname(config));
      fs.writeFileSync(config, text);
      const out = await run(['claude-desktop', '--config', config, '--notes-dir', vault]);
      expect(out.code).toBe(1);
      expect(out.stderr).toContain(`${config} was left untouched`);
      expect(out.stderr).toContain('strict JSON');
      expect(fs.readFileSync(config, 'utf8')).toBe(text);
      expect(fs.readdirSync(path.dirname(config))).toEqual(['claude_desktop_config.json']);
    });
  }

  it('names the line of a JSON error', () => {
    const result = mergeServerEntry('{\n  "a": 1,\n}\n', 'noted', {});
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.problem).toMatch(/line 3 column 1/);
  });

  it('updates a linked configuration where it really lives', async () => {
    const { vault, config } = setup();
    const real = path.join(base, 'dotfiles', 'claude.json');
    fs.mkdirSync(path.dirname(real));
    fs.writeFileSync(real, '{"mcpServers": {}}\n');
    fs.mkdirSync(path.dirname(config));
    fs.symlinkSync(real, config);
    const out = await run(['claude-desktop', '--config', config, '--notes-dir', vault]);
    expect(out.code).toBe(0);
    expect(fs.lstatSync(config).isSymbolicLink()).toBe(true);
    expect(JSON.parse(fs.readFileSync(real, 'utf8')).mcpServers.noted).toEqual(ENTRY(vault));
  });

  it('--npx installs the published package through npx instead of this copy', async () => {
    const { vault, config } = setup();
    const out = await run(['claude-desktop', '--npx', '--notes-dir', vault, '--config', config]);
    expect(out.code).toBe(0);
    expect(JSON.parse(fs.readFileSync(config, 'utf8')).mcpServers.noted).toEqual({
      command: 'npx',
      args: ['-y', '--allow-scripts=better-sqlite3,@parcel/watcher', 'noted-mcp', '--notes-dir', vault],
    });
    expect(out.stdout).toContain('Claude Desktop will start npx -y');
  });

  it('only claude-desktop can be installed into; usage errors exit 2', async () => {
    setup();
    const out = await run(['cursor', '--bogus']);
    expect(out.code).toBe(2);
    expect(out.stderr).toContain('noted-mcp config cursor');
    expect(out.stderr).toContain('unknown option --bogus');
  });
});

describe("Claude Desktop's configuration file", () => {
  it('lives where Claude Desktop keeps it on each system', () => {
    expect(claudeDesktopConfigPath('darwin', {}, '/Users/ann')).toBe(
      '/Users/ann/Library/Application Support/Claude/claude_desktop_config.json',
    );
    expect(
      claudeDesktopConfigPath('win32', { APPDATA: 'C:\\Users\\ann\\AppData\\Roaming' }, 'C:\\Users\\ann'),
    ).toBe('C:\\Users\\ann\\AppData\\Roaming\\Claude\\claude_desktop_config.json');
    expect(claudeDesktopConfigPath('linux', {}, '/home/ann')).toBe(
      '/home/ann/.config/Claude/claude_desktop_config.json',
    );
    expect(claudeDesktopConfigPath('linux', { XDG_CONFIG_HOME: '/cfg' }, '/home/ann')).toBe(
      '/cfg/Claude/claude_desktop_config.json',
    );
  });
});
