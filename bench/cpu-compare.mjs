/**
 * Compares two builds of the server by the CPU time they spend (user + system, from /proc), which a
 * busy machine disturbs far less than wall-clock time: the cold build of a vault's index, then the
 * bench query set (bench/lib/queries.mjs) for a number of rounds. Runs the builds in turn (a b, then
 * b a, and so on), so both see the same machine, and prints each run and the medians.
 *
 *   node bench/cpu-compare.mjs --vault /tmp/vault10k --a OLD/dist-mcp/index.cjs --b dist-mcp/index.cjs [--runs 3] [--rounds 20]
 *                              [--mix scale] [--no-cold]
 *
 * `--mix scale` runs issue 34's 20-query mix (bench/scale.mjs) instead, and reports the first round
 * (each query's first search since the server started) apart from the rounds after it. `--no-cold`
 * keeps the index already there (a warm start each run) and reports no build.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { benchQueries } from './lib/queries.mjs';
import { killAllServers, startServer } from './lib/server-session.mjs';
import { percentile } from './lib/stats.mjs';
import { scaleQueries } from './scale.mjs';

const { values } = parseArgs({
  options: {
    vault: { type: 'string' },
    a: { type: 'string' },
    b: { type: 'string' },
    runs: { type: 'string', default: '3' },
    rounds: { type: 'string', default: '20' },
    mix: { type: 'string', default: 'bench' },
    'no-cold': { type: 'boolean', default: false },
  },
});
const queries = values.mix === 'scale' ? scaleQueries() : benchQueries();
if (!values.vault || !values.a || !values.b) {
  console.error(
    'usage: node bench/cpu-compare.mjs --vault DIR --a SERVER --b SERVER [--runs N] [--rounds N]',
  );
  process.exit(2);
}
const TICK = 100; // USER_HZ: /proc reports CPU time in ticks of 1/100 s on Linux.

/** CPU seconds the process has used, its threads (the parser pool) included. */
function cpuSeconds(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICK;
}

async function waitForIndex(s) {
  for (;;) {
    const r = await s.client.callTool({ name: 'get_vault_info', arguments: {} }, undefined, {
      timeout: 600_000,
    });
    const index = r.structuredContent?.index;
    if (index?.state === 'ready') return;
    if (index?.state === 'failed') throw new Error(`the index failed: ${index.error}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function oneRun(server) {
  if (!values['no-cold'])
    for (const f of ['index.sqlite', 'index.sqlite-wal', 'index.sqlite-shm'])
      rmSync(join(values.vault, '.noted', f), { force: true });
  const s = await startServer({ serverPath: server, vault: values.vault, connectTimeoutMs: 120_000 });
  try {
    await waitForIndex(s);
    const built = cpuSeconds(s.pid);
    let first = built;
    for (let i = 0; i < Number(values.rounds); i++) {
      for (const q of queries)
        await s.client.callTool({ name: 'search_notes', arguments: { query: q.query } }, undefined, {
          timeout: 600_000,
        });
      if (i === 0) first = cpuSeconds(s.pid);
    }
    return { build: built, first: first - built, search: cpuSeconds(s.pid) - first };
  } finally {
    await s.close();
  }
}

const median = (xs) =>
  percentile(
    [...xs].sort((x, y) => x - y),
    50,
  );
const results = { a: [], b: [] };
try {
  for (let i = 0; i < Number(values.runs); i++) {
    // a b, then b a: a machine whose load drifts during the runs favours neither build.
    for (const which of i % 2 === 0 ? ['a', 'b'] : ['b', 'a']) {
      const r = await oneRun(values[which]);
      results[which].push(r);
      console.log(
        `${which} run ${i + 1}: ${values['no-cold'] ? 'warm start' : 'cold build'} ${r.build.toFixed(2)} s CPU, first round ${r.first.toFixed(2)} s CPU, later rounds ${r.search.toFixed(2)} s CPU`,
      );
    }
  }
} finally {
  killAllServers();
}
const later = Math.max(1, Number(values.rounds) - 1) * queries.length;
for (const which of ['a', 'b']) {
  const build = median(results[which].map((r) => r.build));
  const first = median(results[which].map((r) => r.first));
  const search = median(results[which].map((r) => r.search));
  console.log(
    `${which} (${values[which]}): median ${values['no-cold'] ? 'warm start' : 'cold build'} ${build.toFixed(2)} s CPU, first round ${((first * 1000) / queries.length).toFixed(2)} ms CPU per query, later rounds ${((search * 1000) / later).toFixed(2)} ms CPU per query`,
  );
}
