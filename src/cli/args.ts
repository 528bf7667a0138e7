/**
 * @module
 * Parses the command line into plain values. Every problem is collected, so the person sees them all
 * at once (STYLE habit 11).
 */

export interface ParsedArgs {
  readonly notesDir?: string;
  readonly trashRetentionDays?: number;
  readonly transport?: string;
  readonly port?: number;
  readonly host?: string;
  readonly authToken?: string;
  readonly legacySse?: boolean;
  /** `--allowed-host`, repeatable, as given (checked with the other HTTP flags). */
  readonly allowedHosts?: readonly string[];
  readonly tunnel?: boolean;
  /** Make the vault folder when it does not exist (a named folder is otherwise refused, SPEC 1.2). */
  readonly create?: boolean;
  readonly help: boolean;
  readonly version: boolean;
  readonly positionals: string[];
  readonly errors: string[];
}

/** `sse` is `http` plus the deprecated HTTP+SSE endpoints. */
export const TRANSPORTS = ['stdio', 'http', 'sse'];

export function parseArgs(argv: readonly string[]): ParsedArgs {
  const errors: string[] = [];
  const positionals: string[] = [];
  let notesDir: string | undefined;
  let trashRetentionDays: number | undefined;
  let transport: string | undefined;
  let port: number | undefined;
  let host: string | undefined;
  let authToken: string | undefined;
  let legacySse = false;
  const allowedHosts: string[] = [];
  let tunnel = false;
  let create = false;
  let help = false;
  let version = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const flag = eq === -1 ? arg : arg.slice(0, eq);
    const value = (): string | undefined => {
      if (eq !== -1) return arg.slice(eq + 1);
      const next = argv[i + 1];
      if (next === undefined || next.startsWith('--')) {
        errors.push(`${flag} needs a value`);
        return undefined;
      }
      i++;
      return next;
    };
    switch (flag) {
      case '--notes-dir':
      case '--vault': {
        const v = value();
        if (v !== undefined) {
          if (v.trim() === '') errors.push(`${flag} needs a folder path`);
          else notesDir = v;
        }
        break;
      }
      case '--trash-retention-days': {
        const v = value();
        if (v !== undefined) {
          const n = Number(v);
          if (!/^\d+$/.test(v) || !Number.isSafeInteger(n)) {
            errors.push(`--trash-retention-days takes a whole number of days, 0 or more (got "${v}")`);
          } else trashRetentionDays = n;
        }
        break;
      }
      case '--transport': {
        const v = value();
        if (v !== undefined) {
          if (!TRANSPORTS.includes(v)) errors.push(`--transport takes ${TRANSPORTS.join(', ')} (got "${v}")`);
          else transport = v;
        }
        break;
      }
      case '--port': {
        const v = value();
        if (v !== undefined) {
          const n = Number(v);
          if (!/^\d+$/.test(v) || n > 65535)
            errors.push(`--port takes a port number from 0 to 65535 (got "${v}")`);
          else port = n;
        }
        break;
      }
      case '--host': {
        const v = value();
        if (v !== undefined) host = v;
        break;
      }
      case '--auth-token': {
        const v = value();
        if (v !== undefined) authToken = v;
        break;
      }
      case '--legacy-sse':
        legacySse = true;
        break;
      case '--allowed-host': {
        const v = value();
        if (v !== undefined) allowedHosts.push(v);
        break;
      }
      case '--tunnel':
        tunnel = true;
        break;
      case '--create':
        create = true;
        break;
      case '--help':
      case '-h':
        help = true;
        break;
      case '--version':
      case '-v':
        version = true;
        break;
      default:
        if (arg.startsWith('-')) errors.push(`unknown option ${flag}`);
        else positionals.push(arg);
    }
  }
  if (positionals.length > 0) errors.push(`unknown command or argument "${positionals[0]}"`);
  return {
    help,
    version,
    positionals,
    errors,
    ...(notesDir === undefined ? {} : { notesDir }),
    ...(trashRetentionDays === undefined ? {} : { trashRetentionDays }),
    ...(transport === undefined ? {} : { transport }),
    ...(port === undefined ? {} : { port }),
    ...(host === undefined ? {} : { host }),
    ...(authToken === undefined ? {} : { authToken }),
    ...(legacySse ? { legacySse } : {}),
    ...(allowedHosts.length > 0 ? { allowedHosts } : {}),
    ...(tunnel ? { tunnel } : {}),
    ...(create ? { create } : {}),
  };
}

export const USAGE = `Usage: noted-mcp [serve] [options]
       noted-mcp review ...     approve or reject changes agents made in staged folders
       noted-mcp journal ...    what agents changed, and verify the journal's hash chain
       noted-mcp undo ...       put back an agent's change, a session or an operation
       noted-mcp config CLIENT  print ready-to-paste configuration for an AI client
       noted-mcp install claude-desktop   add this server to Claude Desktop's configuration
       noted-mcp ui             a web console on 127.0.0.1: review, activity and undo, access, clients
       noted-mcp doctor         check the installation and the vault, with the fix for each problem
       noted-mcp convert --to markdown|html   convert the vault's notes to the other format
       (each command has its own --help)

Serves a folder of Markdown (or HTML) notes to AI clients over the Model Context Protocol: over stdio (the
default, for a client that starts the server itself) or over Streamable HTTP on 127.0.0.1.

Options:
  --notes-dir DIR, --vault DIR   the vault folder (else $NOTED_VAULT, else $NOTES_VAULT, else ~/notes,
                                 which is created when missing)
  --create                       make the named vault folder when it does not exist (without it, a
                                 folder named by --notes-dir or a variable must exist: a typo is an
                                 error, not a new empty vault)
  --trash-retention-days N       days deleted notes stay restorable (0 keeps them; default 30, or
                                 trashRetentionDays in <vault>/.noted/config.json,
                                 or $NOTED_MCP_TRASH_RETENTION_DAYS)
  --transport stdio|http|sse     stdio (default); http serves http://127.0.0.1:PORT/mcp;
                                 sse is http plus the deprecated /sse endpoint (--legacy-sse)
  --port N                       the HTTP port (default 3000; 0 picks a free one)
  --host ADDRESS                 the loopback address to listen on (default 127.0.0.1; only
                                 127.0.0.1, ::1 or localhost: the server is never on the network)
  --auth-token TOKEN             the token HTTP clients must send (else $NOTED_MCP_AUTH_TOKEN, else
                                 one made once and kept in <vault>/.noted/mcp-http-token, mode 0600)
  --legacy-sse                   also serve the deprecated HTTP+SSE transport (/sse, /messages)
  --allowed-host NAME            also accept requests for NAME (repeatable; never *): the public
                                 host name of a reverse proxy or tunnel in front of the server.
                                 The token is still required on every request
  --tunnel                       reach the server from outside through a Cloudflare quick tunnel
                                 (cloudflared on the PATH): prints the public URL; stops with the server
  -h, --help                     show this help
  -v, --version                  show the version

Every HTTP request must carry the token: "Authorization: Bearer TOKEN" or "X-MCP-Token: TOKEN".

Connect Claude Code:  claude mcp add noted -- node /path/to/dist-mcp/index.cjs --notes-dir ~/notes
   or, without a copy: claude mcp add noted -- npx -y --allow-scripts=better-sqlite3,@parcel/watcher noted-mcp --notes-dir ~/notes
More clients:         noted-mcp config claude-code|claude-desktop|vscode|codex|cursor [--http]
`;
