#!/usr/bin/env node
/**
 * @module bench/bases
 * Times query_base (SPEC 16.4) through the built server over stdio on a generated vault:
 * - a view filtered by a tag (and one by a folder) with three columns, which the index narrows to
 *   its candidates (goal: ≤ 200 ms warm at 100k notes), beside the same view written so the index
 *   cannot narrow it (`file.tags.contains(...)`, every file evaluated): the figure before and after
 *   the candidate query;
 * - a whole-vault view with a formula (goal: ≤ 3 s at 100k notes).
 * Prints the first (cold) call and the median and worst of the warm ones; asserts nothing about time.
 *
 *   npm run build:mcp
 *   node bench/bases.mjs --notes 10000 [--runs 5]
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { generateVault } from './generate-vault.mjs';
import { killAllServers, startServer } from './lib/server-session.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const { values } = parseArgs({
  options: {
    notes: { type: 'string', default: '10000' },
    runs: { type: 'string', default: '5' },
    server: { type: 'string', default: resolve(here, '../dist-mcp/index.cjs') },
  },
});
const runs = Number(values.runs);

const BASE = `formulas:
  age_days: "((now() - file.ctime) / 86400000).round()"
views:
  - type: table
    name: Tagged
    filters: 'file.hasTag("book")'
    order: [file.name, created, due]
  - type: table
    name: Tagged, not narrowed
    filters: 'file.tags.contains("#book")'
    order: [file.name, created, due]
  - type: table
    name: Folder
    filters: 'file.inFolder("FOLDER")'
    order: [file.name, created, due]
  - type: table
    name: Whole vault with a formula
    order: [file.name, formula.age_days]
    sort:
      - property: formula.age_days
        direction: DESC
`;

const tmp = mkdtempSync(join(tmpdir(), 'noted-bench-bases-'));
const vault = join(tmp, 'vault');
process.on('exit', () => {
  killAllServers();
  rmSync(tmp, { recursive: true, force: true });
});

const made = generateVault({ notes: Number(values.notes), out: vault });
console.error(`generated ${made.notes} notes in ${made.seconds.toFixed(1)} s`);
const folder = made.manifest.sample[0].split('/').slice(0, -1).join('/') || '';
writeFileSync(join(vault, 'Bench.base'), BASE.replace('FOLDER', folder));

let t = performance.now();
const server = await startServer({ serverPath: values.server, vault, connectTimeoutMs: 600_000 });
for (;;) {
  const info = await server.client.callTool({ name: 'get_vault_info', arguments: {} }, undefined, {
    timeout: 600_000,
  });
  if (info.structuredContent?.counts !== undefined) break;
  await new Promise((r) => setTimeout(r, 200));
}
console.error(`index ready in ${((performance.now() - t) / 1000).toFixed(1)} s`);

const rows = [];
for (const view of ['Tagged', 'Tagged, not narrowed', 'Folder', 'Whole vault with a formula']) {
  const times = [];
  let total = 0;
  for (let i = 0; i <= runs; i++) {
    t = performance.now();
    const r = await server.client.callTool(
      { name: 'query_base', arguments: { base: 'Bench.base', view, limit: 100 } },
      undefined,
      { timeout: 600_000 },
    );
    times.push(performance.now() - t);
    if (r.isError) throw new Error(`${view}: ${r.content[0].text}`);
    total = r.structuredContent.total;
  }
  const warm = times.slice(1).sort((a, b) => a - b);
  rows.push({
    view,
    rows: total,
    'cold ms': Math.round(times[0]),
    'warm median ms': Math.round(warm[Math.floor(warm.length / 2)]),
    'warm worst ms': Math.round(warm[warm.length - 1]),
  });
}
console.log(`query_base over ${made.notes} generated notes (folder "${folder}"), ${runs} warm runs each:`);
console.table(rows);
await server.close?.();
