import { afterEach, describe, expect, it } from 'vitest';
import { readBytes, writeFiles } from '../helpers/vault.js';
import { poll, shot, useBrowser } from './browser-fixture.js';
import { type ConsoleFixture, startFixture } from './console-fixture.js';

/**
 * The review view of issue 20 in headless Chromium, at 1280 px and 390 px: the list of changed notes
 * with counts, pages of changes loaded in one request each, cards folded and marked viewed, numbered
 * lines in a unified or split view, unchanged lines expanded on request, outdated marks and new
 * arrivals while the page is open, and plain pages for an empty list, an unknown page and a console
 * that stopped.
 */
const b = useBrowser();
let f: ConsoleFixture;
afterEach(async () => f?.close());

const POLICY = { '.noted/mcp-policy.yaml': 'folders:\n  drafts: staged\n' };

/** A note of `n` numbered lines. */
const lines = (n: number, tag = 'line') =>
  `${Array.from({ length: n }, (_, i) => `${tag} ${i + 1}`).join('\n')}\n`;

for (const width of [1280, 390]) {
  describe(`the review flow at ${width} px`, () => {
    it('leaves a hunk out, marks the change viewed, and approves what the card shows', async () => {
      f = await startFixture({ ...POLICY, 'drafts/a.md': lines(30), 'drafts/b.md': 'b\n' });
      await f.stage('drafts/a', (t) =>
        t.replace('line 3\n', 'line three\n').replace('line 25\n', 'line 25 and more\n'),
      );
      await f.stage('drafts/b', () => 'b changed\n');
      const { page, errors } = await b.open(f, width);
      const list = page.locator('ol.files');
      if (width < 1000) await page.locator('details.files-box summary').click();
      await poll(() => list.locator('li').count()).toBe(2);
      expect(await list.locator('li').first().textContent()).toMatch(/a\.md\s*\+2\s*−2/);
      const card = page.locator('article.change[data-note="drafts/a.md"]');
      // The changed words are marked on their own lines: "three" in the added line only.
      expect(await card.locator('tr.add ins, td.add ins').allTextContents()).toContain('three');
      expect(await card.locator('tr.del del, td.del del').allTextContents()).toContain('3');
      await card.locator('input[data-hunk="2"]').uncheck();
      await card.getByRole('checkbox', { name: 'Viewed' }).check();
      await poll(() => card.locator('.card-body').isVisible()).toBe(false);
      await poll(() => list.locator('li.viewed').count()).toBe(1);
      await shot(page, `review-${width}`);

      // Drawn again (a reload of the tab), the choices are still there.
      await page.reload();
      await poll(() => card.getByRole('checkbox', { name: 'Viewed' }).isChecked()).toBe(true);
      await card.getByRole('button', { name: /Show or hide/ }).click();
      await poll(() => card.locator('input[data-hunk="2"]').isChecked()).toBe(false);
      await card.getByRole('button', { name: 'Approve 1 of 2' }).click();
      await poll(() => page.locator('.flash.ok').textContent()).toMatch(/1 of 2 hunks applied/);
      expect(readBytes(f.vault.dir, 'drafts/a.md')?.toString()).toBe(
        lines(30).replace('line 3\n', 'line three\n'),
      );
      await poll(() => page.locator('article.change').count()).toBe(1);
      expect(errors).toEqual([]);
    });
  });
}

describe('the review view', () => {
  it('pages 20 changes at a time, one request for their diffs, and jumps to a change on another page', async () => {
    const files: Record<string, string> = { ...POLICY };
    for (let i = 0; i < 23; i++) files[`drafts/n-${String(i).padStart(2, '0')}.md`] = `note ${i}\n`;
    f = await startFixture(files);
    for (let i = 0; i < 23; i++)
      await f.stage(`drafts/n-${String(i).padStart(2, '0')}`, (t) => `${t}added ${i}\n`);
    const { page, errors } = await b.blank(1280);
    const api: string[] = [];
    page.on('request', (r) => {
      const path = new URL(r.url()).pathname;
      if (path.startsWith('/api/')) api.push(path);
    });
    await page.goto(f.ui.loginUrl());
    await poll(() => page.locator('article.change').count()).toBe(20);
    expect(api.sort()).toEqual(['/api/pending', '/api/pending/details', '/api/session']);
    expect(await page.locator('.pager').first().textContent()).toMatch(/Changes 1–20 of 23/);
    expect(await page.locator('ol.files li').count()).toBe(23);
    await page.locator('ol.files a', { hasText: 'n-22.md' }).click();
    await poll(() => page.locator('article.change').count()).toBe(3);
    expect(page.url()).toMatch(/#\/pending\?page=2&change=/);
    await poll(() =>
      page.evaluate('document.activeElement ? document.activeElement.textContent : ""'),
    ).toMatch(/drafts\/n-22\.md/);
    expect(api.filter((p) => p === '/api/pending/details')).toHaveLength(2);
    expect(errors).toEqual([]);
  });

  it('shows a change side by side, and the unchanged lines around it on request', async () => {
    f = await startFixture({ ...POLICY, 'drafts/long.md': lines(60) });
    await f.stage('drafts/long', (t) => t.replace('line 30\n', 'line thirty\n'));
    const { page, errors } = await b.open(f);
    const card = page.locator('article.change');
    await poll(() => card.locator('.gap-bar').count()).toBe(2);
    expect(await card.locator('.gap-bar').first().textContent()).toMatch(/26 unchanged lines hidden/);
    await card.getByRole('button', { name: 'Show 20 more' }).first().click();
    await poll(() => card.locator('td.num[data-n="7"]').count()).toBeGreaterThan(0);
    expect(await card.locator('td.num[data-n="6"]').count()).toBe(0);
    await card.locator('.gap-bar').first().getByRole('button', { name: 'Show all 6' }).click();
    await poll(() => card.locator('td.num[data-n="1"]').count()).toBeGreaterThan(0);
    await card.locator('.gap-bar').last().getByRole('button', { name: 'Show all 27' }).click();
    await poll(() => card.locator('td.num[data-n="60"]').count()).toBe(2);

    await page.getByRole('radio', { name: 'Split' }).check();
    await poll(() => page.locator('table.diff.split').count()).toBeGreaterThan(0);
    const row = page.locator('table.diff.split tr', { has: page.locator('td.code.del') });
    expect(await row.locator('td.code.del del').textContent()).toBe('30');
    expect(await row.locator('td.code.add ins').textContent()).toBe('thirty');
    await shot(page, 'review-split');
    expect(errors).toEqual([]);
  });

  it('offers no split view at phone width', async () => {
    f = await startFixture({ ...POLICY, 'drafts/a.md': 'a\n' });
    await f.stage('drafts/a', () => 'A\n');
    const { page } = await b.open(f, 390);
    await poll(() => page.getByRole('radio', { name: 'Split' }).isDisabled()).toBe(true);
    expect(await page.locator('table.diff.unified').count()).toBeGreaterThan(0);
  });

  it('marks a change outdated and tells of new arrivals while the page is open, without drawing it again', async () => {
    f = await startFixture({ ...POLICY, 'drafts/a.md': 'a\n', 'drafts/b.md': 'b\n' });
    await f.stage('drafts/a', () => 'A\n');
    const { page, errors } = await b.open(f);
    const card = page.locator('article.change');
    await poll(() => card.getByRole('button', { name: 'Approve', exact: true }).isEnabled()).toBe(true);
    writeFiles(f.vault.dir, { 'drafts/a.md': 'edited by hand\n' });
    await f.stage('drafts/b', () => 'B\n');
    await page.evaluate('window.dispatchEvent(new Event("focus"))');
    await poll(() => card.locator('.tag.outdated').isVisible()).toBe(true);
    expect(await card.getByRole('button', { name: 'Approve', exact: true }).isDisabled()).toBe(true);
    expect(await page.locator('ol.files li .tag.outdated').isVisible()).toBe(true);
    await poll(() => page.locator('#arrivals').textContent()).toMatch(/1 new change arrived/);
    expect(await page.locator('#pending-count').textContent()).toBe('2');
    // Approve all covers what is shown, and not the outdated change.
    await page.getByRole('button', { name: 'Approve all', exact: true }).click();
    await poll(() => page.locator('#status').textContent()).toMatch(
      /Nothing to approve: every change listed is outdated/,
    );
    await page.getByRole('button', { name: 'Show the current list' }).click();
    await poll(() => page.locator('article.change').count()).toBe(2);
    expect(errors).toEqual([]);
  });
});

describe('console pages for the empty, the unknown and the stopped', () => {
  it('says what the Pending page is for when nothing waits, and what the Activity page is for', async () => {
    f = await startFixture({ 'a.md': 'a\n' });
    const { page, errors } = await b.open(f, 390);
    await poll(() => page.locator('.empty').textContent()).toMatch(/Nothing is waiting for review.*staged/s);
    await shot(page, 'pending-empty-phone');
    await page.getByRole('link', { name: 'Agent activity' }).click();
    await poll(() => page.locator('.empty').textContent()).toMatch(/No agent has changed a note yet/);
    await page.goto(`${f.ui.url}#/nope`);
    await poll(() => page.locator('h1').textContent()).toBe('There is no such page');
    expect(errors).toEqual([]);
  });

  it('draws the frame and the pending count before any script runs', async () => {
    f = await startFixture({ ...POLICY, 'drafts/a.md': 'a\n' });
    await f.stage('drafts/a', () => 'A\n');
    const { page } = await b.blank(1280, { javaScriptEnabled: false });
    await page.goto(f.ui.loginUrl());
    expect(await page.locator('nav').textContent()).toMatch(/Pending changes\s*1/);
    expect(await page.locator('main').textContent()).toMatch(
      /Loading the console….*The console needs JavaScript/s,
    );
  });

  it('says plainly that the console stopped, and how to start it again', async () => {
    f = await startFixture({ 'a.md': 'a\n' });
    const { page } = await b.open(f);
    await poll(() => page.locator('main h1').textContent()).toBe('Pending changes');
    await f.ui.close();
    await page.evaluate('window.dispatchEvent(new Event("focus"))');
    await page.getByRole('link', { name: 'Agent activity' }).click();
    await poll(() => page.locator('#offline').isVisible()).toBe(true);
    expect(await page.locator('#offline').textContent()).toMatch(/not answering.*noted-mcp ui/s);
    await shot(page, 'stopped');
  });
});
