/**
 * @module
 * `noted-mcp config CLIENT [--http]`: prints the configuration that connects CLIENT to this server
 * and vault (SPEC 8.4). The configuration goes to stdout, ready to paste; where to paste it goes to
 * stderr.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { ParsedArgs } from './args.js';
import {
  CLIENTS,
  ClientConfigError,
  type ClientName,
  clientConfig,
  TOKEN_ENV_NAME,
} from './client-config.js';
import { vaultDirFrom } from './config.js';
import { type CliIo, type ExitCode, usageError } from './io.js';
import { parseFlags } from './journal-args.js';
import { isNpxCached, launcherFor, NPX_LAUNCHER } from './launcher.js';

export const CONFIG_USAGE = `Usage: noted-mcp config CLIENT [options]

Prints ready-to-paste configuration that connects CLIENT to this server and vault.
CLIENT is one of: ${CLIENTS.join(', ')}.

Options:
  --notes-dir DIR   the vault (else $NOTED_VAULT, else $NOTES_VAULT, else ~/notes)
  --http            connect to a running server over Streamable HTTP (noted-mcp --transport http)
                    instead of letting the client start one over stdio
  --port N          the HTTP port (default 3000)
  --name NAME       the server's name in the client (default noted)
  --npx             start the published package (npx -y noted-mcp …) instead of this copy's
                    path; the default when this command itself runs through npx (not yet on
                    the npm registry: install the packed tarball, see docs/release.md)
  --with-token      write the HTTP token itself into the configuration. Without it, the token is
                    read when needed: from <vault>/.noted/mcp-http-token, a VS Code password
                    prompt, or $${TOKEN_ENV_NAME} (Cursor, Codex)
  -h, --help        show this help
`;

/** The vault folder as the server will see it: absolute, through links when it exists. */
export function vaultPathFor(notesDir: string | undefined, env: NodeJS.ProcessEnv): string {
  const args: ParsedArgs = {
    help: false,
    version: false,
    positionals: [],
    errors: [],
    ...(notesDir ? { notesDir } : {}),
  };
  const { dir } = vaultDirFrom(args, env);
  try {
    return fs.realpathSync(dir);
  } catch {
    return dir;
  }
}

export function tokenFileOf(vault: string): string {
  return path.join(vault, '.noted', 'mcp-http-token');
}

export async function configCommand(argv: readonly string[], io: CliIo): Promise<ExitCode> {
  const flags = parseFlags(
    argv,
    ['--notes-dir', '--port', '--name'],
    ['--help', '--http', '--with-token', '--npx'],
  );
  if (flags.switches.has('--help')) {
    io.stdout(CONFIG_USAGE);
    return 0;
  }
  const errors = [...flags.errors];
  const client = flags.positionals[0];
  if (client === undefined) errors.push(`name the client: ${CLIENTS.join(', ')}`);
  else if (!(CLIENTS as readonly string[]).includes(client))
    errors.push(`unknown client "${client}"; choose one of ${CLIENTS.join(', ')}`);
  if (flags.positionals.length > 1) errors.push(`unexpected argument "${flags.positionals[1]}"`);
  const http = flags.switches.has('--http');
  const rawPort = flags.values.get('--port');
  if (rawPort !== undefined && (!/^\d+$/.test(rawPort) || Number(rawPort) < 1 || Number(rawPort) > 65535))
    errors.push(`--port takes a port number from 1 to 65535 (got "${rawPort}")`);
  for (const flag of ['--port', '--with-token'])
    if ((flags.values.has(flag) || flags.switches.has(flag)) && !http)
      errors.push(`${flag} goes with --http`);
  const name = flags.values.get('--name') ?? 'noted';
  if (!/^[A-Za-z0-9_.-]+$/.test(name))
    errors.push(`--name takes letters, digits, ".", "_" and "-" (got "${name}")`);
  if (errors.length > 0) {
    return usageError(io, 'config', errors);
  }

  const vault = vaultPathFor(flags.values.get('--notes-dir'), io.env);
  const tokenFile = tokenFileOf(vault);
  let token: string | undefined;
  if (flags.switches.has('--with-token')) {
    token = readToken(io.env, tokenFile);
    if (token === undefined) {
      io.stderr(
        `noted-mcp config: there is no token yet: ${tokenFile} does not exist and $${TOKEN_ENV_NAME} is not set. Start the server once with --transport http to make one.\n`,
      );
      return 1;
    }
  }
  const launcher = launcherFor({
    node: process.execPath,
    script: io.script,
    npx: flags.switches.has('--npx'),
  });
  try {
    const out = clientConfig({
      client: client as ClientName,
      name,
      launcher,
      vault,
      ...(fs.existsSync(vault) ? {} : { create: true }),
      ...(http
        ? { http: { url: `http://127.0.0.1:${rawPort ?? 3000}/mcp`, tokenFile, ...(token ? { token } : {}) } }
        : {}),
    });
    io.stdout(out.text);
    io.stderr(`${out.notes}\n${launcherNote(launcher === NPX_LAUNCHER, io.script)}\n`);
    if (!fs.existsSync(vault))
      io.stderr(`${vault} does not exist yet: the server is started with --create, which makes it.\n`);
    if (token !== undefined)
      io.stderr('This configuration holds the token itself: keep it out of shared files and git.\n');
    return 0;
  } catch (err) {
    if (!(err instanceof ClientConfigError)) throw err;
    io.stderr(`noted-mcp config: ${err.message}\n`);
    return 2;
  }
}

/** The token as the server would use it: `$NOTED_MCP_AUTH_TOKEN`, else the vault's token file. */
function readToken(env: NodeJS.ProcessEnv, tokenFile: string): string | undefined {
  const fromEnv = env[TOKEN_ENV_NAME];
  if (fromEnv !== undefined && fromEnv !== '') return fromEnv;
  try {
    const text = fs.readFileSync(tokenFile, 'utf8').trim();
    return text === '' ? undefined : text;
  } catch {
    return undefined;
  }
}

/** Which server the configuration starts, and the other way. */
export function launcherNote(npx: boolean, script: string): string {
  if (!npx) {
    return `This starts the server at ${script}. To start the published package instead (no checkout needed), add --npx.`;
  }
  const why = isNpxCached(script)
    ? ' (this command ran through npx, whose cache is no place to point a client at)'
    : '';
  return `This starts the published package with npx${why}; its first start downloads it and builds its native modules, which can take a minute.\n${NOT_YET_PUBLISHED}`;
}

/**
 * Issue 36.7: until the package is on the npm registry (docs/release.md), `npx -y noted-mcp` fails
 * with E404, so every npx form says how to install it today. Remove once it is published.
 */
export const NOT_YET_PUBLISHED =
  "Note: noted-mcp is not on the npm registry yet, so until it is published this npx command fails with E404. Install it from the packed tarball instead: in a checkout, npm ci && npm pack (makes noted-mcp-VERSION.tgz), then npm install -g --allow-scripts=better-sqlite3,@parcel/watcher ./noted-mcp-VERSION.tgz, and run this command again without --npx (or put the tarball's absolute path where noted-mcp stands above).";
