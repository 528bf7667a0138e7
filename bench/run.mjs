#!/usr/bin/env node
/**
 * @module bench/run
 * End-to-end benchmark: generates (or reuses) a vault, starts the built server
 * `dist-mcp/index.cjs` over stdio through a real MCP client, and measures cold index build,
 * warm start, search latency, the other read tools and the server's peak memory. Prints a
 * table and one `BENCH_RESULT {...}` JSON line.
 *
 *   node bench/run.mjs --notes 10000 [--vault DIR] [--keep] [--seed 1] [--queries 50]
 */

import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateVault, MANIFEST_NAME } from './generate-vault.mjs';
import { argsOrExit } from './lib/args.mjs';
import { calibrate } from './lib/calibrate.mjs';
import { cpuTimes, stealBetween } from './lib/cpu-steal.mjs';
import { measureSearch, measureTools, timedCall } from './lib/measure.mjs';
import { noteFiles } from './lib/note-files.mjs';
import { benchQueries } from './lib/queries.mjs';
import { formatReport } from './lib/report.mjs';
import { childProcesses, killAllServers, readMemory, startServer } from './lib/server-session.mjs';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const DEFAULT_SERVER = join(REPO, 'dist-mcp', 'index.cjs');
const USAGE =
  'usage: node bench/run.mjs --notes N [--vault DIR] [--keep] [--seed S] [--queries K] [--server FILE]';
const CONNECT_TIMEOUT_MS = 10 * 60_000;
const FIRST_SEARCH_TIMEOUT_MS = 30 * 60_000;

/** The running server session, so a failure can show its stderr. */
let current = null;

function parseOptions() {
  const values = argsOrExit(
    {
      notes: { type: 'string' },
      vault: { type: 'string' },
      keep: { type: 'boolean', default: false },
      seed: { type: 'string', default: '1' },
      queries: { type: 'string', default: '50' },
      server: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    USAGE,
  );
  const opts = {
    notes: values.notes === undefined ? undefined : Number(values.notes),
    vault: values.vault ? resolve(values.vault) : undefined,
    keep: values.keep,
    seed: Number(values.seed),
    rounds: Number(values.queries),
    server: values.server ? resolve(values.server) : DEFAULT_SERVER,
  };
  const problems = [];
  const reusing = opts.vault !== undefined && isNonEmptyDir(opts.vault);
  if (opts.notes === undefined && !reusing)
    problems.push('--notes is required unless --vault names an existing vault');
  if (opts.notes !== undefined && (!Number.isInteger(opts.notes) || opts.notes < 1)) {
    problems.push('--notes must be a positive integer');
  }
  if (!Number.isInteger(opts.seed)) problems.push('--seed must be an integer');
  if (!Number.isInteger(opts.rounds) || opts.rounds < 1)
    problems.push('--queries must be a positive integer');
  if (problems.length > 0) {
    console.error(`${problems.join('\n')}\n${USAGE}`);
    process.exit(2);
  }
  return opts;
}

function isNonEmptyDir(dir) {
  try {
    return statSync(dir).isDirectory() && readdirSync(dir).length > 0;
  } catch {
    return false;
  }
}

/** Size and count of the .md files below dir, skipping dot folders (for vaults without manifest). */
function measureVault(dir) {
  let notes = 0;
  let bytes = 0;
  const folders = new Set();
  for (const rel of noteFiles(dir)) {
    notes++;
    bytes += statSync(join(dir, rel)).size;
    folders.add(dirname(rel));
  }
  return { notes, bytes, folders: folders.size };
}

/** Generates or reuses the vault; returns its facts and whether it is a temporary one. */
function prepareVault(opts) {
  if (opts.vault && isNonEmptyDir(opts.vault)) {
    const manifestPath = join(opts.vault, MANIFEST_NAME);
    if (existsSync(manifestPath)) {
      const m = JSON.parse(readFileSync(manifestPath, 'utf8'));
      if (opts.notes !== undefined && opts.notes !== m.notes) {
        console.error(
          `note: reusing ${opts.vault} (${m.notes} notes, seed ${m.seed}); --notes ${opts.notes} ignored`,
        );
      }
      return {
        dir: opts.vault,
        temp: false,
        reused: true,
        generated: true,
        manifest: m,
        facts: { notes: m.notes, bytes: m.bytes, folders: m.folders, seed: m.seed },
      };
    }
    const facts = measureVault(opts.vault);
    console.error(`note: reusing ${opts.vault} (${facts.notes} notes, not made by the generator)`);
    return { dir: opts.vault, temp: false, reused: true, generated: false, manifest: null, facts };
  }
  const dir = opts.vault ?? mkdtempSync(join(os.tmpdir(), 'noted-bench-'));
  console.error(`generating ${opts.notes} notes into ${dir} ...`);
  const g = generateVault({ notes: opts.notes, out: dir, seed: opts.seed });
  console.error(
    `  ${g.notes} notes, ${(g.bytes / 1048576).toFixed(1)} MB, ${g.manifest.folders} folders in ${g.seconds.toFixed(1)} s`,
  );
  return {
    dir,
    temp: opts.vault === undefined,
    reused: false,
    generated: true,
    manifest: g.manifest,
    facts: {
      notes: g.notes,
      bytes: g.bytes,
      folders: g.manifest.folders,
      seed: opts.seed,
      generateSeconds: g.seconds,
    },
  };
}

/** Deletes the server's index state so the next start builds from scratch. */
function resetIndex(vault) {
  const state = join(vault.dir, '.noted');
  if (vault.generated) {
    rmSync(state, { recursive: true, force: true });
    return;
  }
  // Not our vault: keep its policy, journal and trash; drop only the derived index.
  for (const f of ['index.sqlite', 'index.sqlite-wal', 'index.sqlite-shm'])
    rmSync(join(state, f), { force: true });
}

/** Starts the server, lists tools and answers one search; returns the session and timings. */
async function startAndSearch(server, vault, probeQuery, failures, label) {
  const s = await startServer({ serverPath: server, vault: vault.dir, connectTimeoutMs: CONNECT_TIMEOUT_MS });
  current = s;
  const connectMs = s.connectedAt - s.startedAt;
  const t1 = performance.now();
  const { tools } = await s.client.listTools(undefined, { timeout: CONNECT_TIMEOUT_MS });
  const toolsListMs = performance.now() - t1;
  const t2 = performance.now();
  // The server answers at once and builds its index meanwhile: a search waits for it, and is
  // answered busy (to be asked again) when the build takes longer than 30 s.
  let first = await timedCall(s, 'search_notes', { query: probeQuery }, FIRST_SEARCH_TIMEOUT_MS);
  while (first.res?.structuredContent?.code === 'busy' && performance.now() - t2 < FIRST_SEARCH_TIMEOUT_MS)
    first = await timedCall(s, 'search_notes', { query: probeQuery }, FIRST_SEARCH_TIMEOUT_MS);
  const end = performance.now();
  if (first.error)
    failures.push(`${label}: first search_notes ${JSON.stringify(probeQuery)} → ${first.error}`);
  return {
    session: s,
    tools: new Set(tools.map((t) => t.name)),
    timing: {
      ms: Math.round(end - s.startedAt),
      connectMs: Math.round(connectMs),
      toolsListMs: Math.round(toolsListMs),
      firstSearchMs: Math.round(end - t2),
      firstSearchTotal: first.res?.structuredContent?.total ?? null,
    },
  };
}

function memoryOf(session) {
  const mem = readMemory(session.pid);
  return { peakRss: mem?.peakRss ?? null, rss: mem?.rss ?? null, children: childProcesses(session.pid) };
}

async function bench(opts, vault) {
  const loadBefore = os.loadavg();
  // Stat the server before starting it: the build may be replaced while the bench runs.
  const built = statSync(opts.server);
  const failures = [];
  const [probe, common] = [benchQueries()[1].query, benchQueries()[0].query];
  const notes = vault.facts.notes;

  // Before any server runs, so nothing competes with it.
  console.error('machine reference (bare FTS5, stat) ...');
  const plainQueries = benchQueries()
    .filter((q) => ['common', 'rare', 'two-words', 'three-words', 'phrase'].includes(q.kind))
    .map((q) => q.query);
  const before = calibrate(vault.dir, plainQueries);

  // Cold build: no index, so the first answered search waits for the whole vault.
  resetIndex(vault);
  console.error('cold start ...');
  const coldCpu = cpuTimes();
  const cold = await startAndSearch(opts.server, vault, probe, failures, 'cold build');
  const check = await timedCall(
    cold.session,
    'search_notes',
    { query: common, max_results: 1 },
    FIRST_SEARCH_TIMEOUT_MS,
  );
  if (check.error) failures.push(`index check search ${JSON.stringify(common)} → ${check.error}`);
  const coldSteal = stealBetween(coldCpu, cpuTimes());
  const coldMem = memoryOf(cold.session);
  cold.timing.shutdownMs = Math.round(await cold.session.close());
  cold.timing.notesPerSec = Math.round(notes / (cold.timing.ms / 1000));
  cold.timing.commonQuery = common;
  cold.timing.commonTotal = check.res?.structuredContent?.total ?? null;

  // Warm start: the index exists and is up to date.
  console.error('warm start ...');
  const warmCpu = cpuTimes();
  const warm = await startAndSearch(opts.server, vault, probe, failures, 'warm start');
  let search = null;
  if (warm.tools.has('search_notes')) {
    console.error(`search latency (${opts.rounds} rounds) ...`);
    search = await measureSearch(warm.session, opts.rounds, failures);
  } else {
    failures.push('search_notes is not offered by the server');
  }
  console.error('other tools ...');
  const tools = await measureTools(warm.session, warm.tools, vault, opts.rounds, failures);
  const warmSteal = stealBetween(warmCpu, cpuTimes());
  const warmMem = memoryOf(warm.session);
  if (failures.length > 0) console.error(`--- server stderr (tail) ---\n${warm.session.stderrTail()}`);
  warm.timing.shutdownMs = Math.round(await warm.session.close());
  // Again after: the machine's speed drifts within minutes, and a run is only as steady as these two.
  const after = calibrate(vault.dir, plainQueries);

  const peaks = [coldMem.peakRss, warmMem.peakRss].filter((v) => v !== null);
  return {
    server: { path: opts.server, bytes: built.size, modified: built.mtime.toISOString() },
    vault: { ...vault.facts, reused: vault.reused, path: vault.temp ? null : vault.dir },
    machine: {
      cpus: os.cpus().length,
      cpuModel: os.cpus()[0]?.model ?? 'unknown',
      memGB: Math.round(os.totalmem() / 2 ** 30),
      node: process.version,
      platform: os.platform(),
      release: os.release(),
      arch: os.arch(),
      loadAvg: loadBefore.map((v) => Math.round(v * 100) / 100),
      reference: { before, after },
      steal: { coldBuild: coldSteal, warmAndCalls: warmSteal },
    },
    coldBuild: cold.timing,
    warmStart: warm.timing,
    search,
    tools,
    memory: {
      peakRss: peaks.length ? Math.max(...peaks) : null,
      coldPeakRss: coldMem.peakRss,
      warmPeakRss: warmMem.peakRss,
      warmRss: warmMem.rss,
      childProcesses: Math.max(coldMem.children.live, warmMem.children.live),
      childPeakRss: Math.max(coldMem.children.peakRss, warmMem.children.peakRss),
      zombieChildren: Math.max(coldMem.children.zombies, warmMem.children.zombies),
    },
    offeredTools: [...warm.tools].sort(),
    failures,
  };
}

async function main() {
  const opts = parseOptions();
  let vault = null;
  const cleanup = () => {
    killAllServers();
    if (vault?.temp && !opts.keep) rmSync(vault.dir, { recursive: true, force: true });
  };
  process.on('exit', killAllServers);
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.on(sig, () => {
      cleanup();
      process.exit(130);
    });
  }
  if (!existsSync(opts.server)) {
    console.error(`${opts.server} not found: build it first with \`npm run build:mcp\``);
    process.exit(1);
  }
  let code = 0;
  try {
    vault = prepareVault(opts);
    const result = await bench(opts, vault);
    console.log(formatReport(result));
    console.log(`BENCH_RESULT ${JSON.stringify(result)}`);
    if (result.failures.length > 0) code = 1;
  } catch (err) {
    console.error(`bench failed: ${err?.stack ?? err}`);
    const tail = err?.stderrTail ?? current?.stderrTail();
    if (tail) console.error(`--- server stderr (tail) ---\n${tail}`);
    code = 1;
  } finally {
    cleanup();
    if (vault?.temp && opts.keep) console.error(`vault kept at ${vault.dir}`);
  }
  process.exit(code);
}

main();
