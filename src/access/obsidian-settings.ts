/**
 * @module
 * Obsidian's own settings files in `<vault>/.obsidian/` that change how the vault is read and
 * written: property types (`types.json`, PROP-11), Daily notes (`daily-notes.json`) and Templates
 * (`templates.json`), each with Obsidian's defaults where a setting is missing (SPEC 13.3).
 *
 * They belong to Obsidian, which may be writing one this very moment, and agents never see the
 * folder: a file that is missing, unreadable, not JSON, not an object, too large, or a link leading
 * out of the vault counts as absent (Obsidian's defaults apply), and no error names it.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { TypeAssignments } from '../markdown/properties/properties.js';
import { relativeToRoot } from '../vault/confine.js';
import { readStateFile } from '../vault/state-file.js';

/** A settings file larger than this is not Obsidian's. */
const SETTINGS_MAX_BYTES = 1024 * 1024;

/** The Daily notes core plugin's settings (`.obsidian/daily-notes.json`). */
export interface DailyNoteSettings {
  /** Vault-relative folder, `''` for the vault root (the default). */
  readonly folder: string;
  /** moment.js format of the note's name (default `YYYY-MM-DD`); may hold `/` for sub-folders. */
  readonly format: string;
  /** The template note, as written in the settings (a path or a link text); `''` for none. */
  readonly template: string;
}

/** The Templates core plugin's settings (`.obsidian/templates.json`). */
export interface TemplateSettings {
  /** Vault-relative folder of the templates, `''` when not set. */
  readonly folder: string;
  /** moment.js formats of `{{date}}` and `{{time}}` (defaults `YYYY-MM-DD`, `HH:mm`). */
  readonly dateFormat: string;
  readonly timeFormat: string;
}

export const DEFAULT_DAILY_FORMAT = 'YYYY-MM-DD';
export const DEFAULT_TEMPLATE_DATE_FORMAT = 'YYYY-MM-DD';
export const DEFAULT_TEMPLATE_TIME_FORMAT = 'HH:mm';

/** The vault's property type assignments, or null. */
export function readTypeAssignments(root: string): TypeAssignments | null {
  return readSettings(root, 'types.json');
}

export function readDailyNoteSettings(root: string): DailyNoteSettings {
  const s = readSettings(root, 'daily-notes.json') ?? {};
  return {
    folder: folderSetting(s.folder),
    format: textSetting(s.format) || DEFAULT_DAILY_FORMAT,
    template: textSetting(s.template),
  };
}

export function readTemplateSettings(root: string): TemplateSettings {
  const s = readSettings(root, 'templates.json') ?? {};
  return {
    folder: folderSetting(s.folder),
    dateFormat: textSetting(s.dateFormat) || DEFAULT_TEMPLATE_DATE_FORMAT,
    timeFormat: textSetting(s.timeFormat) || DEFAULT_TEMPLATE_TIME_FORMAT,
  };
}

function textSetting(value: unknown): string {
  return typeof value === 'string' ? value.trim() : '';
}

/** Obsidian writes folders as vault paths; `/` alone, or leading and trailing slashes, mean the same. */
function folderSetting(value: unknown): string {
  return textSetting(value)
    .replace(/\\/g, '/')
    .replace(/^\/+|\/+$/g, '');
}

function readSettings(root: string, file: string): Readonly<Record<string, unknown>> | null {
  let text: string;
  try {
    const real = fs.realpathSync(path.join(root, '.obsidian', file));
    // Security: follow no link out of the vault.
    if (relativeToRoot(root, real) === null) return null;
    // Only a regular file, opened without blocking: a FIFO swapped in would stall the server.
    text = readStateFile(real, SETTINGS_MAX_BYTES);
  } catch {
    return null;
  }
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}
