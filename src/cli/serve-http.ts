/**
 * @module
 * `noted-mcp --transport http|sse`: the token, the start-up message and the life of the HTTP server
 * (SPEC 8.2, 8.3). The vault is opened once by the caller; each session gets its own MCP server.
 */
import path from 'node:path';
import type { StartingVault } from '../access/open.js';
import { createMcpServer } from '../mcp/server.js';
import { publishVaultChanges } from '../mcp/vault-events.js';
import { PortInUseError, startHttpServer } from '../transport/http.js';
import { tokenProblem } from '../transport/http-auth.js';
import { isLoopbackHost, type PublicHost, parsePublicHost, publicHostText } from '../transport/http-guard.js';
import { readOrCreateSecretFile, SecretFileError } from '../vault/token-file.js';
import type { ParsedArgs } from './args.js';
import { claudeCodeHttpCommand } from './client-config.js';
import type { CliIo, ExitCode } from './io.js';
import { startTunnel, type Tunnel, TunnelError } from './tunnel.js';

export const DEFAULT_PORT = 3000;
/** The longest a stopping server waits for cancelled moves to be undone before it closes the index. */
export const STOP_WAIT_MS = 10_000;
export const DEFAULT_HOST = '127.0.0.1';
export const TOKEN_ENV = 'NOTED_MCP_AUTH_TOKEN';
/** The token file, relative to the vault's state folder `.noted/`. */
export const TOKEN_FILE = 'mcp-http-token';

/** Where the token came from, for the start-up message. */
export type TokenSource =
  | { readonly kind: 'env' | 'flag'; readonly token: string }
  | {
      readonly kind: 'file';
      readonly token: string;
      readonly file: string;
      readonly created: boolean;
      readonly fixedMode?: number;
    };

/** Usage problems of the HTTP flags, all at once (exit 2). Run before the vault is opened. */
export function httpUsageProblems(args: ParsedArgs, env: NodeJS.ProcessEnv): string[] {
  const problems: string[] = [];
  const transport = args.transport ?? 'stdio';
  if (transport === 'stdio') {
    for (const [flag, given] of [
      ['--port', args.port !== undefined],
      ['--host', args.host !== undefined],
      ['--auth-token', args.authToken !== undefined],
      ['--legacy-sse', args.legacySse === true],
      ['--allowed-host', args.allowedHosts !== undefined],
      ['--tunnel', args.tunnel === true],
    ] as const) {
      if (given) problems.push(`${flag} needs --transport http (or sse); stdio has no port, host or token`);
    }
    return problems;
  }
  if (args.host !== undefined && !isLoopbackHost(args.host)) {
    problems.push(
      `refusing --host ${args.host}: this server only listens on a loopback address (127.0.0.1, ::1 or localhost), so nothing outside this computer can reach your notes directly. To reach it from elsewhere, use --tunnel (a Cloudflare quick tunnel), or put a reverse proxy or tunnel in front of it and name its public host with --allowed-host NAME; the token stays required.`,
    );
  }
  for (const given of args.allowedHosts ?? []) {
    const parsed = parsePublicHost(given);
    if ('problem' in parsed) problems.push(`--allowed-host: ${parsed.problem}`);
  }
  const fromEnv = env[TOKEN_ENV];
  if (fromEnv !== undefined && fromEnv !== '') {
    const problem = tokenProblem(fromEnv);
    if (problem !== null) problems.push(`$${TOKEN_ENV} is not a usable token: ${problem}`);
  } else if (args.authToken !== undefined) {
    const problem = tokenProblem(args.authToken);
    if (problem !== null) problems.push(`--auth-token is not a usable token: ${problem}`);
  }
  return problems;
}

/** `$NOTED_MCP_AUTH_TOKEN`, else `--auth-token`, else the vault's token file (made once, mode 0600). */
export function resolveToken(args: ParsedArgs, env: NodeJS.ProcessEnv, stateDir: string): TokenSource {
  const fromEnv = env[TOKEN_ENV];
  if (fromEnv !== undefined && fromEnv !== '') return { kind: 'env', token: fromEnv };
  if (args.authToken !== undefined) return { kind: 'flag', token: args.authToken };
  const kept = readOrCreateSecretFile(path.join(stateDir, TOKEN_FILE));
  const problem = tokenProblem(kept.secret);
  if (problem !== null) {
    throw new SecretFileError(
      `${kept.file} does not hold a usable token (${problem}); delete it to have one made.`,
    );
  }
  return {
    kind: 'file',
    token: kept.secret,
    file: kept.file,
    created: kept.created,
    ...(kept.fixedMode === undefined ? {} : { fixedMode: kept.fixedMode }),
  };
}

export interface HttpRun {
  readonly args: ParsedArgs;
  readonly io: CliIo;
  readonly opened: StartingVault;
  readonly version: string;
}

/** Serves until SIGINT or SIGTERM; exit 1 when the port is taken or the token file is unusable. */
export async function serveHttp({ args, io, opened, version }: HttpRun): Promise<ExitCode> {
  const legacySse = args.transport === 'sse' || args.legacySse === true;
  if (args.transport === 'sse') {
    io.stderr(
      'noted-mcp: warning: --transport sse is deprecated. The HTTP+SSE transport (protocol 2024-11-05) is served at /sse for old clients only; Streamable HTTP is served at /mcp as well, move clients there.\n',
    );
  }
  let token: TokenSource;
  try {
    token = resolveToken(args, io.env, opened.vault.stateDir);
  } catch (err) {
    if (!(err instanceof SecretFileError)) throw err;
    io.stderr(`noted-mcp: ${err.message}\n`);
    return 1;
  }
  const host = args.host ?? DEFAULT_HOST;
  const port = args.port ?? DEFAULT_PORT;
  // httpUsageProblems has refused every name that does not parse.
  const publicHosts = (args.allowedHosts ?? []).flatMap((h) => {
    const parsed = parsePublicHost(h);
    return 'problem' in parsed ? [] : [parsed];
  });
  let http: Awaited<ReturnType<typeof startHttpServer>>;
  try {
    http = await startHttpServer({
      createServer: (sessionId, kind) =>
        createMcpServer(
          opened.access,
          { name: 'noted-mcp', version },
          { sessionId, live: kind === 'stateless' ? 'never' : 'initialized' },
        ),
      publish: (notify) =>
        publishVaultChanges(opened.access, { id: 'http-events', clientName: () => undefined }, notify),
      host,
      port,
      token: token.token,
      legacySse,
      publicHosts,
      onerror: (err) => io.stderr(`noted-mcp: http: ${err.message}\n`),
      onevict: (e) =>
        io.stderr(
          `noted-mcp: sessions: all were taken; closed session ${e.id}, the least recently used (idle ${Math.round(e.idleMs / 1000)} s, never ended with DELETE), to let a new client in\n`,
        ),
    });
  } catch (err) {
    if (!(err instanceof PortInUseError)) throw err;
    io.stderr(
      `noted-mcp: port ${port} on ${host} is already in use (another noted-mcp, or another program). Stop it, or choose another port with --port N (--port 0 picks a free one).\n`,
    );
    return 1;
  }
  let tunnel: Tunnel | undefined;
  let stopping = false;
  if (args.tunnel === true) {
    try {
      tunnel = await startTunnel({ localUrl: new URL(http.url).origin, env: io.env });
    } catch (err) {
      await http.close();
      if (!(err instanceof TunnelError)) throw err;
      io.stderr(`noted-mcp: --tunnel: ${err.message}\n`);
      return 1;
    }
    http.allowHost({ hostname: tunnel.hostname });
    void tunnel.exited.then((how) => {
      if (!stopping)
        io.stderr(
          `noted-mcp: warning: the tunnel stopped (cloudflared ${how}); ${tunnel?.url} no longer reaches this server. It still serves ${http.url} on this computer; restart with --tunnel for a new public URL.\n`,
        );
    });
  }
  io.stderr(
    startMessage({
      version,
      vault: opened.vault.root,
      url: http.url,
      legacySse,
      token,
      publicHosts,
      ...(tunnel ? { tunnelUrl: tunnel.url } : {}),
    }),
  );

  const stopped = new Promise<void>((resolve) => {
    const onSignal = () => resolve();
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
  });
  await stopped;
  stopping = true;
  io.stderr('noted-mcp: stopping.\n');
  await tunnel?.stop();
  // Closing the sessions cancels running calls; a move undoes what it did before the index closes.
  await http.close();
  await opened.access.settled(STOP_WAIT_MS);
  return 0;
}

interface StartInfo {
  readonly version: string;
  readonly vault: string;
  readonly url: string;
  readonly legacySse: boolean;
  readonly token: TokenSource;
  readonly publicHosts?: readonly PublicHost[];
  /** `https://NAME.trycloudflare.com`, when a tunnel is up. */
  readonly tunnelUrl?: string;
}

export function startMessage(info: StartInfo): string {
  const { version, vault, url, legacySse, token } = info;
  const lines = [
    `Noted MCP ${version} — serving the vault ${vault} over Streamable HTTP.`,
    `Endpoint: ${url}`,
    '  (2025-era sessions and stateless 2026-07-28 clients; at most 20 sessions, each closed after 30 idle minutes)',
  ];
  if (legacySse) lines.push(`Legacy HTTP+SSE (deprecated): ${url.replace(/\/mcp$/, '/sse')}`);
  switch (token.kind) {
    case 'env':
      lines.push(`Token: from $${TOKEN_ENV} (not shown).`);
      break;
    case 'flag':
      lines.push(
        'Token: from --auth-token (not shown). Other users of this computer can read command lines; prefer $NOTED_MCP_AUTH_TOKEN.',
      );
      break;
    case 'file':
      lines.push(
        `Token: ${token.created ? 'made now and kept' : 'kept'} in ${token.file} (readable by you only):`,
        `  ${token.token}`,
      );
      if (token.fixedMode !== undefined) {
        lines.push(
          `  Warning: that file had mode ${token.fixedMode.toString(8).padStart(4, '0')}, readable by others; it is 0600 now. If others may have read it, delete it and restart for a new token.`,
        );
      }
      break;
  }
  lines.push('Send it on every request: "Authorization: Bearer <token>" or "X-MCP-Token: <token>".');
  if (token.kind === 'file')
    lines.push(`Connect Claude Code:  ${claudeCodeHttpCommand('noted', url, token.file)}`);
  lines.push('Other clients:  noted-mcp config vscode|codex|cursor --http');
  lines.push(...remoteLines(info));
  lines.push('Press Ctrl+C to stop.', '');
  return lines.join('\n');
}

/** The public URL and a plain warning, when the vault can be reached from outside (SPEC 15.3). */
function remoteLines({ url, token, publicHosts = [], tunnelUrl }: StartInfo): string[] {
  const path = new URL(url).pathname;
  const publicUrls = [
    ...(tunnelUrl ? [`${tunnelUrl}${path}`] : []),
    ...publicHosts.map((h) => `https://${publicHostText(h)}${path}`),
  ];
  if (publicUrls.length === 0) return [];
  const lines = [
    `WARNING: the vault is reachable from outside this computer: ${publicUrls.join(', ')}`,
    '  Anyone who has the token can read and change your notes from anywhere: keep it secret, and',
    '  press Ctrl+C when you are done. Every request must still carry the token.',
  ];
  if (tunnelUrl) lines.push(`Public URL (Cloudflare quick tunnel): ${tunnelUrl}${path}`);
  if (token.kind === 'file') {
    lines.push(
      `Connect Claude Code on this computer:  ${claudeCodeHttpCommand('noted', publicUrls[0] as string, token.file)}`,
      `  (on another computer, which has no token file, give it the token itself: claude mcp add --transport http noted ${publicUrls[0]} --header "Authorization: Bearer <token>")`,
    );
  } else {
    lines.push(`Connect a client to ${publicUrls[0]} with the header "Authorization: Bearer <token>".`);
  }
  return lines;
}
