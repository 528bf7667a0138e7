#!/usr/bin/env node
/**
 * @module bench/move
 * Times move_note on a large vault: a note with 1,000 backlinks (wikilinks, Markdown links and a
 * frontmatter link in each of 1,000 notes) is renamed into another folder through the built server
 * over stdio, so every linking note is rewritten, journaled and re-indexed. Prints figures; asserts
 * nothing about time (ARCHITECTURE.md, "Tests").
 *
 *   npm run build:mcp
 *   node bench/move.mjs [--base /tmp/pv100k] [--notes 100000] [--backlinks 1000] [--runs 3]
 *
 * With `--base DIR` (default /tmp/pv100k when it exists) the base vault is never written: its
 * notes are hard-linked into a temporary copy (every server write replaces a file through a
 * rename, so the shared inodes are never changed) and its index file is copied. Without one, a
 * vault of `--notes` notes is generated into the temporary folder.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { generateVault } from './generate-vault.mjs';
import { killAllServers, startServer } from './lib/server-session.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const { values } = parseArgs({
  options: {
    base: { type: 'string' },
    notes: { type: 'string', default: '100000' },
    backlinks: { type: 'string', default: '1000' },
    runs: { type: 'string', default: '3' },
    server: { type: 'string', default: resolve(here, '../dist-mcp/index.cjs') },
  },
});
const backlinks = Number(values.backlinks);
const runs = Number(values.runs);
const base = values.base ?? (existsSync('/tmp/pv100k') ? '/tmp/pv100k' : null);

const tmp = mkdtempSync(join(tmpdir(), 'noted-bench-move-'));
const vault = join(tmp, 'vault');
process.on('exit', () => {
  killAllServers();
  rmSync(tmp, { recursive: true, force: true });
});

let t = performance.now();
if (base !== null) {
  execFileSync('cp', ['-al', `${resolve(base)}/.`, vault]);
  // The state folder is the server's to change: a real copy of the index, nothing else.
  rmSync(join(vault, '.noted'), { recursive: true, force: true });
  mkdirSync(join(vault, '.noted'));
  if (existsSync(join(base, '.noted', 'index.sqlite'))) {
    execFileSync('cp', [join(base, '.noted', 'index.sqlite'), join(vault, '.noted', 'index.sqlite')]);
  }
  console.error(`copied ${base} (hard links + index copy) in ${sec(t)} s`);
  // The copy leaves hundreds of megabytes for the disk to write back; the move's own syncs would
  // queue behind them. Flushed first, so the figures are the move's alone.
  t = performance.now();
  execFileSync('sync');
  console.error(`flushed the copy to disk in ${sec(t)} s`);
} else {
  const made = generateVault({ notes: Number(values.notes), out: vault });
  console.error(`generated ${made.notes} notes in ${made.seconds.toFixed(1)} s`);
}

// The target and its linkers live in their own folder, under a name no generated note has.
const target = 'bench-move/Bench Move Target';
mkdirSync(join(vault, 'bench-move', 'linkers'), { recursive: true });
writeFileSync(
  join(vault, `${target}.md`),
  '# Bench Move Target\n\n## Part\n\nThe note every linker points at.\n',
);
for (let i = 0; i < backlinks; i++) {
  const n = String(i).padStart(4, '0');
  writeFileSync(
    join(vault, 'bench-move', 'linkers', `linker ${n}.md`),
    `---\nup: "[[Bench Move Target]]"\n---\n# Linker ${n}\n\nSee [[Bench Move Target#Part|the target]] and [it](../Bench%20Move%20Target.md).\n`,
  );
}

t = performance.now();
const server = await startServer({ serverPath: values.server, vault, connectTimeoutMs: 600_000 });
console.error(`server connected in ${sec(t)} s`);

const call = async (name, args) => {
  const r = await server.client.callTool({ name, arguments: args }, undefined, { timeout: 600_000 });
  if (r.isError) throw new Error(`${name}: ${r.content?.[0]?.text}`);
  return r.structuredContent;
};

t = performance.now();
const before = await call('get_backlinks', { name: target, limit: 5000 });
console.error(`first get_backlinks (index catch-up included): ${ms(t)} ms, ${before.total} notes`);

const rows = [];
let current = target;
for (let run = 1; run <= runs; run++) {
  const next = run % 2 === 1 ? `bench-move/moved/Renamed Target ${run}` : `bench-move/Target ${run}`;
  t = performance.now();
  const plan = await call('move_note', { name: current, new_name: next, dry_run: true });
  const dryMs = performance.now() - t;
  t = performance.now();
  const moved = await call('move_note', { name: current, new_name: next });
  const moveMs = performance.now() - t;
  const after = await call('get_backlinks', { name: next, limit: 5000 });
  rows.push({
    run,
    dryRunMs: Math.round(dryMs),
    moveMs: Math.round(moveMs),
    linksChanged: moved.changesTotal,
    notesRewritten: moved.updated.length,
    backlinksAfter: after.total,
    linksAfter: after.backlinks.reduce((n, b) => n + b.count, 0),
    planned: plan.changesTotal,
  });
  current = next;
}
await server.close();

console.log(
  `move_note of a note with ${backlinks} linking notes (${3 * backlinks} links), vault ${base ?? 'generated'}:`,
);
console.table(rows);
const best = Math.min(...rows.map((r) => r.moveMs));
const median = rows.map((r) => r.moveMs).sort((a, b) => a - b)[Math.floor(rows.length / 2)];
console.log(`move_note: median ${median} ms, best ${best} ms (target < 2000 ms)`);
const ok = rows.every(
  (r) => r.backlinksAfter === backlinks && r.linksAfter === 3 * backlinks && r.linksChanged === 3 * backlinks,
);
if (!ok) {
  console.error('FAILED: not every link was rewritten to the moved note');
  process.exitCode = 1;
}

function sec(from) {
  return ((performance.now() - from) / 1000).toFixed(1);
}

function ms(from) {
  return Math.round(performance.now() - from);
}
