#!/usr/bin/env node
/**
 * @module bench/search-after-write
 * What a search for a common word or phrase costs right after a write (issue 34): the server keeps
 * the best rows of a ranking while the full-text index is unchanged, and after a write scores again
 * only some of them for a text of one phrase (src/index/search/run/top-rows.ts). Through a real MCP
 * client: each round creates a note holding the words searched, then runs every query once; the same
 * rounds without the write are the comparison. Prints wall-clock medians and the server's CPU time
 * (utime + stime from /proc) per search.
 *
 *   node bench/search-after-write.mjs --vault DIR [--server FILE] [--rounds N]
 *
 * It writes notes into DIR (bench-write/…): give it a copy of a bench vault.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { argsOrExit } from './lib/args.mjs';
import { timedCall } from './lib/measure.mjs';
import { killAllServers, startServer } from './lib/server-session.mjs';
import { summarize } from './lib/stats.mjs';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const QUERIES = ['the', '"of the"', 'project', 'project meeting'];

function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

async function waitReady(s) {
  for (;;) {
    const r = await timedCall(s, 'get_vault_info', {}, 3_600_000);
    const state = r.res?.structuredContent?.index?.state;
    if (state === 'ready') return;
    if (state === 'failed') throw new Error('the index failed');
    await new Promise((done) => setTimeout(done, 200));
  }
}

async function search(s, query) {
  const r = await timedCall(s, 'search_notes', { query }, 600_000);
  if (r.error) throw new Error(`search ${query}: ${r.error}`);
  return r.ms;
}

async function main() {
  const values = argsOrExit(
    { vault: { type: 'string' }, server: { type: 'string' }, rounds: { type: 'string', default: '10' } },
    'usage: node bench/search-after-write.mjs --vault DIR [--server FILE] [--rounds N]',
  );
  const rounds = Number(values.rounds);
  const server = resolve(values.server ?? `${REPO}/dist-mcp/index.cjs`);
  const s = await startServer({
    serverPath: server,
    vault: resolve(values.vault),
    connectTimeoutMs: 600_000,
  });
  try {
    await waitReady(s);
    for (const q of QUERIES) await search(s, q);
    const results = {};
    for (const mode of ['no write', 'after a write']) {
      const per = Object.fromEntries(QUERIES.map((q) => [q, { ms: [], cpu: 0 }]));
      for (let i = 0; i < rounds; i++) {
        if (mode === 'after a write') {
          const r = await timedCall(s, 'create_note', {
            name: `bench-write/w${Date.now()}-${i}`,
            content: `# The project meeting ${i}\n\nNotes of the project meeting, round ${i}.\n`,
          });
          if (r.error) throw new Error(`create_note: ${r.error}`);
        }
        for (const q of QUERIES) {
          const before = cpuMs(s.pid);
          per[q].ms.push(await search(s, q));
          per[q].cpu += cpuMs(s.pid) - before;
        }
      }
      results[mode] = per;
    }
    console.log(`\nserver ${server}, ${rounds} rounds\n`);
    console.log(
      '| query | no write: median ms | CPU ms a search | after a write: median ms | CPU ms a search |',
    );
    console.log('|---|---|---|---|---|');
    for (const q of QUERIES) {
      const a = results['no write'][q];
      const b = results['after a write'][q];
      console.log(
        `| \`${q}\` | ${summarize(a.ms).median.toFixed(1)} | ${(a.cpu / rounds).toFixed(1)} | ${summarize(b.ms).median.toFixed(1)} | ${(b.cpu / rounds).toFixed(1)} |`,
      );
    }
  } finally {
    await s.close();
    killAllServers();
  }
}

main().catch((err) => {
  console.error(`search-after-write failed: ${err?.stack ?? err}`);
  killAllServers();
  process.exit(1);
});
