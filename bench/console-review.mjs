#!/usr/bin/env node
/**
 * @module bench/console-review
 * The first screen of the console's Pending changes page in Chromium, for the two large reviews of
 * SPEC 9.4: one 5,000-line note rewritten on every line (one change, one long hunk), one change of 499
 * hunks, and 500 pending changes. An agent (the built server over stdio) stages the changes through the tools; the store
 * takes at most 200, so for 500 the bench copies staged files under new ids and names (each beside a
 * note with the text its copy was staged on). `noted-mcp ui` from the same build serves the console
 * and Debian's Chromium opens the printed one-time link.
 *
 *   npm run build:mcp
 *   node bench/console-review.mjs [--case rewrite|hunks|many|all] [--lines 5000] [--changes 500] [--width 1280]
 *
 * "First screen" is from the sign-in link until the page's heading and first card are drawn and nothing
 * is busy: cold (the console just started) and warm (a second sign-in: a reload or another tab). The
 * API times are those of the cold load.
 * Prints a table per case and one `CONSOLE_REVIEW_RESULT {json}` line. Exit 0 on success, 1 on
 * failure, 2 on a usage error.
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
const USAGE = `Usage: node bench/console-review.mjs [--case rewrite|hunks|many|all] [--lines N] [--changes N] [--width PX] [--server FILE]
  --case C       rewrite (one N-line note, every line changed), hunks (one change of 499 hunks),
                 many (N pending changes), or all (default)
  --lines N      lines of the rewritten note (default 5000)
  --changes N    pending changes for "many" (default 500)
  --width PX     the browser window's width (default 1280)
  --server FILE  the built server (default dist-mcp/index.cjs)
`;

function parseArgs(argv) {
  const o = {
    case: 'all',
    lines: 5000,
    changes: 500,
    width: 1280,
    server: path.join(REPO, 'dist-mcp', 'index.cjs'),
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const next = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    if (a === '--case') o.case = next();
    else if (a === '--lines') o.lines = Number(next());
    else if (a === '--changes') o.changes = Number(next());
    else if (a === '--width') o.width = Number(next());
    else if (a === '--server') o.server = path.resolve(next());
    else if (a === '--help' || a === '-h') {
      process.stdout.write(USAGE);
      process.exit(0);
    } else throw new Error(`unknown option ${a}`);
  }
  if (!['rewrite', 'hunks', 'many', 'all'].includes(o.case))
    throw new Error('--case is rewrite, hunks, many or all');
  if (!Number.isInteger(o.lines) || o.lines < 1) throw new Error('--lines takes a count of lines');
  if (!Number.isInteger(o.changes) || o.changes < 1 || o.changes > 2000)
    throw new Error('--changes takes 1 to 2000');
  if (!Number.isInteger(o.width) || o.width < 300)
    throw new Error('--width takes a width in pixels (300 or more)');
  return o;
}

const longLine = (i, word) => `Line ${i} of the long note: ${word} quick brown fox jumps over the lazy dog.`;
const smallNote = (i) =>
  `# Plan ${i}\n\n${Array.from({ length: 12 }, (_, l) => longLine(l, `note ${i}`)).join('\n')}\n`;

async function call(server, name, args) {
  const r = await server.client.callTool({ name, arguments: args });
  if (r.isError) throw new Error(`${name}: ${r.content?.[0]?.text}`);
  return r.structuredContent;
}

async function stageEdit(server, name, edit) {
  const read = await call(server, 'read_note', { name });
  const staged = await call(server, 'update_note', {
    name,
    content: edit(`${read.frontmatterRaw ?? ''}${read.body}`),
    expected_etag: read.etag,
  });
  if (staged.staged !== true) throw new Error(`${name} was not staged`);
}

/** Copies staged files under new ids and note names until `want` are waiting. */
function copyPending(vault, want) {
  const dir = path.join(vault, '.noted', 'pending');
  const files = fs.readdirSync(dir).filter((n) => n.endsWith('.json'));
  let n = files.length;
  for (let k = 0; n < want; k++, n++) {
    const file = files[k % files.length];
    const text = fs.readFileSync(path.join(dir, file), 'utf8');
    const head = JSON.parse(`${text.slice(0, text.indexOf('\n') - 1)}}`);
    const id = `${head.id.slice(0, -6)}${(0x100000 + n).toString(16).slice(-6)}`;
    const note = `drafts/copy-${String(n).padStart(4, '0')}.md`;
    const whole = JSON.parse(text);
    fs.writeFileSync(path.join(vault, note), whole.baseText);
    fs.writeFileSync(
      path.join(dir, `${id}.json`),
      text.replace(`"id":"${head.id}"`, `"id":"${id}"`).replace(`"note":"${head.note}"`, `"note":"${note}"`),
    );
  }
  return fs.readdirSync(dir).filter((f) => f.endsWith('.json')).length;
}

async function prepare(server, vault, kind, o) {
  if (kind === 'rewrite') {
    const lines = Array.from({ length: o.lines }, (_, i) => longLine(i + 1, 'the'));
    fs.writeFileSync(path.join(vault, 'drafts', 'long.md'), `${lines.join('\n')}\n`);
    await stageEdit(server, 'drafts/long', (t) => t.replace(/: the quick/g, ': a quick'));
    return 1;
  }
  if (kind === 'hunks') {
    // Every fifth line changed: 499 hunks of one line each, three unchanged lines between them.
    const lines = Array.from({ length: 2500 }, (_, i) => longLine(i + 1, 'the'));
    fs.writeFileSync(path.join(vault, 'drafts', 'hunks.md'), `${lines.join('\n')}\n`);
    await stageEdit(server, 'drafts/hunks', (t) =>
      t
        .split('\n')
        .map((l, i) => (i % 5 === 2 && i < 2495 ? l.replace(': the quick', ': a quick') : l))
        .join('\n'),
    );
    return 1;
  }
  const staged = Math.min(200, o.changes);
  for (let i = 0; i < staged; i++)
    fs.writeFileSync(path.join(vault, 'drafts', `plan-${String(i).padStart(3, '0')}.md`), smallNote(i));
  for (let i = 0; i < staged; i++) {
    await stageEdit(server, `drafts/plan-${String(i).padStart(3, '0')}`, (t) =>
      t.replace('Line 3 of', 'Line three of').replace(/Line 9 of.*\n/, ''),
    );
  }
  return copyPending(vault, o.changes);
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

async function firstScreen(browser, link, width) {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  try {
    const page = await context.newPage();
    const api = [];
    page.on('requestfinished', (r) => {
      const url = new URL(r.url());
      if (url.pathname.startsWith('/api/')) api.push({ path: url.pathname, ms: r.timing().responseEnd });
    });
    const started = performance.now();
    await page.goto(link);
    await page.waitForFunction(
      () =>
        document.querySelector('main h1') &&
        document.querySelector('article, .empty') &&
        !document.querySelector('[aria-busy="true"]'),
      null,
      { timeout: 180_000 },
    );
    const ms = performance.now() - started;
    const facts = await page.evaluate(() => ({
      height: document.documentElement.scrollHeight,
      elements: document.getElementsByTagName('*').length,
      rows: document.querySelectorAll('table.diff tr').length,
      cards: document.querySelectorAll('article').length,
    }));
    return { ms, api, ...facts };
  } finally {
    await context.close();
  }
}

async function runCase(kind, o, browser) {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'noted-console-review-'));
  const vault = path.join(base, 'vault');
  fs.mkdirSync(path.join(vault, 'drafts'), { recursive: true });
  fs.mkdirSync(path.join(vault, '.noted'));
  fs.writeFileSync(path.join(vault, '.noted', 'mcp-policy.yaml'), 'folders:\n  drafts: staged\n');
  let ui;
  try {
    const server = await startServer({ serverPath: o.server, vault, connectTimeoutMs: 60_000 });
    let pending;
    try {
      pending = await prepare(server, vault, kind, o);
    } finally {
      await server.close();
    }
    ui = startUi(o.server, vault);
    const link = await ui.link;
    // Twice, each from a fresh sign-in link: cold (the console just started, nothing computed yet),
    // then warm (what a reload or a second tab gets).
    const cold = await firstScreen(browser, link, o.width);
    const again = link.replace(/once=[\w.-]+/, '');
    ui.child.stdin.write('\n');
    const fresh = await new Promise((resolve) => {
      let out = '';
      const onData = (c) => {
        out += c;
        const m = /http:\/\/127\.0\.0\.1:\d+\/login\?once=[\w.-]+/.exec(out);
        if (m) {
          ui.child.stdout.off('data', onData);
          resolve(m[0]);
        }
      };
      ui.child.stdout.on('data', onData);
      setTimeout(() => resolve(null), 10_000);
    });
    const r = await firstScreen(browser, fresh ?? again, o.width);
    // The time each API request took, from sending it to the end of its answer.
    const apiMs = Object.fromEntries(cold.api.map((a) => [a.path.replace(/^\/api\//, ''), Math.round(a.ms)]));
    return {
      case: kind,
      apiMs,
      pending,
      width: o.width,
      coldMs: Math.round(cold.ms),
      firstScreenMs: Math.round(r.ms),
      height: r.height,
      elements: r.elements,
      rows: r.rows,
      cards: r.cards,
    };
  } finally {
    ui?.child.kill('SIGTERM');
    killAllServers();
    fs.rmSync(base, { recursive: true, force: true });
  }
}

async function main() {
  let o;
  try {
    o = parseArgs(process.argv.slice(2));
  } catch (err) {
    process.stderr.write(`console-review: ${err.message}\n\n${USAGE}`);
    return 2;
  }
  if (!fs.existsSync(o.server)) {
    process.stderr.write(`console-review: ${o.server} is missing; run npm run build:mcp first\n`);
    return 1;
  }
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, timeout: 30_000 });
  try {
    const results = [];
    for (const kind of o.case === 'all' ? ['rewrite', 'hunks', 'many'] : [o.case]) {
      const r = await runCase(kind, o, browser);
      results.push(r);
      const title =
        kind === 'rewrite'
          ? `${o.lines}-line rewrite`
          : kind === 'hunks'
            ? 'a change of 499 hunks'
            : `${r.pending} pending changes`;
      process.stdout.write(`${title} at ${r.width} px\n`);
      for (const [k, v] of [
        ['first screen, cold', `${r.coldMs} ms`],
        ['first screen, warm', `${r.firstScreenMs} ms`],
        ['page height', `${r.height} px`],
        ['elements', String(r.elements)],
        ['diff rows drawn', String(r.rows)],
        ['cards drawn', String(r.cards)],
        ...Object.entries(r.apiMs).map(([k, v]) => [`GET ${k}`, `${v} ms`]),
      ])
        process.stdout.write(`  ${k.padEnd(18)} ${v}\n`);
    }
    process.stdout.write(`CONSOLE_REVIEW_RESULT ${JSON.stringify(results)}\n`);
    return 0;
  } catch (err) {
    process.stderr.write(`console-review: ${err.stack ?? err.message}\n`);
    return 1;
  } finally {
    await browser.close();
  }
}

process.exitCode = await main();
