/**
 * @module
 * The vault's own settings file, `<vault>/.noted/config.json`. Read once by the entry point.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { FormatName } from './format-name.js';
import { readStateFile, SMALL_STATE_FILE_BYTES } from './state-file.js';

export interface VaultFileConfig {
  readonly trashRetentionDays?: number;
  /** The most the journal's stored texts may take, in MB (journal/usage.ts); 0: no limit. */
  readonly journalMaxMB?: number;
  /** The notes' format (SPEC 11.1); absent: detected from the files. */
  readonly format?: FormatName;
}

export const DEFAULT_TRASH_RETENTION_DAYS = 30;
export const DEFAULT_JOURNAL_MAX_MB = 1024;

/** Reads `config.json` from the state folder; a missing file is an empty config, a broken one an error. */
export function readVaultConfig(stateDir: string): VaultFileConfig {
  const file = path.join(stateDir, 'config.json');
  let text: string;
  try {
    text = readStateFile(file, SMALL_STATE_FILE_BYTES);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw err;
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new Error(`${file} is not valid JSON: ${(err as Error).message}`);
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    throw new Error(`${file} must hold a JSON object, like {"trashRetentionDays": 30}`);
  }
  const out: { trashRetentionDays?: number; journalMaxMB?: number; format?: FormatName } = {};
  const days = (data as Record<string, unknown>).trashRetentionDays;
  if (days !== undefined) {
    if (typeof days !== 'number' || !Number.isInteger(days) || days < 0) {
      throw new Error(
        `${file}: trashRetentionDays must be a whole number of days, 0 or more (0 keeps trash forever)`,
      );
    }
    out.trashRetentionDays = days;
  }
  const journalMaxMB = (data as Record<string, unknown>).journalMaxMB;
  if (journalMaxMB !== undefined) {
    if (typeof journalMaxMB !== 'number' || !Number.isInteger(journalMaxMB) || journalMaxMB < 0) {
      throw new Error(
        `${file}: journalMaxMB must be a whole number of megabytes, 0 or more (0: no limit on the journal's stored texts)`,
      );
    }
    out.journalMaxMB = journalMaxMB;
  }
  const format = (data as Record<string, unknown>).format;
  if (format !== undefined) {
    if (format !== 'markdown' && format !== 'html') {
      throw new Error(
        `${file}: format must be "markdown" or "html" (got ${JSON.stringify(format)}); leave it out to let the files decide`,
      );
    }
    out.format = format;
  }
  return out;
}

/**
 * Records the notes' format in `config.json` (after `noted-mcp convert`), keeping every other
 * setting; written to a temporary file and renamed, so a reader never sees half of it.
 */
export function setVaultConfigFormat(stateDir: string, format: FormatName): void {
  const file = path.join(stateDir, 'config.json');
  let data: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(fs.readFileSync(file, 'utf8'));
    if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) {
      data = parsed as Record<string, unknown>;
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') {
      throw new Error(
        `${file} cannot be read or is not valid JSON, so the new format was not recorded there: ${(err as Error).message}`,
      );
    }
  }
  const temp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temp, `${JSON.stringify({ ...data, format }, null, 2)}\n`);
  fs.renameSync(temp, file);
}
