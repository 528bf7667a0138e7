import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { etagOf } from '../../src/vault/etag.js';
import { openTestVault, readBytes, snapshot, type TestVault, within, writeFiles } from '../helpers/vault.js';

let vault: TestVault | undefined;
afterEach(async () => {
  await vault?.close();
  vault = undefined;
});

/** A clock that starts at `start` and moves one minute per call, so every deletion has its own time. */
function steppingClock(start = Date.UTC(2026, 5, 1, 12, 0, 0)): () => Date {
  let t = start;
  return () => {
    t += 60_000;
    return new Date(t);
  };
}

// Odd bytes on purpose: CRLF, a BOM, trailing spaces, no final line break.
const TEXT = '\uFEFF---\r\ntags: [x]\r\n---\r\nbody  \r\nend';

describe('delete_note, list_trash, restore_note', () => {
  it('delete → list_trash → restore puts back the byte-identical note', async () => {
    vault = await openTestVault({ 'inbox/idea.md': TEXT, 'keep.md': 'k' });
    const original = readBytes(vault.dir, 'inbox/idea.md')!;

    const deleted = await vault.call('delete_note', { name: 'inbox/idea' });
    expect(deleted.isError).toBe(false);
    expect(deleted.structured.name).toBe('inbox/idea.md');
    expect(readBytes(vault.dir, 'inbox/idea.md')).toBeNull();
    const trashed = path.join(vault.dir, '.noted', 'trash', deleted.structured.trashId, 'inbox', 'idea.md');
    expect(fs.readFileSync(trashed).equals(original)).toBe(true);

    const listed = await vault.call('list_notes');
    expect(listed.structured.notes.map((n: { name: string }) => n.name)).toEqual(['keep.md']);
    const read = await vault.call('read_note', { name: 'inbox/idea' });
    expect(read.structured.code).toBe('not_found');

    const trash = await vault.call('list_trash');
    expect(trash.structured.items).toEqual([
      { id: deleted.structured.trashId, name: 'inbox/idea.md', deletedAt: expect.any(String) },
    ]);
    expect(Date.parse(trash.structured.items[0].deletedAt)).not.toBeNaN();

    const restored = await vault.call('restore_note', { name: 'inbox/idea' });
    expect(restored.isError).toBe(false);
    expect(restored.structured).toMatchObject({
      name: 'inbox/idea.md',
      etag: etagOf(original),
      trashId: deleted.structured.trashId,
    });
    expect(readBytes(vault.dir, 'inbox/idea.md')?.equals(original)).toBe(true);
    expect((await vault.call('list_trash')).structured.items).toEqual([]);
    expect(fs.existsSync(path.dirname(path.dirname(trashed)))).toBe(false);
    const again = await vault.call('read_note', { name: 'inbox/idea' });
    expect(again.structured.etag).toBe(etagOf(original));
  });

  it('delete with a stale expected_etag is a conflict and the note stays', async () => {
    vault = await openTestVault({ 'n.md': 'current' });
    const before = snapshot(vault.dir);
    const { structured, isError } = await vault.call('delete_note', {
      name: 'n',
      expected_etag: etagOf('old'),
    });
    expect(isError).toBe(true);
    expect(structured).toMatchObject({ code: 'conflict', committed: false, currentEtag: etagOf('current') });
    expect(snapshot(vault.dir)).toEqual(before);
    expect((await vault.call('list_trash')).structured.items).toEqual([]);
    const ok = await vault.call('delete_note', { name: 'n', expected_etag: etagOf('current') });
    expect(ok.isError).toBe(false);
  });

  it('deleting a missing note is not_found; an ambiguous bare name is refused, nothing moved', async () => {
    vault = await openTestVault({ 'a/same.md': '1', 'b/same.md': '2' });
    const before = snapshot(vault.dir);
    const missing = await vault.call('delete_note', { name: 'ghost' });
    expect(missing.structured).toMatchObject({ code: 'not_found', committed: false });
    const ambiguous = await vault.call('delete_note', { name: 'same' });
    expect(ambiguous.structured).toMatchObject({ code: 'ambiguous', committed: false });
    expect(snapshot(vault.dir)).toEqual(before);
  });

  it('restore refuses when the note exists again: already_exists, nothing overwritten', async () => {
    vault = await openTestVault({ 'plan.md': 'first version' });
    await vault.call('delete_note', { name: 'plan' });
    await vault.call('create_note', { name: 'plan', content: 'second version' });
    const before = snapshot(vault.dir);
    const { structured, isError } = await vault.call('restore_note', { name: 'plan' });
    expect(isError).toBe(true);
    expect(structured).toMatchObject({ code: 'already_exists', committed: false, name: 'plan.md' });
    expect(readBytes(vault.dir, 'plan.md')?.toString()).toBe('second version');
    expect(snapshot(vault.dir)).toEqual(before);
    // The deletion is still in the trash.
    expect((await vault.call('list_trash')).structured.items).toHaveLength(1);
  });

  it('restore also refuses when the note exists again in another letter case', async () => {
    vault = await openTestVault({ 'Plan.md': 'first' });
    await vault.call('delete_note', { name: 'Plan' });
    await vault.call('create_note', { name: 'PLAN', content: 'other case' });
    const { structured } = await vault.call('restore_note', { name: 'Plan' });
    expect(structured).toMatchObject({ code: 'already_exists', committed: false, name: 'PLAN.md' });
    expect(readBytes(vault.dir, 'Plan.md')).toBeNull();
  });

  it('without id restores the latest of two deletions; with id the one it names', async () => {
    vault = await openTestVault({ 'log.md': 'version one' }, { now: steppingClock() });
    const first = await vault.call('delete_note', { name: 'log' });
    await vault.call('create_note', { name: 'log', content: 'version two' });
    const second = await vault.call('delete_note', { name: 'log' });
    expect(first.structured.trashId).not.toBe(second.structured.trashId);

    const trash = await vault.call('list_trash');
    expect(trash.structured.items.map((i: { id: string }) => i.id)).toEqual([
      second.structured.trashId,
      first.structured.trashId,
    ]);

    const latest = await vault.call('restore_note', { name: 'log' });
    expect(latest.structured.trashId).toBe(second.structured.trashId);
    expect(readBytes(vault.dir, 'log.md')?.toString()).toBe('version two');

    await vault.call('delete_note', { name: 'log' });
    const byId = await vault.call('restore_note', { name: 'log', id: first.structured.trashId });
    expect(byId.isError).toBe(false);
    expect(byId.structured.trashId).toBe(first.structured.trashId);
    expect(readBytes(vault.dir, 'log.md')?.toString()).toBe('version one');
  });

  it('two deletions in the same millisecond get distinct ids', async () => {
    const fixed = () => new Date(Date.UTC(2026, 5, 1));
    vault = await openTestVault({ 'a.md': 'a', 'b.md': 'b' }, { now: fixed });
    const a = await vault.call('delete_note', { name: 'a' });
    const b = await vault.call('delete_note', { name: 'b' });
    expect(a.structured.trashId).not.toBe(b.structured.trashId);
    expect((await vault.call('list_trash')).structured.items).toHaveLength(2);
  });

  it('restore of a name or id not in the trash is not_found and nothing is written', async () => {
    vault = await openTestVault({ 'x.md': 'x' });
    const deleted = await vault.call('delete_note', { name: 'x' });
    const before = snapshot(vault.dir, { includeState: true });
    const unknown = await vault.call('restore_note', { name: 'never-was' });
    expect(unknown.structured).toMatchObject({ code: 'not_found', committed: false });
    const wrongId = await vault.call('restore_note', { name: 'x', id: '2001-01-01T00-00-00-000Z' });
    expect(wrongId.structured).toMatchObject({ code: 'not_found', committed: false });
    expect(wrongId.structured.message).toContain('list_trash');
    expect(snapshot(vault.dir, { includeState: true })).toEqual(before);
    expect(deleted.isError).toBe(false);
  });

  it('restore recreates the folders of the original path', async () => {
    vault = await openTestVault({ 'deep/er/est/n.md': 'deep' });
    await vault.call('delete_note', { name: 'deep/er/est/n' });
    fs.rmSync(path.join(vault.dir, 'deep'), { recursive: true });
    await vault.call('restore_note', { name: 'deep/er/est/n' });
    expect(readBytes(vault.dir, 'deep/er/est/n.md')?.toString()).toBe('deep');
  });

  it('deletions older than the retention period are purged on start', async () => {
    vault = await openTestVault(
      {
        '.noted/trash/2020-01-01T00-00-00-000Z/x.md': 'ancient',
        '.noted/trash/2026-05-25T00-00-00-000Z/recent.md': 'recent',
        'keep.md': 'k',
      },
      { now: () => new Date(Date.UTC(2026, 5, 1)) },
    );
    expect(vault.opened.purged).toBe(1);
    expect(fs.existsSync(path.join(vault.dir, '.noted/trash/2020-01-01T00-00-00-000Z'))).toBe(false);
    const trash = await vault.call('list_trash');
    expect(trash.structured.items).toEqual([
      { id: '2026-05-25T00-00-00-000Z', name: 'recent.md', deletedAt: '2026-05-25T00:00:00.000Z' },
    ]);
  });

  it('list_trash only reads: a deletion past retention is left out, not removed (issue 18)', async () => {
    vault = await openTestVault({ 'keep.md': 'k' });
    writeFiles(vault.dir, { '.noted/trash/2020-01-01T00-00-00-000Z/x.md': 'ancient' });
    const before = snapshot(vault.dir, { includeState: true });
    const trash = await vault.call('list_trash');
    expect(trash.structured).toMatchObject({ items: [], total: 0, more: false });
    expect(fs.existsSync(path.join(vault.dir, '.noted/trash/2020-01-01T00-00-00-000Z/x.md'))).toBe(true);
    expect(snapshot(vault.dir, { includeState: true })).toEqual(before);
    // Past retention is as good as purged: it cannot be restored either.
    const restore = await vault.call('restore_note', { name: 'x' });
    expect(restore.structured).toMatchObject({ code: 'not_found', committed: false });
    expect(readBytes(vault.dir, 'x.md')).toBeNull();
  });

  it('deletions that age past retention while serving are purged by the timer', async () => {
    vault = await openTestVault({ 'keep.md': 'k' }, { purgeEveryMs: 50 });
    writeFiles(vault.dir, { '.noted/trash/2020-01-01T00-00-00-000Z/x.md': 'ancient' });
    const gone = await within(
      10_000,
      () => !fs.existsSync(path.join(vault!.dir, '.noted/trash/2020-01-01T00-00-00-000Z')),
    );
    expect(gone).not.toBeNull();
  });

  it('retention 0 keeps deletions however old', async () => {
    vault = await openTestVault(
      { '.noted/trash/2020-01-01T00-00-00-000Z/x.md': 'ancient' },
      { trashRetentionDays: 0 },
    );
    expect(vault.opened.purged).toBe(0);
    const trash = await vault.call('list_trash');
    expect(trash.structured.items.map((i: { name: string }) => i.name)).toEqual(['x.md']);
    const restored = await vault.call('restore_note', { name: 'x' });
    expect(restored.isError).toBe(false);
    expect(readBytes(vault.dir, 'x.md')?.toString()).toBe('ancient');
  });
});

describe('list_trash pages (SPEC 3.3)', () => {
  it('pages newest first with total, more and a cursor that survives deletions in between', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 7; i++) files[`.noted/trash/2026-05-0${i + 1}T00-00-00-000Z/n${i}.md`] = `n${i}`;
    vault = await openTestVault(files, { now: () => new Date(Date.UTC(2026, 4, 10)) });
    const first = await vault.call('list_trash', { limit: 3 });
    expect(first.structured.items.map((t: { name: string }) => t.name)).toEqual(['n6.md', 'n5.md', 'n4.md']);
    expect(first.structured).toMatchObject({ total: 7, more: true });
    expect(first.text).toContain(`call again with cursor "${first.structured.nextCursor}"`);
    // A restore between pages moves nothing that is still to come.
    await vault.call('restore_note', { name: 'n6' });
    const second = await vault.call('list_trash', { limit: 3, cursor: first.structured.nextCursor });
    expect(second.structured.items.map((t: { name: string }) => t.name)).toEqual(['n3.md', 'n2.md', 'n1.md']);
    const third = await vault.call('list_trash', { limit: 3, cursor: second.structured.nextCursor });
    expect(third.structured.items.map((t: { name: string }) => t.name)).toEqual(['n0.md']);
    expect(third.structured).toMatchObject({ total: 6, more: false });
    expect(third.structured.nextCursor).toBeUndefined();
    expect(third.text).not.toContain('cursor');
  });

  it('a cursor this server did not give out, or one of another list, is a validation_error', async () => {
    vault = await openTestVault({ 'a.md': 'a', 'b.md': 'b' });
    const notesCursor = (await vault.call('list_notes', { limit: 1 })).structured.nextCursor;
    for (const cursor of [
      'garbage',
      notesCursor,
      Buffer.from('{"k":"trash","a":{},"i":-1}').toString('base64url'),
    ]) {
      const r = await vault.call('list_trash', { cursor });
      expect(r.structured.code).toBe('validation_error');
      expect(r.structured.message).toMatch(/cursor/);
    }
  });
});
