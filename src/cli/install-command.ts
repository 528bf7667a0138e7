/**
 * @module
 * `noted-mcp install claude-desktop [--config FILE]`: merges this server into Claude Desktop's
 * `claude_desktop_config.json` (SPEC 8.4). Every other entry is kept, the previous file is saved as
 * `FILE.bak`, and the new one is written atomically. A file that is not valid JSON is left exactly
 * as it is: guessing at what a broken file meant could lose the person's other servers.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fsyncDir, tempPathFor } from '../vault/atomic-write.js';
import { stdioEntry } from './client-config.js';
import { launcherNote, tokenFileOf, vaultPathFor } from './config-command.js';
import { type CliIo, type ExitCode, usageError } from './io.js';
import { parseFlags } from './journal-args.js';
import { commandLine, launcherFor, NPX_LAUNCHER } from './launcher.js';

export const INSTALL_USAGE = `Usage: noted-mcp install claude-desktop [options]

Adds this server (over stdio, on your vault) to Claude Desktop's claude_desktop_config.json,
keeping every other entry. The previous file is saved beside it as claude_desktop_config.json.bak.

Options:
  --notes-dir DIR   the vault (else $NOTED_VAULT, else $NOTES_VAULT, else ~/notes)
  --config FILE     the configuration file (default: Claude Desktop's, for this system:
                    macOS ~/Library/Application Support/Claude/claude_desktop_config.json,
                    Windows %APPDATA%\\Claude\\claude_desktop_config.json,
                    Linux ~/.config/Claude/claude_desktop_config.json)
  --name NAME       the server's name in Claude Desktop (default noted)
  --npx             start the published package (npx -y noted-mcp …) instead of this copy's path
                    (not yet on the npm registry: install the packed tarball, see docs/release.md)
  -h, --help        show this help
`;

/** Where Claude Desktop keeps its configuration on `platform`. */
export function claudeDesktopConfigPath(
  platform: NodeJS.Platform,
  env: NodeJS.ProcessEnv,
  home: string,
): string {
  if (platform === 'win32') {
    const appData =
      env.APPDATA && env.APPDATA !== '' ? env.APPDATA : path.win32.join(home, 'AppData', 'Roaming');
    return path.win32.join(appData, 'Claude', 'claude_desktop_config.json');
  }
  if (platform === 'darwin')
    return path.posix.join(home, 'Library', 'Application Support', 'Claude', 'claude_desktop_config.json');
  const config =
    env.XDG_CONFIG_HOME && env.XDG_CONFIG_HOME !== ''
      ? env.XDG_CONFIG_HOME
      : path.posix.join(home, '.config');
  return path.posix.join(config, 'Claude', 'claude_desktop_config.json');
}

export type MergeResult =
  | { readonly ok: true; readonly text: string; readonly change: 'added' | 'replaced' | 'unchanged' }
  | { readonly ok: false; readonly problem: string };

/** Puts `entry` under `mcpServers[name]` of the JSON `text` (null: no file yet), keeping the rest. */
export function mergeServerEntry(text: string | null, name: string, entry: object): MergeResult {
  const bom = text?.startsWith('\uFEFF') ? '\uFEFF' : '';
  const source = text === null ? '' : text.slice(bom.length);
  let config: unknown = {};
  if (source.trim() !== '') {
    try {
      config = JSON.parse(source);
    } catch (err) {
      return { ok: false, problem: `it is not valid JSON (${describeJsonError(source, err as Error)})` };
    }
  }
  if (!isObject(config)) return { ok: false, problem: 'it does not hold a JSON object' };
  const servers = config.mcpServers ?? {};
  if (!isObject(servers)) return { ok: false, problem: '"mcpServers" in it is not a JSON object' };
  const previous = servers[name];
  if (previous !== undefined && JSON.stringify(previous) === JSON.stringify(entry)) {
    return { ok: true, text: text ?? '', change: 'unchanged' };
  }
  const merged = { ...config, mcpServers: { ...servers, [name]: entry } };
  return {
    ok: true,
    text: `${bom}${JSON.stringify(merged, null, 2)}\n`,
    change: previous === undefined ? 'added' : 'replaced',
  };
}

export async function installCommand(argv: readonly string[], io: CliIo): Promise<ExitCode> {
  const flags = parseFlags(argv, ['--notes-dir', '--config', '--name'], ['--help', '--npx']);
  if (flags.switches.has('--help')) {
    io.stdout(INSTALL_USAGE);
    return 0;
  }
  const errors = [...flags.errors];
  const target = flags.positionals[0];
  if (target === undefined) errors.push('name what to install into: claude-desktop');
  else if (target !== 'claude-desktop')
    errors.push(
      `"${target}" cannot be installed into automatically; only claude-desktop can. For other clients, run noted-mcp config ${target}`,
    );
  if (flags.positionals.length > 1) errors.push(`unexpected argument "${flags.positionals[1]}"`);
  const name = flags.values.get('--name') ?? 'noted';
  if (!/^[A-Za-z0-9_.-]+$/.test(name))
    errors.push(`--name takes letters, digits, ".", "_" and "-" (got "${name}")`);
  if (errors.length > 0) {
    return usageError(io, 'install', errors);
  }

  const home = io.env.HOME && io.env.HOME !== '' ? io.env.HOME : (io.env.USERPROFILE ?? '');
  const given = flags.values.get('--config');
  const file = path.resolve(given ?? claudeDesktopConfigPath(process.platform, io.env, home));
  const vault = vaultPathFor(flags.values.get('--notes-dir'), io.env);
  const launcher = launcherFor({
    node: process.execPath,
    script: io.script,
    npx: flags.switches.has('--npx'),
  });
  const missing = !fs.existsSync(vault);
  const entry = stdioEntry({ launcher, vault, ...(missing ? { create: true } : {}) });

  // A linked configuration (a dotfiles repository) is updated where it really lives.
  const real = realOrSelf(file);
  let before: Buffer | null = null;
  try {
    before = fs.readFileSync(real);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const merged = mergeServerEntry(before?.toString('utf8') ?? null, name, entry);
  if (!merged.ok) {
    io.stderr(
      `noted-mcp install: ${file} was left untouched: ${merged.problem}. Claude Desktop reads strict JSON (no comments, no trailing commas). Fix the file, or move it away, then run this again.\n`,
    );
    return 1;
  }
  if (merged.change === 'unchanged') {
    io.stdout(`${file} already has "${name}" serving ${vault}; nothing to change.\n`);
    return 0;
  }
  const mode = before === null ? 0o600 : fs.statSync(real).mode & 0o777;
  if (before !== null) writeFileWithMode(`${real}.bak`, before, mode);
  writeFileWithMode(real, merged.text, mode);
  io.stdout(
    [
      `${merged.change === 'added' ? 'Added' : 'Replaced'} "${name}" in ${file}: Claude Desktop will start ${commandLine(launcher, ['--notes-dir', vault])}`,
      launcherNote(launcher === NPX_LAUNCHER, io.script),
      before === null ? 'The file was new.' : `The previous file is saved as ${real}.bak.`,
      'Restart Claude Desktop to connect.',
      `(For Streamable HTTP instead, run noted-mcp config claude-code --http; the HTTP token lives in ${tokenFileOf(vault)}.)`,
      '',
    ].join('\n'),
  );
  if (missing)
    io.stderr(
      `noted-mcp install: note: ${vault} does not exist yet; the server is started with --create, which makes it.\n`,
    );
  return 0;
}

/** Write, fsync, rename: Claude Desktop never reads half a file. */
function writeFileWithMode(target: string, data: string | Uint8Array, mode: number): void {
  const dir = path.dirname(target);
  fs.mkdirSync(dir, { recursive: true });
  const tmp = tempPathFor(target);
  const fd = fs.openSync(tmp, 'wx', mode);
  try {
    fs.writeFileSync(fd, data);
    fs.fchmodSync(fd, mode);
    fs.fsyncSync(fd);
  } catch (err) {
    fs.closeSync(fd);
    fs.rmSync(tmp, { force: true });
    throw err;
  }
  fs.closeSync(fd);
  fs.renameSync(tmp, target);
  fsyncDir(dir);
}

function realOrSelf(file: string): string {
  try {
    return fs.realpathSync(file);
  } catch {
    return file;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The parser's message, with the line and column when it names a position. */
function describeJsonError(text: string, err: Error): string {
  const m = /position (\d+)/.exec(err.message);
  if (!m) return err.message;
  const before = text.slice(0, Number(m[1]));
  const line = before.split('\n').length;
  const column = before.length - before.lastIndexOf('\n');
  return `${err.message}, line ${line} column ${column}`;
}
