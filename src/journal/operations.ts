/**
 * @module
 * Operations under way (issue 35 finding 8). A move of a folder, or of a note whose links are rewritten
 * in other notes, changes many notes one after the other; a server killed in the middle (SIGKILL, a
 * power cut) leaves it half done, and nothing said so at the next start. So such an operation writes
 * `.noted/operations/<group>.json` before its first change and removes it once it has answered (done,
 * or cancelled and put back). A record whose process is gone names an operation that was interrupted:
 * the start of the next server says so on stderr, `noted-mcp doctor` and get_vault_info too, with the
 * command that repairs it (`noted-mcp undo --group ID`, which takes away the record once it has undone
 * the group whole). The owner who prefers to keep what was done deletes the record.
 */
import fs from 'node:fs';
import path from 'node:path';
import { processAlive, tempPathFor } from '../vault/atomic-write.js';
import type { Vault } from '../vault/vault.js';
import { isGroupId } from './entry.js';

export interface OperationRecord {
  /** The journal group every change of the operation is recorded in. */
  readonly group: string;
  /** The tool that ran it (`move_folder`, `move_note`). */
  readonly tool: string;
  /** ISO 8601. */
  readonly started: string;
  readonly pid: number;
}

/** An operation whose process stopped before it answered, with how to put it back. */
export interface InterruptedOperation {
  readonly group: string;
  readonly tool: string;
  readonly started: string;
  /** The owner's command that undoes what it did. */
  readonly repair: string;
  /** The record's file: deleting it keeps what was done and stops the reports. */
  readonly file: string;
}

export function operationsDir(vault: Pick<Vault, 'statePath'>): string {
  return vault.statePath('operations');
}

function recordFile(vault: Pick<Vault, 'statePath'>, group: string): string {
  return path.join(operationsDir(vault), `${group}.json`);
}

/** Records that the operation of `group` starts writing; made durable before its first change. */
export function beginOperation(vault: Pick<Vault, 'statePath'>, record: Omit<OperationRecord, 'pid'>): void {
  const dir = operationsDir(vault);
  fs.mkdirSync(dir, { recursive: true });
  const file = recordFile(vault, record.group);
  const temp = tempPathFor(file);
  const fd = fs.openSync(temp, 'w', 0o600);
  try {
    fs.writeSync(fd, `${JSON.stringify({ ...record, pid: process.pid })}\n`);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(temp, file);
}

/** The operation of `group` answered (or was undone): its record goes. */
export function endOperation(vault: Pick<Vault, 'statePath'>, group: string): void {
  if (!isGroupId(group)) return;
  fs.rmSync(recordFile(vault, group), { force: true });
}

/**
 * Runs `fn`, the writing part of an operation, with its record: kept when the process dies inside it
 * (or a bug throws out of it), taken away when it answers, also with a typed error (a cancelled move
 * has been put back and says so).
 */
export async function underWay<T>(
  vault: Pick<Vault, 'statePath'>,
  record: Omit<OperationRecord, 'pid'>,
  answered: (err: unknown) => boolean,
  fn: () => Promise<T>,
): Promise<T> {
  beginOperation(vault, record);
  let done = false;
  try {
    const result = await fn();
    done = true;
    return result;
  } catch (err) {
    done = answered(err);
    throw err;
  } finally {
    if (done) endOperation(vault, record.group);
  }
}

/** The operations whose process stopped before they answered, oldest first. */
export function interruptedOperations(vault: Pick<Vault, 'statePath'>): InterruptedOperation[] {
  const dir = operationsDir(vault);
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  const out: InterruptedOperation[] = [];
  for (const name of names) {
    if (!name.endsWith('.json')) continue;
    const file = path.join(dir, name);
    const record = readRecord(file);
    if (record === null || processAlive(record.pid)) continue;
    out.push({
      group: record.group,
      tool: record.tool,
      started: record.started,
      repair: `noted-mcp undo --group ${record.group}`,
      file,
    });
  }
  return out.sort((a, b) => (a.started < b.started ? -1 : a.started > b.started ? 1 : 0));
}

function readRecord(file: string): OperationRecord | null {
  try {
    const data = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<OperationRecord>;
    if (
      typeof data.group === 'string' &&
      isGroupId(data.group) &&
      typeof data.tool === 'string' &&
      typeof data.started === 'string' &&
      typeof data.pid === 'number'
    ) {
      return data as OperationRecord;
    }
  } catch {
    // A record cut short by the crash it is about is not readable; its group is unknown.
  }
  return null;
}

/** One line about an interrupted operation, for stderr and doctor. */
export function interruptedText(op: InterruptedOperation): string {
  return `${op.tool} (journal group ${op.group}, started ${op.started}) was interrupted before it finished: some of its notes were changed and others not, so links may be broken. Put it back with: ${op.repair} — or, to keep what was done, delete .noted/operations/${op.group}.json`;
}
