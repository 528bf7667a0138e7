/**
 * @module
 * Where a running console can be found: `noted-mcp ui` writes `<vault>/.noted/console.json` (its port
 * and process) while it serves, and removes it when it stops, so that `noted-mcp ui --link` can make a
 * sign-in link for it from another terminal. The file is only a hint: anyone who can write in the vault
 * could change it, so `--link` asks the port to prove it holds the vault token (`GET /api/hello`)
 * before it prints a link to it.
 */
import fs from 'node:fs';
import http from 'node:http';
import { writeFileAtomic } from '../vault/atomic-write.js';
import { readStateFile } from '../vault/state-file.js';
import type { Vault } from '../vault/vault.js';

export const CONSOLE_FILE_NAME = 'console.json';

export interface ConsoleRecord {
  readonly port: number;
  readonly pid: number;
  readonly startedAt: string;
}

/** Says that this process serves the vault's console on `port`. */
export function announceConsole(vault: Vault, record: ConsoleRecord): void {
  writeFileAtomic(vault.statePath(CONSOLE_FILE_NAME), `${JSON.stringify(record)}\n`);
}

/** Removes the record, unless another console has replaced it meanwhile. */
export function withdrawConsole(vault: Vault, record: ConsoleRecord): void {
  const current = findConsole(vault);
  if (current !== null && (current.pid !== record.pid || current.port !== record.port)) return;
  fs.rmSync(vault.statePath(CONSOLE_FILE_NAME), { force: true });
}

/** The recorded console, or null when there is none or the file does not make sense. */
export function findConsole(vault: Vault): ConsoleRecord | null {
  let data: unknown;
  try {
    data = JSON.parse(readStateFile(vault.statePath(CONSOLE_FILE_NAME), MAX_RECORD_BYTES));
  } catch {
    return null;
  }
  const { port, pid, startedAt } = (data ?? {}) as Record<string, unknown>;
  if (!Number.isInteger(port) || (port as number) < 1 || (port as number) > 65535) return null;
  if (!Number.isInteger(pid) || typeof startedAt !== 'string') return null;
  return { port: port as number, pid: pid as number, startedAt };
}

/** The record's largest sensible size. */
const MAX_RECORD_BYTES = 4096;

/**
 * Asks the console on `port` for its proof of the token for `nonce`; null when nothing answers
 * there within `timeoutMs` or the answer is not a console's.
 */
export function askProof(port: number, nonce: string, timeoutMs = 3000): Promise<string | null> {
  return new Promise((resolve) => {
    const req = http.get(
      { host: '127.0.0.1', port, path: `/api/hello?nonce=${nonce}`, timeout: timeoutMs },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size > 4096) req.destroy();
          else chunks.push(c);
        });
        res.on('end', () => {
          try {
            const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
            resolve(res.statusCode === 200 && typeof body.proof === 'string' ? body.proof : null);
          } catch {
            resolve(null);
          }
        });
        res.on('error', () => resolve(null));
      },
    );
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(null));
  });
}
