#!/usr/bin/env node
/**
 * @module bench/soak-crash
 * The crash-safety soak: the loop of `test/reliability/crash.test.ts` (bench/lib/crash-loop.mjs)
 * for many more kills. Starts the built server on a fresh vault, writes through a real stdio client,
 * SIGKILLs it at seeded moments and checks every restart (see crash-loop.mjs for what is checked).
 * Prints the figures and one `SOAK_CRASH_RESULT {...}` JSON line; exits 1 on any failure.
 *
 *   node bench/soak-crash.mjs --kills 2000 --seed 7 [--vault DIR] [--keep] [--server FILE]
 */

import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { argsOrExit } from './lib/args.mjs';
import { runCrashLoop } from './lib/crash-loop.mjs';
import { summarize } from './lib/stats.mjs';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const USAGE =
  'usage: node bench/soak-crash.mjs [--kills 2000] [--seed 1] [--vault DIR] [--keep] [--server FILE] [--hours 6] [--verify-every 100] [--index-every 10]';

function options() {
  const values = argsOrExit(
    {
      kills: { type: 'string', default: '2000' },
      seed: { type: 'string', default: '1' },
      vault: { type: 'string' },
      keep: { type: 'boolean', default: false },
      server: { type: 'string' },
      hours: { type: 'string', default: '6' },
      'verify-every': { type: 'string', default: '100' },
      'index-every': { type: 'string', default: '10' },
      help: { type: 'boolean', short: 'h' },
    },
    USAGE,
  );
  const numbers = ['kills', 'seed', 'hours', 'verify-every', 'index-every'];
  const bad = numbers.filter((k) => !(Number(values[k]) > 0) && !(k === 'seed' && Number(values[k]) === 0));
  if (bad.length > 0) {
    console.error(`${bad.map((k) => `--${k} needs a positive number`).join('\n')}\n${USAGE}`);
    process.exit(2);
  }
  return values;
}

/**
 * The journal's own verify, loaded from the TypeScript source through tsx (a devDependency), with the
 * user's journal key as the server finds it (the configuration folder the environment names), so
 * every kill is verified in-process; without it only `noted-mcp journal verify` runs, every Nth kill.
 */
async function loadVerify() {
  try {
    const { tsImport } = await import('tsx/esm/api');
    const load = (file) => tsImport(pathToFileURL(join(REPO, file)).href, import.meta.url);
    const { Journal } = await load('src/journal/journal.ts');
    const { openJournalKey } = await load('src/journal/journal-key.ts');
    const { userConfigDir } = await load('src/cli/config.ts');
    const { Vault } = await load('src/vault/vault.ts');
    return (journalDir) => {
      const vault = Vault.open(dirname(dirname(journalDir)));
      const key = openJournalKey(userConfigDir(process.env));
      return new Journal(vault, { now: () => new Date(), key }).verify();
    };
  } catch (err) {
    console.error(`(in-process journal verify unavailable: ${err.message}; the CLI verifies every Nth kill)`);
    return undefined;
  }
}

const o = options();
const temp = o.vault === undefined;
const base = temp ? mkdtempSync(join(os.tmpdir(), 'noted-soak-crash-')) : resolve(o.vault);
const vaultDir = temp ? join(base, 'vault') : base;
const t0 = performance.now();
const report = await runCrashLoop({
  serverPath: o.server ? resolve(o.server) : join(REPO, 'dist-mcp', 'index.cjs'),
  vaultDir,
  seed: Number(o.seed),
  kills: Number(o.kills),
  timeLimitMs: Number(o.hours) * 3_600_000,
  verifyJournal: await loadVerify(),
  cliVerifyEvery: Number(o['verify-every']),
  indexCheckEvery: Number(o['index-every']),
  log: (line) => console.error(`[${((performance.now() - t0) / 1000).toFixed(0)} s] ${line}`),
});
const seconds = (performance.now() - t0) / 1000;
const restart = summarize(report.restartMs);
const { restartMs: _samples, ...figures } = report;

console.log(`kills                      ${report.kills} (${report.startupKills} during start-up)`);
console.log(`  mid-call                 ${report.midCall}   idle ${report.idle}`);
console.log(
  `  calls cut short          before the journal entry ${report.outcomes.beforeJournal}, recorded but not written ${report.outcomes.notApplied}, written ${report.outcomes.applied}`,
);
for (const [op, s] of Object.entries(report.byOp).sort()) {
  console.log(
    `    ${op.padEnd(22)} ${s.kills} kills, ${s.midCall} mid-call, ${s.notApplied} recorded but not written`,
  );
}
console.log(
  `not_applied entries        ${report.notAppliedDetected} written by the start-up check, ${report.notAppliedByServer} by a running server`,
);
console.log(
  `calls completed            ${report.opsCompleted} (approvals refused as stale: ${report.approvalsRefused})`,
);
console.log(`journal entries            ${report.journalEntries}`);
console.log(
  `temp files                 ${report.tempFilesAfterKill} left by kills, ${report.tempFilesAfterRestart} still there after the restart (never listed or found)`,
);
console.log(
  `temp files in .noted/      ${report.stateTempFiles} at the end (journal blobs, staged changes, locks)`,
);
console.log(
  `restart to first answer    median ${restart.median} ms, p95 ${restart.p95} ms, max ${restart.max} ms`,
);
console.log(
  `checks                     ${report.indexChecks} index checks, ${report.cliVerifies} CLI verifies`,
);
console.log(`failures                   ${report.failures.length}`);
for (const f of report.failures) console.log(`  ${f}`);
console.log(`wall time                  ${seconds.toFixed(0)} s`);
console.log(`SOAK_CRASH_RESULT ${JSON.stringify({ ...figures, restart, seconds: Math.round(seconds) })}`);

if (temp && !o.keep && report.failures.length === 0) rmSync(base, { recursive: true, force: true });
else console.error(`vault kept at ${vaultDir}`);
process.exit(report.failures.length === 0 && report.kills >= Number(o.kills) ? 0 : 1);
