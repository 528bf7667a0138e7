/**
 * @module
 * A real temporary vault for staging tests, without an index or a server.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Vault } from '../../src/vault/vault.js';

export interface TempVault {
  readonly vault: Vault;
  readonly dir: string;
  write(rel: string, text: string): void;
  /** The note's text on disk, or null when there is no such file. */
  read(rel: string): string | null;
  cleanup(): void;
}

export function tempVault(files: Record<string, string> = {}): TempVault {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'noted-staging-'));
  const dir = path.join(base, 'vault');
  const write = (rel: string, text: string) => {
    const abs = path.join(dir, ...rel.split('/'));
    fs.mkdirSync(path.dirname(abs), { recursive: true });
    fs.writeFileSync(abs, text);
  };
  fs.mkdirSync(dir);
  for (const [rel, text] of Object.entries(files)) write(rel, text);
  const vault = Vault.open(dir);
  return {
    vault,
    dir,
    write,
    read: (rel) => {
      try {
        return fs.readFileSync(path.join(dir, ...rel.split('/')), 'utf8');
      } catch {
        return null;
      }
    },
    cleanup: () => fs.rmSync(base, { recursive: true, force: true }),
  };
}
