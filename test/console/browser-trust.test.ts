import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readBytes } from '../helpers/vault.js';
import { confirmDialog, poll, shot, useBrowser } from './browser-fixture.js';
import { type ConsoleFixture, startFixture } from './console-fixture.js';

/**
 * Issue 30, part A (SPEC 9.4), each point reproduced in headless Chromium with the real mouse and
 * keyboard: a long hunk drawn true and whole on request, no irreversible action from a double-click or
 * a held key, session undo of what is shown, hidden characters marked, the reviewer's place kept,
 * plain refusals across two tabs, and the Access and Connect pages' smaller defects.
 */
const b = useBrowser();
let f: ConsoleFixture;
afterEach(async () => f?.close());

const POLICY = { '.noted/mcp-policy.yaml': 'folders:\n  drafts: staged\n' };
const RAW_ID = /\d{8}-\d{6}-\d{3}-[0-9a-f]{6}/;

const numbered = (n: number, word: string) =>
  `${Array.from({ length: n }, (_, i) => `line ${i + 1} ${word}`).join('\n')}\n`;

function pendingFiles(): string[] {
  const dir = path.join(f.vault.dir, '.noted', 'pending');
  return fs.existsSync(dir) ? fs.readdirSync(dir).filter((n) => n.endsWith('.json')) : [];
}

describe('issue 30.1: a long hunk is drawn true, from the data, and whole on request', () => {
  it('shows both sides of a 2,100-line rewrite, says what is not shown yet, and loads the rest in place', async () => {
    f = await startFixture({ ...POLICY, 'drafts/long.md': numbered(2100, 'old') });
    await f.stage('drafts/long', () => numbered(2100, 'new'));
    const { page, errors } = await b.open(f);
    const card = page.locator('article.change');
    const hunk = card.locator('fieldset.hunk');
    await poll(() => hunk.locator('tr.add').count()).toBeGreaterThan(0);
    expect(await hunk.locator('tr.del').count()).toBeGreaterThan(0);
    // Nothing of the hunk is drawn as unchanged context, and nothing outside it is offered as such.
    expect(await card.locator('tr.ctx').count()).toBe(0);
    expect(await card.locator('.gap-bar').count()).toBe(0);
    const approve = card.locator('button.approve');
    expect(await approve.textContent()).toBe('Approve 1 hunk, 1 not yet shown');

    await card.getByRole('button', { name: /Show all \d+ left of this hunk/ }).click();
    await poll(() => hunk.getAttribute('data-partial'), 60_000).toBeNull();
    expect(await hunk.locator('tr.del').count()).toBe(2100);
    expect(await hunk.locator('tr.add').count()).toBe(2100);
    expect(await card.locator('tr.ctx').count()).toBe(0);
    expect(await hunk.locator('tr.add td.code').last().textContent()).toMatch(/line 2100 new/);
    expect(await approve.textContent()).toBe('Approve');
    await approve.click();
    await poll(() => readBytes(f.vault.dir, 'drafts/long.md')?.toString()).toBe(numbered(2100, 'new'));
    expect(errors).toEqual([]);
  });

  it('draws the first hunks of a 60-hunk change, the rest on request; keep all or none at once', async () => {
    const base = numbered(300, 'same');
    f = await startFixture({ ...POLICY, 'drafts/many.md': base });
    await f.stage('drafts/many', (t) =>
      t
        .split('\n')
        .map((l, i) => (i % 5 === 2 ? l.replace('same', 'changed') : l))
        .join('\n'),
    );
    const { page, errors } = await b.open(f);
    const card = page.locator('article.change');
    const approve = card.locator('button.approve');
    await poll(() => approve.textContent()).toBe('Approve 60 hunks, 20 not yet shown');
    expect(await card.locator('fieldset.hunk').count()).toBe(40);
    await card.getByRole('button', { name: 'Keep none' }).click();
    expect(await approve.isDisabled()).toBe(true);
    expect(await card.locator('input[data-hunk]:checked').count()).toBe(0);
    await card.getByRole('button', { name: 'Keep all 60 hunks' }).click();
    expect(await card.locator('input[data-hunk]:checked').count()).toBe(40);
    await card.locator('input[data-hunk="3"]').uncheck();
    await card.getByRole('button', { name: 'Show all 20' }).click();
    await poll(() => card.locator('fieldset.hunk').count()).toBe(60);
    await poll(() => approve.textContent()).toBe('Approve 59 of 60');
    expect(errors).toEqual([]);
  });
});

describe('issue 30.1: a new note longer than its first screen', () => {
  it('says on Approve how many of its lines were not shown yet, until they are', async () => {
    f = await startFixture({ ...POLICY, 'drafts/keep.md': 'k\n' });
    const created = await f.vault.call('create_note', { name: 'drafts/big', content: numbered(500, 'new') });
    expect(created.structured.staged).toBe(true);
    const { page, errors } = await b.open(f);
    const approve = page.locator('article.change button.approve');
    await poll(() => approve.textContent()).toBe('Approve, 100 lines not yet shown');
    await page.getByRole('button', { name: 'Show the remaining 100 lines' }).click();
    await poll(() => approve.textContent()).toBe('Approve');
    expect(await page.locator('article.change tr.add').count()).toBe(500);
    expect(errors).toEqual([]);
  });
});

describe('issue 30.2: no double-click, repeated key or held Enter confirms an irreversible action', () => {
  for (const width of [1280, 390])
    it(`Reject all and Approve all ask in a dialog that counts the list it then acts on (${width} px)`, async () => {
      f = await startFixture({
        ...POLICY,
        'drafts/a.md': 'a\n',
        'drafts/b.md': 'b\n',
        'drafts/c.md': 'c\n',
        'drafts/d.md': 'd\n',
      });
      for (const n of ['a', 'b', 'c']) await f.stage(`drafts/${n}`, (t) => t.toUpperCase());
      const { page, errors } = await b.open(f, width);
      await poll(() => page.locator('article.change').count()).toBe(3);
      const rejectAll = page.getByRole('button', { name: 'Reject all', exact: true });
      const before = await rejectAll.boundingBox();

      await rejectAll.dblclick();
      await poll(() => page.locator('dialog.confirm[open]').count()).toBe(1);
      expect(pendingFiles()).toHaveLength(3);
      expect((await rejectAll.boundingBox())?.width).toBe(before?.width);
      await page.keyboard.press('Escape');
      await poll(() => page.locator('dialog.confirm[open]').count()).toBe(0);

      // Enter held down on the button: the first press opens the dialog, the repeats do nothing.
      await rejectAll.focus();
      for (let i = 0; i < 15; i++) await page.keyboard.down('Enter');
      await page.keyboard.up('Enter');
      await page.keyboard.press('Enter'); // a second, separate press lands on Cancel
      await poll(() => page.locator('dialog.confirm[open]').count()).toBe(0);
      expect(pendingFiles()).toHaveLength(3);

      await page.getByRole('button', { name: 'Approve all', exact: true }).dblclick();
      await poll(() => page.locator('dialog.confirm[open]').count()).toBe(1);
      await page.getByRole('button', { name: 'Cancel' }).click();
      expect(readBytes(f.vault.dir, 'drafts/a.md')?.toString()).toBe('a\n');

      // A change that arrives while the dialog is open is not in its count, and is not rejected.
      await rejectAll.click();
      await poll(() => page.locator('dialog.confirm[open]').count()).toBe(1);
      await f.stage('drafts/d', (t) => t.toUpperCase());
      const said = await confirmDialog(page, 'Reject 3 changes');
      expect(said).toMatch(/Reject 3 changes: no note is touched/);
      await poll(() => page.locator('.flash.ok').first().textContent()).toMatch(/Rejected 3 changes/);
      expect(pendingFiles()).toHaveLength(1);
      await shot(page, `trust-reject-all-${width}`);
      expect(errors).toEqual([]);
    });
});

describe('issue 30.3: Undo this session undoes what the filtered card shows', () => {
  it('with the Activity filtered to one note, undoes that note only, after a double-click and a confirmation', async () => {
    f = await startFixture({ 'notes/a.md': 'A\n', 'notes/b.md': 'B\n', 'notes/c.md': 'C\n' });
    for (const name of ['notes/a', 'notes/b', 'notes/c']) {
      const read = await f.vault.call('read_note', { name });
      await f.vault.call('update_note', {
        name,
        content: `${name} changed\n`,
        expected_etag: read.structured.etag,
      });
    }
    const { page, errors } = await b.open(f);
    await page.getByRole('link', { name: 'Agent activity' }).click();
    await page.locator('form.filters input[name="note"]').fill('notes/b');
    await page.getByRole('button', { name: 'Filter' }).click();
    await poll(() => page.locator('ul.entries > li').count()).toBe(1);
    await page.getByRole('button', { name: 'Undo this session' }).dblclick();
    await poll(() => page.locator('dialog.confirm[open]').count()).toBe(1);
    expect(readBytes(f.vault.dir, 'notes/b.md')?.toString()).toBe('notes/b changed\n');
    const said = await confirmDialog(page, 'Undo 1 change');
    expect(said).toMatch(/Undo the 1 change shown here, under the filter in effect/);
    await poll(() => readBytes(f.vault.dir, 'notes/b.md')?.toString()).toBe('B\n');
    expect(readBytes(f.vault.dir, 'notes/a.md')?.toString()).toBe('notes/a changed\n');
    expect(readBytes(f.vault.dir, 'notes/c.md')?.toString()).toBe('notes/c changed\n');
    expect(errors).toEqual([]);
  });
});

describe('issue 30.4: invisible characters are shown as marks, with a warning', () => {
  for (const width of [1280, 390]) {
    it(`marks a right-to-left override in a name and a zero-width space in a line (${width} px)`, async () => {
      f = await startFixture({ ...POLICY, 'drafts/status.md': 'status: none\n' });
      const created = await f.vault.call('create_note', {
        name: 'drafts/Invoice \u202Efdp',
        content: 'pay\n',
      });
      expect(created.structured.staged).toBe(true);
      await f.stage('drafts/status', () => 'status: \u202Eenon\u202C\u200B\n');
      const { page, errors } = await b.open(f, width);
      const invoice = page.locator('article.change', { hasText: 'Invoice' });
      await poll(() => invoice.locator('h2').textContent()).toBe('New note: drafts/Invoice ⟨U+202E⟩fdp.md');
      expect(await invoice.locator('.hidden-warning').textContent()).toMatch(
        /U\+202E \(right-to-left override\)/,
      );
      const status = page.locator('article.change', { hasText: 'status' });
      expect(await status.locator('tr.add td.code').textContent()).toMatch(/⟨U\+202E⟩enon⟨U\+202C⟩⟨U\+200B⟩/);
      expect(await status.locator('.hidden-warning').textContent()).toMatch(/U\+200B \(zero-width space\)/);
      // The page holds none of the characters themselves.
      expect(
        await page.evaluate('/[\\u202A-\\u202E\\u2066-\\u2069\\u200B]/.test(document.body.innerText)'),
      ).toBe(false);
      await shot(page, `trust-hidden-${width}`);
      expect(errors).toEqual([]);
    });
  }
});

describe('issue 30.5: the reviewer keeps their place', () => {
  it('folds a decided card in place and moves to the next with j/k/a/v; ? lists the keys; a tree with a filter', async () => {
    const files: Record<string, string> = { ...POLICY };
    for (let i = 0; i < 6; i++) files[`drafts/${i < 3 ? 'one' : 'two'}/n${i}.md`] = numbered(40, `note ${i}`);
    f = await startFixture(files);
    for (let i = 0; i < 6; i++)
      await f.stage(`drafts/${i < 3 ? 'one' : 'two'}/n${i}`, (t) => t.replace('line 20 ', 'line twenty '));
    const { page, errors } = await b.open(f);
    await poll(() => page.locator('article.change').count()).toBe(6);
    expect(await page.locator('.files-box summary').textContent()).toMatch(/0 of 6 viewed/);
    expect(await page.locator('.file-tree .folder-head').allTextContents()).toEqual([
      'drafts/one/',
      'drafts/two/',
    ]);
    await page.getByLabel('Filter the changed notes by name').fill('n4');
    expect(await page.locator('li[data-file-item]:visible').count()).toBe(1);
    await page.getByLabel('Filter the changed notes by name').fill('');

    await page.locator('main h1').click();
    for (let i = 0; i < 4; i++) await page.keyboard.press('j');
    const fourth = page.locator('article.card').nth(3);
    await poll(() => page.evaluate('document.activeElement.closest("article").dataset.note')).toBe(
      'drafts/two/n3.md',
    );
    const y = await page.evaluate('window.scrollY');
    expect(y).toBeGreaterThan(0);
    await page.keyboard.down('a');
    await page.keyboard.down('a'); // a held key: one approval
    await page.keyboard.up('a');
    await poll(() => fourth.getAttribute('class')).toMatch(/decided/);
    expect(await fourth.locator('.card-body').isHidden()).toBe(true);
    await poll(() => page.evaluate('document.activeElement.closest("article").dataset.note')).toBe(
      'drafts/two/n4.md',
    );
    expect(await page.evaluate('window.scrollY')).toBeGreaterThan(0);
    expect(readBytes(f.vault.dir, 'drafts/two/n4.md')?.toString()).toBe(numbered(40, 'note 4'));
    expect(pendingFiles()).toHaveLength(5);
    await page.keyboard.press('v');
    await poll(() => page.locator('.files-box summary').textContent()).toMatch(/1 of 5 viewed/);
    await page.keyboard.press('k');
    await page.keyboard.press('?');
    await poll(() => page.locator('dialog.shortcuts[open]').textContent()).toMatch(
      /j.*next change.*k.*previous change/s,
    );
    await shot(page, 'trust-keys');
    expect(errors).toEqual([]);
  });
});

describe('issue 30.10: names are not broken inside a word', () => {
  it('wraps a long name at 390 px between its folders and words only', async () => {
    const name = 'drafts/quarterly/retrospective-notes-for-the-launch-of-the-search-index';
    f = await startFixture({ ...POLICY, [`${name}.md`]: 'a\n' });
    await f.stage(name, () => 'b\n');
    const { page, errors } = await b.open(f, 390);
    const title = page.locator('article.change h2 .note-name');
    await poll(() => title.textContent()).toBe(`${name}.md`);
    // Where each line of the title starts: the character before must end a folder or a word.
    const breaks = (await page.evaluate(`(() => {
      const node = document.querySelector('article.change h2 .note-name');
      const out = [];
      let lastTop = null;
      let before = '';
      const walker = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
      for (let t = walker.nextNode(); t !== null; t = walker.nextNode()) {
        const text = t.textContent;
        for (let i = 0; i < text.length; i++) {
          const range = document.createRange();
          range.setStart(t, i);
          range.setEnd(t, i + 1);
          const top = range.getBoundingClientRect().top;
          if (lastTop !== null && top > lastTop + 4) out.push(before);
          lastTop = top;
          before = text[i];
        }
      }
      return out;
    })()`)) as string[];
    expect(breaks.length).toBeGreaterThan(0);
    for (const ch of breaks) expect('/- ').toContain(ch);
    expect(errors).toEqual([]);
  });
});

describe('issue 30.6: races and stale tabs get one plain sentence per kind', () => {
  it('a change decided in another tab is named, without ids or commands, and the refusals are aggregated', async () => {
    f = await startFixture({ ...POLICY, 'drafts/a.md': 'a\n', 'drafts/b.md': 'b\n', 'drafts/c.md': 'c\n' });
    for (const n of ['a', 'b', 'c']) await f.stage(`drafts/${n}`, (t) => t.toUpperCase());
    const first = await b.open(f);
    const second = await first.context.newPage();
    await second.goto(f.ui.url);
    await poll(() => second.locator('article.change').count()).toBe(3);
    await poll(() => first.page.locator('article.change').count()).toBe(3);

    const a1 = first.page.locator('article.change[data-note="drafts/a.md"]');
    await a1.getByRole('button', { name: 'Approve', exact: true }).click();
    await poll(() => readBytes(f.vault.dir, 'drafts/a.md')?.toString()).toBe('A\n');
    const a2 = second.locator('article[data-note="drafts/a.md"]');
    await a2.getByRole('button', { name: 'Approve', exact: true }).click();
    await poll(() => a2.locator('.flash').textContent()).toMatch(
      /The change to drafts\/a\.md was already decided elsewhere/,
    );
    expect(await a2.locator('.flash').textContent()).not.toMatch(RAW_ID);

    await first.page.getByRole('button', { name: 'Reject all', exact: true }).click();
    await confirmDialog(first.page, 'Reject 2 changes');
    await poll(() => pendingFiles()).toHaveLength(0);
    await second.getByRole('button', { name: 'Approve all', exact: true }).click();
    await confirmDialog(second, 'Approve 2 changes');
    const message = second.locator('.flash.warn').first();
    await poll(() => message.textContent()).toMatch(
      /2 changes were already decided elsewhere.*drafts\/b\.md, drafts\/c\.md/,
    );
    const text = (await message.textContent()) ?? '';
    expect(text).not.toMatch(RAW_ID);
    expect(text).not.toMatch(/noted-mcp/);
    expect(text.match(/decided elsewhere/g)).toHaveLength(1);
    expect(first.errors).toEqual([]);
  });
});

describe('issue 30.10: the Access and Connect pages', () => {
  it('Access asks before unsaved edits are left, and shows the YAML diff before saving', async () => {
    f = await startFixture({ 'private/c.md': 'c\n', 'inbox/a.md': 'a\n' });
    const { page, errors } = await b.open(f);
    await page.locator('nav a[data-page="access"]').click();
    const rule = page.getByRole('combobox', { name: 'Rule for private' });
    await rule.selectOption('hidden');
    await page.getByRole('link', { name: 'Connect a client' }).click();
    await poll(() => page.locator('dialog.confirm[open]').textContent()).toMatch(/Leave without saving/);
    await page.getByRole('button', { name: 'Cancel' }).click();
    expect(page.url()).toMatch(/#\/access$/);
    expect(await rule.inputValue()).toBe('hidden');

    await page.getByRole('button', { name: 'Save policy' }).click();
    const said = await confirmDialog(page, 'Save');
    expect(said).toMatch(/private: hidden/);
    await poll(() => page.locator('.flash.ok').textContent()).toMatch(/Saved/);
    expect(fs.readFileSync(path.join(f.vault.dir, '.noted', 'mcp-policy.yaml'), 'utf8')).toMatch(
      /private: hidden/,
    );
    await page.getByRole('link', { name: 'Connect a client' }).click();
    await poll(() => page.locator('main h1').textContent()).toBe('Connect a client');
    expect(errors).toEqual([]);
  });

  it('Connect titles clients by name and says "Copied" beside the button pressed', async () => {
    f = await startFixture({ 'a.md': 'a\n' });
    const { page, context, errors } = await b.open(f, 390);
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.getByRole('link', { name: 'Connect a client' }).click();
    const card = page.locator('section.card', { hasText: 'claude mcp add' });
    await poll(() => card.locator('h2').textContent()).toBe('Claude Code');
    await card.getByRole('button', { name: 'Copy the Claude Code configuration' }).click();
    await poll(() => card.locator('.copied').textContent()).toBe('Copied');
    const button = await card.getByRole('button', { name: /Copy/ }).boundingBox();
    const copied = await card.locator('.copied').boundingBox();
    expect(Math.abs((copied?.y ?? 0) - (button?.y ?? 1000))).toBeLessThan(40);
    expect(errors).toEqual([]);
  });
});
