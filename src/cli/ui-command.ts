/**
 * @module
 * `noted-mcp ui`: serves the local web console (SPEC 9.3) on 127.0.0.1 and prints a one-time link to
 * open it. The console is given what only the entry point knows: the vault's token (made like the
 * HTTP transport makes it), the journal hook `noted-mcp review` uses for approvals, the client
 * snippets of `noted-mcp config`, and `noted-mcp install claude-desktop` as an action.
 */

import type { ClientSnippet, InstallOutcome } from '../console/context.js';
import { type ConsoleHandle, PortInUseError, startConsole } from '../console/server.js';
import { SecretFileError } from '../vault/token-file.js';
import type { Vault } from '../vault/vault.js';
import { CLIENTS, clientConfig } from './client-config.js';
import { installCommand } from './install-command.js';
import { type CliIo, type ExitCode, usageError } from './io.js';
import { failure, openCliVault, parseFlags } from './journal-args.js';
import { journalApprovedWrites } from './review-command.js';
import { resolveToken } from './serve-http.js';

export const UI_USAGE = `Usage: noted-mcp ui [options]

Serves a web console for your vault on 127.0.0.1 and prints a link to open it: review the changes
agents staged, see and undo what agents changed, set each folder's access, and connect clients.
The link signs you in once (it works one time, for 5 minutes); after that, sign in with the vault
token (in <vault>/.noted/mcp-http-token). Press Ctrl+C to stop.

Options:
  --notes-dir DIR, --vault DIR   the vault (else $NOTED_VAULT, else $NOTES_VAULT, else ~/notes)
  --port N                       the port (default: a free one)
  --claude-desktop-config FILE   the file the "Install into Claude Desktop" action changes
                                 (default: Claude Desktop's own, see noted-mcp install --help)
  -h, --help                     show this help
`;

export async function uiCommand(argv: readonly string[], io: CliIo): Promise<ExitCode> {
  const flags = parseFlags(argv, ['--notes-dir', '--port', '--claude-desktop-config'], ['--help']);
  if (flags.switches.has('--help')) {
    io.stdout(UI_USAGE);
    return 0;
  }
  const errors = [...flags.errors];
  if (flags.positionals.length > 0) errors.push(`unexpected argument "${flags.positionals[0]}"`);
  const portText = flags.values.get('--port') ?? '0';
  if (!/^\d+$/.test(portText) || Number(portText) > 65535) {
    errors.push(`--port takes a port number from 0 to 65535 (got "${portText}")`);
  }
  if (errors.length > 0) {
    return usageError(io, 'ui', errors);
  }
  let vault: Vault;
  let token: string;
  try {
    vault = openCliVault(flags.values.get('--notes-dir'), io);
    token = resolveToken(
      { help: false, version: false, positionals: [], errors: [] },
      io.env,
      vault.stateDir,
    ).token;
  } catch (err) {
    if (err instanceof SecretFileError) {
      io.stderr(`noted-mcp ui: ${err.message}\n`);
      return 1;
    }
    return failure(io, err);
  }
  let ui: ConsoleHandle;
  try {
    ui = await startConsole({
      vault,
      token,
      port: Number(portText),
      recordApprovedWrite: journalApprovedWrites(),
      clients: () => snippets(vault, io),
      installClaudeDesktop: () => installInto(vault, io, flags.values.get('--claude-desktop-config')),
      onerror: (err) => io.stderr(`noted-mcp ui: ${err.stack ?? err.message}\n`),
    });
  } catch (err) {
    if (!(err instanceof PortInUseError)) throw err;
    io.stderr(
      `noted-mcp ui: port ${portText} is already in use; choose another with --port N, or leave it out.\n`,
    );
    return 1;
  }
  io.stdout(
    [
      `Noted MCP console for ${vault.root}`,
      `Open this link to sign in (it works once, for 5 minutes):`,
      `  ${ui.loginUrl()}`,
      `Later visits: ${ui.url} with the vault token from ${vault.statePath('mcp-http-token')}.`,
      'Press Ctrl+C to stop.',
      '',
    ].join('\n'),
  );
  await new Promise<void>((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
  await ui.close();
  return 0;
}

/** What `noted-mcp config CLIENT` prints, for every client, over stdio. */
function snippets(vault: Vault, io: CliIo): ClientSnippet[] {
  return CLIENTS.map((client) => {
    const { text, notes } = clientConfig({
      client,
      name: 'noted',
      node: process.execPath,
      script: io.script,
      vault: vault.root,
    });
    return { client, text, notes };
  });
}

/** `noted-mcp install claude-desktop`, run as it is on the command line, its output captured. */
async function installInto(vault: Vault, io: CliIo, configFile: string | undefined): Promise<InstallOutcome> {
  let out = '';
  let err = '';
  const code = await installCommand(
    [
      'claude-desktop',
      '--notes-dir',
      vault.root,
      ...(configFile === undefined ? [] : ['--config', configFile]),
    ],
    {
      ...io,
      stdout: (text) => {
        out += text;
      },
      stderr: (text) => {
        err += text;
      },
    },
  );
  return { ok: code === 0, message: `${out}${err}`.replace(/^noted-mcp install: /gm, '') };
}
