#!/usr/bin/env node
/**
 * @module bench/export
 * Times export_notes through the built server over stdio: the whole vault page by page in each format
 * (json, markdown, html), checking that every note comes exactly once, and prints MB/s of results as
 * received by the client (bytes of the JSON-RPC results). Asserts nothing about time.
 *
 *   npm run build:mcp
 *   node bench/export.mjs --base /work/vaults/v10k [--max-bytes 1048576] [--formats json,markdown,html]
 *   node bench/export.mjs --notes 2000            (a generated vault of that many notes)
 *
 * With `--base DIR` the base vault is never written: its notes are hard-linked into a temporary copy
 * (export writes nothing; the server writes only its own .noted/ state, which is a fresh folder) and
 * its index file is copied when there is one.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
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
    notes: { type: 'string', default: '2000' },
    'max-bytes': { type: 'string', default: String(1024 * 1024) },
    formats: { type: 'string', default: 'json,markdown,html' },
    server: { type: 'string', default: resolve(here, '../dist-mcp/index.cjs') },
  },
});
const maxBytes = Number(values['max-bytes']);
const formats = values.formats.split(',');

const tmp = mkdtempSync(join(tmpdir(), 'noted-bench-export-'));
const vault = join(tmp, 'vault');
process.on('exit', () => {
  killAllServers();
  rmSync(tmp, { recursive: true, force: true });
});

let t = performance.now();
if (values.base !== undefined) {
  const base = resolve(values.base);
  execFileSync('cp', ['-al', `${base}/.`, vault]);
  rmSync(join(vault, '.noted'), { recursive: true, force: true });
  mkdirSync(join(vault, '.noted'));
  if (existsSync(join(base, '.noted', 'index.sqlite'))) {
    execFileSync('cp', [join(base, '.noted', 'index.sqlite'), join(vault, '.noted', 'index.sqlite')]);
  }
  console.error(`copied ${base} (hard links + index copy) in ${sec(t)} s`);
} else {
  const made = generateVault({ notes: Number(values.notes), out: vault });
  console.error(`generated ${made.notes} notes in ${made.seconds.toFixed(1)} s`);
}

t = performance.now();
const server = await startServer({ serverPath: values.server, vault, connectTimeoutMs: 600_000 });
console.error(`server connected (index built or caught up) in ${sec(t)} s`);
// The server answers at once and builds its index meanwhile (SPEC 14.1): the counts come when it is ready.
let info;
for (;;) {
  info = await server.client.callTool({ name: 'get_vault_info', arguments: {} }, undefined, {
    timeout: 600_000,
  });
  if (info.structuredContent?.counts !== undefined) break;
  if (info.structuredContent?.index?.state === 'failed')
    throw new Error(`the index failed: ${info.content[0].text}`);
  await new Promise((resolve) => setTimeout(resolve, 200));
}
console.error(`index ready in ${sec(t)} s`);
const notes = info.structuredContent.counts.notes;

const rows = [];
let failed = false;
for (const format of formats) {
  const seen = new Set();
  let cursor;
  let pages = 0;
  let bytes = 0;
  let total = 0;
  let truncated = 0;
  t = performance.now();
  for (;;) {
    const r = await server.client.callTool(
      { name: 'export_notes', arguments: { format, max_bytes: maxBytes, ...(cursor ? { cursor } : {}) } },
      undefined,
      { timeout: 600_000 },
    );
    if (r.isError) throw new Error(`export_notes ${format}: ${r.content?.[0]?.text}`);
    pages++;
    const size = Buffer.byteLength(JSON.stringify(r), 'utf8');
    bytes += size;
    if (size > maxBytes) {
      console.error(`FAILED: a ${format} page weighs ${size} bytes, over max_bytes ${maxBytes}`);
      failed = true;
    }
    const page = r.structuredContent;
    total = page.total;
    if (page.truncated) truncated++;
    for (const n of page.notes) {
      if (seen.has(n.name)) {
        console.error(`FAILED: ${n.name} came twice in ${format}`);
        failed = true;
      }
      seen.add(n.name);
    }
    cursor = page.nextCursor;
    if (cursor === undefined) break;
  }
  const seconds = (performance.now() - t) / 1000;
  if (seen.size !== total || total !== notes) {
    console.error(`FAILED: ${format} gave ${seen.size} notes, total ${total}, the vault has ${notes}`);
    failed = true;
  }
  rows.push({
    format,
    notes: seen.size,
    pages,
    truncated,
    MB: (bytes / 1048576).toFixed(1),
    seconds: seconds.toFixed(2),
    'MB/s': (bytes / 1048576 / seconds).toFixed(1),
    'notes/s': Math.round(seen.size / seconds),
  });
}
await server.close();

console.log(`export_notes of ${notes} notes, max_bytes ${maxBytes}, vault ${values.base ?? 'generated'}:`);
console.table(rows);
if (failed) process.exitCode = 1;

function sec(from) {
  return ((performance.now() - from) / 1000).toFixed(1);
}
