#!/usr/bin/env node
/**
 * @module bench/console-page
 * The console's Pending changes page with many staged changes, as Chromium loads it: how many
 * requests it makes, how tall the page is, how many elements it holds, and how long until it is
 * drawn. An agent (the built server over stdio) stages the changes through the tools, as in real
 * use; `noted-mcp ui` from the same build serves the console; Debian's Chromium opens the printed
 * one-time link.
 *
 *   npm run build:mcp
 *   node bench/console-page.mjs [--changes 200] [--width 1280] [--server dist-mcp/index.cjs]
 *
 * Prints a table and one `CONSOLE_PAGE_RESULT {json}` line. Exit 0 on success, 1 on failure,
 * 2 on a usage error. The temporary vault is removed at the end unless `--keep`.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS } from './lib/chromium.mjs';
import { killAllServers, startServer } from './lib/server-session.mjs';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const USAGE = `Usage: node bench/console-page.mjs [--changes N] [--width PX] [--server FILE] [--keep]
  --changes N    staged changes to review (1-200, default 200)
  --width PX     the browser window's width (default 1280)
  --server FILE  the built server (default dist-mcp/index.cjs)
  --keep         keep the temporary vault
`;

function parseArgs(argv) {
  const o = { changes: 200, width: 1280, server: path.join(REPO, 'dist-mcp', 'index.cjs'), keep: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const next = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    if (a === '--changes') o.changes = Number(next());
    else if (a === '--width') o.width = Number(next());
    else if (a === '--server') o.server = path.resolve(next());
    else if (a === '--keep') o.keep = true;
    else if (a === '--help' || a === '-h') {
      process.stdout.write(USAGE);
      process.exit(0);
    } else throw new Error(`unknown option ${a}`);
  }
  if (!Number.isInteger(o.changes) || o.changes < 1 || o.changes > 200)
    throw new Error('--changes takes 1 to 200');
  if (!Number.isInteger(o.width) || o.width < 300)
    throw new Error('--width takes a width in pixels (300 or more)');
  return o;
}

/** A note of about 40 lines in a few paragraphs; `i` makes it unique. */
function noteText(i) {
  const lines = [`# Plan ${i}`, ''];
  for (let p = 0; p < 6; p++) {
    for (let l = 0; l < 5; l++)
      lines.push(`Paragraph ${p} line ${l} of note ${i}: the quick brown fox jumps over the lazy dog.`);
    lines.push('');
  }
  return `${lines.join('\n')}\n`;
}

/** Three hunks: a word changed, a line added, a line removed. */
function editedText(text, i) {
  return text
    .replace(`Paragraph 0 line 1 of note ${i}: the quick`, `Paragraph 0 line 1 of note ${i}: the slow`)
    .replace(
      `Paragraph 2 line 4 of note ${i}: the quick brown fox jumps over the lazy dog.\n`,
      (m) => `${m}An added line for note ${i}.\n`,
    )
    .replace(`Paragraph 4 line 2 of note ${i}: the quick brown fox jumps over the lazy dog.\n`, '');
}

async function stage(server, vault, count) {
  const call = async (name, args) => {
    const r = await server.client.callTool({ name, arguments: args });
    if (r.isError) throw new Error(`${name}: ${r.content?.[0]?.text}`);
    return r.structuredContent;
  };
  for (let i = 0; i < count; i++) {
    const name = `drafts/plan-${String(i).padStart(3, '0')}`;
    const read = await call('read_note', { name });
    const staged = await call('update_note', {
      name,
      content: editedText(noteText(i), i),
      expected_etag: read.etag,
    });
    if (staged.staged !== true) throw new Error(`${name} was not staged`);
  }
  return fs.readdirSync(path.join(vault, '.noted', 'pending')).filter((n) => n.endsWith('.json')).length;
}

function startUi(server, vault) {
  const child = spawn(process.execPath, [server, 'ui', '--notes-dir', vault], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr.on('data', (c) => {
    err += c;
  });
  const link = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no sign-in link within 30 s; stderr: ${err}`)), 30_000);
    child.stdout.on('data', (c) => {
      out += c;
      const m = /http:\/\/127\.0\.0\.1:\d+\/login\?once=[\w.-]+/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[0]);
      }
    });
    child.once('exit', (code) => reject(new Error(`noted-mcp ui exited (${code}): ${err}`)));
  });
  return { child, link };
}

async function measure(link, width) {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, timeout: 30_000 });
  try {
    const context = await browser.newContext({ viewport: { width, height: 900 } });
    const page = await context.newPage();
    const requests = [];
    page.on('request', (r) => requests.push(new URL(r.url()).pathname));
    const started = performance.now();
    await page.goto(link);
    // Drawn: no part of the page is still loading and the network has been quiet for 500 ms.
    await page.waitForFunction(
      () => document.querySelector('main h1') && !document.querySelector('[aria-busy="true"]'),
      null,
      {
        timeout: 120_000,
      },
    );
    const drawnMs = performance.now() - started;
    await page.waitForLoadState('networkidle');
    const facts = await page.evaluate(() => ({
      height: document.documentElement.scrollHeight,
      elements: document.getElementsByTagName('*').length,
      cards: document.querySelectorAll('article').length,
    }));
    return { requests, drawnMs, ...facts };
  } finally {
    await browser.close();
  }
}

async function main() {
  let options;
  try {
    options = parseArgs(process.argv.slice(2));
  } catch (err) {
    process.stderr.write(`console-page: ${err.message}\n\n${USAGE}`);
    return 2;
  }
  if (!fs.existsSync(options.server)) {
    process.stderr.write(`console-page: ${options.server} is missing; run npm run build:mcp first\n`);
    return 1;
  }
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'noted-console-bench-'));
  const vault = path.join(base, 'vault');
  fs.mkdirSync(path.join(vault, 'drafts'), { recursive: true });
  fs.mkdirSync(path.join(vault, '.noted'));
  for (let i = 0; i < options.changes; i++) {
    fs.writeFileSync(path.join(vault, 'drafts', `plan-${String(i).padStart(3, '0')}.md`), noteText(i));
  }
  fs.writeFileSync(path.join(vault, '.noted', 'mcp-policy.yaml'), 'folders:\n  drafts: staged\n');
  let ui;
  try {
    const server = await startServer({ serverPath: options.server, vault, connectTimeoutMs: 60_000 });
    let pending;
    try {
      pending = await stage(server, vault, options.changes);
    } finally {
      await server.close();
    }
    ui = startUi(options.server, vault);
    const result = await measure(await ui.link, options.width);
    const api = result.requests.filter((p) => p.startsWith('/api/'));
    const rows = [
      ['pending changes', String(pending)],
      ['window width', `${options.width} px`],
      ['requests (all)', String(result.requests.length)],
      ['requests to /api/', String(api.length)],
      ['page height', `${result.height} px`],
      ['elements', String(result.elements)],
      ['cards drawn', String(result.cards)],
      ['drawn after', `${Math.round(result.drawnMs)} ms`],
    ];
    for (const [k, v] of rows) process.stdout.write(`${k.padEnd(20)} ${v}\n`);
    const json = {
      pending,
      width: options.width,
      requests: result.requests.length,
      apiRequests: api.length,
      height: result.height,
      elements: result.elements,
      cards: result.cards,
      drawnMs: Math.round(result.drawnMs),
    };
    process.stdout.write(`CONSOLE_PAGE_RESULT ${JSON.stringify(json)}\n`);
    return 0;
  } catch (err) {
    process.stderr.write(`console-page: ${err.stack ?? err.message}\n`);
    return 1;
  } finally {
    ui?.child.kill('SIGTERM');
    killAllServers();
    if (!options.keep) fs.rmSync(base, { recursive: true, force: true });
    else process.stdout.write(`vault kept at ${vault}\n`);
  }
}

process.exitCode = await main();
