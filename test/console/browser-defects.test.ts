import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Journal } from '../../src/journal/journal.js';
import { readBytes, testJournalKey } from '../helpers/vault.js';
import { confirmDialog, poll, shot, useBrowser } from './browser-fixture.js';
import { type ConsoleFixture, startFixture, TOKEN } from './console-fixture.js';

/**
 * Issue 20's five defects, each reproduced in headless Chromium as a new user met it: sign-in with the
 * token form, Approve all over unchecked hunks, the Access page on an invalid policy file, undoing
 * part of a move, and double clicks, busy buttons and undo past a broken journal chain.
 */
const b = useBrowser();
let f: ConsoleFixture;
afterEach(async () => f?.close());

const BASE = 'title line\nalpha\n\nmiddle 1\nmiddle 2\nmiddle 3\nmiddle 4\nmiddle 5\n\nomega\n';
const STAGED = {
  'drafts/plan.md': BASE,
  'drafts/other.md': 'one\ntwo\n',
  '.noted/mcp-policy.yaml': 'folders:\n  drafts: staged\n',
};

const twoHunks = (t: string) => t.replace('alpha', 'ALPHA').replace('omega', 'OMEGA');

function journal(): Journal {
  return new Journal(f.vault.opened.vault, { now: () => new Date(), key: testJournalKey() });
}

describe('issue 20.1: signing in with the token in the form works in Chromium', () => {
  it('after signing out, and in a second browser; a wrong token gets a page saying so', async () => {
    f = await startFixture({ 'notes/a.md': 'a\n' });
    const { page, errors } = await b.open(f);
    await poll(() => page.locator('main h1').textContent()).toBe('Pending changes');
    await page.getByRole('button', { name: 'Sign out' }).click();
    const token = page.getByLabel('Vault token');
    await poll(() => token.count()).toBe(1);
    await token.fill('not-the-token');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await poll(() => page.locator('.flash.error').textContent()).toMatch(/not the vault token/);
    await page.getByLabel('Vault token').fill(TOKEN);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await poll(() => page.locator('main h1').textContent()).toBe('Pending changes');
    expect(page.url()).toBe(f.ui.url);

    const second = await b.blank(390);
    await second.page.goto(f.ui.url);
    await second.page.getByLabel('Vault token').fill(TOKEN);
    await second.page.keyboard.press('Enter');
    await poll(() => second.page.locator('main h1').textContent()).toBe('Pending changes');
    await shot(second.page, 'signed-in-second-browser');
    expect([...errors, ...second.errors]).toEqual([]);
  });
});

describe('issue 20.2: Approve all applies exactly what each card shows', () => {
  it('asks to confirm, then writes only the hunks left checked', async () => {
    f = await startFixture(STAGED);
    await f.stage('drafts/plan', twoHunks);
    await f.stage('drafts/other', (t) => t.replace('two', 'TWO'));
    const { page, errors } = await b.open(f);
    const plan = page.locator('article.change', { hasText: 'drafts/plan.md' });
    await plan.locator('input[data-hunk="1"]').uncheck();
    await poll(() => plan.getByRole('button', { name: 'Approve 1 of 2' }).count()).toBe(1);

    await page.getByRole('button', { name: 'Approve all', exact: true }).click();
    await poll(() => page.locator('dialog.confirm[open]').count()).toBe(1);
    expect(readBytes(f.vault.dir, 'drafts/plan.md')?.toString()).toBe(BASE);
    expect(await confirmDialog(page, 'Approve 2 changes')).toMatch(
      /Approve 2 changes as the cards show them \(1 with hunks left out\)/,
    );
    await poll(() => page.locator('.flash.ok').first().textContent()).toMatch(/Approved 2 of 2/);
    expect(readBytes(f.vault.dir, 'drafts/plan.md')?.toString()).toBe(BASE.replace('omega', 'OMEGA'));
    expect(readBytes(f.vault.dir, 'drafts/other.md')?.toString()).toBe('one\nTWO\n');
    expect(errors).toEqual([]);
  });

  it('keeps the unchecked hunks of one card while another card is approved', async () => {
    f = await startFixture(STAGED);
    await f.stage('drafts/plan', twoHunks);
    await f.stage('drafts/other', (t) => t.replace('two', 'TWO'));
    const { page, errors } = await b.open(f);
    const plan = page.locator('article.change', { hasText: 'drafts/plan.md' });
    await plan.locator('input[data-hunk="2"]').uncheck();
    const other = page.locator('article.change', { hasText: 'drafts/other.md' });
    await other.getByRole('button', { name: 'Approve', exact: true }).click();
    await poll(() => page.locator('#pending-count').textContent()).toBe('1');
    await poll(() => plan.locator('input[data-hunk="2"]').isChecked()).toBe(false);
    await page.getByRole('button', { name: 'Approve all', exact: true }).click();
    await confirmDialog(page, 'Approve 1 change');
    await poll(() => page.locator('#pending-count').textContent()).toBe('0');
    expect(readBytes(f.vault.dir, 'drafts/plan.md')?.toString()).toBe(BASE.replace('alpha', 'ALPHA'));
    expect(errors).toEqual([]);
  });
});

describe('issue 20.3: the Access page fails closed on an invalid policy file', () => {
  const INVALID = '# mine\ndefault: read-only\nfolders:\n  private: hiden\n  inbox: read-write\n';

  it('shows the text and the error, refuses to open what the file closed, and starts from what it could read', async () => {
    f = await startFixture({
      'private/c.md': 'c\n',
      'inbox/a.md': 'a\n',
      'top.md': 't\n',
      '.noted/mcp-policy.yaml': INVALID,
    });
    const policyFile = path.join(f.vault.dir, '.noted', 'mcp-policy.yaml');
    const { page, errors } = await b.open(f);
    await page.goto(`${f.ui.url}#/access`);
    await expect
      .poll(() => page.locator('.flash.error').first().textContent())
      .toMatch(/line 4: unknown access word "hiden"/);
    await poll(() => page.locator('.policy-text .bad-line').textContent()).toContain('private: hiden');
    expect(await page.getByRole('button', { name: 'Save policy' }).count()).toBe(0);
    await shot(page, 'access-invalid');

    // The API refuses what the old page sent: no rules and read-write everywhere.
    const { cookie, csrf } = await f.signIn();
    const { etag } = (await f.request('/api/access', { cookie })).json;
    const open = await f.request('/api/access', {
      method: 'PUT',
      cookie,
      csrf,
      body: { etag, default: 'read-write', folders: [] },
    });
    expect(open.status).toBe(409);
    expect(open.json.error.message).toMatch(/private.*hidden/s);
    expect(fs.readFileSync(policyFile, 'utf8')).toBe(INVALID);

    await page.getByRole('button', { name: 'Start from what could be read' }).click();
    await expect
      .poll(() => page.getByRole('combobox', { name: 'Rule for private' }).inputValue())
      .toBe('hidden');
    expect(await page.getByRole('combobox', { name: 'Rule for inbox' }).inputValue()).toBe('read-write');
    expect(await page.getByRole('combobox', { name: /default/ }).inputValue()).toBe('read-only');
    await page.getByRole('button', { name: 'Save policy' }).click();
    await confirmDialog(page, 'Save');
    await poll(() => page.locator('.flash.ok').textContent()).toMatch(/Saved/);
    expect((await f.vault.call('read_note', { name: 'private/c' })).structured.code).toBe('not_found');
    expect((await f.vault.call('read_note', { name: 'inbox/a' })).structured.body).toBe('a\n');
    const write = await f.vault.call('update_note', { name: 'top', content: 'x\n' });
    expect(write.structured.code).toBe('read_only');
    expect(errors).toEqual([]);
  });

  it('lets the owner fix the text itself; the file is written as typed, comments and all', async () => {
    f = await startFixture({ 'private/c.md': 'c\n', '.noted/mcp-policy.yaml': INVALID });
    const { page, errors } = await b.open(f, 390);
    await page.goto(`${f.ui.url}#/access`);
    const text = page.getByRole('textbox', { name: 'Policy file text' });
    await poll(() => text.inputValue()).toBe(INVALID);
    await text.fill(INVALID.replace('hiden', 'hiden2'));
    await page.getByRole('button', { name: 'Save text' }).click();
    await confirmDialog(page, 'Save');
    await poll(() => page.locator('.text-editor .flash.error').textContent()).toMatch(
      /line 4: unknown access word "hiden2"/,
    );
    expect(await text.inputValue()).toBe(INVALID.replace('hiden', 'hiden2'));
    await text.fill(INVALID.replace('hiden', 'hidden'));
    await page.getByRole('button', { name: 'Save text' }).click();
    await confirmDialog(page, 'Save');
    await poll(() => page.locator('.flash.ok').textContent()).toMatch(/Saved/);
    expect(fs.readFileSync(path.join(f.vault.dir, '.noted', 'mcp-policy.yaml'), 'utf8')).toBe(
      INVALID.replace('hiden', 'hidden'),
    );
    expect((await f.vault.call('read_note', { name: 'private/c' })).structured.code).toBe('not_found');
    expect(errors).toEqual([]);
  });
});

describe('issue 20.4: a move is one operation, undone whole as noted-mcp undo --group', () => {
  it('offers only "Undo this operation", which puts the note and the links to it back', async () => {
    f = await startFixture({ 'notes/a.md': 'A\n', 'notes/b.md': 'see [[notes/a]]\n' });
    const moved = await f.vault.call('move_note', { name: 'notes/a', new_name: 'archive/a' });
    expect(moved.isError).toBe(false);
    expect(readBytes(f.vault.dir, 'notes/b.md')?.toString()).toBe('see [[archive/a]]\n');
    const members = journal().list();
    expect(members).toHaveLength(3);
    const { page, errors } = await b.open(f);
    await page.goto(`${f.ui.url}#/activity`);
    const operation = page.locator('li.operation');
    await poll(() => operation.count()).toBe(1);
    expect(await operation.textContent()).toMatch(/move_note.*3 notes/s);
    expect(await page.getByRole('button', { name: 'Undo', exact: true }).count()).toBe(0);
    await shot(page, 'activity-move');

    // The API refuses the partial undo the old page offered.
    const { cookie, csrf } = await f.signIn();
    const created = members.find((e) => e.kind === 'create');
    const partial = await f.request('/api/activity/undo', {
      method: 'POST',
      cookie,
      csrf,
      body: { entry: created?.id },
    });
    expect(partial.status).toBe(409);
    expect(partial.json.error.message).toMatch(/Undo this operation/);
    expect(readBytes(f.vault.dir, 'archive/a.md')?.toString()).toBe('A\n');

    await operation.getByRole('button', { name: 'Undo this operation' }).click();
    await confirmDialog(page, 'Undo 3 changes');
    await poll(() => page.locator('.flash').first().textContent()).toMatch(/Undone: .*3/s);
    expect(readBytes(f.vault.dir, 'notes/a.md')?.toString()).toBe('A\n');
    expect(readBytes(f.vault.dir, 'archive/a.md')).toBeNull();
    expect(readBytes(f.vault.dir, 'notes/b.md')?.toString()).toBe('see [[notes/a]]\n');
    const undos = journal()
      .list()
      .filter((e) => e.kind === 'undo');
    expect(undos).toHaveLength(3);
    expect(new Set(undos.map((e) => e.group)).size).toBe(1);
    expect(errors).toEqual([]);
  });
});

describe('issue 20.5: one request per click, busy buttons, no undo past a broken chain', () => {
  it('a double click on Approve approves once and shows the success', async () => {
    f = await startFixture(STAGED);
    await f.stage('drafts/other', (t) => t.replace('two', 'TWO'));
    const { page, errors } = await b.open(f);
    const approvals: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/approve')) approvals.push(r.url());
    });
    await page.locator('article.change').getByRole('button', { name: 'Approve', exact: true }).dblclick();
    await poll(() => page.locator('.flash.ok').textContent()).toMatch(/Approved: drafts\/other\.md/);
    expect(await page.locator('.flash.error').count()).toBe(0);
    expect(approvals).toHaveLength(1);
    expect(errors).toEqual([]);
  });

  it('disables a card’s buttons while its request runs', async () => {
    f = await startFixture(STAGED);
    await f.stage('drafts/other', (t) => t.replace('two', 'TWO'));
    const { page, errors } = await b.open(f);
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/api/pending/*/approve', async (route) => {
      await gate;
      await route.continue();
    });
    const card = page.locator('article.change');
    const approve = card.getByRole('button', { name: 'Approve', exact: true });
    await approve.click();
    await poll(() => approve.isDisabled()).toBe(true);
    expect(await card.getByRole('button', { name: 'Reject' }).isDisabled()).toBe(true);
    release();
    await poll(() => page.locator('.flash.ok').textContent()).toMatch(/Approved/);
    expect(errors).toEqual([]);
  });

  it('marks where the journal chain breaks and offers no undo at or after it', async () => {
    f = await startFixture({ 'notes/a.md': 'A\n', 'notes/b.md': 'B\n', 'notes/c.md': 'C\n' });
    for (const name of ['notes/a', 'notes/b', 'notes/c']) {
      const read = await f.vault.call('read_note', { name });
      await f.vault.call('update_note', {
        name,
        content: `${name} changed\n`,
        expected_etag: read.structured.etag,
      });
    }
    const dir = path.join(f.vault.dir, '.noted', 'journal');
    const day = fs.readdirSync(dir).find((n) => n.endsWith('.jsonl')) as string;
    const lines = fs.readFileSync(path.join(dir, day), 'utf8').split('\n');
    lines[1] = (lines[1] as string).replace('"tool":"update_note"', '"tool":"forged_tool"');
    fs.writeFileSync(path.join(dir, day), lines.join('\n'));
    const [c, broken, a] = journal().list();

    const { page, errors } = await b.open(f);
    await page.goto(`${f.ui.url}#/activity`);
    await poll(() => page.locator('.integrity.broken').count()).toBe(1);
    const here = page.locator(`li[data-id="${broken?.id}"]`);
    await poll(() => here.getAttribute('class')).toMatch(/chain-break/);
    expect(await here.textContent()).toMatch(/The chain breaks here/);
    for (const id of [broken?.id, c?.id]) {
      expect(await page.locator(`li[data-id="${id}"]`).getByRole('button', { name: 'Undo' }).count()).toBe(0);
    }
    expect(await page.locator(`li[data-id="${a?.id}"]`).getByRole('button', { name: 'Undo' }).count()).toBe(
      1,
    );
    expect(await page.getByRole('button', { name: 'Undo this session' }).count()).toBe(0);
    await shot(page, 'activity-broken');

    const { cookie, csrf } = await f.signIn();
    for (const body of [{ entry: c?.id }, { session: c?.session }]) {
      const route = 'entry' in body ? 'undo' : 'undo-session';
      const refused = await f.request(`/api/activity/${route}`, { method: 'POST', cookie, csrf, body });
      expect(refused.status).toBe(409);
      expect(refused.json.error.message).toMatch(/chain is broken/);
    }
    expect(readBytes(f.vault.dir, 'notes/c.md')?.toString()).toBe('notes/c changed\n');
    expect(errors).toEqual([]);
  });
});
