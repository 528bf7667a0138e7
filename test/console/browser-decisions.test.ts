import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Journal } from '../../src/journal/journal.js';
import { readBytes, testJournalKey, writeFiles } from '../helpers/vault.js';
import { confirmDialog, poll, shot, useBrowser } from './browser-fixture.js';
import { type ConsoleFixture, startFixture } from './console-fixture.js';

/**
 * Issue 30, points 7–10 (part B) in headless Chromium with real clicks and keys: a rejected change is
 * kept under "Rejected" and put back with one action; decisions show as "you" in Agent activity; two
 * changes to one note are grouped and say what approving one does to the other; an outdated change is
 * merged onto the owner's later edits, its overlapping hunk shown with both texts and never applied;
 * refused undos say plainly why; undoing a move leaves no empty folder behind.
 */
const b = useBrowser();
let f: ConsoleFixture;
afterEach(async () => f?.close());

const POLICY = { '.noted/mcp-policy.yaml': 'folders:\n  drafts: staged\n' };
const lines = (n: number) => `${Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n')}\n`;
const journal = () => new Journal(f.vault.opened.vault, { now: () => new Date(), key: testJournalKey() });

describe('issue 30.7: a rejection is kept, can be put back, and every decision is "you" in Activity', () => {
  it('rejects with a reason, lists it under Rejected, puts it back, approves it, and shows both as you', async () => {
    f = await startFixture({ ...POLICY, 'drafts/a.md': lines(10) });
    await f.stage('drafts/a', (t) => t.replace('line 4\n', 'line four\n'));
    const { page, errors } = await b.open(f);
    const card = page.locator('article.change[data-note="drafts/a.md"]');
    await poll(() => card.count()).toBe(1);
    await card.getByRole('textbox', { name: /Reason for rejecting/ }).fill('needs a source');
    await card.getByRole('button', { name: 'Reject', exact: true }).click();
    await confirmDialog(page, 'Reject the change');
    await poll(() => page.locator('.flash.ok').first().textContent()).toMatch(
      /kept under Rejected for 30 days/,
    );
    const rejected = page.locator('details.rejected-box');
    await poll(() => rejected.locator('summary').textContent()).toMatch(/Rejected \(1\)/);
    await rejected.locator('summary').click();
    const item = rejected.locator('li.rejected-item');
    expect(await item.textContent()).toMatch(/drafts\/a\.md.*noted-test.*Your reason: needs a source/s);
    await item.getByRole('button', { name: 'Show diff' }).click();
    await poll(() => item.locator('td.add ins, tr.add ins').allTextContents()).toContain('four');
    expect(readBytes(f.vault.dir, 'drafts/a.md')?.toString()).toBe(lines(10));
    await shot(page, 'rejected-1280');

    await item.getByRole('button', { name: 'Put back to pending' }).click();
    await poll(() => card.count()).toBe(1);
    await poll(() => rejected.locator('summary').textContent()).toMatch(/Rejected \(0\)/);
    await card.getByRole('button', { name: 'Approve', exact: true }).click();
    await poll(() => readBytes(f.vault.dir, 'drafts/a.md')?.toString()).toBe(
      lines(10).replace('line 4\n', 'line four\n'),
    );

    await page.goto(`${f.ui.url}#/activity`);
    const you = page.locator('.kind.you');
    await poll(() => you.allTextContents()).toEqual(['you approved', 'you put back', 'you rejected']);
    expect(await you.last().getAttribute('title')).toBe('Your reason: needs a source');
    expect(journal().verify().ok).toBe(true);
    expect(errors).toEqual([]);
  });
});

describe('issue 30.8 and 30.9: changes to one note grouped; outdated is not a dead end', () => {
  it('groups two changes to one note, says approving the first outdates the second, then merges the second', async () => {
    f = await startFixture({ ...POLICY, 'drafts/a.md': lines(30), 'drafts/z.md': 'z\n' });
    await f.stage('drafts/a', (t) => t.replace('line 3\n', 'line three\n'));
    await f.stage('drafts/z', () => 'z changed\n');
    await f.stage('drafts/a', (t) => t.replace('line 25\n', 'line twenty-five\n'));
    const { page, errors } = await b.open(f, 390);
    const cards = page.locator('article.change');
    await poll(() => cards.count()).toBe(3);
    // In order, the two changes to drafts/a.md together.
    expect(await cards.evaluateAll((all) => all.map((c) => c.getAttribute('data-note')))).toEqual([
      'drafts/a.md',
      'drafts/a.md',
      'drafts/z.md',
    ]);
    expect(await cards.nth(0).locator('.note-group').textContent()).toBe(
      'Change 1 of 2 to this note, oldest first. Approving this outdates the change below (their hunks that do not touch it can still be merged).',
    );
    expect(await cards.nth(1).locator('.note-group').textContent()).toMatch(
      /Change 2 of 2 .* outdates the change above/,
    );
    await cards.nth(0).getByRole('button', { name: 'Approve', exact: true }).click();
    await poll(() => cards.count()).toBe(2);
    const second = page.locator('article.change[data-note="drafts/a.md"]');
    await poll(() => second.locator('.outdated-why').textContent()).toMatch(/can still be merged/);
    await second.getByRole('button', { name: 'Merge 1 clean hunk onto the note as it is now' }).click();
    await poll(() => readBytes(f.vault.dir, 'drafts/a.md')?.toString()).toBe(
      lines(30).replace('line 3\n', 'line three\n').replace('line 25\n', 'line twenty-five\n'),
    );
    // Each decided card keeps its own message where it was: the merged one says what it did.
    await poll(async () =>
      (await page.locator('.flash.ok').allTextContents()).some((t) =>
        /1 of 1 hunks, merged onto the later edits/.test(t),
      ),
    ).toBe(true);
    expect(journal().list({ kind: 'update' })[0]?.decision).toMatchObject({
      action: 'approve',
      merged: true,
    });
    expect(errors).toEqual([]);
  });

  it('merges the hunks of an 8-hunk change that do not touch the owner edits, and shows the one that does with both texts', async () => {
    f = await startFixture({ ...POLICY, 'drafts/long.md': lines(120) });
    await f.stage('drafts/long', (t) => {
      let out = t;
      for (let i = 1; i <= 8; i++) out = out.replace(`line ${i * 10}\n`, `line ${i * 10} by the agent\n`);
      return out;
    });
    // The owner appends a line 100 lines away and edits line 80, which the agent changed too.
    const ours = `${lines(120).replace('line 80\n', 'line 80 by the owner\n')}the owner's last line\n`;
    writeFiles(f.vault.dir, { 'drafts/long.md': ours });
    const { page, errors } = await b.open(f);
    const card = page.locator('article.change');
    await poll(() => card.locator('section.merge').count()).toBe(1);
    expect(await card.getByRole('button', { name: 'Approve', exact: true }).isDisabled()).toBe(true);
    expect(await card.locator('section.merge > p').first().textContent()).toBe(
      '7 hunks of 8 apply cleanly onto the note as it is now; 1 hunk overlaps later edits and is not applied (both texts below).',
    );
    const conflict = card.locator('[data-conflict="8"]');
    expect(await conflict.locator('tr.add, td.add').first().textContent()).toContain('line 80 by the agent');
    expect(await conflict.textContent()).toContain('line 80 by the owner');
    expect(await card.locator('input[data-hunk="8"]').isDisabled()).toBe(true);
    // Leave hunk 2 out too, with the keyboard.
    await card.locator('input[data-hunk="2"]').focus();
    await page.keyboard.press('Space');
    await shot(page, 'merge-1280');
    await card.getByRole('button', { name: 'Merge 6 clean hunks onto the note as it is now' }).click();
    let expected = ours;
    for (const i of [1, 3, 4, 5, 6, 7])
      expected = expected.replace(`line ${i * 10}\n`, `line ${i * 10} by the agent\n`);
    await poll(() => readBytes(f.vault.dir, 'drafts/long.md')?.toString()).toBe(expected);
    expect(errors).toEqual([]);
  });
});

describe('issue 30.10: refused undos in plain words; undoing a move leaves no empty folder', () => {
  it('says why an undo was refused and what to do, without a command', async () => {
    f = await startFixture({ 'notes/a.md': 'A\n' });
    await f.vault.call('update_note', { name: 'notes/a', content: 'A by the agent\n' });
    writeFiles(f.vault.dir, { 'notes/a.md': 'A by the agent\nand the owner\n' });
    const { page, errors } = await b.open(f);
    await page.goto(`${f.ui.url}#/activity`);
    await page.getByRole('button', { name: 'Undo', exact: true }).click();
    await confirmDialog(page, /Undo/);
    const flash = page.locator('.flash.warn, .flash.error').first();
    await poll(() => flash.textContent()).toMatch(/was changed after the agent wrote it/);
    const text = (await flash.textContent()) ?? '';
    expect(text).toContain('Edit it by hand if you still want');
    expect(text).not.toMatch(/noted-mcp|journal show|\d{8}T\d{9}Z/);
    expect(errors).toEqual([]);
  });

  it('undoes a move into new folders and removes those folders, now empty', async () => {
    f = await startFixture({ 'notes/a.md': 'A\n', 'notes/b.md': 'see [[notes/a]]\n' });
    await f.vault.call('move_note', { name: 'notes/a', new_name: 'archive/2026/a' });
    expect(fs.existsSync(path.join(f.vault.dir, 'archive', '2026', 'a.md'))).toBe(true);
    const { page, errors } = await b.open(f);
    await page.goto(`${f.ui.url}#/activity`);
    const operation = page.locator('li.operation');
    await operation.getByRole('button', { name: 'Undo this operation' }).click();
    await confirmDialog(page, /Undo/);
    await poll(() => readBytes(f.vault.dir, 'notes/a.md')?.toString()).toBe('A\n');
    await poll(() => fs.existsSync(path.join(f.vault.dir, 'archive'))).toBe(false);
    expect(errors).toEqual([]);
  });
});
