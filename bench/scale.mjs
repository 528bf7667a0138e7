#!/usr/bin/env node
/**
 * @module bench/scale
 * The rows of issue 34's table for one vault size, through a real MCP client over stdio: how soon
 * `initialize` is answered on a warm start, when the index is ready on a warm start, the cold
 * build from start to ready (notes/s), search median / p95 over a 20-query mix (and, apart, each
 * query's first search since the start), peak RSS, and the
 * index's size beside the notes'. Beside every wall-clock figure it prints the server's CPU time
 * (utime + stime of the process, threads included, from /proc/<pid>/stat), which a busy shared
 * machine disturbs far less.
 *
 *   node bench/scale.mjs --vault DIR [--notes N] [--server FILE] [--rounds K] [--no-cold] [--warm-starts W]
 *                        [--profile DIR]
 *
 * The vault is generated into DIR with --notes when DIR does not exist yet, and kept. Its `.noted/`
 * is deleted before the cold build (unless --no-cold, which needs an index already there).
 */

import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { generateVault, MANIFEST_NAME } from './generate-vault.mjs';
import { argsOrExit } from './lib/args.mjs';
import { ACCENTED_WORDS, CJK_PHRASES, rankedVocabulary } from './lib/lexicon.mjs';
import { timedCall } from './lib/measure.mjs';
import { killAllServers, readMemory, startServer } from './lib/server-session.mjs';
import { summarize } from './lib/stats.mjs';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const USAGE =
  'usage: node bench/scale.mjs --vault DIR [--notes N] [--server FILE] [--rounds K] [--no-cold] [--warm-starts W] [--profile DIR]';
const LONG_MS = 60 * 60_000;
const POLL_MS = 100;
/** Clock ticks per second of /proc/<pid>/stat (USER_HZ, 100 on Linux everywhere in practice). */
const TICKS = 100;

/**
 * Issue 34's mix: common and rare words, phrases, 2–3 word queries. Words are picked by frequency
 * rank from the generator's Zipf vocabulary, so each vault size answers the same queries; ranks
 * 60–110 (`project`, `review`, `budget`) are in about half to two thirds of the notes, as the
 * issue's `water` was.
 */
export function scaleQueries() {
  const { words } = rankedVocabulary();
  return [
    ['every note', words[0]],
    ['most notes', 'project'],
    ['half the notes', 'review'],
    ['half the notes', 'budget'],
    ['a tenth', 'morning'],
    ['rank 1,000', words[999]],
    ['rank 5,000', words[4999]],
    ['rank 20,000', words[19999]],
    ['rank 30,000', words[29999]],
    ['accented', ACCENTED_WORDS[11]],
    ['phrase', '"next steps"'],
    ['phrase', '"action items"'],
    ['phrase of common words', '"of the"'],
    ['phrase of common words', '"the project"'],
    ['two words', 'project meeting'],
    ['two words', 'budget morning'],
    ['three words', 'notes review plan'],
    ['three words', 'design research client'],
    ['CJK', CJK_PHRASES[0]],
    ['OR', `meeting OR ${words[4999]}`],
  ].map(([kind, query]) => ({ kind, query }));
}

/** CPU seconds (user + system, every thread) the process has used; null when it is gone. */
function cpuSeconds(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS;
  } catch {
    return null;
  }
}

function indexBytes(vault) {
  let bytes = 0;
  for (const f of ['index.sqlite', 'index.sqlite-wal', 'index.sqlite-shm']) {
    const p = join(vault, '.noted', f);
    if (existsSync(p)) bytes += statSync(p).size;
  }
  return bytes;
}

/** Polls get_vault_info until the index says ready; returns ms since spawn and the server's CPU s. */
async function untilReady(s) {
  const deadline = performance.now() + LONG_MS;
  // When each step of the build was first seen (ms since spawn, server CPU s), and the slowest answer.
  const steps = [];
  let slowestInfoMs = 0;
  for (;;) {
    const r = await timedCall(s, 'get_vault_info', {}, LONG_MS);
    slowestInfoMs = Math.max(slowestInfoMs, r.ms);
    const index = r.res?.structuredContent?.index;
    const state = index?.state;
    const step = state === 'building' ? (index.step ?? 'building') : state;
    if (step !== undefined && steps.at(-1)?.step !== step)
      steps.push({ step, ms: Math.round(performance.now() - s.startedAt), cpuS: cpuSeconds(s.pid) });
    if (state === 'ready')
      return { ms: performance.now() - s.startedAt, cpu: cpuSeconds(s.pid), steps, slowestInfoMs };
    if (state === 'failed' || r.error) throw new Error(`index did not get ready: ${r.error ?? state}`);
    if (performance.now() > deadline) throw new Error('index not ready within an hour');
    await new Promise((done) => setTimeout(done, POLL_MS));
  }
}

/** Spawn, `initialize` answered, index ready; the session stays open. */
async function start(server, vault, nodeArgs) {
  const s = await startServer({ serverPath: server, vault, connectTimeoutMs: LONG_MS, nodeArgs });
  const initMs = s.connectedAt - s.startedAt;
  const initCpu = cpuSeconds(s.pid);
  const ready = await untilReady(s);
  return {
    s,
    initMs,
    initCpu,
    readyMs: ready.ms,
    readyCpu: ready.cpu,
    steps: ready.steps,
    slowestInfoMs: ready.slowestInfoMs,
  };
}

/** get_vault_info on the ready index, `calls` times: median ms and server CPU ms a call. */
async function infoCalls(s, calls = 5) {
  const samples = [];
  const cpuBefore = cpuSeconds(s.pid);
  for (let i = 0; i < calls; i++) {
    const r = await timedCall(s, 'get_vault_info', {}, LONG_MS);
    if (r.error) throw new Error(`get_vault_info failed: ${r.error}`);
    samples.push(r.ms);
  }
  return { ...summarize(samples), cpuMsPerCall: ((cpuSeconds(s.pid) - cpuBefore) * 1000) / calls };
}

async function searchRounds(s, rounds) {
  const queries = scaleQueries().map((q) => ({ ...q, samples: [], first: null, total: null }));
  const all = [];
  const firsts = [];
  // The first round is each query's first search since the server started: what a server that keeps
  // nothing between searches would give every time. It is reported apart, with its own CPU.
  let cpuBefore = cpuSeconds(s.pid);
  let firstCpuMs = 0;
  let calls = 0;
  for (let round = -1; round < rounds; round++) {
    for (const q of queries) {
      const r = await timedCall(s, 'search_notes', { query: q.query }, LONG_MS);
      if (r.error) throw new Error(`search ${JSON.stringify(q.query)} failed: ${r.error}`);
      q.total = r.res.structuredContent?.total ?? null;
      if (round < 0) {
        q.first = r.ms;
        firsts.push(r.ms);
        continue;
      }
      calls++;
      q.samples.push(r.ms);
      all.push(r.ms);
    }
    if (round < 0) {
      const now = cpuSeconds(s.pid);
      firstCpuMs = ((now - cpuBefore) * 1000) / queries.length;
      cpuBefore = now;
    }
  }
  const cpuMsPerCall = ((cpuSeconds(s.pid) - cpuBefore) * 1000) / calls;
  return {
    overall: summarize(all),
    cpuMsPerCall,
    first: { ...summarize(firsts), cpuMsPerCall: firstCpuMs },
    byQuery: queries.map((q) => ({ ...q, ...summarize(q.samples) })),
  };
}

const fmt = (v, d = 1) => (v === null || v === undefined ? '—' : v.toFixed(d));
const mb = (b) => (b === null ? '—' : `${Math.round(b / 1e6)} MB`);

async function main() {
  const values = argsOrExit(
    {
      vault: { type: 'string' },
      notes: { type: 'string' },
      server: { type: 'string' },
      rounds: { type: 'string', default: '5' },
      'no-cold': { type: 'boolean', default: false },
      'warm-starts': { type: 'string', default: '2' },
      profile: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    USAGE,
  );
  const rounds = Number(values.rounds);
  const warmStarts = Number(values['warm-starts']);
  const problems = [];
  if (!values.vault) problems.push('--vault DIR is required (generated there with --notes N when missing)');
  if (!Number.isInteger(rounds) || rounds < 1) problems.push('--rounds must be a positive integer');
  if (!Number.isInteger(warmStarts) || warmStarts < 1)
    problems.push('--warm-starts must be a positive integer');
  const server = resolve(values.server ?? join(REPO, 'dist-mcp', 'index.cjs'));
  if (!existsSync(server)) problems.push(`${server} not found: build it with \`npm run build:mcp\``);
  if (problems.length > 0) {
    console.error(`${problems.join('\n')}\n${USAGE}`);
    process.exit(2);
  }
  const vault = resolve(values.vault);
  // Each server writes a V8 CPU profile there when it stops (open it in Chrome's DevTools).
  const nodeArgs = values.profile ? ['--cpu-prof', '--cpu-prof-dir', resolve(values.profile)] : [];
  if (!existsSync(vault) || readdirSync(vault).length === 0) {
    const notes = Number(values.notes);
    if (!Number.isInteger(notes) || notes < 1) {
      console.error(`${vault} has no vault: give --notes N to generate one\n${USAGE}`);
      process.exit(2);
    }
    console.error(`generating ${notes} notes into ${vault} ...`);
    generateVault({ notes, out: vault, seed: 1 });
  }
  const manifest = JSON.parse(readFileSync(join(vault, MANIFEST_NAME), 'utf8'));
  process.on('exit', killAllServers);
  const out = { server, vault, notes: manifest.notes, notesBytes: manifest.bytes };

  if (!values['no-cold']) {
    rmSync(join(vault, '.noted'), { recursive: true, force: true });
    console.error('cold build ...');
    const cold = await start(server, vault, nodeArgs);
    out.cold = {
      initMs: cold.initMs,
      readyMs: cold.readyMs,
      cpuS: cold.readyCpu,
      notesPerS: manifest.notes / (cold.readyMs / 1000),
      peakRss: readMemory(cold.s.pid)?.peakRss ?? null,
      steps: cold.steps,
      slowestInfoMs: cold.slowestInfoMs,
    };
    await cold.s.close();
  }
  out.warm = [];
  for (let i = 0; i < warmStarts; i++) {
    console.error(`warm start ${i + 1} ...`);
    const warm = await start(server, vault, nodeArgs);
    const entry = {
      initMs: warm.initMs,
      initCpuS: warm.initCpu,
      readyMs: warm.readyMs,
      readyCpuS: warm.readyCpu,
      steps: warm.steps,
      slowestInfoMs: warm.slowestInfoMs,
      info: await infoCalls(warm.s),
    };
    if (i === warmStarts - 1) {
      console.error(`search, ${rounds} rounds of ${scaleQueries().length} queries ...`);
      entry.search = await searchRounds(warm.s, rounds);
    }
    entry.peakRss = readMemory(warm.s.pid)?.peakRss ?? null;
    out.warm.push(entry);
    await warm.s.close();
  }
  out.indexBytes = indexBytes(vault);
  report(out);
  console.log(`SCALE_RESULT ${JSON.stringify(out)}`);
  process.exit(0);
}

function report(out) {
  const w = out.warm;
  const search = w.at(-1).search;
  const list = (f) => w.map(f).join(' / ');
  const rows = [
    [
      '`initialize` answered, warm start',
      `${list((e) => fmt(e.initMs / 1000, 2))} s (CPU ${list((e) => fmt(e.initCpuS, 2))} s)`,
      '< 1 s',
    ],
    [
      'index ready, warm start',
      `${list((e) => fmt(e.readyMs / 1000, 2))} s (CPU ${list((e) => fmt(e.readyCpuS, 2))} s)`,
      '≤ 5 s',
    ],
    out.cold
      ? [
          'cold build, start to index ready',
          `${fmt(out.cold.readyMs / 1000)} s (${Math.round(out.cold.notesPerS)} notes/s; CPU ${fmt(out.cold.cpuS)} s; initialize ${fmt(out.cold.initMs / 1000, 2)} s)`,
          '≤ 4 min at 1M',
        ]
      : ['cold build', 'not run (--no-cold)', ''],
    [
      `search median / p95 (${search.overall.n} calls)`,
      `${fmt(search.overall.median)} / ${fmt(search.overall.p95)} ms (server CPU ${fmt(search.cpuMsPerCall)} ms a call)`,
      '≤ 60 / ≤ 250 ms at 1M',
    ],
    [
      `first search of each query since the start, median / p95 (${search.first.n} calls)`,
      `${fmt(search.first.median)} / ${fmt(search.first.p95)} ms (server CPU ${fmt(search.first.cpuMsPerCall)} ms a call)`,
      '',
    ],
    [
      '`get_vault_info`, index ready (5 calls)',
      `median ${list((e) => fmt(e.info.median))} ms (server CPU ${list((e) => fmt(e.info.cpuMsPerCall))} ms a call)`,
      '',
    ],
    [
      'peak RSS',
      `${list((e) => mb(e.peakRss))} warm${out.cold ? `, ${mb(out.cold.peakRss)} cold` : ''}`,
      '≤ 1 GB',
    ],
    [
      'index size',
      `${mb(out.indexBytes)} (${fmt(out.indexBytes / out.notesBytes, 2)}× the notes' ${mb(out.notesBytes)})`,
      '≤ the notes',
    ],
  ];
  console.log(`\n${out.notes} notes, server ${out.server}\n`);
  console.log('| | measured | goal |\n|---|---|---|');
  for (const r of rows) console.log(`| ${r.join(' | ')} |`);
  const stepsOf = (label, e) =>
    `${label}: ${e.steps.map((st) => `${st.step} at ${fmt(st.ms / 1000, 2)} s (CPU ${fmt(st.cpuS, 2)} s)`).join(', ')}; slowest get_vault_info ${fmt(e.slowestInfoMs, 0)} ms`;
  console.log('');
  if (out.cold) console.log(stepsOf('cold build', out.cold));
  console.log(stepsOf('last warm start', w.at(-1)));
  console.log('\n| query | kind | total | first ms | median ms | p95 ms |\n|---|---|---|---|---|---|');
  for (const q of search.byQuery)
    console.log(
      `| \`${q.query}\` | ${q.kind} | ${q.total} | ${fmt(q.first)} | ${fmt(q.median)} | ${fmt(q.p95)} |`,
    );
}

// Run as a script, not when bench/cpu-compare.mjs imports the query mix.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((err) => {
    console.error(`scale bench failed: ${err?.stack ?? err}`);
    if (err?.stderrTail) console.error(err.stderrTail);
    killAllServers();
    process.exit(1);
  });
}
