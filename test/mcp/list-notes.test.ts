import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FormatName } from '../../src/vault/format-name.js';
import { FORMATS, openTestVaultIn } from '../helpers/formats.js';
import { AN_ID } from '../helpers/note-ids.js';
import type { TestVault } from '../helpers/vault.js';

/** The format of the vault each test runs on (the suite runs on both, SPEC 11). */
let format: FormatName = 'markdown';
let vault: TestVault | undefined;
afterEach(async () => {
  await vault?.close();
  vault = undefined;
});

/** Sets a file's modification time to `secondsAgo` before a fixed moment. */
function age(dir: string, rel: string, secondsAgo: number): void {
  const when = new Date(Date.UTC(2025, 0, 1) - secondsAgo * 1000);
  fs.utimesSync(path.join(dir, ...rel.split('/')), when, when);
}

/** A vault whose notes have distinct times, `names[0]` newest; `extra` notes are older than all. */
function vaultInOrder(names: string[], extra: Record<string, string> = {}): Promise<TestVault> {
  const files: Record<string, string> = { ...extra };
  for (const n of names) files[n] = `# ${n}\n`;
  return openTestVaultIn(format, files, {
    prepare: (dir) => {
      for (const [i, n] of names.entries()) age(dir, n, i * 10);
      for (const n of Object.keys(extra)) age(dir, n, 100_000);
    },
  });
}

describe.each(FORMATS)('list_notes (%s vault)', (f) => {
  beforeEach(() => {
    format = f;
  });
  // Markdown only: it checks each note's size in bytes, which an HTML note's markup changes.
  it.skipIf(f === 'html')('lists notes newest first with name, title, modified and size', async () => {
    vault = await vaultInOrder(['b.md', 'a/c.md', 'z.md'], {
      'titled.md': '---\ntitle: Has a title\n---\nx\n',
    });
    const { structured } = await vault.call('list_notes');
    expect(structured.notes.map((n: { name: string }) => n.name)).toEqual([
      'b.md',
      'a/c.md',
      'z.md',
      'titled.md',
    ]);
    expect(structured.notes[0]).toEqual({
      name: 'b.md',
      id: AN_ID,
      title: 'b.md',
      modified: new Date(Date.UTC(2025, 0, 1)).toISOString(),
      sizeBytes: Buffer.byteLength('# b.md\n'),
      words: 2,
      created: structured.notes[0].created,
      uri: 'obsidian://open?vault=vault&file=b',
    });
    expect(structured.notes[3].title).toBe('Has a title');
    expect(structured.nextCursor).toBeUndefined();
  });

  it('never lists attachments or hidden paths (.noted, .obsidian, dot-files)', async () => {
    vault = await openTestVaultIn(format, {
      'note.md': 'x',
      'img/photo.png': 'png',
      '.obsidian/workspace.md': 'hidden',
      'a/.hidden.md': 'hidden',
      '.noted/fake.md': 'state',
    });
    const { structured } = await vault.call('list_notes');
    expect(structured.notes.map((n: { name: string }) => n.name)).toEqual(['note.md']);
  });

  it('a folder includes its sub-folders but not a sibling whose name only starts the same', async () => {
    vault = await vaultInOrder([
      'projects/a.md',
      'projects/deep/er/b.md',
      'projects-old/c.md',
      'root.md',
      'proj/d.md',
    ]);
    const { structured } = await vault.call('list_notes', { folder: 'projects' });
    expect(structured.notes.map((n: { name: string }) => n.name)).toEqual([
      'projects/a.md',
      'projects/deep/er/b.md',
    ]);
    const sub = await vault.call('list_notes', { folder: 'projects/deep/' });
    expect(sub.structured.notes.map((n: { name: string }) => n.name)).toEqual(['projects/deep/er/b.md']);
  });

  it('matches the folder case-insensitively and reads \\ as /', async () => {
    vault = await vaultInOrder(['Projects/Deep/a.md', 'other.md']);
    const { structured } = await vault.call('list_notes', { folder: 'projects\\deep' });
    expect(structured.notes.map((n: { name: string }) => n.name)).toEqual(['Projects/Deep/a.md']);
  });

  it('a folder with no notes gives an empty list, not an error', async () => {
    vault = await vaultInOrder(['a.md']);
    const { structured, isError } = await vault.call('list_notes', { folder: 'nothing-here' });
    expect(isError).toBe(false);
    expect(structured.notes).toEqual([]);
  });

  it('an invalid folder name is invalid_name', async () => {
    vault = await vaultInOrder(['a.md']);
    for (const folder of ['../outside', '.noted', '/etc']) {
      const { structured, isError } = await vault.call('list_notes', { folder });
      expect(isError).toBe(true);
      expect(structured.code).toBe('invalid_name');
    }
  });

  it('pages with cursor across pages with no duplicates and no gaps, also when times tie', async () => {
    const names = Array.from({ length: 23 }, (_, i) => `n${String(i).padStart(2, '0')}.md`);
    // Three groups of equal times, so the cursor must break ties by name.
    vault = await openTestVaultIn(format, Object.fromEntries(names.map((n) => [n, n])), {
      prepare: (dir) => {
        for (const [i, n] of names.entries()) age(dir, n, Math.floor(i / 8));
      },
    });
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const { structured, isError } = await vault.call('list_notes', {
        limit: 5,
        ...(cursor ? { cursor } : {}),
      });
      expect(isError).toBe(false);
      expect(structured.notes.length).toBeLessThanOrEqual(5);
      seen.push(...structured.notes.map((n: { name: string }) => n.name));
      cursor = structured.nextCursor;
      pages++;
    } while (cursor !== undefined);
    expect(pages).toBe(5);
    expect(new Set(seen).size).toBe(seen.length);
    expect([...seen].sort()).toEqual(names);
    const all = await vault.call('list_notes', { limit: 500 });
    expect(all.structured.notes.map((n: { name: string }) => n.name)).toEqual(seen);
  });

  it('a cursor it did not give out is a validation_error', async () => {
    vault = await vaultInOrder(['a.md']);
    for (const cursor of ['garbage', Buffer.from('{"x":1}').toString('base64url')]) {
      const { structured, isError } = await vault.call('list_notes', { cursor });
      expect(isError).toBe(true);
      expect(structured.code).toBe('validation_error');
      expect(structured.message).toContain('cursor');
    }
  });

  it('limit outside 1..500 is refused by the input schema, naming limit', async () => {
    vault = await vaultInOrder(['a.md']);
    for (const limit of [0, 501, 2.5]) {
      const { structured, isError } = await vault.call('list_notes', { limit });
      expect(isError).toBe(true);
      expect(structured.code).toBe('validation_error');
      expect(structured.message).toContain('limit');
    }
  });
});
