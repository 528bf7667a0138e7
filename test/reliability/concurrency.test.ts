/**
 * Concurrency (issue 10): several built server processes on one vault, agents writing the same notes
 * through real stdio clients of each, and a separate process editing the same files on disk the way
 * editors do (renamed temporary files, in-place rewrites), all for a bounded time (CONCURRENCY in
 * limits.ts). Afterwards:
 * - no lost update: each note's versions form one line from its first text to the file on disk, every
 *   successful agent write made exactly the text asked for on the version it read, and every other
 *   agent call was refused with `conflict` (scratch notes: also `not_found` / `already_exists`);
 * - one valid journal chain (`journal verify`), with one entry per successful agent write;
 * - the index equals a fresh rebuild, answer by answer and table by table.
 *
 * The run and its checks live in bench/lib/concurrency-*.mjs, shared with bench/soak-concurrency.mjs;
 * this file asserts on what they found.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ConcurrencyReport, runConcurrency } from '../../bench/lib/concurrency-run.mjs';
import { DIST, ensureBuilt, spawnServer } from '../helpers/server-process.js';
import { makeVault } from '../helpers/vault.js';
import { CONCURRENCY } from './limits.js';

let base: string;
let report: ConcurrencyReport;

beforeAll(async () => {
  await ensureBuilt();
  const made = makeVault();
  base = made.base;
  report = await runConcurrency({
    vault: made.dir,
    serverPath: DIST,
    spawn: async (name) => {
      const server = await spawnServer(made.dir, { name });
      return { name, call: server.call, close: server.close, stderr: server.stderr };
    },
    servers: CONCURRENCY.servers,
    workers: CONCURRENCY.workersPerServer,
    notes: CONCURRENCY.notes,
    scratch: CONCURRENCY.scratch,
    seed: CONCURRENCY.seed,
    durationMs: CONCURRENCY.durationMs,
    pauseMs: CONCURRENCY.editorPauseMs,
    settleLimitMs: CONCURRENCY.settleLimitMs,
  });
  const f = report.figures;
  process.stdout.write(
    `concurrency: ${f.writesApplied} writes applied, ${f.conflicts} conflicts, ${f.directEdits} direct edits, ` +
      `${f.agentOverEditor} + ${f.agentOverTornSave} direct saves overwritten in a server's write, ` +
      `${f.editorOverAgent} agent writes overwritten by the editor, ${f.journalEntries} journal entries, ` +
      `${f.indexMismatches} index mismatches\n`,
  );
}, CONCURRENCY.timeLimitMs);

afterAll(() => {
  if (base !== undefined) fs.rmSync(base, { recursive: true, force: true });
});

/** The problems of one check, one per line, for a readable failure. */
function listed(group: keyof ConcurrencyReport['problems']): string {
  return report.problems[group].map((p) => `[${p.kind}] ${p.detail}`).join('\n');
}

describe(`${CONCURRENCY.servers} server processes and a direct editor writing the same notes`, () => {
  it('did real concurrent work: every kind of write applied, conflicts refused, the editor saving', () => {
    const f = report.figures;
    expect(f.writesApplied).toBeGreaterThan(50);
    expect(f.conflicts).toBeGreaterThan(0);
    expect(f.directEdits).toBeGreaterThan(50);
    for (const op of [
      'edit-append-section',
      'edit-replace',
      'update-append',
      'update-rewrite',
      'update-whole',
    ]) {
      expect(f.writesByOp[op] ?? 0, op).toBeGreaterThan(0);
    }
    for (const op of ['create', 'delete', 'update']) expect(f.writesByOp[op] ?? 0, op).toBeGreaterThan(0);
    for (const mode of ['atomic-hidden', 'atomic-visible', 'in-place', 'in-place-same-size']) {
      expect(f.directByMode[mode] ?? 0, mode).toBeGreaterThan(0);
    }
  });

  it('every agent call was answered: applied, or refused with conflict (scratch notes: not_found, already_exists)', () => {
    expect(listed('agents')).toBe('');
    expect(
      Object.keys(report.figures.otherRefusals).filter((c) => c !== 'not_found' && c !== 'already_exists'),
    ).toEqual([]);
    expect(listed('servers')).toBe('');
  });

  it('no lost update: each note’s versions form one line, each write made exactly the text asked for on the version it read', () => {
    expect(listed('history')).toBe('');
    expect(report.figures.lostUpdates).toBe(0);
  });

  it('one valid journal chain: journal verify passes, seqs 1…N, one entry per successful agent write', () => {
    expect(report.figures.journalVerify).toBe('ok');
    expect(listed('journal')).toBe('');
    expect(report.figures.journalEntries).toBe(
      report.figures.writesApplied + 2 * report.figures.journalNotApplied,
    );
  });

  it('the index equals a fresh rebuild of the same files, answer by answer and table by table', () => {
    expect(listed('index')).toBe('');
    expect(report.figures.indexMismatches).toBe(0);
    expect(report.figures.questionsCompared).toBeGreaterThan(30);
    expect(report.figures.indexRows).toBeGreaterThan(50);
  });
});
