#!/usr/bin/env node
/**
 * @module bench/hidden-timing
 * Whether a search's time or ranking tells of hidden notes (issue 25 item 3): a word that only notes in
 * a hidden folder hold must cost what a word found nowhere costs, and a visible note must score the
 * same whether or not hidden notes hold the query's words. Prints figures; asserts nothing about time
 * (ARCHITECTURE.md, "Tests"). Exits 1 only when the `--server` build answers otherwise than it must
 * (a hidden note counted, or a page or score unlike the same server's on the vault without the hidden
 * folder); such differences of a `--compare` build are printed as PROBLEM lines.
 *
 *   npm run build:mcp
 *   node bench/hidden-timing.mjs --base /work/vaults/v10k [--hidden 3000] [--rounds 200]
 *        [--server dist-mcp/index.cjs] [--compare /work/baseline/dist-mcp/index.cjs]
 *
 * The base vault is never written: its notes are hard-linked into a temporary folder (a search never
 * writes a note) and its `.noted/` is left out. `--hidden` notes holding the word `zqhiddenword` are
 * added in `zz-hidden/`, which the policy hides. Two phases per server:
 *   built   the policy is in place before the server starts (the cold build leaves them out);
 *   changed the server built its index with nothing hidden, then the policy file appears: the first
 *           search pays for bringing the index in line (timed on its own), the rounds follow at once.
 * In each, `--rounds` rounds alternate, in turn, a word found nowhere (`zqabsentword`), the hidden
 * word, and both OR-ed with a visible word (whose scores must equal across the pair).
 * With `--compare FILE` the same runs with that server too, alternating the two per phase.
 *
 *   node bench/hidden-timing.mjs --tools [--hidden 3000] [--visible 300] [--rounds 20] [--server FILE]
 *
 * The reading tools other than search (issue 35 finding 5, bench/lib/hidden-tools.mjs): get_backlinks,
 * list_by_tag, list_tasks {text}, export_notes {tag} and get_note_outline asked about what only hidden
 * notes hold and about what nothing holds; no base vault needed.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { hiddenTools } from './lib/hidden-tools.mjs';
import { killAllServers, startServer } from './lib/server-session.mjs';
import { summarize } from './lib/stats.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const { values } = parseArgs({
  options: {
    base: { type: 'string' },
    hidden: { type: 'string', default: '3000' },
    rounds: { type: 'string', default: '200' },
    server: { type: 'string', default: resolve(here, '../dist-mcp/index.cjs') },
    compare: { type: 'string' },
    tools: { type: 'boolean', default: false },
    visible: { type: 'string', default: '300' },
  },
});
if (values.tools) {
  await hiddenTools({
    serverPath: values.server,
    hidden: Number(values.hidden),
    visible: Number(values.visible),
    rounds: Number(values.rounds === '200' ? '20' : values.rounds),
  });
  process.exit(0);
}
if (values.base === undefined || !existsSync(values.base)) {
  console.error(
    'usage: node bench/hidden-timing.mjs --base VAULT [--hidden N] [--rounds K] [--server FILE] [--compare FILE]',
  );
  process.exit(2);
}
const hiddenCount = Number(values.hidden);
const rounds = Number(values.rounds);
const HIDDEN_WORD = 'zqhiddenword';
const ABSENT_WORD = 'zqabsentword';
/** In every generated note (the generator's vocabulary): the visible side of the OR queries. */
const VISIBLE_WORD = 'budget';
const POLICY = 'folders:\n  zz-hidden: hidden\n';

const tmp = mkdtempSync(join(tmpdir(), 'noted-bench-hidden-'));
process.on('exit', () => {
  killAllServers();
  rmSync(tmp, { recursive: true, force: true });
});

/** A fresh copy of the base vault plus `count` notes in the hidden folder, without any state. */
function makeVault(name, count) {
  const vault = join(tmp, name);
  execFileSync('cp', ['-al', `${resolve(values.base)}/.`, vault]);
  // Hard links: removing the copy's state folder leaves the base's untouched.
  rmSync(join(vault, '.noted'), { recursive: true, force: true });
  mkdirSync(join(vault, '.noted'));
  mkdirSync(join(vault, 'zz-hidden'));
  const filler = 'plan budget meeting notes project review design the of and to a in';
  for (let i = 0; i < count; i++) {
    const words = Array.from({ length: 120 }, (_, j) => filler.split(' ')[(i * 7 + j * 3) % 13]).join(' ');
    writeFileSync(
      join(vault, 'zz-hidden', `hidden ${String(i).padStart(5, '0')}.md`),
      `# Hidden ${i}\n\n${words} ${HIDDEN_WORD} ${budgetIf(i)}\n`,
    );
  }
  return vault;
}

/** Some hidden notes also hold the visible word, so its statistics would change if they counted. */
function budgetIf(i) {
  return i % 2 === 0 ? `${VISIBLE_WORD} ${VISIBLE_WORD}` : '';
}

async function search(client, query) {
  const t = performance.now();
  const r = await client.callTool({ name: 'search_notes', arguments: { query, max_results: 10 } });
  const ms = performance.now() - t;
  if (r.isError) throw new Error(`search ${query} failed: ${JSON.stringify(r.structuredContent)}`);
  return { ms, result: r.structuredContent };
}

/** Ranked over the visible notes: the same names and scores with and without the hidden ones. */
const RANKED = [
  VISIBLE_WORD,
  `${VISIBLE_WORD} plan`,
  `${HIDDEN_WORD} OR ${VISIBLE_WORD}`,
  `"next steps" OR ${VISIBLE_WORD}`,
];

const QUERIES = {
  absent: ABSENT_WORD,
  hidden: HIDDEN_WORD,
  absentOr: `${ABSENT_WORD} OR ${VISIBLE_WORD}`,
  hiddenOr: `${HIDDEN_WORD} OR ${VISIBLE_WORD}`,
};

/** Problems per server: differing answers are expected of an older build given with --compare. */
const problems = {};
let current = '';
function problem(message) {
  problems[current] = (problems[current] ?? 0) + 1;
  console.log(`PROBLEM ${message}`);
}

/** The page of each ranked query, names and scores. */
async function rankings(client) {
  const out = {};
  for (const q of RANKED) {
    const { result } = await search(client, q);
    out[q] = { total: result.total, hits: result.results.map((h) => [h.name, h.score]) };
  }
  return out;
}

/** Alternating rounds of the four queries; checks answers, returns latencies per query. */
async function measure(client, label) {
  const samples = Object.fromEntries(Object.keys(QUERIES).map((k) => [k, []]));
  const names = Object.keys(QUERIES);
  for (let r = 0; r < rounds; r++) {
    const order = r % 2 === 0 ? names : [...names].reverse();
    const answers = {};
    for (const kind of order) {
      const { ms, result } = await search(client, QUERIES[kind]);
      samples[kind].push(ms);
      answers[kind] = result;
    }
    if (r === 0) {
      if (answers.hidden.total !== 0)
        problem(`${label}: the hidden word matched ${answers.hidden.total} notes`);
      const strip = (res) => JSON.stringify(res.results.map((h) => [h.name, h.score]));
      if (
        strip(answers.hiddenOr) !== strip(answers.absentOr) ||
        answers.hiddenOr.total !== answers.absentOr.total
      ) {
        problem(`${label}: "${QUERIES.hiddenOr}" ranks differently from "${QUERIES.absentOr}"`);
      }
    }
  }
  return samples;
}

async function phase(serverPath, vault, kind) {
  const policyFile = join(vault, '.noted', 'mcp-policy.yaml');
  rmSync(join(vault, '.noted', 'index.sqlite'), { force: true });
  rmSync(join(vault, '.noted', 'index.sqlite-wal'), { force: true });
  rmSync(join(vault, '.noted', 'index.sqlite-shm'), { force: true });
  if (kind === 'built') writeFileSync(policyFile, POLICY);
  else rmSync(policyFile, { force: true });
  const session = await startServer({ serverPath, vault, connectTimeoutMs: 600_000 });
  try {
    const first = await search(session.client, VISIBLE_WORD);
    const out = { buildMs: first.ms };
    if (kind === 'changed') {
      const seen = await search(session.client, HIDDEN_WORD);
      if (seen.result.total !== hiddenCount)
        problem(`before the policy: ${seen.result.total} hidden notes found`);
      writeFileSync(policyFile, POLICY);
      out.policyChangeMs = (await search(session.client, ABSENT_WORD)).ms;
    }
    out.samples = await measure(session.client, `${serverPath} ${kind}`);
    out.rankings = await rankings(session.client);
    return out;
  } finally {
    await session.close();
  }
}

/** The rankings the same server gives on the vault without the hidden folder. */
async function reference(serverPath, vault) {
  const session = await startServer({ serverPath, vault, connectTimeoutMs: 600_000 });
  try {
    return await rankings(session.client);
  } finally {
    await session.close();
  }
}

const servers = [values.server, ...(values.compare ? [values.compare] : [])];
const vaults = Object.fromEntries(servers.map((s, i) => [s, makeVault(`vault${i}`, hiddenCount)]));
const withoutHidden = makeVault('reference', 0);
console.log(
  `base ${values.base}, ${hiddenCount} hidden notes, ${rounds} rounds; servers: ${servers.join(', ')}`,
);
const references = {};
for (const server of servers) {
  rmSync(join(withoutHidden, '.noted', 'index.sqlite'), { force: true });
  references[server] = await reference(server, withoutHidden);
}
const results = {};
for (const kind of ['built', 'changed']) {
  for (const server of servers) {
    current = server;
    const out = await phase(server, vaults[server], kind);
    for (const q of RANKED) {
      const a = JSON.stringify(out.rankings[q]);
      const b = JSON.stringify(references[server][q]);
      if (a !== b)
        problem(
          `${server} ${kind}: "${q}" ranks otherwise than without the hidden notes: ${a.slice(0, 200)} against ${b.slice(0, 200)}`,
        );
    }
    const stats = Object.fromEntries(Object.entries(out.samples).map(([k, v]) => [k, summarize(v)]));
    results[`${kind}:${server}`] = { buildMs: out.buildMs, policyChangeMs: out.policyChangeMs, stats };
    console.log(
      `\n${kind === 'built' ? 'policy in place at start' : 'policy written while running'} — ${server}`,
    );
    if (out.policyChangeMs !== undefined)
      console.log(`  first search after the policy change: ${out.policyChangeMs.toFixed(1)} ms`);
    for (const [k, s] of Object.entries(stats)) {
      console.log(
        `  ${k.padEnd(9)} ${JSON.stringify(QUERIES[k]).padEnd(30)} median ${s.median} ms  p95 ${s.p95} ms  mean ${s.mean} ms`,
      );
    }
    const ratio = (a, b) => (stats[a].median / stats[b].median).toFixed(3);
    console.log(
      `  hidden / absent median: ${ratio('hidden', 'absent')}; (hidden OR visible) / (absent OR visible): ${ratio('hiddenOr', 'absentOr')}`,
    );
  }
}
console.log(`BENCH_HIDDEN_RESULT ${JSON.stringify({ hidden: hiddenCount, rounds, problems, results })}`);
process.exitCode = (problems[values.server] ?? 0) > 0 ? 1 : 0;
