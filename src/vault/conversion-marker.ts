/**
 * @module
 * `.noted/converting` (SPEC 11.5): present while `noted-mcp convert` changes the vault's format, and
 * left behind by a run that was stopped, so the next run continues it. Every server on the vault reads
 * it before a write and answers `busy` while it is there; reads go on.
 */
import fs from 'node:fs';
import path from 'node:path';
import { FORMAT_NAMES, type FormatName } from './format-choice.js';

export const CONVERTING_FILE = 'converting';

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
    text = fs.readFileSync(path.join(stateDir, CONVERTING_FILE), 'utf8');
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
