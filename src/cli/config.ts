/**
 * @module
 * The frozen configuration of one run: argv, then the environment, then the vault's config file,
 * then defaults. The only place that reads the environment.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEFAULT_JOURNAL_MAX_MB, DEFAULT_TRASH_RETENTION_DAYS, readVaultConfig } from '../vault/config.js';
import type { ParsedArgs } from './args.js';

export interface Config {
  readonly vaultDir: string;
  /** Where the vault choice came from, for the start-up message. */
  readonly vaultSource: string;
  readonly trashRetentionDays: number;
  /** The most the journal's stored texts may take, in bytes; null: no limit. */
  readonly journalMaxBytes: number | null;
}

export class ConfigError extends Error {}

/**
 * The vault folder (SPEC 1.2) and where that choice came from. `named` is true when a flag or a
 * variable named it: such a folder must exist (or `--create` be given). Without one, the Noted app's
 * vault when there is one (SPEC 17.7), else the default ~/notes, which is made on start.
 */
export function vaultDirFrom(
  args: ParsedArgs,
  env: NodeJS.ProcessEnv,
): { dir: string; source: string; named: boolean } {
  if (args.notesDir !== undefined)
    return { dir: path.resolve(expandHome(args.notesDir, env)), source: '--notes-dir', named: true };
  for (const key of ['NOTED_VAULT', 'NOTES_VAULT'] as const) {
    const value = env[key];
    if (value !== undefined && value.trim() !== '')
      return { dir: path.resolve(expandHome(value, env)), source: `$${key}`, named: true };
  }
  const app = notedAppVault(env);
  if (app !== null) return { dir: app.dir, source: app.source, named: false };
  return { dir: path.join(homeOf(env), 'notes'), source: 'default (~/notes)', named: false };
}

/**
 * The Noted app's own vault locations (SPEC 17.7), looked at in this order when no folder is named:
 * `~/Documents/Noted` (where the app makes its vault), then, on macOS, `Noted` in iCloud Drive
 * (`~/Library/Mobile Documents/com~apple~CloudDocs/Noted`, the app's synced vault). The first that
 * is a folder is served; when none is, the default ~/notes. Each is shown with `~` for the reader.
 */
export function notedAppVaultLocations(env: NodeJS.ProcessEnv, platform = process.platform): string[] {
  const home = homeOf(env);
  const out = [path.join(home, 'Documents', 'Noted')];
  if (platform === 'darwin')
    out.push(path.join(home, 'Library', 'Mobile Documents', 'com~apple~CloudDocs', 'Noted'));
  return out;
}

function notedAppVault(env: NodeJS.ProcessEnv): { dir: string; source: string } | null {
  const home = homeOf(env);
  for (const dir of notedAppVaultLocations(env)) {
    let isFolder = false;
    try {
      isFolder = fs.statSync(dir).isDirectory();
    } catch {}
    if (isFolder) return { dir, source: `the Noted app's vault (~${dir.slice(home.length)})` };
  }
  return null;
}

/** Reads the vault's config file (it lives in the vault, so the vault folder must be known first). */
export function buildConfig(
  args: ParsedArgs,
  env: NodeJS.ProcessEnv,
  stateDir: string,
  vaultDir: string,
  source: string,
): Config {
  const errors: string[] = [];
  let retention: number | undefined = args.trashRetentionDays;
  if (retention === undefined) {
    const raw = env.NOTED_MCP_TRASH_RETENTION_DAYS;
    if (raw !== undefined && raw.trim() !== '') {
      if (!/^\d+$/.test(raw.trim())) {
        errors.push(
          `NOTED_MCP_TRASH_RETENTION_DAYS must be a whole number of days, 0 or more (got "${raw}")`,
        );
      } else retention = Number(raw.trim());
    }
  }
  if (retention === undefined) {
    try {
      retention = readVaultConfig(stateDir).trashRetentionDays;
    } catch (err) {
      errors.push((err as Error).message);
    }
  }
  const journalMaxBytes = journalLimit(env, stateDir, errors);
  // A broken config file is reported once, though both settings read it.
  if (errors.length > 0) throw new ConfigError([...new Set(errors)].join('\n'));
  return Object.freeze({
    vaultDir,
    vaultSource: source,
    trashRetentionDays: retention ?? DEFAULT_TRASH_RETENTION_DAYS,
    journalMaxBytes,
  });
}

/**
 * The most the journal's stored texts may take, in bytes (null: no limit): `NOTED_MCP_JOURNAL_MAX_MB`,
 * else `journalMaxMB` in the vault's config file, else 1024 MB; 0 means no limit. Problems are added
 * to `errors`.
 */
export function journalLimit(env: NodeJS.ProcessEnv, stateDir: string, errors: string[]): number | null {
  let mb: number | undefined;
  const raw = env.NOTED_MCP_JOURNAL_MAX_MB;
  if (raw !== undefined && raw.trim() !== '') {
    if (/^\d+$/.test(raw.trim())) mb = Number(raw.trim());
    else
      errors.push(`NOTED_MCP_JOURNAL_MAX_MB must be a whole number of megabytes, 0 or more (got "${raw}")`);
  }
  if (mb === undefined) {
    try {
      mb = readVaultConfig(stateDir).journalMaxMB;
    } catch (err) {
      errors.push((err as Error).message);
    }
  }
  const limit = mb ?? DEFAULT_JOURNAL_MAX_MB;
  return limit === 0 ? null : limit * 1048576;
}

/**
 * The user's configuration folder for Noted, outside every vault: it holds the journal key and the
 * journals' anchors (SPEC 6.2). `$NOTED_MCP_CONFIG_DIR` when that is an absolute path, else
 * `$XDG_CONFIG_HOME/noted-mcp` when that is one, else `%APPDATA%\noted-mcp` on Windows, else
 * `~/.config/noted-mcp`.
 */
export function userConfigDir(env: NodeJS.ProcessEnv): string {
  const own = env.NOTED_MCP_CONFIG_DIR;
  if (own !== undefined && path.isAbsolute(own)) return own;
  const xdg = env.XDG_CONFIG_HOME;
  if (xdg !== undefined && path.isAbsolute(xdg)) return path.join(xdg, 'noted-mcp');
  if (process.platform === 'win32' && env.APPDATA) return path.join(env.APPDATA, 'noted-mcp');
  return path.join(homeOf(env), '.config', 'noted-mcp');
}

export function homeOf(env: NodeJS.ProcessEnv): string {
  return env.HOME && env.HOME.trim() !== '' ? env.HOME : os.homedir();
}

function expandHome(p: string, env: NodeJS.ProcessEnv): string {
  if (p === '~') return homeOf(env);
  if (p.startsWith('~/')) return path.join(homeOf(env), p.slice(2));
  return p;
}
