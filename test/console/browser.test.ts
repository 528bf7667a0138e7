import fs from 'node:fs';
import path from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { REPO } from '../helpers/server-process.js';
import { readBytes, writeFiles } from '../helpers/vault.js';
import { type ConsoleFixture, startFixture } from './console-fixture.js';

/**
 * The console clicked through in headless Chromium (Debian's `/usr/bin/chromium`, driven by
 * playwright-core): a partial approval lands on disk, a session is undone, a folder's access changes
 * and an agent is refused. Controls are used with the keyboard where a person might; the page must
 * run under its CSP with no error. Screenshots of each page go to test/artifacts/ (gitignored).
 */
const CHROMIUM = '/usr/bin/chromium';
const ARTIFACTS = path.join(REPO, 'test', 'artifacts');
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

let browser: Browser;
let context: BrowserContext;
let f: ConsoleFixture;
let errors: string[];

beforeAll(async () => {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium`);
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS, timeout: 20_000 });
  fs.mkdirSync(ARTIFACTS, { recursive: true });
});
afterAll(async () => browser?.close());
afterEach(async () => {
  await context?.close();
  await f?.close();
});

async function open(width = 1100): Promise<Page> {
  context = await browser.newContext({ viewport: { width, height: 900 } });
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  errors = [];
  page.on('pageerror', (err) => errors.push(err.message));
  page.on('console', (msg) => {
    // A refusal the page shows (409) is logged by the browser too; CSP violations and the rest count.
    if (msg.type() === 'error' && !/status of 409/.test(msg.text())) errors.push(msg.text());
  });
  await page.goto(f.ui.loginUrl());
  await expect.poll(() => page.url()).toBe(f.ui.url);
  return page;
}

const shot = (page: Page, name: string) =>
  page.screenshot({ path: path.join(ARTIFACTS, `console-${name}.png`), fullPage: true });

const BASE = 'title line\nalpha\n\nmiddle 1\nmiddle 2\nmiddle 3\nmiddle 4\nmiddle 5\n\nomega\n';

async function stageEdit(): Promise<void> {
  const read = await f.vault.call('read_note', { name: 'drafts/plan' });
  const staged = await f.vault.call('update_note', {
    name: 'drafts/plan',
    content: BASE.replace('alpha', 'ALPHA <img src=x onerror=alert(1)>').replace('omega', 'OMEGA'),
    expected_etag: read.structured.etag,
  });
  expect(staged.structured.staged).toBe(true);
}

describe('console in a browser', () => {
  it('approves 1 of 2 hunks with the keyboard; the note on disk has only that hunk', async () => {
    f = await startFixture({
      'drafts/plan.md': BASE,
      '.noted/mcp-policy.yaml': 'folders:\n  drafts: staged\n',
    });
    await stageEdit();
    const page = await open();
    await expect.poll(() => page.locator('#pending-count').textContent()).toBe('1');
    const card = page.locator('article.change');
    await expect.poll(() => card.locator('fieldset.hunk').count()).toBe(2);
    // Agent text is shown as text: the markup is visible, never made into an element.
    expect(await card.locator('ins').first().textContent()).toContain('<img src=x onerror=alert(1)>');
    expect(await page.locator('main img').count()).toBe(0);
    expect(await card.textContent()).toMatch(/noted-test.*self-declared name, unverified/);
    await shot(page, 'pending');

    await card.locator('input[data-hunk="1"]').focus();
    await page.keyboard.press('Space');
    const approve = card.getByRole('button', { name: 'Approve 1 of 2' });
    await approve.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('.flash.ok').textContent()).toMatch(/1 of 2 hunks applied/);
    expect(readBytes(f.vault.dir, 'drafts/plan.md')?.toString()).toBe(BASE.replace('omega', 'OMEGA'));
    await expect.poll(() => page.locator('#pending-count').textContent()).toBe('0');
    expect(errors).toEqual([]);
  });

  it('shows why a stale approval was refused, in the change itself', async () => {
    f = await startFixture({
      'drafts/plan.md': BASE,
      '.noted/mcp-policy.yaml': 'folders:\n  drafts: staged\n',
    });
    await stageEdit();
    writeFiles(f.vault.dir, { 'drafts/plan.md': `${BASE}by hand\n` });
    const page = await open(390);
    await page.locator('article.change').getByRole('button', { name: 'Approve', exact: true }).click();
    const refusal = page.locator('article.change .flash.error');
    await expect.poll(() => refusal.textContent()).toMatch(/changed since the agent saw it/);
    expect(readBytes(f.vault.dir, 'drafts/plan.md')?.toString()).toBe(`${BASE}by hand\n`);
    await shot(page, 'pending-refused-phone');
    expect(errors).toEqual([]);
  });

  it('undoes a session from the activity page; the notes are back as they were', async () => {
    f = await startFixture({ 'notes/a.md': 'A\n', 'notes/b.md': 'B\n' });
    for (const [name, text] of [
      ['notes/a', 'A changed\n'],
      ['notes/b', 'B changed\n'],
    ] as const) {
      const read = await f.vault.call('read_note', { name });
      await f.vault.call('update_note', { name, content: text, expected_etag: read.structured.etag });
    }
    const page = await open();
    await page.getByRole('link', { name: 'Agent activity' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('.integrity.ok').textContent()).toMatch(/Journal intact: 2 entries/);
    await expect
      .poll(() => page.evaluate('document.activeElement && document.activeElement.tagName'))
      .toBe('H1');
    const first = page.locator('ul.entries > li').first();
    await first.getByRole('button', { name: 'Show diff' }).click();
    await expect.poll(() => first.locator('ins').textContent()).toBe(' changed');
    await shot(page, 'activity');

    const undo = page.getByRole('button', { name: 'Undo this session' });
    await undo.click();
    await page.getByRole('button', { name: /Press again/ }).click();
    await expect
      .poll(() => page.locator('.flash').first().textContent())
      .toMatch(/Undone: notes\/b\.md.*Undone: notes\/a\.md/s);
    expect(readBytes(f.vault.dir, 'notes/a.md')?.toString()).toBe('A\n');
    expect(readBytes(f.vault.dir, 'notes/b.md')?.toString()).toBe('B\n');
    expect(errors).toEqual([]);
  });

  it('changes a folder to read-only on the access page; an agent is refused at once', async () => {
    f = await startFixture({ 'private/c.md': 'c\n', 'inbox/a.md': 'a\n' });
    const page = await open();
    await page.goto(`${f.ui.url}#/access`);
    const select = page.getByRole('combobox', { name: 'Rule for private' });
    await select.selectOption('read-only');
    await page.getByRole('button', { name: 'Save policy' }).click();
    await expect.poll(() => page.locator('.flash.ok').textContent()).toMatch(/Saved/);
    await expect
      .poll(() => page.locator('li[data-folder="private"] .effective').textContent())
      .toBe('now: read-only');
    await shot(page, 'access');
    const read = await f.vault.call('read_note', { name: 'private/c' });
    const write = await f.vault.call('update_note', {
      name: 'private/c',
      content: 'agent was here\n',
      expected_etag: read.structured.etag,
    });
    expect(write.structured.code).toBe('read_only');
    expect(readBytes(f.vault.dir, 'private/c.md')?.toString()).toBe('c\n');
    expect(errors).toEqual([]);
  });

  it('shows the client snippets and runs the Claude Desktop install', async () => {
    f = await startFixture();
    const page = await open();
    await page.goto(`${f.ui.url}#/connect`);
    await expect.poll(() => page.locator('#snippet-claude-code').textContent()).toContain('claude mcp add');
    await page.getByRole('button', { name: 'Install into Claude Desktop' }).click();
    await expect.poll(() => page.locator('[data-id="install"] .flash.ok').textContent()).toContain('Added');
    expect(f.installs).toHaveLength(1);
    await shot(page, 'connect');
    expect(errors).toEqual([]);
  });
});
