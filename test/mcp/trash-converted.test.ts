import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { convertCommand } from '../../src/cli/convert-command.js';
import { Journal } from '../../src/journal/journal.js';
import { etagOf } from '../../src/vault/etag.js';
import { Vault } from '../../src/vault/vault.js';
import { captureIo } from '../helpers/cli-run.js';
import {
  connect,
  readBytes,
  testJournalKey,
  type VaultFiles,
  vaultsRemovedAfterEach,
} from '../helpers/vault.js';

/**
 * The trash is not converted with the vault (noted-mcp convert): a note deleted before keeps its
 * format there. It stays listed and restorable, converted to the vault's format as it is restored.
 */

const tempVault = vaultsRemovedAfterEach();

function vaultWith(files: VaultFiles): string {
  return tempVault(files).dir;
}

const OLD =
  '---\ntitle: Old plan\n---\n# Old\n\nSee [goals](Goals.md) and [the secret](private/S.md).\n\n- [-] dropped\n';

/** A Markdown vault whose Old.md was deleted by an agent, then converted to HTML. */
async function deletedThenConverted(extra: VaultFiles = {}): Promise<string> {
  const dir = vaultWith({
    'Old.md': OLD,
    'Goals.md': '# Goals\n',
    'private/S.md': '# S\n',
    '.noted/mcp-policy.yaml': 'default: read-write\nfolders:\n  private: hidden\n',
    ...extra,
  });
  const served = await connect(dir);
  try {
    expect((await served.call('delete_note', { name: 'Old' })).isError).toBe(false);
  } finally {
    await served.close();
  }
  expect(await convertCommand(['--to', 'html', '--notes-dir', dir], captureIo().io)).toBe(0);
  return dir;
}

function trashFiles(dir: string): string[] {
  const root = path.join(dir, '.noted', 'trash');
  if (!fs.existsSync(root)) return [];
  return (fs.readdirSync(root, { recursive: true }) as string[])
    .filter((f) => fs.statSync(path.join(root, f)).isFile())
    .map((f) => f.split(path.sep).slice(1).join('/'));
}

describe('a note deleted before the vault was converted', () => {
  it('is listed under its name in the new format and restored converted, links and all', async () => {
    const dir = await deletedThenConverted();
    const served = await connect(dir);
    try {
      const trash = await served.call('list_trash');
      expect(trash.structured.items).toHaveLength(1);
      expect(trash.structured.items[0]).toMatchObject({ name: 'Old.html', deletedAs: 'Old.md' });
      expect(trash.text).toContain('deleted as Old.md, before the vault was converted: restored converted');

      // Named as it was deleted, as list_trash's deletedAs shows it.
      const restored = await served.call('restore_note', { name: 'Old.md' });
      expect(restored.isError, JSON.stringify(restored.structured)).toBe(false);
      expect(restored.structured).toMatchObject({ name: 'Old.html', deletedAs: 'Old.md' });
      expect(restored.structured.losses).toEqual([
        'line 5: the task status "-" becomes a ticked checkbox',
        'frontmatter properties are kept in a comment: an HTML vault does not read them (get_properties, query_notes) until it is converted back',
      ]);
      expect(restored.text).toContain('restored converted to the vault');

      const html = readBytes(dir, 'Old.html')?.toString() ?? '';
      expect(restored.structured.etag).toBe(etagOf(Buffer.from(html)));
      // The visible note it links to is there converted: the link follows it. The hidden one is left
      // as written, so the restored text says nothing of what the hidden folder holds.
      expect(html).toContain('<a href="Goals.html">goals</a>');
      expect(html).toContain('<a href="private/S.md">the secret</a>');
      expect(html).toContain('<!--noted:frontmatter\n---\ntitle: Old plan\n---\n');
      expect(fs.existsSync(path.join(dir, 'Old.md'))).toBe(false);
      expect(trashFiles(dir)).toEqual([]);
      expect(fs.readdirSync(path.join(dir, '.noted', 'trash'))).toEqual([]);

      // Served as any note: found, its title read, linked from nowhere new.
      expect(
        (await served.call('search_notes', { query: 'goals' })).structured.results.map(
          (r: { name: string }) => r.name,
        ),
      ).toContain('Old.html');
      expect((await served.call('get_outgoing_links', { name: 'Old' })).structured.links[0].target).toBe(
        'Goals.html',
      );
      expect((await served.call('list_trash')).structured.items).toEqual([]);
    } finally {
      await served.close();
    }

    // Journaled as a restore of exactly the bytes written, so it can be undone like any restore.
    const journal = new Journal(Vault.open(dir), { now: () => new Date(), key: testJournalKey() });
    const last = journal.list().find((e) => e.tool === 'restore_note');
    expect(last).toMatchObject({
      tool: 'restore_note',
      kind: 'restore',
      note: 'Old.html',
      beforeSha256: null,
    });
    const sha = createHash('sha256')
      .update(readBytes(dir, 'Old.html') as Buffer)
      .digest('hex');
    expect(last?.afterSha256).toBe(sha);
    expect(journal.verify().ok).toBe(true);
  });

  it('is never restored over a note that took its name, and stays in the trash', async () => {
    const dir = await deletedThenConverted();
    const served = await connect(dir);
    try {
      expect((await served.call('create_note', { name: 'Old', content: '<p>new</p>' })).isError).toBe(false);
      const before = readBytes(dir, 'Old.html');
      const r = await served.call('restore_note', { name: 'Old' });
      expect(r.structured.code).toBe('already_exists');
      expect(readBytes(dir, 'Old.html')).toEqual(before);
      expect(trashFiles(dir)).toEqual(['Old.md']);
      expect((await served.call('list_trash')).structured.items).toHaveLength(1);
    } finally {
      await served.close();
    }
  });

  it('that is not valid UTF-8 is refused with where it is kept, and nothing is written', async () => {
    const dir = await deletedThenConverted();
    const id = fs.readdirSync(path.join(dir, '.noted', 'trash'))[0] as string;
    fs.writeFileSync(
      path.join(dir, '.noted', 'trash', id, 'Old.md'),
      Buffer.from([0x23, 0x20, 0xff, 0xfe, 0x0a]),
    );
    const served = await connect(dir);
    try {
      const r = await served.call('restore_note', { name: 'Old' });
      expect(r.structured.code).toBe('not_supported');
      expect(r.structured.message).toContain(`not valid UTF-8`);
      expect(r.structured.message).toContain(`.noted/trash/${id}/`);
      expect(fs.existsSync(path.join(dir, 'Old.html'))).toBe(false);
      expect(trashFiles(dir)).toEqual(['Old.md']);
    } finally {
      await served.close();
    }
  });

  it('in a hidden folder is not listed, and a Markdown vault restores an HTML deletion as Markdown', async () => {
    const dir = vaultWith({
      'Keep.md': '# Keep\n',
      'Gone.md': '# Gone\n\nSee [keep](Keep.md).\n',
      'private/Secret.md': '# Secret\n',
    });
    expect(await convertCommand(['--to', 'html', '--notes-dir', dir], captureIo().io)).toBe(0);
    let served = await connect(dir);
    try {
      for (const name of ['Gone', 'private/Secret']) {
        expect((await served.call('delete_note', { name })).isError).toBe(false);
      }
    } finally {
      await served.close();
    }
    expect(await convertCommand(['--to', 'markdown', '--notes-dir', dir], captureIo().io)).toBe(0);
    fs.writeFileSync(
      path.join(dir, '.noted', 'mcp-policy.yaml'),
      'default: read-write\nfolders:\n  private: hidden\n',
    );
    served = await connect(dir);
    try {
      const trash = await served.call('list_trash');
      expect(
        trash.structured.items.map((i: { name: string; deletedAs?: string }) => [i.name, i.deletedAs]),
      ).toEqual([['Gone.md', 'Gone.html']]);
      // The hidden deletion, by either of its names, is answered as a name never deleted.
      for (const name of ['private/Secret', 'private/Secret.html', 'private/Never.html']) {
        const refused = await served.call('restore_note', { name });
        expect(refused.structured.code, name).toBe('not_found');
        expect(refused.structured.message.replace(/"[^"]*"/, '""'), name).toBe(
          'No deleted note named "" is in the trash. Call list_trash to see what can be restored.',
        );
      }
      const r = await served.call('restore_note', { name: 'Gone.md' });
      expect(r.isError, JSON.stringify(r.structured)).toBe(false);
      expect(r.structured.losses).toEqual([]);
      expect(r.text).toContain('nothing was lost');
      expect(readBytes(dir, 'Gone.md')?.toString()).toBe('# Gone\n\nSee [keep](Keep.md).\n');
      const read = await served.call('read_note', { name: 'Gone' });
      expect(read.structured.etag).toBe(r.structured.etag);
    } finally {
      await served.close();
    }
  });

  it('made by a conversion that was undone is listed beside the note it came from, and not restored over it', async () => {
    const dir = vaultWith({ 'Plan.md': '# Plan\n' });
    expect(await convertCommand(['--to', 'html', '--notes-dir', dir], captureIo().io)).toBe(0);
    const journal = new Journal(Vault.open(dir), { now: () => new Date(), key: testJournalKey() });
    const group = journal.list()[0]?.group as string;
    const undone = await journal.undo({ group }, { session: 'cli-test', client: 'owner' });
    expect(undone.outcomes.every((o) => o.outcome === 'undone')).toBe(true);
    const served = await connect(dir);
    try {
      expect(served.opened.vault.format).toBe('markdown');
      const trash = await served.call('list_trash');
      expect(
        trash.structured.items.map((i: { name: string; deletedAs?: string }) => [i.name, i.deletedAs]),
      ).toEqual([['Plan.md', 'Plan.html']]);
      const r = await served.call('restore_note', { name: 'Plan' });
      expect(r.structured.code).toBe('already_exists');
      expect(readBytes(dir, 'Plan.md')?.toString()).toBe('# Plan\n');
    } finally {
      await served.close();
    }
  });
});
