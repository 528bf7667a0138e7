/**
 * Crash safety (issue 10): the built server is SIGKILLed at least CRASH.kills times while a real stdio
 * client writes through it — create, update, edit, delete, restore, move, and staged changes approved
 * with `noted-mcp review approve` (which is killed too when it runs) — and restarted after each kill.
 * After every restart: each note holds exactly one of its versions, the journal verifies and agrees
 * with the files (a change recorded but never written is noted `not_applied` by the start-up check),
 * and list_notes lists exactly the files; every few kills a search finds exactly the notes holding
 * each version's unique word. The loop is bench/lib/crash-loop.mjs, shared with bench/soak-crash.mjs.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCrashLoop } from '../../bench/lib/crash-loop.mjs';
import { Journal } from '../../src/journal/journal.js';
import { Vault } from '../../src/vault/vault.js';
import { DIST, ensureBuilt } from '../helpers/server-process.js';
import { testJournalKey } from '../helpers/vault.js';
import { CRASH } from './limits.js';

let base: string;
beforeAll(async () => {
  await ensureBuilt();
  base = fs.mkdtempSync(path.join(os.tmpdir(), 'noted-crash-'));
}, 120_000);
afterAll(() => fs.rmSync(base, { recursive: true, force: true }));

/** The journal's own verify, with the run's key (the spawned servers use it too), for `<vault>/.noted/journal`. */
function verifyJournalDir(dir: string) {
  const vault = Vault.open(path.dirname(path.dirname(dir)));
  return new Journal(vault, { now: () => new Date(), key: testJournalKey() }).verify();
}

it(
  `survives ${CRASH.kills} SIGKILLs at seeded moments: whole versions only, a verified journal that agrees with the files, an index that matches them`,
  async () => {
    const report = await runCrashLoop({
      serverPath: DIST,
      vaultDir: path.join(base, 'vault'),
      seed: CRASH.seed,
      kills: CRASH.kills,
      // A hang detector only: the loop does every kill however slow the machine is.
      timeLimitMs: CRASH.timeLimitMs - 60_000,
      verifyJournal: (dir: string) => verifyJournalDir(dir),
      cliVerifyEvery: 50,
      indexCheckEvery: 10,
    });
    const restarts = [...report.restartMs].sort((a, b) => a - b);
    const median = restarts[Math.floor(restarts.length / 2)] ?? 0;
    process.stdout.write(
      `crash: ${report.kills} kills (${report.startupKills} during start-up, ${report.midCall} mid-call, ${report.idle} idle); ` +
        `calls cut short: ${report.outcomes.beforeJournal} before the journal entry, ${report.outcomes.notApplied} recorded but not written, ${report.outcomes.applied} written; ` +
        `not_applied entries written at start-up: ${report.notAppliedDetected} (by a running server: ${report.notAppliedByServer}); ${report.opsCompleted} calls completed; ` +
        `${report.journalEntries} journal entries; temp files left by kills ${report.tempFilesAfterKill}, after restarts ${report.tempFilesAfterRestart}; restart median ${Math.round(median)} ms; ` +
        `${report.indexChecks} index checks, ${report.cliVerifies} CLI verifies\n` +
        `crash by operation: ${JSON.stringify(report.byOp)}\n`,
    );
    expect(report.failures).toEqual([]);
    expect(report.kills).toBe(CRASH.kills);
    // The kills must land where it matters: inside calls, and some between a journal entry and its write.
    expect(report.midCall).toBeGreaterThan(CRASH.kills / 2);
    expect(report.outcomes.notApplied).toBeGreaterThan(0);
    expect(report.notAppliedDetected).toBeGreaterThanOrEqual(report.outcomes.notApplied);
    expect(report.cliVerifies).toBeGreaterThan(0);
    expect(report.indexChecks).toBeGreaterThan(0);
  },
  CRASH.timeLimitMs,
);
