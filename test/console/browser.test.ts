import { afterEach, describe, expect, it } from 'vitest';
import { readBytes, writeFiles } from '../helpers/vault.js';
import { confirmDialog, poll, shot, useBrowser } from './browser-fixture.js';
import { type ConsoleFixture, startFixture } from './console-fixture.js';

/**
 * The console clicked through in headless Chromium (Debian's `/usr/bin/chromium`, driven by
 * playwright-core): a partial approval lands on disk, a session is undone, a folder's access changes
 * and an agent is refused. Controls are used with the keyboard where a person might; the page must
 * run under its CSP with no error. Screenshots of each page go to test/artifacts/ (gitignored).
 */
const b = useBrowser();
let f: ConsoleFixture;
let errors: string[];
afterEach(async () => f?.close());

async function open(width = 1100) {
  const opened = await b.open(f, width);
  errors = opened.errors;
  return opened.page;
}

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
    await poll(() => page.locator('#pending-count').textContent()).toBe('1');
    const card = page.locator('article.change');
    await poll(() => card.locator('fieldset.hunk').count()).toBe(2);
    // Agent text is shown as text: the markup is visible, never made into an element.
    expect(await card.locator('tr.add td.code').first().textContent()).toContain(
      '<img src=x onerror=alert(1)>',
    );
    expect(await page.locator('main img').count()).toBe(0);
    expect(await card.textContent()).toMatch(/noted-test.*self-declared name, unverified/);
    await shot(page, 'pending');

    await card.locator('input[data-hunk="1"]').focus();
    await page.keyboard.press('Space');
    const approve = card.getByRole('button', { name: 'Approve 1 of 2' });
    await approve.focus();
    await page.keyboard.press('Enter');
    await poll(() => page.locator('.flash.ok').textContent()).toMatch(/1 of 2 hunks applied/);
    expect(readBytes(f.vault.dir, 'drafts/plan.md')?.toString()).toBe(BASE.replace('omega', 'OMEGA'));
    await poll(() => page.locator('#pending-count').textContent()).toBe('0');
    expect(errors).toEqual([]);
  });

  it('shows why a stale approval was refused, in the change itself, and marks the change outdated', async () => {
    f = await startFixture({
      'drafts/plan.md': BASE,
      '.noted/mcp-policy.yaml': 'folders:\n  drafts: staged\n',
    });
    await stageEdit();
    const page = await open(390);
    const card = page.locator('article.change');
    const approve = card.getByRole('button', { name: 'Approve', exact: true });
    await poll(() => approve.isEnabled()).toBe(true);
    expect(await card.locator('.tag.outdated').isVisible()).toBe(false);
    // Edited by hand after the page was drawn: the click is refused, and the reason shown in the card.
    writeFiles(f.vault.dir, { 'drafts/plan.md': `${BASE}by hand\n` });
    await approve.click();
    const refusal = page.locator('article.change .flash.error');
    await poll(() => refusal.textContent()).toMatch(/changed since the agent saw it/);
    expect(readBytes(f.vault.dir, 'drafts/plan.md')?.toString()).toBe(`${BASE}by hand\n`);
    // Drawn again, the card says so before anyone clicks, and Approve waits.
    await poll(() => card.locator('.tag.outdated').isVisible()).toBe(true);
    expect(await card.locator('.outdated-why').textContent()).toMatch(
      /Outdated: the note was changed since the agent saw it/,
    );
    expect(await approve.isDisabled()).toBe(true);
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
    await poll(() => page.locator('.integrity.ok').textContent()).toMatch(/Journal intact: 2 entries/);
    await expect
      .poll(() => page.evaluate('document.activeElement && document.activeElement.tagName'))
      .toBe('H1');
    const first = page.locator('ul.entries > li').first();
    await first.getByRole('button', { name: 'Show diff' }).click();
    await poll(() => first.locator('ins').textContent()).toBe(' changed');
    await shot(page, 'activity');

    const undo = page.getByRole('button', { name: 'Undo this session' });
    await undo.click();
    await confirmDialog(page, /^Undo \d+ changes?$/);
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
    await confirmDialog(page, 'Save');
    await poll(() => page.locator('.flash.ok').textContent()).toMatch(/Saved/);
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
    await poll(() => page.locator('#snippet-claude-code').textContent()).toContain('claude mcp add');
    await page.getByRole('button', { name: 'Install into Claude Desktop' }).click();
    await poll(() => page.locator('[data-id="install"] .flash.ok').textContent()).toContain('Added');
    expect(f.installs).toHaveLength(1);
    await shot(page, 'connect');
    expect(errors).toEqual([]);
  });
});
