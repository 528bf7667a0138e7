/**
 * @module
 * `noted-mcp ui`: serves the local web console (SPEC 9.3) on 127.0.0.1 and prints a one-time link to
 * open it. The console is given what only the entry point knows: the vault's token (made like the
 * HTTP transport makes it), the journal hook `noted-mcp review` uses for approvals, the client
 * snippets of `noted-mcp config`, and `noted-mcp install claude-desktop` as an action.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createInterface } from 'node:readline';
import { helloProof, mintLoginCode } from '../console/auth.js';
import type { ClientSnippet, InstallOutcome } from '../console/context.js';
import {
  announceConsole,
  askProof,
  type ConsoleRecord,
  findConsole,
  withdrawConsole,
} from '../console/discovery.js';
import { type ConsoleHandle, PortInUseError, startConsole } from '../console/server.js';
import { SecretFileError } from '../vault/token-file.js';
import type { Vault } from '../vault/vault.js';
import { CLIENTS, clientConfig } from './client-config.js';
import { installCommand } from './install-command.js';
import { type CliIo, type ExitCode, quoteArg, usageError } from './io.js';
import { cliJournalKey, failure, openCliVault, parseFlags } from './journal-args.js';
import { launcherFor } from './launcher.js';
import { journalApprovedWrites, journalDecisions } from './review-journal.js';
import { resolveToken } from './serve-http.js';

export const UI_USAGE = `Usage: noted-mcp ui [options]

       noted-mcp ui --link [options]

Serves a web console for your vault on 127.0.0.1 and prints a link to open it: review the changes
agents staged, see and undo what agents changed, set each folder's access, and connect clients.
A sign-in link works once, for 5 minutes. For a new one, press Enter in the terminal where the
console runs, or run noted-mcp ui --link; or sign in with the vault token (in
<vault>/.noted/mcp-http-token). Press Ctrl+C to stop.

Options:
  --notes-dir DIR, --vault DIR   the vault (else $NOTED_VAULT, else $NOTES_VAULT, else ~/notes)
  --port N                       the port (default: a free one); with --link, the running
                                 console's port (default: the one it recorded in the vault)
  --link                         print a new sign-in link for the console already running on
                                 this vault, and exit
  --claude-desktop-config FILE   the file the "Install into Claude Desktop" action changes
                                 (default: Claude Desktop's own, see noted-mcp install --help)
  -h, --help                     show this help
`;

export async function uiCommand(argv: readonly string[], io: CliIo): Promise<ExitCode> {
  const flags = parseFlags(argv, ['--notes-dir', '--port', '--claude-desktop-config'], ['--help', '--link']);
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
  if (flags.switches.has('--link')) return printLink(vault, token, Number(portText), io);
  const journalKey = cliJournalKey(io, { create: 'first use' });
  let ui: ConsoleHandle;
  try {
    ui = await startConsole({
      vault,
      token,
      port: Number(portText),
      journalKey,
      recordApprovedWrite: journalApprovedWrites(() => journalKey),
      recordDecision: journalDecisions(() => journalKey),
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
  const record: ConsoleRecord = { port: ui.port, pid: process.pid, startedAt: new Date().toISOString() };
  try {
    announceConsole(vault, record);
  } catch (err) {
    io.stderr(
      `noted-mcp ui: could not record the console in ${vault.stateDir} (${(err as Error).message}); noted-mcp ui --link will need --port ${ui.port}.\n`,
    );
  }
  io.stdout(
    [
      `Noted MCP console for ${vault.root}`,
      `Open this link to sign in (it works once, for 5 minutes):`,
      `  ${ui.loginUrl()}`,
      'Press Enter here for a new sign-in link (or run noted-mcp ui --link elsewhere); Ctrl+C stops.',
      `Or open ${ui.url} and sign in with the vault token from ${vault.statePath('mcp-http-token')}.`,
      '',
    ].join('\n'),
  );
  const terminal = process.stdin.readable ? createInterface({ input: process.stdin, terminal: false }) : null;
  terminal?.on('line', () => {
    io.stdout(`New sign-in link (works once, for 5 minutes):\n  ${ui.loginUrl()}\n`);
  });
  terminal?.on('error', () => terminal.close());
  await new Promise<void>((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
  terminal?.close();
  withdrawConsole(vault, record);
  await ui.close();
  return 0;
}

/**
 * `--link`: a sign-in link for the console already serving this vault, made here with the token
 * (auth.ts), printed only once that console proved it holds the same token.
 */
async function printLink(vault: Vault, token: string, port: number, io: CliIo): Promise<ExitCode> {
  const target = port !== 0 ? port : findConsole(vault)?.port;
  const start = `Start one with: noted-mcp ui --notes-dir ${quoteArg(vault.root)}`;
  if (target === undefined) {
    io.stderr(
      `noted-mcp ui: no console is running for ${vault.root} (none is recorded in ${vault.stateDir}). ${start}\n`,
    );
    return 1;
  }
  const nonce = randomBytes(18).toString('base64url');
  const proof = await askProof(target, nonce);
  if (proof === null) {
    io.stderr(`noted-mcp ui: no console answers on 127.0.0.1:${target}; it has stopped. ${start}\n`);
    return 1;
  }
  const expected = helloProof(token, nonce);
  if (proof.length !== expected.length || !timingSafeEqual(Buffer.from(proof), Buffer.from(expected))) {
    io.stderr(
      `noted-mcp ui: the console on 127.0.0.1:${target} does not hold this vault's token (it serves another vault, or was started with another NOTED_MCP_AUTH_TOKEN). ${start}\n`,
    );
    return 1;
  }
  io.stdout(
    `Sign-in link for the console of ${vault.root} (works once, for 5 minutes):\n  http://127.0.0.1:${target}/login?once=${mintLoginCode(token, Date.now())}\n`,
  );
  return 0;
}

/** What `noted-mcp config CLIENT` prints, for every client, over stdio. */
function snippets(vault: Vault, io: CliIo): ClientSnippet[] {
  return CLIENTS.map((client) => {
    const { text, notes } = clientConfig({
      client,
      name: 'noted',
      launcher: launcherFor({ node: process.execPath, script: io.script, npx: false }),
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
