/**
 * @module
 * Parses the command line into plain values. Every problem is collected, so the person sees them all
 * at once (STYLE habit 11).
 */

export interface ParsedArgs {
  readonly notesDir?: string;
  readonly trashRetentionDays?: number;
  readonly transport?: string;
  readonly help: boolean;
  readonly version: boolean;
  readonly positionals: string[];
  readonly errors: string[];
}

export function parseArgs(argv: readonly string[]): ParsedArgs {
  const errors: string[] = [];
  const positionals: string[] = [];
  let notesDir: string | undefined;
  let trashRetentionDays: number | undefined;
  let transport: string | undefined;
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
        if (v !== undefined) transport = v;
        break;
      }
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
  };
}

export const USAGE = `Usage: noted-mcp [serve] [options]
       noted-mcp review ...     approve or reject changes agents made in staged folders
       noted-mcp journal ...    what agents changed, and verify the journal's hash chain
       noted-mcp undo ...       put back an agent's change, a session or an operation
       (each command has its own --help)

Serves a folder of Markdown notes to AI clients over the Model Context Protocol (stdio).

Options:
  --notes-dir DIR, --vault DIR   the vault folder (else $NOTED_VAULT, else $NOTES_VAULT, else ~/notes;
                                 created when missing)
  --trash-retention-days N       days deleted notes stay restorable (0 keeps them; default 30, or
                                 trashRetentionDays in <vault>/.noted/config.json,
                                 or $NOTED_MCP_TRASH_RETENTION_DAYS)
  --transport stdio              the transport (stdio is the only one so far)
  -h, --help                     show this help
  -v, --version                  show the version

Connect Claude Code:  claude mcp add noted -- node /path/to/dist-mcp/index.cjs --notes-dir ~/notes
`;
