/**
 * Several server processes on one vault append to one journal (ARCHITECTURE "Storage": appends under
 * a cross-process lock): the result is one valid chain, seq 1..N without gaps or repeats.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { type JournalVault, journalVault } from './fixtures/journal-vault.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const CHILD = path.join(HERE, 'fixtures', 'append-many.ts');

let jv: JournalVault;
afterEach(() => jv?.cleanup());

function runChild(dir: string, count: number, session: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, dir, String(count), session], {
      cwd: path.resolve(HERE, '../..'),
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d) => {
      stderr += String(d);
    });
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`child exited ${code}: ${stderr}`)),
    );
  });
}

describe('concurrent appends from several processes', () => {
  it('three processes appending 200 entries each keep one valid chain', async () => {
    jv = journalVault();
    await Promise.all(['p1', 'p2', 'p3'].map((s) => runChild(jv.dir, 200, s)));
    expect(jv.journal.verify()).toMatchObject({ ok: true, entries: 600, unverified: null });
    const seqs = jv.journal
      .list()
      .map((e) => e.seq)
      .reverse();
    expect(seqs).toEqual(Array.from({ length: 600 }, (_, i) => i + 1));
    for (const s of ['p1', 'p2', 'p3']) expect(jv.journal.list({ session: s })).toHaveLength(200);
    expect(new Set(jv.journal.list().map((e) => e.id)).size).toBe(600);
  }, 120_000);
});
