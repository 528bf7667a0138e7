#!/usr/bin/env node
/**
 * @module scripts/console-screenshots
 * Makes the console screenshots shown in docs/console.md: a demo vault, agents that stage changes, move
 * a note and edit others through the built server over stdio (as real clients do), `noted-mcp ui` from
 * the same build, and Debian's Chromium taking each page at 1280 px and 390 px wide.
 *
 *   npm run build:mcp && node scripts/console-screenshots.mjs [--out docs/images]
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { chromium } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS } from '../bench/lib/chromium.mjs';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SERVER = path.join(REPO, 'dist-mcp', 'index.cjs');
const WIDTHS = [
  [1280, 900],
  [390, 844],
];

const outArg = process.argv.indexOf('--out');
const OUT = path.resolve(outArg === -1 ? path.join(REPO, 'docs', 'images') : process.argv[outArg + 1]);

const NOTES = {
  'drafts/weekly-review.md': `# Weekly review

## What went well
- Shipped the search index rebuild.
- Two customer calls; both asked for tags in exports.

## What did not
- The release slipped a day: the changelog was written last.

## Next week
- Write the changelog as we go.
- Plan the tag export.
`,
  'drafts/ideas.md': `# Ideas

- A reading list that sorts itself by how often I link to each book.
- Weekly digest of notes changed by agents.
`,
  'drafts/old-notes.md': '# Old notes\n\nNothing here is current any more.\n',
  'projects/launch-plan.md': '# Launch plan\n\n1. Freeze features.\n2. Write the announcement.\n3. Ship.\n',
  'inbox/todo.md': '# To do\n\n- [ ] Review [[projects/launch-plan]]\n- [ ] Call the printer\n',
  'private/journal.md': '# Journal\n\nNot for agents.\n',
};
const POLICY = '# Who may do what\ndefault: read-write\nfolders:\n  drafts: staged\n  private: hidden\n';

async function agent(vault, name) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [SERVER, '--notes-dir', vault],
    stderr: 'ignore',
  });
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(transport);
  const call = async (tool, args) => {
    const r = await client.callTool({ name: tool, arguments: args });
    if (r.isError) throw new Error(`${tool}: ${r.content?.[0]?.text}`);
    return r.structuredContent;
  };
  const edit = async (note, change) => {
    const read = await call('read_note', { name: note });
    return call('update_note', {
      name: note,
      content: change(`${read.frontmatterRaw ?? ''}${read.body}`),
      expected_etag: read.etag,
    });
  };
  return { call, edit, close: () => client.close() };
}

async function makeVault() {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'noted-console-shots-'));
  const vault = path.join(base, 'vault');
  for (const [rel, text] of Object.entries(NOTES)) {
    fs.mkdirSync(path.dirname(path.join(vault, rel)), { recursive: true });
    fs.writeFileSync(path.join(vault, rel), text);
  }
  fs.mkdirSync(path.join(vault, '.noted'), { recursive: true });
  fs.writeFileSync(path.join(vault, '.noted', 'mcp-policy.yaml'), POLICY);

  const desktop = await agent(vault, 'claude-desktop');
  await desktop.edit('drafts/weekly-review.md', (t) =>
    t
      .replace(
        'Two customer calls; both asked for tags in exports.',
        'Two customer calls; both asked for tags in CSV exports.',
      )
      .replace(
        '- The release slipped a day: the changelog was written last.\n',
        '- The release slipped a day: the changelog was written last.\n- Review of staged changes took too long.\n',
      )
      .replace('- Plan the tag export.\n', '- Plan the tag export with the two customers.\n'),
  );
  await desktop.call('create_note', {
    name: 'drafts/agent-digest',
    content: '# Agent digest\n\nA weekly list of the notes agents changed, with links.\n',
  });
  await desktop.edit('drafts/ideas.md', (t) => `${t}- Group notes by the project they link to.\n`);
  // A name with a right-to-left override: the console shows the mark, and warns.
  await desktop.call('create_note', { name: 'drafts/Invoice \u202Efdp', content: 'Pay before Friday.\n' });
  const old = await desktop.call('read_note', { name: 'drafts/old-notes' });
  await desktop.call('delete_note', { name: 'drafts/old-notes', expected_etag: old.etag });
  await desktop.close();

  const code = await agent(vault, 'claude-code');
  await code.edit('inbox/todo.md', (t) => t.replace('- [ ] Call the printer', '- [x] Call the printer'));
  await code.call('move_note', { name: 'projects/launch-plan', new_name: 'archive/launch-plan' });
  await code.close();
  return { base, vault };
}

function startUi(vault) {
  const child = spawn(process.execPath, [SERVER, 'ui', '--notes-dir', vault], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let out = '';
  const links = [];
  const waiters = [];
  child.stdout.on('data', (c) => {
    out += c;
    for (const m of out.matchAll(/http:\/\/127\.0\.0\.1:\d+\/login\?once=[\w.-]+/g)) {
      if (!links.includes(m[0])) {
        links.push(m[0]);
        waiters.shift()?.(m[0]);
      }
    }
  });
  /** A fresh sign-in link: the first one printed, then one per Enter pressed in the console's terminal. */
  const link = () =>
    new Promise((resolve) => {
      const unused = links.length > used ? links[used] : null;
      used++;
      if (unused) resolve(unused);
      else {
        waiters.push(resolve);
        child.stdin.write('\n');
      }
    });
  let used = 0;
  return { child, link };
}

async function main() {
  if (!fs.existsSync(SERVER)) throw new Error(`${SERVER} is missing; run npm run build:mcp first`);
  fs.mkdirSync(OUT, { recursive: true });
  const { base, vault } = await makeVault();
  const ui = startUi(vault);
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  const written = [];
  try {
    for (const [width, height] of WIDTHS) {
      const shot = async (page, name) => {
        await page.evaluate('window.scrollTo(0, 0)');
        const file = path.join(OUT, `console-${name}-${width}.png`);
        await page.screenshot({ path: file });
        written.push(file);
      };
      const signedOut = await (await browser.newContext({ viewport: { width, height } })).newPage();
      await signedOut.goto((await ui.link()).replace(/login\?once=.*/, ''));
      await shot(signedOut, 'sign-in');
      await signedOut.context().close();

      const context = await browser.newContext({ viewport: { width, height } });
      const page = await context.newPage();
      await page.goto(await ui.link());
      const settled = () =>
        page.waitForFunction(
          () => document.querySelector('main h1') && !document.querySelector('[aria-busy="true"]'),
        );
      await settled();
      await page.locator('article.change').first().locator('input[data-hunk="3"]').uncheck();
      await shot(page, 'pending');
      if (width >= 1000) {
        await page.getByRole('radio', { name: 'Split' }).check();
        await settled();
        await shot(page, 'pending-split');
        await page.getByRole('radio', { name: 'Unified' }).check();
      }
      // The review flow of issue 30: the confirmation, hidden characters marked, a decided card folded.
      const here = async (name) => {
        const file = path.join(OUT, `console-${name}-${width}.png`);
        await page.screenshot({ path: file });
        written.push(file);
      };
      await page.getByRole('button', { name: 'Reject all', exact: true }).click();
      await page.locator('dialog.confirm .confirm-go.armed').waitFor();
      await here('pending-confirm');
      await page.getByRole('button', { name: 'Cancel' }).click();
      const invoice = page.locator('article.change', { hasText: 'Invoice' });
      await invoice.scrollIntoViewIfNeeded();
      await invoice.locator('h2').evaluate((h) => h.scrollIntoView({ block: 'start' }));
      await here('pending-hidden');
      if (width === WIDTHS[WIDTHS.length - 1][0]) {
        const ideas = page.locator('article.change', { hasText: 'drafts/ideas.md' });
        await ideas.locator('h2').focus();
        await page.keyboard.press('a');
        await page.locator('article.decided').waitFor();
        await page.locator('article.decided h2').evaluate((h) => h.scrollIntoView({ block: 'start' }));
        await here('pending-decided');
      }
      for (const name of ['activity', 'access', 'connect']) {
        await page.goto(`${new URL(page.url()).origin}/#/${name}`);
        await settled();
        if (name === 'activity') await page.getByRole('button', { name: 'Show diff' }).nth(1).click();
        await page.waitForTimeout(100);
        await shot(page, name);
      }
      const policy = path.join(vault, '.noted', 'mcp-policy.yaml');
      fs.writeFileSync(policy, POLICY.replace('private: hidden', 'private: hiden'));
      await page.goto(`${new URL(page.url()).origin}/#/access?invalid`);
      await settled();
      await shot(page, 'access-invalid');
      fs.writeFileSync(policy, POLICY);
      await context.close();
    }
  } finally {
    await browser.close();
    ui.child.kill('SIGTERM');
    fs.rmSync(base, { recursive: true, force: true });
  }
  for (const file of written)
    process.stdout.write(`${path.relative(REPO, file)}  ${Math.round(fs.statSync(file).size / 1024)} KB\n`);
}

main().catch((err) => {
  process.stderr.write(`console-screenshots: ${err.stack ?? err.message}\n`);
  process.exitCode = 1;
});
