#!/usr/bin/env node
/**
 * @module bench/soak-concurrency
 * The concurrency run of `test/reliability/concurrency.test.ts` for longer: several built server
 * processes on one temporary vault, agents writing the same notes through each, a separate process
 * editing the same files on disk; then no lost update, one valid journal chain (one entry per
 * successful agent write) and an index equal to a fresh rebuild. Prints the figures; exits 1 when a
 * check found a problem.
 *
 *   node bench/soak-concurrency.mjs --seconds 120 --servers 3 [--workers 2] [--notes 6] [--scratch 2]
 *                                   [--seed 7] [--keep] [--server dist-mcp/index.cjs]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runConcurrency } from './lib/concurrency-run.mjs';
import { killAllServers, startServer } from './lib/server-session.mjs';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const USAGE = `usage: node bench/soak-concurrency.mjs [--seconds N] [--servers N] [--workers N] [--notes N]
       [--scratch N] [--seed S] [--keep] [--server FILE]`;

function parseArgs(argv) {
  const opts = {
    seconds: 120,
    servers: 3,
    workers: 2,
    notes: 6,
    scratch: 2,
    seed: 7,
    keep: false,
    server: path.join(REPO, 'dist-mcp', 'index.cjs'),
  };
  const numeric = ['seconds', 'servers', 'workers', 'notes', 'scratch', 'seed'];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const key = arg.replace(/^--/, '');
    if (arg === '--keep') opts.keep = true;
    else if (arg === '--server') opts.server = path.resolve(argv[++i] ?? '');
    else if (numeric.includes(key)) {
      const n = Number(argv[++i]);
      if (!Number.isInteger(n) || n < (key === 'scratch' ? 0 : 1))
        throw new Error(`${arg} takes a whole number`);
      opts[key] = n;
    } else throw new Error(`unknown option ${arg}`);
  }
  if (opts.servers > 9 || opts.workers > 9) throw new Error('at most 9 servers and 9 workers a server');
  return opts;
}

async function spawnFor(vault, serverPath, name) {
  const session = await startServer({ serverPath, vault, connectTimeoutMs: 60_000 });
  return {
    name,
    stderr: () => session.stderrTail(),
    call: async (tool, args) => {
      const r = await session.client.callTool({ name: tool, arguments: args });
      return { structured: r.structuredContent ?? {}, isError: r.isError === true };
    },
    close: async () => {
      await session.close();
    },
  };
}

async function main() {
  let opts;
  try {
    opts = parseArgs(process.argv.slice(2));
  } catch (err) {
    process.stderr.write(`${err.message}\n${USAGE}\n`);
    process.exit(2);
  }
  if (!fs.existsSync(opts.server)) {
    process.stderr.write(`${opts.server} is missing: run npm run build:mcp first\n`);
    process.exit(2);
  }
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'noted-soak-conc-'));
  const vault = path.join(base, 'vault');
  fs.mkdirSync(vault);
  const started = performance.now();
  let report;
  try {
    report = await runConcurrency({
      vault,
      serverPath: opts.server,
      spawn: (name) => spawnFor(vault, opts.server, name),
      servers: opts.servers,
      workers: opts.workers,
      notes: opts.notes,
      scratch: opts.scratch,
      seed: opts.seed,
      durationMs: opts.seconds * 1000,
      log: (line) => process.stderr.write(`${line}\n`),
    });
  } finally {
    killAllServers();
    if (!opts.keep) fs.rmSync(base, { recursive: true, force: true });
    else process.stderr.write(`vault kept in ${vault}\n`);
  }
  const f = report.figures;
  const wall = (performance.now() - started) / 1000;
  const lines = [
    `concurrency soak: ${f.servers} servers × ${f.workersPerServer} workers + 1 direct editor, ${f.notes} shared notes + ${f.scratch} scratch, ${f.durationMs / 1000} s of writing (${wall.toFixed(1)} s in all)`,
    `  agent calls          ${f.agentCalls} (${f.reads} reads)`,
    `  writes applied       ${f.writesApplied}  ${JSON.stringify(f.writesByOp)}`,
    `  refused: conflict    ${f.conflicts}`,
    `  refused: other       ${JSON.stringify(f.otherRefusals)} (scratch notes only: not_found, already_exists)`,
    `  direct edits         ${f.directEdits}  ${JSON.stringify(f.directByMode)}`,
    `  editor over agent    ${f.editorOverAgent} (the editor read before an agent's write and wrote after it)`,
    `  agent over editor    ${f.agentOverEditor} (a direct save landed between a server's version check and its rename)`,
    `  agent over torn save ${f.agentOverTornSave} (an agent wrote on the empty file of an in-place save under way; ${f.tornBases} writes were based on such a file)`,
    `  lost updates         ${f.lostUpdates}`,
    `  journal              ${f.journalEntries} entries (${f.journalNotApplied} not_applied), verify ${f.journalVerify}`,
    `  index                ${f.indexRows} rows, ${f.indexTerms} terms, ${f.questionsCompared} questions; mismatches ${f.indexMismatches}; settled in ${f.settleMs.map((ms) => (ms === null ? 'never' : `${Math.round(ms)} ms`)).join(', ')}`,
    `  machine              ${os.cpus().length} CPUs, load ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}, Node ${process.version}`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  const all = Object.entries(report.problems).flatMap(([group, list]) => list.map((p) => ({ group, ...p })));
  for (const p of all.slice(0, 40)) process.stdout.write(`PROBLEM [${p.group}/${p.kind}] ${p.detail}\n`);
  if (all.length > 40) process.stdout.write(`… and ${all.length - 40} more problems\n`);
  process.stdout.write(`SOAK_RESULT ${JSON.stringify({ ...f, problems: all.length })}\n`);
  process.exit(all.length === 0 ? 0 : 1);
}

process.on('SIGINT', () => {
  killAllServers();
  process.exit(130);
});

await main();
