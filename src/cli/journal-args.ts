/**
 * @module
 * What the `journal` and `undo` commands share: their flags, parsed with every problem collected
 * (STYLE habit 11), and the vault chosen like `serve` chooses it (SPEC 1.2) — but never created: a
 * journal of a folder that does not exist is a typo, not an empty journal.
 */
import fs from 'node:fs';
import { NotedError } from '../common/errors.js';
import { type JournalKeyState, openJournalKey } from '../journal/journal-key.js';
import { Vault } from '../vault/vault.js';
import type { ParsedArgs } from './args.js';
import { userConfigDir, vaultDirFrom } from './config.js';
import type { CliIo } from './io.js';

export interface Flags {
  /** Values by canonical flag name (`--notes-dir` for `--vault` too). */
  readonly values: Map<string, string>;
  readonly switches: Set<string>;
  readonly positionals: string[];
  readonly errors: string[];
}

const ALIASES: Record<string, string> = { '--vault': '--notes-dir', '-h': '--help' };

/** Parses `--flag VALUE`, `--flag=VALUE` and switches; anything not starting with `-` is positional. */
export function parseFlags(
  argv: readonly string[],
  valueFlags: readonly string[],
  switchFlags: readonly string[],
): Flags {
  const values = new Map<string, string>();
  const switches = new Set<string>();
  const positionals: string[] = [];
  const errors: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (!arg.startsWith('-') || arg === '-') {
      positionals.push(arg);
      continue;
    }
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const given = eq === -1 ? arg : arg.slice(0, eq);
    const flag = ALIASES[given] ?? given;
    if (valueFlags.includes(flag)) {
      let value: string | undefined;
      if (eq !== -1) value = arg.slice(eq + 1);
      else if (argv[i + 1] !== undefined && !(argv[i + 1] as string).startsWith('--')) value = argv[++i];
      if (value === undefined || value.trim() === '') errors.push(`${given} needs a value`);
      else if (values.has(flag)) errors.push(`${given} is given more than once`);
      else values.set(flag, value);
    } else if (switchFlags.includes(flag) && eq === -1) {
      switches.add(flag);
    } else {
      errors.push(`unknown option ${given}`);
    }
  }
  return { values, switches, positionals, errors };
}

/** `--limit N`: a whole number, 1 or more. */
export function parseLimit(raw: string | undefined, errors: string[]): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw) || Number(raw) < 1 || !Number.isSafeInteger(Number(raw))) {
    errors.push(`--limit takes a whole number, 1 or more (got "${raw}")`);
    return undefined;
  }
  return Number(raw);
}

/**
 * Opens the vault named by `--notes-dir`, `$NOTED_VAULT`, `$NOTES_VAULT` or `~/notes`. Throws
 * `NotedError('not_found')` when that folder does not exist.
 */
export function openCliVault(notesDir: string | undefined, io: CliIo): Vault {
  const args: ParsedArgs = {
    help: false,
    version: false,
    positionals: [],
    errors: [],
    ...(notesDir === undefined ? {} : { notesDir }),
  };
  const { dir, source } = vaultDirFrom(args, io.env);
  if (!fs.existsSync(dir)) {
    throw new NotedError(
      'not_found',
      `There is no vault at ${dir} (from ${source}). Pass the vault folder with --notes-dir DIR.`,
    );
  }
  return Vault.open(dir);
}

/**
 * The user's journal key, from the configuration folder the environment names (cli/config.ts);
 * created there when missing unless `create` is false (a command that only reads need not make one).
 */
export function cliJournalKey(io: CliIo, options: { create?: boolean | 'first use' } = {}): JournalKeyState {
  return openJournalKey(userConfigDir(io.env), options);
}

/** Prints a caller-actionable failure and answers exit code 1; anything else is a bug and rethrown. */
export function failure(io: CliIo, err: unknown): 1 {
  if (!(err instanceof NotedError)) throw err;
  io.stderr(`noted-mcp: ${err.message}\n`);
  return 1;
}
