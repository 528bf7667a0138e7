/**
 * Issue 35 finding 3: the change feed counts nothing hidden. A visible change's seq is its place
 * among the changes the agent may see (no gap where a hidden note changed), the cursor is sealed
 * (it holds no readable count, and two cursors of now differ), and `more` is true only when a change
 * the agent would see follows.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openTestVault, type Structured, type TestVault } from '../helpers/vault.js';

let vaults: TestVault[] = [];
afterEach(async () => {
  for (const v of vaults) await v.close();
  vaults = [];
});

async function open(files: Record<string, string>): Promise<TestVault> {
  const v = await openTestVault(files);
  vaults.push(v);
  return v;
}

const POLICY = { '.noted/mcp-policy.yaml': 'folders:\n  private: hidden\n' };

/** The owner creates `n` notes in the hidden folder (outside the server, as an editor would). */
function hiddenChanges(v: TestVault, n: number, tag: string): void {
  const names: string[] = [];
  for (let i = 0; i < n; i++) {
    const name = `private/${tag}-${i}.md`;
    fs.mkdirSync(path.join(v.dir, 'private'), { recursive: true });
    fs.writeFileSync(path.join(v.dir, name), `secret ${i}\n`);
    names.push(name);
  }
  v.opened.access.ctx.index.touched(names);
}

async function changesAfter(v: TestVault, cursor: string, limit = 100) {
  const r = await v.call('list_changes', { cursor, limit });
  expect(r.isError, r.text).toBe(false);
  return r.structured as { changes: Structured[]; more: boolean; nextCursor: string };
}

describe('list_changes counts no hidden change (issue 35)', () => {
  it('seq runs on without gaps where hidden notes changed: as in the same vault without them', async () => {
    const seqsOf = async (withHidden: boolean) => {
      const v = await open({ 'pub/a.md': 'a\n', 'private/s.md': 's\n', ...POLICY });
      const start = (await v.call('list_changes', {})).structured.nextCursor as string;
      await v.call('update_note', { name: 'pub/a', content: 'one\n' });
      if (withHidden) hiddenChanges(v, 6, 'x');
      await v.call('create_note', { name: 'pub/b', content: 'two\n' });
      if (withHidden) hiddenChanges(v, 3, 'y');
      await v.call('update_note', { name: 'pub/a', content: 'three\n' });
      const page = await changesAfter(v, start);
      expect(JSON.stringify(page.changes)).not.toContain('private');
      return page.changes.map((c) => c.seq);
    };
    const plain = await seqsOf(false);
    const hidden = await seqsOf(true);
    expect(plain).toHaveLength(3);
    expect(hidden).toEqual(plain);
    expect(hidden[1]).toBe((hidden[0] as number) + 1);
    expect(hidden[2]).toBe((hidden[0] as number) + 2);
  });

  it('seq stays the same across pages and calls', async () => {
    const v = await open({ 'pub/a.md': 'a\n', ...POLICY });
    const start = (await v.call('list_changes', {})).structured.nextCursor as string;
    for (let i = 0; i < 4; i++) {
      await v.call('create_note', { name: `pub/n${i}`, content: `${i}\n` });
      hiddenChanges(v, 2, `h${i}`);
    }
    const all = await changesAfter(v, start);
    const first = await changesAfter(v, start, 2);
    const rest = await changesAfter(v, first.nextCursor, 2);
    expect([...first.changes, ...rest.changes].map((c) => [c.seq, c.name])).toEqual(
      all.changes.map((c) => [c.seq, c.name]),
    );
    expect(all.changes.map((c) => c.seq)).toEqual(
      [1, 2, 3, 4].map((i) => (all.changes[0]?.seq as number) + i - 1),
    );
  });

  it('the cursor holds no readable position, and the cursor of now says nothing of hidden changes', async () => {
    const v = await open({ 'pub/a.md': 'a\n', ...POLICY });
    const before = (await v.call('list_changes', {})).structured.nextCursor as string;
    hiddenChanges(v, 5, 'z');
    const after = (await v.call('list_changes', {})).structured.nextCursor as string;
    const again = (await v.call('list_changes', {})).structured.nextCursor as string;
    for (const cursor of [before, after, again]) {
      for (const part of cursor.split('.')) {
        expect(Buffer.from(part, 'base64url').toString('latin1')).not.toMatch(/"s"\s*:/);
      }
    }
    // Two cursors of the same moment differ as much as two of different moments.
    expect(again).not.toBe(after);
    // A cursor altered by one character is refused, not read.
    // (The character replaced is the one tested: testing the last one left the cursor unchanged
    // whenever the one before it was already 'A', one run in 64.)
    const altered = `${before.slice(0, -2)}${before.at(-2) === 'A' ? 'B' : 'A'}${before.slice(-1)}`;
    expect(altered).not.toBe(before);
    const refused = await v.call('list_changes', { cursor: altered });
    expect(refused.structured.code).toBe('validation_error');
    // The cursor from before the hidden changes reads no change and says no more follow.
    const page = await changesAfter(v, before);
    expect(page).toMatchObject({ changes: [], more: false });
  });

  it('more is false when only hidden changes follow the page', async () => {
    const v = await open({ 'pub/a.md': 'a\n', ...POLICY });
    const start = (await v.call('list_changes', {})).structured.nextCursor as string;
    await v.call('update_note', { name: 'pub/a', content: 'one\n' });
    hiddenChanges(v, 4, 'w');
    const page = await changesAfter(v, start, 1);
    expect(page.changes.map((c) => c.name)).toEqual(['pub/a.md']);
    expect(page.more).toBe(false);
    await v.call('update_note', { name: 'pub/a', content: 'two\n' });
    const next = await changesAfter(v, start, 1);
    expect(next.more).toBe(true);
  });
});
