#!/usr/bin/env node
/**
 * @module bench/search-operators
 * What each operator of the search language (issue 26) costs on a bench vault: for every query of
 * the set below, the wall time of `search_notes` through a real client over stdio (median, p95) and
 * the server's CPU time per call (from /proc, so a busy machine inflates it less than wall time), with
 * the query's total or its refusal. Also the work bound's calibration: very common words ANDed and
 * OR-ed, with the work the server counted for them. Prints figures; asserts nothing about time
 * (ARCHITECTURE.md, "Tests"). Exits 1 when a query that must be answered is refused or fails.
 *
 *   npm run build:mcp
 *   node bench/search-operators.mjs --base /work/vaults/v10k [--rounds 20] [--notes N]
 *        [--server dist-mcp/index.cjs]
 *
 * The base vault is never written: its notes are hard-linked into a temporary folder (a search never
 * writes a note) and its `.noted/` is left out, so the server builds its index there. `--notes N`
 * keeps only the first N notes (in path order), to try the script on a small copy.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { killAllServers, startServer } from './lib/server-session.mjs';
import { summarize } from './lib/stats.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const { values } = parseArgs({
  options: {
    base: { type: 'string' },
    rounds: { type: 'string', default: '20' },
    notes: { type: 'string' },
    server: { type: 'string', default: resolve(here, '../dist-mcp/index.cjs') },
  },
});
if (values.base === undefined || !existsSync(values.base)) {
  console.error(
    'usage: node bench/search-operators.mjs --base VAULT [--rounds K] [--notes N] [--server FILE]',
  );
  process.exit(2);
}
const rounds = Number(values.rounds);

/**
 * The query set: plain queries (today's speed must hold), each operator alone and narrowed by words
 * (the index finds the candidates, only they are read), and the work bound's AND/OR calibration.
 * `may refuse` marks the queries a large vault is expected to refuse as too_large.
 */
const QUERIES = [
  ['plain word', 'budget'],
  ['plain AND', 'project budget'],
  ['plain phrase', '"next steps"'],
  ['plain OR', 'budget OR meeting'],
  ['common AND 3', 'the of and'],
  ['common AND 5', 'the of and to a'],
  [
    'common OR 12',
    'the OR of OR and OR to OR a OR in OR is OR it OR that OR for OR on OR with',
    'may refuse',
  ],
  ['tag:', 'tag:project'],
  ['path:', 'path:2024'],
  ['file:', 'file:journal'],
  ['content:', 'content:budget'],
  ['[property]', '[status]'],
  ['[property:value]', '[status:draft]'],
  ['[property:null]', '[aliases:null]'],
  ['[property:<date]', '[created:<2023-06-01]'],
  ['[property] + word', 'budget [status:draft]'],
  ['task:""', 'task:""'],
  ['task-todo:word', 'task-todo:budget'],
  ['task-done:word', 'task-done:review'],
  ['line:(a b)', 'line:(project budget)'],
  ['block:(a b)', 'block:(project budget)'],
  ['section:(a b)', 'section:(project budget)'],
  ['line: rare words', 'line:("next steps" café)'],
  ['line: common words', 'line:(the of)', 'may refuse'],
  ['section: with -', 'section:(project -budget)'],
  ['block: OR, phrase', 'block:("next steps" OR review)'],
  ['line: nested', 'section:(line:(project budget))'],
  // Case and regexes on text are not in the index: these read their candidates' text, which a large
  // vault's common words make too much to read.
  ['match-case:Word', 'match-case:Budget', 'may refuse'],
  ['/regex/ + word', 'café /caf[eé]s?/', 'may refuse'],
  ['/regex/ alone', '/\\d{4}-\\d{2}-\\d{2}/', 'may refuse'],
  ['path:/regex/', 'path:/\\d{4}/'],
  ['-line: + word', 'budget -line:(budget review)'],
  ['pathological regex', 'café /(a|aa)*b/', 'may refuse'],
  ['page 2 (cursor)', 'budget', 'page2'],
];

const tmp = mkdtempSync(join(tmpdir(), 'noted-bench-ops-'));
process.on('exit', () => {
  killAllServers();
  rmSync(tmp, { recursive: true, force: true });
});

function makeVault() {
  const vault = join(tmp, 'vault');
  if (values.notes === undefined) {
    execFileSync('cp', ['-al', `${resolve(values.base)}/.`, vault]);
  } else {
    // The first N notes in path order, hard-linked with their folders.
    const files = [];
    const walk = (dir) => {
      for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
        if (e.name.startsWith('.')) continue;
        const p = join(dir, e.name);
        if (e.isDirectory()) walk(p);
        else if (p.endsWith('.md')) files.push(p);
      }
    };
    walk(resolve(values.base));
    for (const f of files.slice(0, Number(values.notes))) {
      const to = join(vault, relative(resolve(values.base), f));
      mkdirSync(dirname(to), { recursive: true });
      execFileSync('ln', [f, to]);
    }
  }
  rmSync(join(vault, '.noted'), { recursive: true, force: true });
  return vault;
}

/** The server's CPU time so far, in ms (utime + stime from /proc). */
function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

async function call(client, args) {
  const t = performance.now();
  const r = await client.callTool({ name: 'search_notes', arguments: args });
  return { ms: performance.now() - t, result: r };
}

const vault = makeVault();
const session = await startServer({ serverPath: resolve(values.server), vault, connectTimeoutMs: 600_000 });
const { client, pid } = session;
// The first search waits for the cold build.
const built = await call(client, { query: 'budget' });
console.log(`index ready after ${Math.round(built.ms)} ms (first search included)`);

let failed = 0;
const rows = [];
for (const [label, query, flag] of QUERIES) {
  const args = { query, max_results: 10 };
  if (flag === 'page2') {
    const first = await call(client, args);
    args.cursor = first.result.structuredContent.nextCursor;
  }
  const warm = await call(client, args);
  const samples = [];
  const cpu0 = cpuMs(pid);
  for (let r = 0; r < rounds; r++) samples.push((await call(client, args)).ms);
  const cpu = (cpuMs(pid) - cpu0) / rounds;
  const data = warm.result.structuredContent;
  const answer = warm.result.isError
    ? `refused: ${data.code}${data.actual === undefined ? '' : ` (${data.actual.toLocaleString('en-US')})`}`
    : `total ${data.total}`;
  if (warm.result.isError && flag !== 'may refuse') failed++;
  const s = summarize(samples);
  rows.push({ label, query, median: s.median, p95: s.p95, cpu: Math.round(cpu * 10) / 10, answer });
}

const width = Math.max(...rows.map((r) => r.label.length));
console.log(`\n${'operator'.padEnd(width)}  median ms  p95 ms  cpu ms/call  answer   query`);
for (const r of rows) {
  console.log(
    `${r.label.padEnd(width)}  ${String(r.median).padStart(9)}  ${String(r.p95).padStart(6)}  ${String(r.cpu).padStart(11)}  ${r.answer.padEnd(8)} ${r.query}`,
  );
}
console.log(`\nSEARCH_OPERATORS_RESULT ${JSON.stringify({ rounds, rows })}`);
await session.close();
process.exit(failed > 0 ? 1 : 0);
