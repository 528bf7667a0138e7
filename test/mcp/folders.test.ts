/**
 * list_folders, create_folder, move_folder and delete_folder on real vaults.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FormatName } from '../../src/vault/format-name.js';
import { FORMATS, openTestVaultIn } from '../helpers/formats.js';
import { readBytes, type TestVault } from '../helpers/vault.js';

/** The format of the vault each test runs on (the suite runs on both, SPEC 11). */
let format: FormatName = 'markdown';
let vaults: TestVault[] = [];
afterEach(async () => {
  for (const v of vaults) await v.close();
  vaults = [];
});

async function open(files: Record<string, string>, policy?: string): Promise<TestVault> {
  const v = await openTestVaultIn(
    format,
    policy === undefined ? files : { ...files, '.noted/mcp-policy.yaml': policy },
  );
  vaults.push(v);
  return v;
}

const text = (v: TestVault, rel: string) => readBytes(v.dir, rel)?.toString() ?? null;

describe.each(FORMATS)('list_folders (%s vault)', (f) => {
  beforeEach(() => {
    format = f;
  });
  it('lists the tree with note counts; hidden and dot folders are absent', async () => {
    const v = await open(
      {
        'a/one.md': '1',
        'a/b/two.md': '2',
        'a/b/three.md': '3',
        'a/img.png': 'png',
        'c/four.md': '4',
        'private/secret.md': 's',
        'a/private/x.md': 'x',
        '.obsidian/app.json': '{}',
      },
      'folders:\n  private: hidden\n  a/private: hidden\n',
    );
    fs.mkdirSync(path.join(v.dir, 'empty/inner'), { recursive: true });
    const r = await v.call('list_folders', {});
    expect(r.structured.folders).toEqual([
      { path: 'a', notes: 1, totalNotes: 3 },
      { path: 'a/b', notes: 2, totalNotes: 2 },
      { path: 'c', notes: 1, totalNotes: 1 },
      { path: 'empty', notes: 0, totalNotes: 0 },
      { path: 'empty/inner', notes: 0, totalNotes: 0 },
    ]);
    expect((await v.call('list_folders', { folder: 'a' })).structured.folders).toEqual([
      { path: 'a/b', notes: 2, totalNotes: 2 },
    ]);
    expect((await v.call('list_folders', { folder: 'private' })).structured.code).toBe('not_found');
  });
});

describe.each(FORMATS)('create_folder (%s vault)', (f) => {
  beforeEach(() => {
    format = f;
  });
  it('creates nested folders and is idempotent', async () => {
    const v = await open({});
    expect((await v.call('create_folder', { folder: 'x/y/z' })).structured).toEqual({
      folder: 'x/y/z',
      created: true,
    });
    expect((await v.call('create_folder', { folder: 'x/y/z/' })).structured).toEqual({
      folder: 'x/y/z',
      created: false,
    });
    expect(fs.statSync(path.join(v.dir, 'x/y/z')).isDirectory()).toBe(true);
    expect((await v.call('create_folder', { folder: '.hidden' })).structured.code).toBe('invalid_name');
  });
});

describe.each(FORMATS)('move_folder (%s vault)', (f) => {
  beforeEach(() => {
    format = f;
  });
  // Markdown only: it checks the moved files' Markdown text byte for byte; html-vault.test.ts moves HTML notes.
  it.skipIf(f === 'html')(
    'moves every note and attachment, rewrites links everywhere, and removes the old folder',
    async () => {
      const v = await open({
        'proj/Plan.md': 'plan ![[diagram.png]] [[proj/sub/Task]]\n',
        'proj/sub/Task.md': 'task [up](../Plan.md)\n',
        'proj/diagram.png': 'png',
        'index.md': '[[proj/Plan]] [[Task#Do]] ![d](proj/diagram.png)\n',
      });
      fs.mkdirSync(path.join(v.dir, 'proj/empty'));
      const dry = await v.call('move_folder', { folder: 'proj', new_folder: 'archive/2024', dry_run: true });
      expect(dry.structured).toMatchObject({
        dryRun: true,
        committed: false,
        notesTotal: 2,
        attachmentsTotal: 1,
      });
      expect(text(v, 'proj/Plan.md')).not.toBeNull();
      const r = await v.call('move_folder', { folder: 'proj', new_folder: 'archive/2024' });
      expect(r.isError, r.text).toBe(false);
      expect(fs.existsSync(path.join(v.dir, 'proj'))).toBe(false);
      expect(fs.statSync(path.join(v.dir, 'archive/2024/empty')).isDirectory()).toBe(true);
      expect(text(v, 'archive/2024/diagram.png')).toBe('png');
      expect(text(v, 'archive/2024/Plan.md')).toBe('plan ![[diagram.png]] [[sub/Task]]\n');
      expect(text(v, 'archive/2024/sub/Task.md')).toBe('task [up](../Plan.md)\n');
      expect(text(v, 'index.md')).toBe('[[2024/Plan]] [[Task#Do]] ![d](2024/diagram.png)\n');
      const links = (await v.call('get_outgoing_links', { name: 'index' })).structured.links;
      expect(links.map((l: { target: string }) => l.target)).toEqual([
        'archive/2024/Plan.md',
        'archive/2024/sub/Task.md',
        'archive/2024/diagram.png',
      ]);
    },
  );

  // Markdown only: it checks the moved files' Markdown text byte for byte; html-vault.test.ts moves HTML notes.
  it.skipIf(f === 'html')(
    'refuses an existing destination, a move into itself, and a read-only note inside',
    async () => {
      const v = await open(
        { 'a/x.md': 'x', 'b/y.md': 'y', 'c/locked/z.md': 'z' },
        'folders:\n  c/locked: read-only\n',
      );
      expect((await v.call('move_folder', { folder: 'a', new_folder: 'B' })).structured.code).toBe(
        'already_exists',
      );
      expect((await v.call('move_folder', { folder: 'a', new_folder: 'a/inner' })).structured.code).toBe(
        'validation_error',
      );
      expect((await v.call('move_folder', { folder: 'c', new_folder: 'd' })).structured.code).toBe(
        'read_only',
      );
      expect((await v.call('move_folder', { folder: 'nope', new_folder: 'd' })).structured.code).toBe(
        'not_found',
      );
      expect(text(v, 'c/locked/z.md')).toBe('z');
    },
  );
});

describe.each(FORMATS)('delete_folder (%s vault)', (f) => {
  beforeEach(() => {
    format = f;
  });
  it('a dry run gives the revision; the real call deletes only that empty folder', async () => {
    const v = await open({});
    fs.mkdirSync(path.join(v.dir, 'old/inner'), { recursive: true });
    const noRevision = await v.call('delete_folder', { folder: 'old' });
    expect(noRevision.structured.code).toBe('validation_error');
    const dry = await v.call('delete_folder', { folder: 'old', dry_run: true });
    expect(dry.structured).toMatchObject({ folder: 'old', dryRun: true, committed: false });
    expect(fs.existsSync(path.join(v.dir, 'old'))).toBe(true);
    // Something changed in between: refused.
    fs.mkdirSync(path.join(v.dir, 'old/new-sub'));
    const stale = await v.call('delete_folder', { folder: 'old', revision: dry.structured.revision });
    expect(stale.structured).toMatchObject({ code: 'conflict', committed: false });
    const again = await v.call('delete_folder', { folder: 'old', dry_run: true });
    const r = await v.call('delete_folder', { folder: 'old', revision: again.structured.revision });
    expect(r.structured).toMatchObject({ committed: true });
    expect(fs.existsSync(path.join(v.dir, 'old'))).toBe(false);
  });

  it('a folder with notes, attachments or files agents cannot see is not deleted', async () => {
    const v = await open(
      { 'full/a.md': 'a', 'pics/p.png': 'p', 'dots/.DS_Store': 'x', 'mixed/private/s.md': 's' },
      'folders:\n  mixed/private: hidden\n',
    );
    for (const folder of ['full', 'pics', 'dots', 'mixed']) {
      const r = await v.call('delete_folder', { folder, dry_run: true });
      // A folder with a hidden one inside is refused by the policy alone, whatever that one holds.
      expect(r.structured.code, folder).toBe(folder === 'mixed' ? 'read_only' : 'validation_error');
      expect(fs.existsSync(path.join(v.dir, folder))).toBe(true);
    }
    const mixed = await v.call('delete_folder', { folder: 'mixed', dry_run: true });
    expect(mixed.structured.message).not.toMatch(/private|s\.md|1/);
  });
});
