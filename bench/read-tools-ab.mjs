#!/usr/bin/env node
/**
 * @module bench/read-tools-ab
 * Two builds answering the reading tools on the same vault, alternating call by call (issue 35
 * finding 5: whether the visible flag on the link, tag and task rows slows a vault with nothing
 * hidden), then what a policy change costs each: a folder made hidden, then shown again, timed as
 * the first call after the policy file changed (that call brings the index in line). Prints medians
 * and the ratio second / first; asserts nothing about time. Answers that differ are printed.
 *
 *   npm run build:mcp
 *   node bench/read-tools-ab.mjs --vault /work/vaults/10k --compare OLD.cjs [--server dist-mcp/index.cjs]
 *        [--rounds 30] [--hide inbox] [--flips 2]
 *
 * The vault is never written: its notes are hard-linked into a temporary folder per build (no tool
 * here writes a note), without its `.noted/`, so each server builds its own index first.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { killAllServers, startServer } from './lib/server-session.mjs';
import { summarize } from './lib/stats.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const { values } = parseArgs({
  options: {
    vault: { type: 'string' },
    server: { type: 'string', default: resolve(here, '../dist-mcp/index.cjs') },
    compare: { type: 'string' },
    rounds: { type: 'string', default: '30' },
    hide: { type: 'string', default: 'inbox' },
    flips: { type: 'string', default: '2' },
  },
});
if (values.vault === undefined || values.compare === undefined) {
  console.error('usage: node bench/read-tools-ab.mjs --vault VAULT --compare OLD.cjs [--server NEW.cjs]');
  process.exit(2);
}
const tmp = mkdtempSync(join(tmpdir(), 'noted-bench-ab-'));
process.on('exit', () => {
  killAllServers();
  rmSync(tmp, { recursive: true, force: true });
});
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

async function open(label, serverPath) {
  // One folder name for both: the answers' Obsidian links name the vault by it.
  const vault = join(tmp, label, 'vault');
  mkdirSync(join(tmp, label));
  execFileSync('cp', ['-al', `${resolve(values.vault)}/.`, vault]);
  rmSync(join(vault, '.noted'), { recursive: true, force: true });
  mkdirSync(join(vault, '.noted'));
  const t = performance.now();
  const session = await startServer({ serverPath, vault, connectTimeoutMs: 1_800_000 });
  // A call during a long cold build is answered busy, to be asked again.
  for (;;) {
    const res = await session.client.callTool(
      { name: 'list_notes', arguments: { limit: 1 } },
      { timeout: 1_800_000 },
    );
    if (res.structuredContent?.code !== 'busy') break;
    await new Promise((done) => setTimeout(done, 2000));
  }
  console.log(`${label}: ${serverPath}, index built in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  return { label, session, vault };
}

async function call(session, name, args, timeout = 600_000) {
  const t = performance.now();
  const res = await session.client.callTool({ name, arguments: args }, { timeout });
  const ms = performance.now() - t;
  if (res.isError)
    throw new Error(`${name} ${JSON.stringify(args)}: ${JSON.stringify(res.structuredContent)}`);
  return { ms, result: res.structuredContent };
}

/** Where two answers part, a little of each. */
function firstDifference(a, b) {
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return `at ${i}: old …${a.slice(i, i + 60)} / new …${b.slice(i, i + 60)}`;
}

const builds = [await open('old', resolve(values.compare)), await open('new', resolve(values.server))];
const manifest = JSON.parse(readFileSync(join(values.vault, '.bench-vault.json'), 'utf8'));
const tags = (await call(builds[0].session, 'list_tags', { limit: 40 })).result.tags;
const common = tags[0].tag;
const rarer = tags.at(-1).tag;
const calls = [
  ['get_backlinks', { name: manifest.mostLinked[0] }],
  ['list_by_tag', { tag: common }],
  ['list_by_tag', { tag: rarer }],
  ['list_tasks', { text: 'review' }],
  ['list_tasks', { status: 'open', due_to: '2026-12-31' }],
  ['list_tags', {}],
  ['export_notes', { format: 'json', tag: rarer }],
  ['search_notes', { query: 'budget' }],
  ['search_notes', { query: 'budget review' }],
];
console.log(`read tools, ${values.rounds} rounds alternating; load average before ${load()}`);
const rounds = Number(values.rounds);
for (const [name, args] of calls) {
  const samples = { old: [], new: [] };
  const answers = {};
  for (let r = -1; r < rounds; r++) {
    const order = r % 2 === 0 ? builds : [...builds].reverse();
    for (const b of order) {
      const { ms, result } = await call(b.session, name, args);
      if (r >= 0) samples[b.label].push(ms);
      else
        answers[b.label] = JSON.stringify(result).replace(/"(modified|generatedAt|exportedAt)":"[^"]*"/g, '');
    }
  }
  const o = summarize(samples.old);
  const n = summarize(samples.new);
  const same =
    answers.old === answers.new ? '' : `  ANSWERS DIFFER ${firstDifference(answers.old, answers.new)}`;
  console.log(
    `  ${`${name} ${JSON.stringify(args)}`.slice(0, 70).padEnd(70)} old ${String(o.median).padStart(7)} ms, new ${String(n.median).padStart(7)} ms, new/old ${(n.median / o.median).toFixed(2)}${same}`,
  );
}
console.log(`load average after ${load()}`);

const flips = Number(values.flips);
console.log(`policy flips: ${values.hide}/ hidden, then shown, ${flips} times per build`);
for (let f = 0; f < flips; f++) {
  for (const b of f % 2 === 0 ? builds : [...builds].reverse()) {
    const policy = join(b.vault, '.noted', 'mcp-policy.yaml');
    writeFileSync(policy, `folders:\n  ${values.hide}: hidden\n`);
    const hide = await call(b.session, 'list_notes', { limit: 1 });
    const after = await call(b.session, 'list_notes', { limit: 1 });
    rmSync(policy);
    const show = await call(b.session, 'list_notes', { limit: 1 });
    console.log(
      `  ${b.label}: hide ${hide.ms.toFixed(0)} ms (next call ${after.ms.toFixed(1)} ms), show again ${show.ms.toFixed(0)} ms; load ${load()}`,
    );
  }
}
for (const b of builds) await b.session.close();
