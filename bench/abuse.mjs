#!/usr/bin/env node
/**
 * @module bench/abuse
 * Figures for issue 25's abuse cases, through the built server as an agent would drive it. Prints
 * figures; asserts nothing about time (ARCHITECTURE.md, "Tests"). Each part runs on its own temp vault.
 *
 *   npm run build:mcp
 *   node bench/abuse.mjs                     # the issue's sizes
 *   node bench/abuse.mjs --links 2000,8000 --bodies 3 --body-mb 2 --updates 6 --update-mb 1 --journal-max-mb 3 --html-links 2000,8000 --html-depth 2000,8000
 *
 * - links: a note of `[[t]] ` repeated N times, then `move_note` of the linked note with dry_run, over
 *   stdio: ms per N, and the ratio to the smallest N (linear: about N/N0).
 * - bodies: K concurrent tools/call requests over HTTP, each a create_note of M MB (refused as too
 *   large once parsed): the server's peak RSS before and after, and how the requests were answered.
 * - journal: U update_note calls of distinct texts of S MB each with journalMaxMB = L: how many were
 *   refused, and what the journal's stored texts take on disk.
 * - html-links: an HTML vault holding one note whose single paragraph is N links (`<a href>`), read
 *   with read_note over stdio: ms per N, and the ratio to the smallest N (linear: about N/N0). Reading
 *   such a note was quadratic (40,000 links: 5.5 s).
 * - html-depth: an HTML vault holding one note of N nested `<div>`s, read with read_note and found with
 *   search_notes over stdio: ms per N. It was quadratic and ran out of stack (100,000: minutes).
 * - stalls (issue 35 findings 1 and 2): one server, one note of the issue's regex case (`"a"`×100,000,
 *   a newline, `"aaaa "`×20,000) and one of `[[t]] ` repeated --stall-links times. Each heavy call
 *   (the regex search, export_notes html, get_outgoing_links, get_note_outline, get_backlinks) runs
 *   while the same connection reads a small note every 50 ms (the server takes requests concurrently,
 *   so a read waits only while the heavy call holds the thread): the call's ms, how it was answered,
 *   and the longest the small read waited (what every other client waits).
 *
 *   node bench/abuse.mjs --parts stalls [--stall-links 800000]
 *
 * - conflict (issue 35 finding 7): a note of C control characters (`\u0001`, six bytes each once
 *   JSON-escaped), then a stale update_note over stdio: the size of the conflict answer, and whether
 *   the client got it and the server still answers.
 * - convert-race (issue 35 finding 6): R runs of a vault of 400 notes, six create_note loops over stdio
 *   and `noted-mcp convert --to html` meanwhile: creates answered `created: true` whose note stayed
 *   `.md` (an attachment in the converted vault: lost), per run.
 *
 *   node bench/abuse.mjs --parts conflict,convert-race   # only these parts
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { benchConfigHome } from './lib/config-home.mjs';
import { startHttpServerProcess } from './lib/load-server.mjs';
import { killAllServers, startServer } from './lib/server-session.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const { values } = parseArgs({
  options: {
    links: { type: 'string', default: '20000,80000,200000' },
    bodies: { type: 'string', default: '10' },
    'body-mb': { type: 'string', default: '15' },
    updates: { type: 'string', default: '40' },
    'update-mb': { type: 'string', default: '5' },
    'journal-max-mb': { type: 'string', default: '100' },
    'html-links': { type: 'string', default: '10000,40000,160000' },
    'html-depth': { type: 'string', default: '25000,100000,400000' },
    'stall-links': { type: 'string', default: '800000' },
    'conflict-chars': { type: 'string', default: '1500000' },
    'race-runs': { type: 'string', default: '9' },
    parts: {
      type: 'string',
      default: 'links,bodies,journal,html-links,html-depth,stalls,conflict,convert-race',
    },
    server: { type: 'string', default: resolve(here, '../dist-mcp/index.cjs') },
  },
});
const MB = 1024 * 1024;
benchConfigHome();
const temps = [];
process.on('exit', () => {
  killAllServers();
  for (const t of temps) rmSync(t, { recursive: true, force: true });
});

function tempVault(name) {
  const base = mkdtempSync(join(tmpdir(), `noted-bench-abuse-${name}-`));
  temps.push(base);
  const vault = join(base, 'vault');
  mkdirSync(vault);
  return vault;
}

async function call(client, name, args) {
  const r = await client.callTool({ name, arguments: args }, { timeout: 3_600_000 });
  return { isError: r.isError === true, structured: r.structuredContent ?? {} };
}

async function links() {
  const sizes = values.links.split(',').map(Number);
  const vault = tempVault('links');
  mkdirSync(join(vault, 'pub'));
  writeFileSync(join(vault, 'pub', 't.md'), '# t\n');
  const session = await startServer({ serverPath: values.server, vault, connectTimeoutMs: 60_000 });
  console.log('links: move_note dry_run of a note linked N times from one note (stdio)');
  let first = null;
  for (const n of sizes) {
    const made = await call(session.client, 'create_note', {
      name: `pub/spam-${n}`,
      content: '[[t]] '.repeat(n),
    });
    if (made.isError) throw new Error(`create_note failed: ${JSON.stringify(made.structured)}`);
    const t = performance.now();
    const moved = await call(session.client, 'move_note', {
      name: 'pub/t',
      new_name: 'pub/t2',
      dry_run: true,
    });
    const ms = performance.now() - t;
    first ??= { n, ms };
    console.log(
      `  ${String(n).padStart(8)} links  ${ms.toFixed(0).padStart(7)} ms  (x${(ms / first.ms).toFixed(1)} for x${(n / first.n).toFixed(1)} links; ${moved.structured.changesTotal} changes planned)`,
    );
    await call(session.client, 'delete_note', { name: `pub/spam-${n}` });
  }
  await session.close();
}

async function bodies() {
  const count = Number(values.bodies);
  const size = Number(values['body-mb']) * 1_000_000;
  const vault = tempVault('bodies');
  writeFileSync(join(vault, 'a.md'), 'a\n');
  const server = await startHttpServerProcess({ serverPath: values.server, vault });
  const before = server.memory();
  const client = new Client(
    { name: 'bench-abuse', version: '1' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL(server.url), {
      authProvider: { token: async () => server.token },
    }),
  );
  const t = performance.now();
  const outcomes = await Promise.all(
    Array.from({ length: count }, (_, i) =>
      call(client, 'create_note', { name: `big-${i}`, content: `${i}${'z'.repeat(size)}` }).then(
        (r) => (r.isError ? String(r.structured.code) : 'created'),
        (e) => `failed: ${e.message.slice(0, 80)}`,
      ),
    ),
  );
  const ms = performance.now() - t;
  const after = server.memory();
  const tally = {};
  for (const o of outcomes) tally[o] = (tally[o] ?? 0) + 1;
  console.log(`bodies: ${count} concurrent tools/call of ${values['body-mb']} MB each over HTTP`);
  console.log(
    `  server RSS ${mb(before?.rss)} before; peak ${mb(after?.peakRss)} (VmHWM); ${ms.toFixed(0)} ms`,
  );
  console.log(
    `  answers: ${Object.entries(tally)
      .map(([k, v]) => `${v} ${k}`)
      .join(', ')}`,
  );
  await client.close();
  await server.stop();
}

async function journal() {
  const updates = Number(values.updates);
  const size = Number(values['update-mb']) * 1_000_000;
  const vault = tempVault('journal');
  mkdirSync(join(vault, '.noted'));
  writeFileSync(
    join(vault, '.noted', 'config.json'),
    JSON.stringify({ journalMaxMB: Number(values['journal-max-mb']) }),
  );
  writeFileSync(join(vault, 'a.md'), 'a\n');
  const session = await startServer({ serverPath: values.server, vault, connectTimeoutMs: 60_000 });
  let refused = 0;
  const t = performance.now();
  for (let i = 0; i < updates; i++) {
    const r = await call(session.client, 'update_note', {
      name: 'a',
      content: `${i}\n${String(i % 10).repeat(size)}`,
    });
    if (r.isError) refused++;
  }
  const ms = performance.now() - t;
  await session.close();
  console.log(
    `journal: ${updates} update_note of ${values['update-mb']} MB each, journalMaxMB ${values['journal-max-mb']}`,
  );
  console.log(
    `  ${updates - refused} recorded, ${refused} refused (journal full); stored texts on disk ${mb(du(join(vault, '.noted', 'journal', 'blobs')))}; ${ms.toFixed(0)} ms`,
  );
}

async function htmlLinks() {
  const sizes = values['html-links'].split(',').map(Number);
  console.log('html-links: read_note of an HTML note whose one paragraph holds N links (stdio)');
  let first = null;
  for (const n of sizes) {
    const vault = tempVault('html');
    const anchors = Array.from({ length: n }, (_, i) => `<a href="n${i % 100}.html">l${i}</a>`).join(' ');
    writeFileSync(join(vault, 'big.html'), `<h1>Big</h1>\n<p>${anchors}</p>\n`);
    const session = await startServer({ serverPath: values.server, vault, connectTimeoutMs: 600_000 });
    const t = performance.now();
    const read = await call(session.client, 'read_note', { name: 'big' });
    const ms = performance.now() - t;
    if (read.isError) throw new Error(`read_note failed: ${JSON.stringify(read.structured)}`);
    first ??= { n, ms };
    console.log(
      `  ${String(n).padStart(8)} links  ${ms.toFixed(0).padStart(7)} ms  (x${(ms / first.ms).toFixed(1)} for x${(n / first.n).toFixed(1)} links)`,
    );
    await session.close();
  }
}

async function htmlDepth() {
  const sizes = values['html-depth'].split(',').map(Number);
  console.log('html-depth: read_note and search_notes of an HTML note of N nested <div>s (stdio)');
  for (const n of sizes) {
    const vault = tempVault('depth');
    writeFileSync(join(vault, 'deep.html'), `${'<div>'.repeat(n)}deepword${'</div>'.repeat(n)}\n`);
    const t0 = performance.now();
    const session = await startServer({ serverPath: values.server, vault, connectTimeoutMs: 3_600_000 });
    const row = [`  ${String(n).padStart(8)} levels  start ${(performance.now() - t0).toFixed(0)} ms`];
    for (const [tool, args] of [
      ['read_note', { name: 'deep' }],
      ['search_notes', { query: 'deepword' }],
    ]) {
      const t = performance.now();
      let outcome;
      try {
        const r = await call(session.client, tool, args);
        outcome = r.isError ? String(r.structured.code ?? 'error') : 'ok';
      } catch (e) {
        outcome = `failed: ${e.message.slice(0, 60)}`;
      }
      row.push(`${tool} ${(performance.now() - t).toFixed(0)} ms ${outcome}`);
    }
    console.log(row.join('  '));
    await session.close();
  }
}

function du(dir) {
  let total = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    total += e.isDirectory() ? du(p) : statSync(p).size;
  }
  return total;
}

function mb(bytes) {
  return bytes == null ? '?' : `${(bytes / MB).toFixed(1)} MB`;
}

async function stalls() {
  const vault = tempVault('stalls');
  mkdirSync(join(vault, 'pub'));
  writeFileSync(join(vault, 'pub', 't.md'), '# t\n');
  writeFileSync(join(vault, 'pub', 'small.md'), '# small\n\nhello\n');
  const session = await startServer({ serverPath: values.server, vault, connectTimeoutMs: 60_000 });
  const n = Number(values['stall-links']);
  let t0 = performance.now();
  const one = await call(session.client, 'create_note', {
    name: 'pub/one',
    content: `${'a'.repeat(100_000)}\n${'aaaa '.repeat(20_000)}`,
  });
  const spam = await call(session.client, 'create_note', { name: 'pub/spam', content: '[[t]] '.repeat(n) });
  console.log(
    `stalls: notes made in ${Math.round(performance.now() - t0)} ms (one: ${one.isError ? one.structured.code : 'ok'}, spam of ${n} links: ${spam.isError ? spam.structured.code : 'ok'})`,
  );
  const cases = [
    ['search_notes /.{0,1000}.{0,1000}z/', 'search_notes', { query: '/.{0,1000}.{0,1000}z/' }],
    ['search_notes /.{0,150}.{0,150}z/', 'search_notes', { query: '/.{0,150}.{0,150}z/' }],
    ['export_notes html', 'export_notes', { format: 'html' }],
    ['get_outgoing_links pub/spam', 'get_outgoing_links', { name: 'pub/spam' }],
    ['get_note_outline pub/spam', 'get_note_outline', { name: 'pub/spam' }],
    ['get_backlinks pub/t', 'get_backlinks', { name: 'pub/t' }],
  ];
  for (const [label, tool, args] of cases) {
    let longest = 0;
    let reads = 0;
    let running = true;
    const reader = (async () => {
      while (running) {
        const r0 = performance.now();
        await session.client.callTool(
          { name: 'read_note', arguments: { name: 'pub/small' } },
          { timeout: 3_600_000 },
        );
        longest = Math.max(longest, performance.now() - r0);
        reads++;
        await new Promise((r) => setTimeout(r, 50));
      }
    })();
    t0 = performance.now();
    const r = await call(session.client, tool, args);
    const ms = performance.now() - t0;
    running = false;
    await reader;
    const answer = r.isError ? `${r.structured.code}` : 'ok';
    console.log(
      `  ${label.padEnd(38)} ${String(Math.round(ms)).padStart(7)} ms  ${answer.padEnd(16)} other client's longest wait ${Math.round(longest)} ms (${reads} reads)`,
    );
  }
  await session.close();
}

async function conflict() {
  const chars = Number(values['conflict-chars']);
  const vault = tempVault('conflict');
  writeFileSync(join(vault, 'odd.md'), '\u0001'.repeat(chars));
  const session = await startServer({ serverPath: values.server, vault, connectTimeoutMs: 60_000 });
  console.log(`conflict: a stale update_note of a note of ${chars} control characters (stdio)`);
  let outcome;
  try {
    const r = await session.client.callTool(
      {
        name: 'update_note',
        arguments: { name: 'odd', content: 'mine', expected_etag: `sha256:${'0'.repeat(64)}` },
      },
      undefined,
      { timeout: 600_000 },
    );
    const s = r.structuredContent ?? {};
    outcome = `answered ${s.code}, ${mb(Buffer.byteLength(JSON.stringify(r)))}${s.currentTextTruncated ? `, currentText the first ${s.currentText.length} of ${s.currentTextTotalChars} characters` : ''}`;
  } catch (e) {
    outcome = `failed: ${e.message.slice(0, 80)}`;
  }
  let after;
  try {
    await session.client.callTool({ name: 'list_notes', arguments: {} }, undefined, { timeout: 10_000 });
    after = 'the server still answers';
  } catch (e) {
    after = `the server no longer answers (${e.message.slice(0, 60)})`;
  }
  console.log(`  ${outcome}; ${after}`);
  await session.close().catch(() => undefined);
}

async function convertRace() {
  const runs = Number(values['race-runs']);
  console.log(
    `convert-race: ${runs} runs of 400 notes, six create_note loops over stdio, convert --to html meanwhile`,
  );
  const totals = { acknowledged: 0, busy: 0, lost: 0, runsLosing: 0 };
  for (let run = 0; run < runs; run++) {
    const vault = tempVault('race');
    for (let i = 0; i < 400; i++)
      writeFileSync(join(vault, `n${i}.md`), `# Note ${i}\n\nsee [[n${(i + 1) % 400}]]\n`);
    const session = await startServer({ serverPath: values.server, vault, connectTimeoutMs: 60_000 });
    let converting = true;
    const acknowledged = [];
    let busy = 0;
    const loop = async (j) => {
      for (let k = 0; converting; k++) {
        const r = await call(session.client, 'create_note', {
          name: `c${j}-${k}`,
          content: `made ${j} ${k}\n`,
        });
        if (!r.isError && r.structured.created !== false) acknowledged.push(`c${j}-${k}`);
        else if (r.structured.code === 'busy') busy++;
      }
    };
    const loops = Array.from({ length: 6 }, (_, j) => loop(j));
    // Asynchronous: the loops go on while convert runs.
    const convert = await new Promise((done) => {
      const child = spawn(
        process.execPath,
        [values.server, 'convert', '--to', 'html', '--notes-dir', vault],
        {
          stdio: 'ignore',
          env: { ...process.env, NOTED_MCP_CONFIG_DIR: benchConfigHome() },
        },
      );
      child.on('exit', (status) => done({ status }));
    });
    converting = false;
    await Promise.all(loops);
    await session.close();
    const lost = acknowledged.filter((n) => !existsSync(join(vault, `${n}.html`)));
    totals.acknowledged += acknowledged.length;
    totals.busy += busy;
    totals.lost += lost.length;
    if (lost.length > 0) totals.runsLosing++;
    console.log(
      `  run ${run + 1}: convert exit ${convert.status}; ${acknowledged.length} creates acknowledged, ${busy} busy; lost (acknowledged, left .md): ${lost.length}`,
    );
  }
  console.log(
    `  total: ${totals.lost} lost of ${totals.acknowledged} acknowledged, in ${totals.runsLosing} of ${runs} runs; ${totals.busy} busy answers`,
  );
}

const PARTS = {
  links,
  bodies,
  journal,
  'html-links': htmlLinks,
  'html-depth': htmlDepth,
  stalls,
  conflict,
  'convert-race': convertRace,
};
for (const part of values.parts.split(',')) {
  const run = PARTS[part];
  if (run === undefined) throw new Error(`unknown part "${part}": one of ${Object.keys(PARTS).join(', ')}`);
  await run();
}
