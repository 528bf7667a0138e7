/**
 * move_notes and delete_notes: one result per item, a refusal does not stop the others, nothing is
 * rolled back, and the batch is one journal group.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { openTestVault, readBytes, type TestVault } from '../helpers/vault.js';

let vaults: TestVault[] = [];
afterEach(async () => {
  for (const v of vaults) await v.close();
  vaults = [];
});

const text = (v: TestVault, rel: string) => readBytes(v.dir, rel)?.toString() ?? null;

describe('move_notes', () => {
  it('moves each item, reports a refusal in place and goes on; not a transaction', async () => {
    const v = await openTestVault({ 'a.md': 'a', 'b.md': 'b', 'taken.md': 't', 'idx.md': '[[a]] [[b]]\n' });
    vaults.push(v);
    const r = await v.call('move_notes', {
      items: [
        { name: 'a', new_name: 'x/a2' },
        { name: 'missing', new_name: 'x/m' },
        { name: 'b', new_name: 'taken' },
        { name: 'b', new_name: 'x/b2' },
      ],
    });
    expect(r.isError, r.text).toBe(false);
    expect(r.structured).toMatchObject({ committedCount: 2, refusedCount: 2, transaction: false });
    expect(
      r.structured.results.map((i: { committed: boolean; code?: string }) => [i.committed, i.code]),
    ).toEqual([
      [true, undefined],
      [false, 'not_found'],
      [false, 'already_exists'],
      [true, undefined],
    ]);
    expect(text(v, 'idx.md')).toBe('[[a2]] [[b2]]\n');
    const journal = v.opened.access.ctx.journal;
    const entries = journal.list({ group: r.structured.group });
    expect(entries).toHaveLength(6);
    const undone = await journal.undo({ group: r.structured.group }, { session: 'u', client: null });
    expect(undone.outcomes.every((o) => o.outcome === 'undone')).toBe(true);
    expect(text(v, 'idx.md')).toBe('[[a]] [[b]]\n');
    expect(text(v, 'a.md')).toBe('a');
    expect(text(v, 'b.md')).toBe('b');
  });
});

describe('delete_notes', () => {
  it('deletes each item to the trash, reports refusals, and shares one group', async () => {
    const v = await openTestVault({
      'a.md': 'a',
      'b.md': 'b',
      'archive/c.md': 'c',
      '.noted/mcp-policy.yaml': 'folders:\n  archive: read-only\n',
    });
    vaults.push(v);
    const r = await v.call('delete_notes', {
      items: [
        { name: 'a' },
        { name: 'archive/c' },
        { name: 'b', expected_etag: 'sha256:stale' },
        { name: 'b' },
      ],
    });
    expect(
      r.structured.results.map((i: { committed: boolean; code?: string }) => [i.committed, i.code]),
    ).toEqual([
      [true, undefined],
      [false, 'read_only'],
      [false, 'conflict'],
      [true, undefined],
    ]);
    expect(r.structured).toMatchObject({ committedCount: 2, refusedCount: 2, transaction: false });
    expect(text(v, 'a.md')).toBeNull();
    expect(text(v, 'archive/c.md')).toBe('c');
    const trash = await v.call('list_trash', {});
    expect(trash.structured.items.map((i: { name: string }) => i.name).sort()).toEqual(['a.md', 'b.md']);
    expect(v.opened.access.ctx.journal.list({ group: r.structured.group })).toHaveLength(2);
  });
});
