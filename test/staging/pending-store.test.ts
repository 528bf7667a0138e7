import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isNotedError } from '../../src/common/errors.js';
import { MAX_PENDING_BYTES, MAX_PENDING_CHANGES, PendingStore } from '../../src/staging/pending-store.js';
import type { NewPendingChange } from '../../src/staging/types.js';
import { etagOf } from '../../src/vault/etag.js';
import { type TempVault, tempVault } from './temp-vault.js';

let t: TempVault;
afterEach(() => t?.cleanup());

const WHO = { session: 's-1', client: 'Claude Code', tool: 'edit_note' };

function update(note: string, baseText: string, newText: string): NewPendingChange {
  return { note, kind: 'update', baseEtag: etagOf(baseText), baseText, newText, ...WHO };
}

function code(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    if (isNotedError(error)) return error.code;
    throw error;
  }
  return 'no error';
}

describe('PendingStore', () => {
  it('stores a change as one JSON file and gives it back', () => {
    t = tempVault();
    const store = new PendingStore(t.vault, () => new Date('2026-03-14T09:15:02.123Z'));
    const stored = store.add(update('drafts/plan.md', 'a\n', 'b\n'));
    expect(stored.id).toMatch(/^20260314-091502-123-[0-9a-f]{6}$/);
    expect(stored.createdAt).toBe('2026-03-14T09:15:02.123Z');
    const file = path.join(t.dir, '.noted', 'pending', `${stored.id}.json`);
    // One ordinary JSON document, texts on their own lines after the fields.
    const raw = fs.readFileSync(file, 'utf8');
    expect(JSON.parse(raw)).toEqual({ format: 1, ...stored });
    expect(raw.split('\n')[1]).toBe('"baseText":"a\\n",');
    expect(store.get(stored.id)).toEqual(stored);
    const { baseText: _b, newText: _n, ...summary } = stored;
    expect(store.summary(stored.id)).toEqual(summary);
    expect(store.list()).toEqual([summary]);
  });

  it('lists oldest first, also for changes made in the same millisecond', () => {
    t = tempVault();
    const store = new PendingStore(t.vault, () => new Date('2026-01-01T00:00:00.000Z'));
    const ids = ['a', 'b', 'c', 'd'].map((n) => store.add(update(`${n}.md`, '', n)).id);
    expect(new Set(ids).size).toBe(4);
    expect(store.list().map((c) => c.id)).toEqual(ids);
    expect(store.list().map((c) => c.note)).toEqual(['a.md', 'b.md', 'c.md', 'd.md']);
  });

  it('keeps creates and deletes with their nulls', () => {
    t = tempVault();
    const store = new PendingStore(t.vault);
    const create = store.add({
      note: 'n.md',
      kind: 'create',
      baseEtag: null,
      baseText: null,
      newText: 'x',
      ...WHO,
    });
    const del = store.add({
      note: 'd.md',
      kind: 'delete',
      baseEtag: etagOf('y'),
      baseText: 'y',
      newText: null,
      ...WHO,
    });
    expect(store.get(create.id)).toMatchObject({
      kind: 'create',
      baseEtag: null,
      baseText: null,
      newText: 'x',
    });
    expect(store.get(del.id)).toMatchObject({ kind: 'delete', baseText: 'y', newText: null });
  });

  it('refuses the 201st change with too_large, telling the agent the owner must review first', () => {
    t = tempVault();
    const store = new PendingStore(t.vault);
    for (let i = 0; i < MAX_PENDING_CHANGES; i++) store.add(update(`n${i}.md`, '', `${i}`));
    try {
      store.add(update('one-more.md', '', 'x'));
      expect.unreachable();
    } catch (error) {
      expect(isNotedError(error) && error.code).toBe('too_large');
      expect((error as Error).message).toContain('200 changes are already waiting');
      expect((error as Error).message).toContain('review the pending changes (noted-mcp review)');
    }
    expect(store.count()).toBe(MAX_PENDING_CHANGES);
    store.remove(store.list()[0]!.id);
    expect(store.add(update('one-more.md', '', 'x')).note).toBe('one-more.md');
  });

  it('refuses a text over 5 MB, before or after, and stores nothing', () => {
    t = tempVault();
    const store = new PendingStore(t.vault);
    const big = 'x'.repeat(MAX_PENDING_BYTES + 1);
    expect(code(() => store.add(update('a.md', '', big)))).toBe('too_large');
    expect(code(() => store.add(update('a.md', big, '')))).toBe('too_large');
    // Bytes, not characters: 2-byte characters count twice.
    expect(code(() => store.add(update('a.md', '', 'é'.repeat(MAX_PENDING_BYTES / 2 + 1))))).toBe(
      'too_large',
    );
    expect(store.count()).toBe(0);
    expect(store.add(update('a.md', '', 'x'.repeat(MAX_PENDING_BYTES))).note).toBe('a.md');
  });

  it('refuses a change shaped wrongly by its caller as a bug', () => {
    t = tempVault();
    const store = new PendingStore(t.vault);
    expect(() => store.add({ ...update('a.md', '', 'x'), note: '../escape.md' })).toThrow(/canonical/);
    expect(() => store.add({ ...update('a.md', '', 'x'), kind: 'create' })).toThrow(/baseEtag/);
  });

  it('unknown ids are not_found, and an id is never used as a path', () => {
    t = tempVault();
    const store = new PendingStore(t.vault);
    expect(code(() => store.get('20260101-000000-000-abcdef'))).toBe('not_found');
    expect(code(() => store.get('../../config'))).toBe('not_found');
    expect(store.remove('../../config')).toBe(false);
  });

  it('a damaged file is reported by scan, left out of list, and can be removed', () => {
    t = tempVault();
    const store = new PendingStore(t.vault);
    const good = store.add(update('a.md', '', 'x'));
    const badId = '20200101-000000-000-abcdef';
    fs.writeFileSync(path.join(store.dir, `${badId}.json`), '{"format":1,');
    fs.writeFileSync(path.join(store.dir, '.tmp.noted-tmp'), 'ignored');
    fs.writeFileSync(path.join(store.dir, 'notes.txt'), 'ignored');
    const scan = store.scan();
    expect(scan.changes.map((c) => c.id)).toEqual([good.id]);
    expect(scan.damaged.map((d) => d.id)).toEqual([badId]);
    expect(code(() => store.get(badId))).toBe('validation_error');
    expect(store.count()).toBe(2);
    expect(store.remove(badId)).toBe(true);
    expect(store.scan().damaged).toEqual([]);
  });

  it('a file edited into a bad note name is damaged, not trusted', () => {
    t = tempVault();
    const store = new PendingStore(t.vault);
    const stored = store.add(update('a.md', '', 'x'));
    const file = path.join(store.dir, `${stored.id}.json`);
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('"a.md"', '"../../outside.md"'));
    expect(code(() => store.get(stored.id))).toBe('validation_error');
    expect(store.scan().damaged[0]?.reason).toContain('not a canonical note name');
  });
});
