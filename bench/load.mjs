#!/usr/bin/env node
/**
 * @module bench/load
 * Load over Streamable HTTP: the built server in a child process on a generated vault, N real SDK
 * clients (2025-era sessions and a few stateless 2026-07-28 clients) making a mixed stream of reads
 * and writes for a warm-up and then equal rounds. Prints calls/s, p50/p95/p99 per kind of call, and
 * the server's RSS and V8 heap per round. Exits 1 when a call went unanswered or was answered
 * wrongly; it asserts nothing about time or memory.
 *
 *   node bench/load.mjs --sessions 20 --notes 10000 --round-seconds 30 --rounds 3
 */

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateVault, MANIFEST_NAME } from './generate-vault.mjs';
import { argsOrExit } from './lib/args.mjs';
import { startHttpServerProcess } from './lib/load-server.mjs';
import {
  closeClients,
  connectClients,
  createWorkload,
  formatLatency,
  latencyTable,
  MB,
  runRound,
  sampleMemory,
  surveyVault,
} from './lib/load-sessions.mjs';

const usage = `usage: node bench/load.mjs [--sessions 20] [--stateless 4] [--notes 10000] [--round-seconds 30]
       [--rounds 3] [--warmup-seconds 5] [--seed 1] [--vault DIR] [--keep] [--server FILE]
       [--heap-growing-percent N]`;

function options() {
  const values = argsOrExit(
    {
      sessions: { type: 'string', default: '20' },
      stateless: { type: 'string', default: '4' },
      notes: { type: 'string', default: '10000' },
      'round-seconds': { type: 'string', default: '30' },
      rounds: { type: 'string', default: '3' },
      'warmup-seconds': { type: 'string', default: '5' },
      seed: { type: 'string', default: '1' },
      vault: { type: 'string' },
      keep: { type: 'boolean', default: false },
      server: { type: 'string' },
      'heap-growing-percent': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    usage,
  );
  const int = (name, min) => {
    const v = Number(values[name]);
    if (!Number.isInteger(v) || v < min) {
      console.error(`--${name} must be an integer ≥ ${min}\n${usage}`);
      process.exit(2);
    }
    return v;
  };
  const sessions = int('sessions', 1);
  const stateless = int('stateless', 0);
  if (stateless > sessions) {
    console.error(`--stateless cannot exceed --sessions\n${usage}`);
    process.exit(2);
  }
  const here = dirname(fileURLToPath(import.meta.url));
  return {
    sessions,
    stateless,
    notes: int('notes', 1),
    roundMs: int('round-seconds', 1) * 1000,
    rounds: int('rounds', 1),
    warmupMs: int('warmup-seconds', 0) * 1000,
    seed: int('seed', 0),
    vault: values.vault ? resolve(values.vault) : null,
    keep: values.keep,
    server: resolve(values.server ?? join(here, '..', 'dist-mcp', 'index.cjs')),
    heapGrowingPercent: values['heap-growing-percent'] === undefined ? null : int('heap-growing-percent', 1),
  };
}

const mb = (bytes) => (bytes === null || bytes === undefined ? '-' : (bytes / MB).toFixed(1));

async function main() {
  const o = options();
  const base = o.vault ? null : mkdtempSync(join(tmpdir(), 'noted-load-'));
  const vault = o.vault ?? join(base, 'vault');
  let manifest = null;
  let reused = false;
  try {
    manifest = JSON.parse(readFileSync(join(vault, MANIFEST_NAME), 'utf8'));
  } catch {
    // Not generated yet, or not a generated vault.
  }
  if (!manifest) {
    const made = generateVault({ notes: o.notes, out: vault, seed: o.seed });
    manifest = made.manifest;
    console.log(`vault: ${made.notes} notes, ${mb(made.bytes)} MB generated in ${made.seconds.toFixed(1)} s`);
  } else {
    reused = true;
    console.log(`vault: ${vault} (reused: ${manifest.notes} notes, seed ${manifest.seed})`);
  }
  // A reused vault keeps its index: the server then starts warm.

  const load = os.loadavg();
  const t0 = performance.now();
  const server = await startHttpServerProcess({
    serverPath: o.server,
    vault,
    heapReports: true,
    traceGc: true,
    nodeArgs: o.heapGrowingPercent === null ? [] : [`--heap-growing-percent=${o.heapGrowingPercent}`],
  });
  let clients = [];
  let failed = false;
  const stop = async () => {
    await closeClients(clients);
    await server.stop();
    if (base && !o.keep) rmSync(base, { recursive: true, force: true });
  };
  process.once('SIGINT', () => {
    void stop().finally(() => process.exit(130));
  });
  try {
    console.log(
      `server: pid ${server.pid}, listening after ${((performance.now() - t0) / 1000).toFixed(1)} s at ${server.url}`,
    );
    clients = await connectClients({
      url: server.url,
      token: server.token,
      sessions: o.sessions,
      stateless: o.stateless,
    });
    const survey = await surveyVault(clients[0].client, { hot: manifest?.mostLinked ?? [] });
    // A reused vault keeps the notes of earlier runs: write into a folder of this run's own.
    const folder = reused ? `load/run-${Date.now().toString(36)}` : 'load';
    const workloads = clients.map((c) => createWorkload({ survey, seed: o.seed, client: c.name, folder }));
    console.log(
      `clients: ${clients.filter((c) => c.era === 'session').length} 2025-era sessions + ${clients.filter((c) => c.era === 'stateless').length} stateless 2026-07-28; ${survey.names.length} notes, ${survey.folders.length} folders, ${survey.tags.length} tags`,
    );
    console.log(
      `machine: ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? '?'}), ${mb(os.totalmem())} MB RAM, Node ${process.version}, load average ${load.map((l) => l.toFixed(2)).join(' ')}`,
    );

    const memAt = async (label) => {
      const m = server.memory();
      const h = await server.heap();
      return {
        label,
        rss: m?.rss ?? null,
        rssAnon: m?.rssAnon ?? null,
        heapUsed: h.used,
        heapTotal: h.total,
      };
    };
    const rows = [await memAt('after start')];
    if (o.warmupMs > 0) {
      const warm = await runRound({ clients, workloads, durationMs: o.warmupMs });
      if (warm.answered !== warm.sent || warm.unexpected + warm.invalid > 0) failed = true;
      for (const f of warm.failures) console.log(`  FAIL (warm-up) ${f}`);
      rows.push(await memAt(`warm-up ${o.warmupMs / 1000} s`));
    }
    const tallies = [];
    for (let r = 1; r <= o.rounds; r++) {
      const sampler = sampleMemory(() => server.memory());
      const gcsBefore = server.fullGcs().length;
      const cpuBefore = { server: server.cpuSeconds(), client: process.cpuUsage() };
      const t = await runRound({ clients, workloads, durationMs: o.roundMs });
      const serverCpu = server.cpuSeconds() - cpuBefore.server;
      const clientCpu = process.cpuUsage(cpuBefore.client);
      const samples = sampler.stop();
      const gcs = server.fullGcs().slice(gcsBefore);
      tallies.push(t);
      const row = await memAt(`round ${r}`);
      row.rssMax = Math.max(...samples.map((s) => s.rss));
      row.fullGcs = gcs.length;
      row.afterGcMin = gcs.length ? Math.min(...gcs.map((g) => g.after)) : null;
      row.serverCpu = serverCpu / (t.ms / 1000);
      row.clientCpu = (clientCpu.user + clientCpu.system) / 1000 / t.ms;
      row.calls = t.answered;
      row.callsPerSecond = t.answered / (t.ms / 1000);
      row.p99 = latencyTable(t).at(-1).p99;
      rows.push(row);
      const bad = t.sent - t.answered + t.unexpected + t.invalid;
      console.log(
        `round ${r}: ${t.sent} sent, ${t.answered} answered (${t.ok} ok, ${t.expectedErrors} expected errors, ${t.unexpected} unexpected, ${t.invalid} malformed, ${t.transportErrors} transport errors) in ${(t.ms / 1000).toFixed(1)} s`,
      );
      for (const f of t.failures) console.log(`  FAIL ${f}`);
      if (bad > 0) failed = true;
      if (!server.alive())
        throw new Error(`the server exited during round ${r}:\n${server.stderr().slice(-4000)}`);
    }

    const pct = (v) => (v === undefined ? '-' : `${(v * 100).toFixed(0)} %`);
    const ms = (v) => (v === null || v === undefined ? '-' : v.toFixed(1));
    console.log('\nthroughput (latency over all calls, client side; CPU as a share of one core):');
    console.log(
      `${'round'.padEnd(8)} ${'calls'.padStart(7)} ${'calls/s'.padStart(8)} ${'p50 ms'.padStart(8)} ${'p95 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'server CPU'.padStart(11)} ${'client CPU'.padStart(11)}`,
    );
    for (const [i, t] of tallies.entries()) {
      const all = latencyTable(t).at(-1);
      const row = rows.find((r) => r.label === `round ${i + 1}`);
      console.log(
        `${String(i + 1).padEnd(8)} ${String(t.answered).padStart(7)} ${(t.answered / (t.ms / 1000)).toFixed(0).padStart(8)} ${ms(all.p50).padStart(8)} ${ms(all.p95).padStart(8)} ${ms(all.p99).padStart(8)} ${pct(row?.serverCpu).padStart(11)} ${pct(row?.clientCpu).padStart(11)}`,
      );
    }
    console.log(
      '\nmemory of the server, MB (RSS: /proc/<pid>/status at the end of the round and the most sampled during it;\nheap: a Node diagnostic report, garbage included; live heap: the least a full GC left during the round):',
    );
    console.log(
      `${'when'.padEnd(14)} ${'RSS'.padStart(7)} ${'RSS max'.padStart(8)} ${'heap used'.padStart(10)} ${'heap total'.padStart(11)} ${'full GCs'.padStart(9)} ${'live heap'.padStart(10)}`,
    );
    for (const r of rows) {
      console.log(
        `${r.label.padEnd(14)} ${mb(r.rss).padStart(7)} ${mb(r.rssMax).padStart(8)} ${mb(r.heapUsed).padStart(10)} ${mb(r.heapTotal).padStart(11)} ${String(r.fullGcs ?? '-').padStart(9)} ${mb(r.afterGcMin).padStart(10)}`,
      );
    }
    for (const [i, t] of tallies.entries()) {
      console.log(
        `\nround ${i + 1}: ${(t.answered / (t.ms / 1000)).toFixed(0)} calls/s, latency per kind of call (client side, ms):`,
      );
      for (const line of formatLatency(latencyTable(t))) console.log(`  ${line}`);
    }
    const result = {
      sessions: o.sessions,
      stateless: o.stateless,
      notes: survey.names.length,
      roundMs: o.roundMs,
      rounds: rows.filter((r) => r.calls !== undefined),
      latency: tallies.map((t) => latencyTable(t)),
      machine: { cpus: os.cpus().length, node: process.version, loadavg: load },
    };
    console.log(`\nLOAD_RESULT ${JSON.stringify(result)}`);
  } catch (err) {
    failed = true;
    console.error(`load: ${err?.stack ?? err}`);
    console.error(server.stderr().slice(-4000));
  } finally {
    await stop();
  }
  process.exitCode = failed ? 1 : 0;
}

await main();
