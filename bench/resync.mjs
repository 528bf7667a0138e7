#!/usr/bin/env node
/**
 * @module bench/resync
 * Re-sync benchmark (issue 19): how long the built server takes, from spawn to its first answered
 * search, to bring an existing index in line with a vault whose files all (or half) changed, against
 * a cold build of the same vault. A re-sync must cost no more than a cold build: the ratio column.
 *
 * Cases, each on a fresh copy of the vault with an up-to-date index:
 * - cold:    no index at all
 * - warm:    nothing changed (the floor)
 * - touched: every note's modification time moved, same content (a sync tool, `touch`)
 * - copied:  `cp -a` of the vault with its index: every inode new (a restore, another disk)
 * - half:    half of the notes rewritten with new content
 *
 *   node bench/resync.mjs --notes 10000 [--from DIR] [--seed 1] [--runs 1] [--server FILE]
 *
 * `--from DIR` copies an existing vault (e.g. /work/vaults/v10k) into a temp folder first; the
 * original is never written. Prints a table and one `BENCH_RESULT {...}` JSON line.
 */

import { execFileSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, rmSync, utimesSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateVault } from './generate-vault.mjs';
import { argsOrExit } from './lib/args.mjs';
import { timedCall } from './lib/measure.mjs';
import { noteFiles } from './lib/note-files.mjs';
import { killAllServers, startServer } from './lib/server-session.mjs';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const USAGE =
  'usage: node bench/resync.mjs (--notes N | --from DIR) [--seed S] [--runs R] [--server FILE] [--keep]';
const TIMEOUT_MS = 60 * 60_000;

function options() {
  const values = argsOrExit(
    {
      notes: { type: 'string' },
      from: { type: 'string' },
      seed: { type: 'string', default: '1' },
      runs: { type: 'string', default: '1' },
      server: { type: 'string' },
      keep: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h' },
    },
    USAGE,
  );
  const opts = {
    notes: values.notes === undefined ? undefined : Number(values.notes),
    from: values.from === undefined ? undefined : resolve(values.from),
    seed: Number(values.seed),
    runs: Number(values.runs),
    server: values.server ? resolve(values.server) : join(REPO, 'dist-mcp', 'index.cjs'),
    keep: values.keep,
  };
  const problems = [];
  if ((opts.notes === undefined) === (opts.from === undefined)) problems.push('give --notes N or --from DIR');
  if (opts.notes !== undefined && !(Number.isInteger(opts.notes) && opts.notes > 0))
    problems.push('--notes must be a positive integer');
  if (!(Number.isInteger(opts.runs) && opts.runs > 0)) problems.push('--runs must be a positive integer');
  if (problems.length > 0) {
    console.error(`${problems.join('\n')}\n${USAGE}`);
    process.exit(2);
  }
  return opts;
}

/** Spawn → first answered search_notes (a search waits for the index; `busy` is asked again). */
async function timeToFirstSearch(server, vault) {
  const s = await startServer({ serverPath: server, vault, connectTimeoutMs: TIMEOUT_MS });
  try {
    for (;;) {
      const r = await timedCall(s, 'search_notes', { query: 'the', max_results: 1 }, TIMEOUT_MS);
      if (r.error === undefined) {
        return { ms: performance.now() - s.startedAt, connectMs: s.connectedAt - s.startedAt };
      }
      if (r.res?.structuredContent?.code !== 'busy') throw new Error(`search failed: ${r.error}`);
    }
  } catch (err) {
    err.stderrTail = s.stderrTail();
    throw err;
  } finally {
    await s.close();
  }
}

function cpA(from, to) {
  execFileSync('cp', ['-a', `${from}/.`, to]);
}

/** Each case changes a fresh copy of an indexed vault, then times the start on it. */
const CASES = {
  warm: () => undefined,
  touched: (dir, notes) => {
    const later = new Date(Date.now() + 60_000);
    for (const rel of notes) utimesSync(join(dir, rel), later, later);
  },
  // The copy made for the case already has new inodes: nothing more to do.
  copied: () => undefined,
  half: (dir, notes) => {
    notes.forEach((rel, i) => {
      if (i % 2 === 0) appendFileSync(join(dir, rel), `\nRewritten by the re-sync benchmark (${i}).\n`);
    });
  },
};

async function main() {
  const opts = options();
  if (!existsSync(opts.server)) {
    console.error(`${opts.server} not found: build it first with \`npm run build:mcp\``);
    process.exit(1);
  }
  const base = mkdtempSync(join(os.tmpdir(), 'noted-resync-'));
  const cleanup = () => {
    killAllServers();
    if (!opts.keep) rmSync(base, { recursive: true, force: true });
  };
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'])
    process.on(sig, () => {
      cleanup();
      process.exit(130);
    });
  let code = 0;
  try {
    const source = join(base, 'source');
    if (opts.from !== undefined) {
      console.error(`copying ${opts.from} ...`);
      execFileSync('mkdir', ['-p', source]);
      cpA(opts.from, source);
      for (const f of ['index.sqlite', 'index.sqlite-wal', 'index.sqlite-shm'])
        rmSync(join(source, '.noted', f), { force: true });
    } else {
      console.error(`generating ${opts.notes} notes ...`);
      generateVault({ notes: opts.notes, out: source, seed: opts.seed });
    }
    const notes = noteFiles(source);
    const rows = [];
    for (let run = 0; run < opts.runs; run++) {
      const coldDir = join(base, `cold-${run}`);
      execFileSync('mkdir', ['-p', coldDir]);
      cpA(source, coldDir);
      console.error(`run ${run + 1}: cold ...`);
      const cold = await timeToFirstSearch(opts.server, coldDir);
      rows.push({ run, case: 'cold', ...cold });
      for (const [name, change] of Object.entries(CASES)) {
        // A copy of the vault with its fresh index; `cp -a` gives every file a new inode, so the
        // other cases first let the index take the copy in (a warm start), then change it.
        const dir = join(base, `${name}-${run}`);
        execFileSync('mkdir', ['-p', dir]);
        cpA(coldDir, dir);
        if (name !== 'copied') await timeToFirstSearch(opts.server, dir);
        change(dir, notes);
        console.error(`run ${run + 1}: ${name} ...`);
        rows.push({ run, case: name, ...(await timeToFirstSearch(opts.server, dir)) });
        rmSync(dir, { recursive: true, force: true });
      }
      rmSync(coldDir, { recursive: true, force: true });
    }
    const coldMs = (run) => rows.find((r) => r.run === run && r.case === 'cold').ms;
    console.log(
      `Re-sync of ${notes.length} notes (load ${os
        .loadavg()
        .map((v) => v.toFixed(2))
        .join(' ')})`,
    );
    console.log('case      run   first search (s)   connect (s)   × cold');
    for (const r of rows) {
      console.log(
        `${r.case.padEnd(9)} ${String(r.run + 1).padStart(3)}   ${(r.ms / 1000).toFixed(2).padStart(16)}   ${(r.connectMs / 1000).toFixed(2).padStart(11)}   ${(r.ms / coldMs(r.run)).toFixed(2).padStart(6)}`,
      );
    }
    console.log(
      `BENCH_RESULT ${JSON.stringify({ notes: notes.length, rows: rows.map((r) => ({ ...r, ratio: r.ms / coldMs(r.run) })) })}`,
    );
  } catch (err) {
    console.error(`bench failed: ${err?.stack ?? err}`);
    if (err?.stderrTail) console.error(`--- server stderr (tail) ---\n${err.stderrTail}`);
    code = 1;
  } finally {
    cleanup();
  }
  process.exit(code);
}

main();
