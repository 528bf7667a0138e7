import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { threadId } from 'node:worker_threads';
import { beforeAll, describe, expect, it } from 'vitest';
import { convertVault } from '../../src/access/convert.js';
import { convertCommand } from '../../src/cli/convert-command.js';
import { Journal } from '../../src/journal/journal.js';
import { noteLockKey, vaultLocks } from '../../src/journal/note-locks.js';
import { approve } from '../../src/staging/approve.js';
import { PendingStore } from '../../src/staging/pending-store.js';
import { readConversionMarker, writeConversionMarker } from '../../src/vault/conversion-marker.js';
import { etagOf } from '../../src/vault/etag.js';
import { Vault } from '../../src/vault/vault.js';
import { captureIo } from '../helpers/cli-run.js';
import { DIST, ensureBuilt } from '../helpers/server-process.js';
import {
  connect,
  readBytes,
  snapshot,
  testJournalKey,
  type VaultFiles,
  vaultsRemovedAfterEach,
  within,
} from '../helpers/vault.js';

const tempVault = vaultsRemovedAfterEach();

function vaultWith(files: VaultFiles): string {
  return tempVault(files).dir;
}

const PLAN = `---
title: Q3 plan
tags: [work]
status: active
---
# Plan

See [[Goals]], [the risks](sub/Risks.md#Top) and ![chart](img/chart.png). #q3

- [ ] ship 📅 2024-05-01
- [x] spec
- [-] dropped

| a | b |
| --- | --- |
| 1 | *2* |
`;

const FILES: VaultFiles = {
  'Plan.md': PLAN,
  'Goals.md': '# Goals\n\nGrow. Back to [plan](Plan.md).\n',
  'sub/Risks.md': '## Top\n\nNone.\n',
  'img/chart.png': Buffer.from([0x89, 0x50, 0x4e, 0x47]),
};

function mtimes(dir: string, names: readonly string[]): number[] {
  return names.map((n) => Math.floor(fs.statSync(path.join(dir, n)).mtimeMs / 1000));
}

describe('noted-mcp convert (SPEC 11.5)', () => {
  it('--dry-run lists what would change and what would be lost, and writes nothing', async () => {
    const dir = vaultWith(FILES);
    const before = snapshot(dir, { includeState: true });
    const io = captureIo();
    expect(await convertCommand(['--to', 'html', '--dry-run', '--notes-dir', dir], io.io)).toBe(0);
    expect(io.out()).toContain('Dry run: 3 of 3 notes would be converted to html; nothing was written.');
    expect(io.out()).toContain('would convert  Plan.md → Plan.html');
    expect(io.out()).toContain('the task status "-" becomes a ticked checkbox');
    expect(io.out()).toContain('frontmatter properties are kept in a comment');
    const after = snapshot(dir, { includeState: true });
    // Opening the vault made its state folder; no note, no journal, no marker.
    expect([...after.keys()].filter((k) => !k.startsWith('.noted'))).toEqual(
      [...before.keys()].filter((k) => !k.startsWith('.noted')),
    );
    for (const [k, v] of before) expect(after.get(k), k).toBe(v);
    expect(fs.existsSync(path.join(dir, '.noted', 'journal'))).toBe(false);
  });

  it('converts to HTML and back: names, file times, links, tags, tasks, tables; one journal group', async () => {
    const dir = vaultWith(FILES);
    const past = new Date('2020-01-02T03:04:05Z');
    for (const n of ['Plan.md', 'Goals.md', 'sub/Risks.md']) fs.utimesSync(path.join(dir, n), past, past);
    const io = captureIo();
    expect(await convertCommand(['--to', 'html', '--notes-dir', dir], io.io)).toBe(0);
    expect(io.out()).toMatch(/Converted 3 of 3 notes to html\./);
    const html = ['Plan.html', 'Goals.html', 'sub/Risks.html'];
    for (const n of ['Plan.md', 'Goals.md', 'sub/Risks.md'])
      expect(fs.existsSync(path.join(dir, n)), n).toBe(false);
    expect(mtimes(dir, html)).toEqual(html.map(() => past.getTime() / 1000));
    expect(readBytes(dir, 'img/chart.png')).toEqual(FILES['img/chart.png']);
    const plan = readBytes(dir, 'Plan.html')?.toString() ?? '';
    expect(plan).toContain('<a href="sub/Risks.html#Top">the risks</a>');
    expect(plan).toContain('<img src="img/chart.png" alt="chart" />');
    expect(JSON.parse(fs.readFileSync(path.join(dir, '.noted', 'config.json'), 'utf8'))).toEqual({
      format: 'html',
    });
    expect(readConversionMarker(path.join(dir, '.noted'))).toBeNull();

    // The converted vault, served: the same links, tags and tasks as before.
    const served = await connect(dir);
    try {
      expect(served.opened.vault.format).toBe('html');
      const links = await served.call('get_outgoing_links', { name: 'Plan' });
      expect(links.structured.links.map((l: { target: string | null }) => l.target)).toEqual([
        'Goals.html',
        'sub/Risks.html',
        'img/chart.png',
      ]);
      expect(
        (await served.call('list_tags')).structured.tags.map((t: { tag: string }) => t.tag).sort(),
      ).toEqual(['q3', 'work']);
      const tasks = await served.call('list_tasks', { status: 'all' });
      expect(tasks.structured.tasks.map((t: { text: string; done: boolean }) => [t.text, t.done])).toEqual([
        ['ship 📅 2024-05-01', false],
        ['spec', true],
        ['dropped', true],
      ]);
      expect((await served.call('search_notes', { query: 'Grow' })).structured.results[0].name).toBe(
        'Goals.html',
      );
      expect((await served.call('read_note', { name: 'Plan' })).structured.format).toBe('html');
    } finally {
      await served.close();
    }

    const journal = new Journal(Vault.open(dir), { now: () => new Date(), key: testJournalKey() });
    const entries = journal.list();
    expect(entries).toHaveLength(6);
    const groups = new Set(entries.map((e) => e.group));
    expect(groups.size).toBe(1);
    expect(entries.map((e) => [e.tool, e.kind]).sort()).toEqual([
      ...Array(3).fill(['convert', 'create']),
      ...Array(3).fill(['convert', 'delete']),
    ]);

    // Back to Markdown: the frontmatter and every other line as they were.
    expect(await convertCommand(['--to', 'markdown', '--notes-dir', dir], captureIo().io)).toBe(0);
    expect(readBytes(dir, 'Plan.md')?.toString()).toBe(PLAN.replace('- [-] dropped', '- [x] dropped'));
    expect(readBytes(dir, 'Goals.md')?.toString()).toBe(FILES['Goals.md']);
    expect(JSON.parse(fs.readFileSync(path.join(dir, '.noted', 'config.json'), 'utf8'))).toEqual({
      format: 'markdown',
    });
  });

  it('undo --group puts the Markdown vault back', async () => {
    const dir = vaultWith(FILES);
    expect(await convertCommand(['--to', 'html', '--notes-dir', dir], captureIo().io)).toBe(0);
    const group = new Journal(Vault.open(dir), { now: () => new Date(), key: testJournalKey() }).list()[0]
      ?.group as string;
    const result = await runCliInProcessUndo(dir, group);
    expect(result).toMatchObject({ refused: 0, undone: 6, reasons: [] });
    for (const n of ['Plan.md', 'Goals.md', 'sub/Risks.md'])
      expect(readBytes(dir, n)).toEqual(Buffer.from(FILES[n] as string));
    for (const n of ['Plan.html', 'Goals.html', 'sub/Risks.html'])
      expect(fs.existsSync(path.join(dir, n)), n).toBe(false);
    // The recorded format follows the notes back, so a server serves them again.
    expect(JSON.parse(fs.readFileSync(path.join(dir, '.noted', 'config.json'), 'utf8'))).toEqual({
      format: 'markdown',
    });
    const served = await connect(dir);
    try {
      expect(served.opened.vault.format).toBe('markdown');
      expect((await served.call('list_notes')).structured.notes).toHaveLength(3);
    } finally {
      await served.close();
    }
  });

  it('a stopped run leaves .noted/converting: servers answer writes with busy; the next run continues in the same group', async () => {
    const files: VaultFiles = {};
    for (let i = 0; i < 20; i++)
      files[`n${String(i).padStart(2, '0')}.md`] = `# Note ${i}\n\nsee [[n00]] #t${i}\n`;
    const dir = vaultWith(files);
    const vault = Vault.open(dir);
    const journal = new Journal(vault, { now: () => new Date(), key: testJournalKey() });
    let asked = 0;
    const first = await convertVault(vault, journal, {
      to: 'html',
      dryRun: false,
      session: 's1',
      batchSize: 1,
      stopRequested: () => ++asked > 7,
    });
    expect(first).toMatchObject({ stopped: true, resumed: false });
    expect(first.converted).toHaveLength(7);
    expect(readConversionMarker(vault.stateDir)).toMatchObject({ to: 'html', group: first.group });

    const served = await connect(dir);
    try {
      const write = await served.call('create_note', { name: 'new', content: 'x' });
      expect(write.structured).toMatchObject({ code: 'busy', committed: false });
      expect((await served.call('read_note', { name: 'n10' })).isError).toBe(false);
    } finally {
      await served.close();
    }

    // The owner's own writes wait for it too: an undo or an approval would write a note in the
    // format the conversion is leaving.
    const undo = journal.undo({ group: first.group as string }, { session: 'owner', client: 'owner' });
    await expect(undo).rejects.toMatchObject({ code: 'busy' });
    // (This process converted, so the run counts as live; a stopped run of another says how to finish it.)
    await expect(undo).rejects.toThrow('Cannot undo while noted-mcp convert is converting the vault to html');
    const pending = new PendingStore(vault);
    const before = String(readBytes(dir, 'n15.md'));
    const staged = pending.add({
      note: 'n15.md',
      kind: 'update',
      baseEtag: etagOf(Buffer.from(before)),
      baseText: before,
      newText: `${before}more\n`,
      session: 's1',
      client: 'test',
      tool: 'update_note',
    });
    await expect(approve(vault, pending, staged.id, { onWrite: () => undefined })).rejects.toMatchObject({
      code: 'busy',
    });
    expect(readBytes(dir, 'n15.md')?.toString()).toBe(before);
    expect(pending.list()).toHaveLength(1);

    const wrong = captureIo();
    expect(await convertCommand(['--to', 'markdown', '--notes-dir', dir], wrong.io)).toBe(1);
    expect(wrong.err()).toContain('Finish it first with: noted-mcp convert --to html');

    const second = await convertVault(Vault.open(dir), journal, { to: 'html', dryRun: false, session: 's2' });
    expect(second).toMatchObject({ stopped: false, resumed: true, group: first.group, total: 13 });
    expect(readConversionMarker(vault.stateDir)).toBeNull();
    for (const name of Object.keys(files)) {
      expect(fs.existsSync(path.join(dir, name)), name).toBe(false);
      expect(fs.existsSync(path.join(dir, name.replace(/\.md$/, '.html'))), name).toBe(true);
    }
    expect(new Set(journal.list().map((e) => e.group))).toEqual(new Set([first.group]));
  });

  it('issue 35 finding 6: a create that passed the policy before the conversion and then waited for its lock is refused, never left in the old format', async () => {
    const dir = vaultWith({ 'a.md': '# A\n' });
    const vault = Vault.open(dir);
    const journal = new Journal(vault, { now: () => new Date(), key: testJournalKey() });
    const served = await connect(dir);
    try {
      /**
       * Starts `create_note name` while the note's lock is held (as by a writer in another process),
       * and resolves once the create waits for that lock: its policy check is behind it then. The
       * lock's waiter touches its holder file at every try, so a few new times of it show the wait.
       */
      const blockedCreate = async (name: string) => {
        const lockFile = vaultLocks(vault).pathFor(noteLockKey(`${name}.md`));
        fs.mkdirSync(path.dirname(lockFile), { recursive: true });
        fs.writeFileSync(lockFile, `${process.pid} ${Date.now()}`);
        const holder = path.join(path.dirname(lockFile), `holder.${process.pid}-${threadId}.tmp`);
        const seen = new Set<number>();
        const create = served.call('create_note', { name, content: 'acknowledged?\n' });
        const waiting = await within(10_000, () => {
          if (fs.existsSync(holder)) seen.add(fs.statSync(holder).mtimeMs);
          return seen.size >= 3;
        });
        expect(waiting, 'the create waits for the held lock').not.toBeNull();
        return { create, release: () => fs.rmSync(lockFile) };
      };

      // A conversion under way (its marker written after the create's policy check): refused at once.
      const during = await blockedCreate('during');
      writeConversionMarker(vault.stateDir, { to: 'html', group: 'g', pid: process.pid, started: '' });
      during.release();
      expect((await during.create).structured).toMatchObject({ code: 'busy', committed: false });
      expect(fs.existsSync(path.join(dir, 'during.md'))).toBe(false);
      fs.rmSync(path.join(vault.stateDir, 'converting'));

      // A whole conversion run while the create waited: the create must not write a Markdown note
      // into the converted vault (it would be an attachment there, the create acknowledged but lost).
      const after = await blockedCreate('after');
      const report = await convertVault(vault, journal, { to: 'html', dryRun: false, session: 's' });
      expect(report).toMatchObject({ stopped: false, converted: [{ from: 'a.md', to: 'a.html' }] });
      after.release();
      expect((await after.create).structured).toMatchObject({ code: 'busy', committed: false });
      expect(fs.existsSync(path.join(dir, 'after.md'))).toBe(false);
    } finally {
      await served.close();
    }
  });

  it('refuses what it cannot do, saying why: no --to, a bad format, a target that exists', async () => {
    const io = captureIo();
    expect(await convertCommand([], io.io)).toBe(2);
    expect(io.err()).toContain('--to markdown or --to html');
    const bad = captureIo();
    expect(await convertCommand(['--to', 'pdf'], bad.io)).toBe(2);
    expect(bad.err()).toContain('--to takes markdown or html (got "pdf")');
    const dir = vaultWith({ 'a.md': '# A\n', 'a.html': '<p>an attachment</p>', 'b.md': '# B\n' });
    const clash = captureIo();
    expect(await convertCommand(['--to', 'html', '--notes-dir', dir], clash.io)).toBe(1);
    expect(clash.out()).toContain('left as it is: a.md: "a.html" already exists');
    expect(readBytes(dir, 'a.md')?.toString()).toBe('# A\n');
    expect(readBytes(dir, 'a.html')?.toString()).toBe('<p>an attachment</p>');
    expect(readBytes(dir, 'b.html')?.toString()).toContain('<h1>B</h1>');
  });
});

describe('a conversion killed in the middle (SPEC 11.5)', () => {
  beforeAll(async () => {
    await ensureBuilt();
  }, 300_000);

  it('leaves every note converted or untouched, and the next run converts the rest', async () => {
    const files: VaultFiles = {};
    for (let i = 0; i < 1000; i++) {
      files[`f${i % 10}/n${i}.md`] =
        `# Note ${i}\n\n- [ ] task ${i} #t${i % 7}\n\nSee [[n${(i + 1) % 1000}]] and [x](../f0/n0.md).\n`;
    }
    const dir = vaultWith(files);
    // What an uninterrupted conversion of the same vault gives, note by note.
    const referenceDir = vaultWith(files);
    const ref = Vault.open(referenceDir);
    await convertVault(ref, new Journal(ref, { now: () => new Date(), key: testJournalKey() }), {
      to: 'html',
      dryRun: false,
      session: 'ref',
    });

    const child: ChildProcess = spawn(
      process.execPath,
      [DIST, 'convert', '--to', 'html', '--notes-dir', dir],
      {
        cwd: os.tmpdir(),
        stdio: 'ignore',
      },
    );
    const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
    // Killed once a batch or more is done (old files removed), before the last.
    const started = await within(120_000, () => countMarkdown(dir) <= 800);
    expect(started, 'the conversion got under way').not.toBeNull();
    child.kill('SIGKILL');
    await exited;

    const originals = Object.keys(files);
    let converted = 0;
    let untouched = 0;
    for (const name of originals) {
      const md = readBytes(dir, name);
      const htmlName = name.replace(/\.md$/, '.html');
      const html = readBytes(dir, htmlName);
      const expected = readBytes(referenceDir, htmlName);
      if (md === null) {
        expect(html, `${name} converted`).toEqual(expected);
        converted++;
      } else {
        expect(md.toString(), `${name} untouched`).toBe(files[name]);
        // Killed between writing the new file and removing the old: the new one is whole.
        if (html !== null) expect(html, `${htmlName} whole`).toEqual(expected);
        untouched++;
      }
    }
    expect(converted).toBeGreaterThan(0);
    expect(untouched, 'killed before the end').toBeGreaterThan(0);
    expect(readConversionMarker(path.join(dir, '.noted'))).not.toBeNull();

    const rerun = spawnSync(process.execPath, [DIST, 'convert', '--to', 'html', '--notes-dir', dir], {
      cwd: os.tmpdir(),
      encoding: 'utf8',
      timeout: 240_000,
    });
    expect(rerun.status, rerun.stdout + rerun.stderr).toBe(0);
    expect(rerun.stdout).toContain('continuing the conversion that was stopped');
    for (const name of originals) {
      const htmlName = name.replace(/\.md$/, '.html');
      expect(readBytes(dir, name), name).toBeNull();
      expect(readBytes(dir, htmlName), htmlName).toEqual(readBytes(referenceDir, htmlName));
    }
    const journal = new Journal(Vault.open(dir), { now: () => new Date(), key: testJournalKey() });
    expect(journal.verify()).toMatchObject({ ok: true });
    expect(new Set(journal.list().map((e) => e.group)).size).toBe(1);
  }, 300_000);
});

function countMarkdown(dir: string): number {
  let n = 0;
  for (let i = 0; i < 10; i++) {
    try {
      n += fs.readdirSync(path.join(dir, `f${i}`)).filter((f) => f.endsWith('.md')).length;
    } catch {
      // not made yet
    }
  }
  return n;
}

/** `noted-mcp undo --group` in-process: how many changes were undone and refused. */
async function runCliInProcessUndo(
  dir: string,
  group: string,
): Promise<{ undone: number; refused: number; reasons: unknown[] }> {
  const journal = new Journal(Vault.open(dir), { now: () => new Date(), key: testJournalKey() });
  const result = await journal.undo({ group }, { session: 'cli-test', client: 'owner' });
  const refused = result.outcomes.filter((o) => o.outcome !== 'undone');
  return {
    undone: result.outcomes.length - refused.length,
    refused: refused.length,
    reasons: refused.map((o) => o.reason),
  };
}
