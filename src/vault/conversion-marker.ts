/**
 * @module
 * `.noted/converting` (SPEC 11.5): present while `noted-mcp convert` changes the vault's format, and
 * left behind by a run that was stopped, so the next run continues it. Every server on the vault reads
 * it before a write and answers `busy` while it is there; reads go on.
 */
import fs from 'node:fs';
import path from 'node:path';
import { NotedError } from '../common/errors.js';
import { readVaultConfig } from './config.js';
import { FORMAT_NAMES, type FormatName } from './format-name.js';
import { readStateFile, SMALL_STATE_FILE_BYTES } from './state-file.js';

export const CONVERTING_FILE = 'converting';

/** The tool a conversion's changes are recorded under in the journal. */
export const CONVERSION_TOOL = 'convert';

export interface ConversionMarker {
  /** The format the vault is being converted to. */
  readonly to: FormatName;
  /** The journal group every note's change of the run belongs to (resumed runs keep it). */
  readonly group: string;
  /** The process converting, for telling a live run from a stopped one. */
  readonly pid: number;
  readonly started: string;
}

/** The marker, or null when no conversion is under way; an unreadable one still counts as one. */
export function readConversionMarker(stateDir: string): ConversionMarker | null {
  let text: string;
  try {
    text = readStateFile(path.join(stateDir, CONVERTING_FILE), SMALL_STATE_FILE_BYTES);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    return { to: 'markdown', group: '', pid: 0, started: '' };
  }
  try {
    const data = JSON.parse(text) as Partial<ConversionMarker>;
    if (
      FORMAT_NAMES.includes(data.to as FormatName) &&
      typeof data.group === 'string' &&
      typeof data.pid === 'number' &&
      typeof data.started === 'string'
    ) {
      return data as ConversionMarker;
    }
  } catch {
    // A marker cut short by a crash while it was written: still a conversion under way.
  }
  return { to: 'markdown', group: '', pid: 0, started: '' };
}

/** True when the marker names a process that is still running. */
export function conversionIsLive(marker: ConversionMarker): boolean {
  if (marker.pid <= 0) return false;
  try {
    process.kill(marker.pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function writeConversionMarker(stateDir: string, marker: ConversionMarker): void {
  const file = path.join(stateDir, CONVERTING_FILE);
  const temp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temp, `${JSON.stringify(marker)}\n`, { mode: 0o600 });
  fs.renameSync(temp, file);
}

export function removeConversionMarker(stateDir: string): void {
  fs.rmSync(path.join(stateDir, CONVERTING_FILE), { force: true });
}

/**
 * Refuses an owner's write (approving a staged change, undoing) while a conversion is under way or
 * was stopped half done: it would write a note in the format the conversion is leaving, behind its
 * back. `what` names the refused action.
 */
export function refuseDuringConversion(stateDir: string, what: string): void {
  const marker = readConversionMarker(stateDir);
  if (marker === null) return;
  const to = marker.to === 'html' ? 'html' : 'markdown';
  throw new NotedError(
    'busy',
    conversionIsLive(marker)
      ? `Cannot ${what} while noted-mcp convert is converting the vault to ${to}. Nothing was written; try again when it has finished.`
      : `Cannot ${what}: a conversion of the vault to ${to} was stopped half done. Nothing was written; run "noted-mcp convert --to ${to}" to finish it (it continues where it stopped), then try again.`,
    { committed: false },
  );
}

/**
 * Refuses a change to a note, at the moment it is recorded (under the journal's lock, which every
 * change to a note takes, in every process), when the vault's format is being changed, or was changed
 * since this process opened the vault as `served`: the note would be written in a format the vault is
 * leaving or has left, and a conversion that walked the vault before it would never see it (issue 35:
 * a create acknowledged but left `.md` in a converted vault). The convert run's own changes are not
 * asked. `what` names the refused action.
 */
export function refuseUnlessFormatSettled(stateDir: string, served: FormatName, what: string): void {
  refuseDuringConversion(stateDir, what);
  let configured: FormatName | undefined;
  try {
    configured = readVaultConfig(stateDir).format;
  } catch {
    // A broken config.json is reported when a server starts; it does not stop one that runs.
    configured = undefined;
  }
  if (configured !== undefined && configured !== served) {
    throw new NotedError(
      'busy',
      `Cannot ${what}: the vault was converted to ${configured === 'html' ? 'HTML' : 'Markdown'} notes after this process opened it. Nothing was written. Restart the server (or ask the user to reconnect it) to work on the converted vault.`,
      { committed: false },
    );
  }
}
