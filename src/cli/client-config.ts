/**
 * @module
 * Ready-to-paste configuration for AI clients (SPEC 8.4), each in the client's own format. Pure:
 * the caller supplies paths and, only when asked, the token.
 *
 * Where the token goes: by default never into a configuration file. Each client gets the way it has
 * to fetch a secret at run time — Claude Code a `headersHelper` command that reads the token file each
 * time it connects (`claude mcp add --header "…$(cat FILE)"` would not do: the shell expands it when
 * the command is pasted and Claude Code stores the token in ~/.claude.json), VS Code a password prompt
 * (`${input:…}`), Cursor `${env:…}` and Codex `bearer_token_env_var` reading `$NOTED_MCP_AUTH_TOKEN`.
 * `--with-token` writes the token itself.
 */
import { quoteArg } from './io.js';
import { commandLine, type Launcher } from './launcher.js';

export const CLIENTS = ['claude-code', 'claude-desktop', 'vscode', 'codex', 'cursor'] as const;
export type ClientName = (typeof CLIENTS)[number];

export const TOKEN_ENV_NAME = 'NOTED_MCP_AUTH_TOKEN';
const VSCODE_INPUT_ID = 'noted-mcp-token';

export interface ClientConfigInput {
  readonly client: ClientName;
  /** The entry's name in the client (default `noted`). */
  readonly name: string;
  /** How the client starts the server: this copy with node, or the published package with npx. */
  readonly launcher: Launcher;
  /** Absolute path of the vault. */
  readonly vault: string;
  /**
   * The vault folder does not exist yet: the server is started with `--create` to make it (a
   * server refuses a named folder that does not exist, SPEC 1.2).
   */
  readonly create?: boolean;
  /** Present for Streamable HTTP instead of stdio. */
  readonly http?: {
    readonly url: string;
    readonly tokenFile: string;
    /** The token itself, only when the person asked for it to be written out. */
    readonly token?: string;
  };
}

export interface ClientConfig {
  /** What to paste (stdout). */
  readonly text: string;
  /** Where to paste it and what else to do (stderr). */
  readonly notes: string;
}

export class ClientConfigError extends Error {}

/** The stdio entry of `mcpServers` (Claude Desktop, Cursor). */
export function stdioEntry(input: Pick<ClientConfigInput, 'launcher' | 'vault' | 'create'>): {
  command: string;
  args: string[];
} {
  return { command: input.launcher.command, args: [...input.launcher.args, ...vaultArgs(input)] };
}

/** `--notes-dir VAULT`, and `--create` when the folder is still to be made. */
function vaultArgs(input: Pick<ClientConfigInput, 'vault' | 'create'>): string[] {
  return ['--notes-dir', input.vault, ...(input.create ? ['--create'] : [])];
}

/**
 * The `headersHelper` command Claude Code runs each time it connects: it prints the header as JSON,
 * reading the token from its file then (the token is base64url, so it needs no JSON escaping).
 */
export function claudeCodeHeadersHelper(tokenFile: string): string {
  return `printf '{"Authorization":"Bearer %s"}' "$(cat ${quoteArg(tokenFile)})"`;
}

/**
 * Connecting Claude Code over Streamable HTTP: `claude mcp add-json` with a `headersHelper` that reads
 * the token file at connect time, so the configuration holds a command and never the token; with the
 * token given (`--with-token`), `claude mcp add --header` with it single-quoted.
 */
export function claudeCodeHttpCommand(name: string, url: string, tokenFile: string, token?: string): string {
  if (token !== undefined) {
    return `claude mcp add --transport http ${quoteArg(name)} ${url} --header ${quoteArg(`Authorization: Bearer ${token}`)}`;
  }
  const config = { type: 'http', url, headersHelper: claudeCodeHeadersHelper(tokenFile) };
  // --scope user: Claude Code runs a headersHelper only for a folder the user has trusted, and the
  // default (local) scope ties the entry to the folder the command is run in; in a folder not yet
  // trusted the helper never ran and the server's 401 surfaced as a misleading OAuth error (issue 36.9).
  return `claude mcp add-json --scope user ${quoteArg(name)} ${quoteArg(JSON.stringify(config))}`;
}

/**
 * Codex gives a server 10 s to start by default. This server answers at once (its index is built in
 * the background), but a first start on a slow disk or a busy machine still deserves room.
 */
export const CODEX_STARTUP_TIMEOUT_SEC = 30;

export function clientConfig(input: ClientConfigInput): ClientConfig {
  const { http } = input;
  const serverHint = http
    ? `\nStart the server first: ${commandLine(input.launcher, ['--transport', 'http', '--port', new URL(http.url).port || '80', ...vaultArgs(input)])}\nThe token is in ${http.tokenFile} (made on the first start; readable by you only).`
    : '';
  const envHint = `\nSet ${TOKEN_ENV_NAME} to the token where the client starts, e.g. export ${TOKEN_ENV_NAME}="$(cat ${quoteArg(http?.tokenFile ?? '')})"`;
  switch (input.client) {
    case 'claude-code': {
      const text = http
        ? claudeCodeHttpCommand(input.name, http.url, http.tokenFile, http.token)
        : `claude mcp add ${quoteArg(input.name)} -- ${commandLine(input.launcher, vaultArgs(input))}`;
      return {
        text: `${text}\n`,
        notes:
          http && http.token === undefined
            ? `Run this command in a terminal. It adds the server for your user (--scope user), in every project: Claude Code runs the headersHelper that reads the token only in folders you have trusted, so open Claude Code in a trusted folder (it asks on first start).${serverHint}`
            : `Run this command in a terminal (add --scope user before the name to use the vault in every project).${serverHint}`,
      };
    }
    case 'claude-desktop': {
      if (http) {
        throw new ClientConfigError(
          'Claude Desktop starts the servers of claude_desktop_config.json itself, over stdio; that file has no place for a URL with a token header. Run `noted-mcp config claude-desktop` without --http, or `noted-mcp install claude-desktop`.',
        );
      }
      return {
        text: json({ mcpServers: { [input.name]: stdioEntry(input) } }),
        notes:
          'Merge this into claude_desktop_config.json (Settings → Developer → Edit Config), or let `noted-mcp install claude-desktop` do it; then restart Claude Desktop.',
      };
    }
    case 'cursor': {
      const entry = http
        ? { url: http.url, headers: { Authorization: `Bearer ${http.token ?? `\${env:${TOKEN_ENV_NAME}}`}` } }
        : stdioEntry(input);
      return {
        text: json({ mcpServers: { [input.name]: entry } }),
        notes: `Merge this into ~/.cursor/mcp.json (every project) or .cursor/mcp.json (one project).${serverHint}${http && !http.token ? envHint : ''}`,
      };
    }
    case 'vscode': {
      const server = http
        ? {
            type: 'http',
            url: http.url,
            headers: { Authorization: `Bearer ${http.token ?? `\${input:${VSCODE_INPUT_ID}}`}` },
          }
        : { type: 'stdio', ...stdioEntry(input) };
      const inputs =
        http && !http.token
          ? [
              {
                type: 'promptString',
                id: VSCODE_INPUT_ID,
                description: `Noted MCP token (in ${http.tokenFile})`,
                password: true,
              },
            ]
          : undefined;
      return {
        text: json({ ...(inputs ? { inputs } : {}), servers: { [input.name]: server } }),
        notes: `Merge this into .vscode/mcp.json of your workspace (or the user configuration: "MCP: Open User Configuration").${serverHint}${http && !http.token ? '\nVS Code asks for the token once and keeps it in its secret storage.' : ''}`,
      };
    }
    case 'codex': {
      const lines = [`[mcp_servers.${tomlKey(input.name)}]`];
      if (http) {
        lines.push(`url = ${tomlString(http.url)}`);
        // Codex refuses a plain bearer_token in config.toml; a literal token goes in a header.
        if (http.token) lines.push(`http_headers = { "X-MCP-Token" = ${tomlString(http.token)} }`);
        else lines.push(`bearer_token_env_var = ${tomlString(TOKEN_ENV_NAME)}`);
      } else {
        const { command, args } = stdioEntry(input);
        lines.push(`command = ${tomlString(command)}`, `args = [${args.map(tomlString).join(', ')}]`);
      }
      lines.push(`startup_timeout_sec = ${CODEX_STARTUP_TIMEOUT_SEC}`);
      return {
        text: `${lines.join('\n')}\n`,
        notes: `Add this to ~/.codex/config.toml.${serverHint}${http && !http.token ? envHint : ''}`,
      };
    }
  }
}

function json(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/** A TOML basic string; JSON's escapes are TOML's, except that TOML also refuses a raw DEL. */
function tomlString(s: string): string {
  return JSON.stringify(s).replace(/\x7f/g, '\\u007F');
}

function tomlKey(s: string): string {
  return /^[A-Za-z0-9_-]+$/.test(s) ? s : tomlString(s);
}
