import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isNotedError } from '../../src/common/errors.js';
import { type ApprovedWrite, approve, approveAll, type DecisionInfo } from '../../src/staging/approve.js';
import { PendingStore } from '../../src/staging/pending-store.js';
import { putBack, reject, rejectAll } from '../../src/staging/reject.js';
import { RejectedStore } from '../../src/staging/rejected-store.js';
import type { NewPendingChange } from '../../src/staging/types.js';
import { etagOf } from '../../src/vault/etag.js';
import { listTrash } from '../../src/vault/trash.js';
import { type TempVault, tempVault } from './temp-vault.js';

let t: TempVault;
afterEach(() => t?.cleanup());

const WHO = { session: 's-1', client: 'Claude Code', tool: 'update_note' };
const BASE = 'one\ntwo\nthree\nfour\nfive\nsix\nseven\n';
const NEXT = 'ONE\ntwo\nthree\nfour\nfive\nsix\nSEVEN\n';

function update(note: string, baseText: string, newText: string): NewPendingChange {
  return { note, kind: 'update', baseEtag: etagOf(baseText), baseText, newText, ...WHO };
}

function setup(files: Record<string, string>) {
  t = tempVault(files);
  const store = new PendingStore(t.vault);
  const writes: ApprovedWrite[] = [];
  const notMade: (Buffer | null)[] = [];
  let during: (() => void) | null = null;
  const onWrite = (info: ApprovedWrite) => {
    writes.push(info);
    during?.();
    return (now: Buffer | null) => {
      notMade.push(now);
    };
  };
  return { store, writes, notMade, onWrite, saveDuringWrite: (save: () => void) => (during = save) };
}

async function refusal(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await promise;
  } catch (error) {
    if (isNotedError(error)) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('approve', () => {
  it('an editor saving the note while the approval is journaled keeps the save; the write is refused and reported not made', async () => {
    const { store, writes, notMade, onWrite, saveDuringWrite } = setup({ 'drafts/plan.md': BASE });
    const { id } = store.add(update('drafts/plan.md', BASE, NEXT));
    const abs = t.vault.pathOf('drafts/plan.md');
    saveDuringWrite(() => fs.writeFileSync(abs, 'saved by hand\n'));
    const refused = await refusal(approve(t.vault, store, id, { onWrite }));
    expect(refused.code).toBe('conflict');
    expect(refused.message).toContain('still pending');
    expect(fs.readFileSync(abs, 'utf8')).toBe('saved by hand\n');
    expect(writes).toHaveLength(1);
    expect(notMade.map((b) => b?.toString())).toEqual(['saved by hand\n']);
    expect(store.summary(id).id).toBe(id);
  });

  it('writes an update, tells onWrite first, and removes the change', async () => {
    const { store, writes, onWrite } = setup({ 'drafts/plan.md': BASE });
    const { id } = store.add(update('drafts/plan.md', BASE, NEXT));
    const result = await approve(t.vault, store, id, { onWrite });
    expect(result).toMatchObject({ id, note: 'drafts/plan.md', kind: 'update', outcome: 'updated' });
    expect(result.etag).toBe(etagOf(NEXT));
    expect(result.hunks).toEqual({ total: 2, kept: [1, 2] });
    expect(t.read('drafts/plan.md')).toBe(NEXT);
    expect(writes).toEqual([
      {
        change: expect.objectContaining({ id, client: 'Claude Code', tool: 'update_note', session: 's-1' }),
        note: 'drafts/plan.md',
        kind: 'update',
        before: BASE,
        after: NEXT,
        hunks: { total: 2, kept: [1, 2] },
        merged: false,
      },
    ]);
    expect(store.list()).toEqual([]);
  });

  it('a partial approval with keep applies only the kept hunks', async () => {
    const { store, writes, onWrite } = setup({ 'plan.md': BASE });
    const { id } = store.add(update('plan.md', BASE, NEXT));
    const result = await approve(t.vault, store, id, { onWrite, keep: [2] });
    expect(t.read('plan.md')).toBe(BASE.replace('seven', 'SEVEN'));
    expect(result.hunks).toEqual({ total: 2, kept: [2] });
    expect(writes[0]?.after).toBe(BASE.replace('seven', 'SEVEN'));
    expect(store.count()).toBe(0);
  });

  it('a keep naming a hunk that does not exist, or none, is refused with nothing written', async () => {
    const { store, onWrite } = setup({ 'plan.md': BASE });
    const { id } = store.add(update('plan.md', BASE, NEXT));
    expect((await refusal(approve(t.vault, store, id, { onWrite, keep: [3] }))).code).toBe(
      'validation_error',
    );
    expect((await refusal(approve(t.vault, store, id, { onWrite, keep: [] }))).code).toBe('validation_error');
    expect(t.read('plan.md')).toBe(BASE);
    expect(store.count()).toBe(1);
  });

  it('a stale approval is refused: the note changed since the agent saw it, nothing written, change kept', async () => {
    const { store, writes, onWrite } = setup({ 'plan.md': BASE });
    const { id } = store.add(update('plan.md', BASE, NEXT));
    t.write('plan.md', `${BASE}edited by the owner\n`);
    const { code, message } = await refusal(approve(t.vault, store, id, { onWrite }));
    expect(code).toBe('conflict');
    expect(message).toContain('"plan.md" was changed since the agent saw it');
    expect(message).toContain('Nothing was written and the change is still pending');
    expect(t.read('plan.md')).toBe(`${BASE}edited by the owner\n`);
    expect(writes).toEqual([]);
    expect(store.get(id).newText).toBe(NEXT);
  });

  it('an update whose note is gone is refused', async () => {
    const { store, onWrite } = setup({ 'plan.md': BASE });
    const { id } = store.add(update('plan.md', BASE, NEXT));
    fs.rmSync(path.join(t.dir, 'plan.md'));
    const { code, message } = await refusal(approve(t.vault, store, id, { onWrite }));
    expect(code).toBe('conflict');
    expect(message).toContain('was deleted or moved');
    expect(t.read('plan.md')).toBeNull();
    expect(store.count()).toBe(1);
  });

  it('creates a new note', async () => {
    const { store, writes, onWrite } = setup({});
    const { id } = store.add({
      note: 'drafts/new.md',
      kind: 'create',
      baseEtag: null,
      baseText: null,
      newText: 'hi\n',
      ...WHO,
    });
    const result = await approve(t.vault, store, id, { onWrite });
    expect(result.outcome).toBe('created');
    expect(t.read('drafts/new.md')).toBe('hi\n');
    expect(writes[0]).toMatchObject({ kind: 'create', before: null, after: 'hi\n' });
  });

  it('a create is refused when a note exists there now, which is kept', async () => {
    const { store, writes, onWrite } = setup({});
    const { id } = store.add({
      note: 'new.md',
      kind: 'create',
      baseEtag: null,
      baseText: null,
      newText: 'agent\n',
      ...WHO,
    });
    t.write('new.md', 'owner\n');
    const { code, message } = await refusal(approve(t.vault, store, id, { onWrite }));
    expect(code).toBe('already_exists');
    expect(message).toContain('a note of that name exists now');
    expect(t.read('new.md')).toBe('owner\n');
    expect(writes).toEqual([]);
    expect(store.count()).toBe(1);
  });

  it('a deletion goes to the trash', async () => {
    const { store, writes, onWrite } = setup({ 'old/note.md': 'bye\n' });
    const { id } = store.add({
      note: 'old/note.md',
      kind: 'delete',
      baseEtag: etagOf('bye\n'),
      baseText: 'bye\n',
      newText: null,
      ...WHO,
    });
    const now = () => new Date('2026-02-03T04:05:06.007Z');
    const result = await approve(t.vault, store, id, { onWrite, now });
    expect(result).toMatchObject({ outcome: 'trashed', trashId: '2026-02-03T04-05-06-007Z' });
    expect(t.read('old/note.md')).toBeNull();
    expect(listTrash(t.vault)).toEqual([
      { id: '2026-02-03T04-05-06-007Z', name: 'old/note.md', deletedAt: '2026-02-03T04:05:06.007Z' },
    ]);
    expect(writes[0]).toMatchObject({ kind: 'delete', before: 'bye\n', after: null });
  });

  it('keep is refused for a create or a delete', async () => {
    const { store, onWrite } = setup({ 'x.md': 'x' });
    const { id } = store.add({
      note: 'x.md',
      kind: 'delete',
      baseEtag: etagOf('x'),
      baseText: 'x',
      newText: null,
      ...WHO,
    });
    expect((await refusal(approve(t.vault, store, id, { onWrite, keep: [1] }))).code).toBe(
      'validation_error',
    );
    expect(t.read('x.md')).toBe('x');
  });

  it('when onWrite throws (the journal cannot record), nothing is written and the change is kept', async () => {
    const { store } = setup({ 'plan.md': BASE });
    const { id } = store.add(update('plan.md', BASE, NEXT));
    const failing = () => {
      throw new Error('journal disk full');
    };
    await expect(approve(t.vault, store, id, { onWrite: failing })).rejects.toThrow('journal disk full');
    expect(t.read('plan.md')).toBe(BASE);
    expect(store.count()).toBe(1);
  });

  it('an approval that leaves the text as it is writes nothing and is not journaled', async () => {
    const { store, writes, onWrite } = setup({ 'plan.md': BASE });
    const { id } = store.add(update('plan.md', BASE, BASE));
    const result = await approve(t.vault, store, id, { onWrite });
    expect(result.outcome).toBe('unchanged');
    expect(writes).toEqual([]);
    expect(store.count()).toBe(0);
  });

  it('a partial approval is refused on a note holding bytes that are not UTF-8', async () => {
    const { store, onWrite } = setup({});
    const bytes = Buffer.concat([Buffer.from(BASE), Buffer.from([0xff, 0x0a])]);
    fs.writeFileSync(path.join(t.dir, 'raw.md'), bytes);
    const lossy = bytes.toString('utf8');
    const { id } = store.add({ ...update('raw.md', lossy, NEXT), baseEtag: etagOf(bytes) });
    expect((await refusal(approve(t.vault, store, id, { onWrite, keep: [1] }))).code).toBe('not_supported');
    expect(fs.readFileSync(path.join(t.dir, 'raw.md'))).toEqual(bytes);
    expect(store.count()).toBe(1);
  });

  it('an unknown id is not_found', async () => {
    const { store, onWrite } = setup({});
    expect((await refusal(approve(t.vault, store, '20260101-000000-000-abcdef', { onWrite }))).code).toBe(
      'not_found',
    );
  });
});

describe('reject, approveAll, rejectAll', () => {
  it('reject removes the change and leaves the note alone', () => {
    const { store } = setup({ 'plan.md': BASE });
    const { id } = store.add(update('plan.md', BASE, NEXT));
    expect(reject(store, id)).toEqual({ id, note: 'plan.md' });
    expect(t.read('plan.md')).toBe(BASE);
    expect(store.count()).toBe(0);
    expect(() => reject(store, id)).toThrow(/no pending change/);
  });

  it('reject removes a damaged change file too', () => {
    const { store } = setup({});
    const id = '20200101-000000-000-abcdef';
    fs.mkdirSync(store.dir, { recursive: true });
    fs.writeFileSync(path.join(store.dir, `${id}.json`), 'not json');
    expect(reject(store, id)).toEqual({ id, note: null });
    expect(store.count()).toBe(0);
  });

  it('approveAll approves each change on its own and reports every one', async () => {
    const { store, writes, onWrite } = setup({ 'a.md': 'a\n', 'b.md': 'b\n' });
    const first = store.add(update('a.md', 'a\n', 'A\n'));
    const stale = store.add(update('b.md', 'b\n', 'B\n'));
    const secondOnA = store.add(update('a.md', 'a\n', 'a!\n'));
    const create = store.add({
      note: 'c.md',
      kind: 'create',
      baseEtag: null,
      baseText: null,
      newText: 'c\n',
      ...WHO,
    });
    t.write('b.md', 'b changed\n');
    const outcomes = await approveAll(t.vault, store, { onWrite });
    expect(outcomes.map((o) => [o.id, o.ok, o.ok ? o.result.outcome : o.error.code])).toEqual([
      [first.id, true, 'updated'],
      [stale.id, false, 'conflict'],
      // Written after the first change to a.md, so no longer what this agent saw.
      [secondOnA.id, false, 'conflict'],
      [create.id, true, 'created'],
    ]);
    expect(t.read('a.md')).toBe('A\n');
    expect(t.read('b.md')).toBe('b changed\n');
    expect(t.read('c.md')).toBe('c\n');
    expect(writes.map((w) => w.note)).toEqual(['a.md', 'c.md']);
    expect(store.list().map((c) => c.id)).toEqual([stale.id, secondOnA.id]);
  });

  it('rejectAll removes every change and touches no note', () => {
    const { store } = setup({ 'a.md': 'a\n' });
    store.add(update('a.md', 'a\n', 'A\n'));
    store.add({ note: 'c.md', kind: 'create', baseEtag: null, baseText: null, newText: 'c\n', ...WHO });
    expect(rejectAll(store).map((c) => c.note)).toEqual(['a.md', 'c.md']);
    expect(store.count()).toBe(0);
    expect(t.read('a.md')).toBe('a\n');
    expect(t.read('c.md')).toBeNull();
  });
});

describe('an outdated change merged onto the owner edits (issue 30, point 9)', () => {
  const LONG = `${Array.from({ length: 40 }, (_, i) => `line ${i + 1}`).join('\n')}\n`;
  const AGENT = LONG.replace('line 5\n', 'line five\n').replace('line 30\n', 'line thirty\n');

  it('applies the clean hunks onto the note as the owner left it, only when it is still that note', async () => {
    const { store, writes, onWrite } = setup({ 'plan.md': LONG });
    const { id } = store.add(update('plan.md', LONG, AGENT));
    const ours = LONG.replace('line 30\n', 'line 30 (the owner)\n');
    t.write('plan.md', ours);
    // Without "onto" it is refused as before.
    expect((await refusal(approve(t.vault, store, id, { onWrite }))).code).toBe('conflict');
    // Onto another etag than the note's: refused, nothing written.
    const stale = await refusal(approve(t.vault, store, id, { onWrite, onto: etagOf(LONG) }));
    expect(stale.message).toContain('changed again after you looked at it');
    // A conflicting hunk is never applied.
    const conflict = await refusal(
      approve(t.vault, store, id, { onWrite, onto: etagOf(ours), keep: [1, 2] }),
    );
    expect(conflict.message).toContain('Hunk 2 overlaps edits');
    expect(t.read('plan.md')).toBe(ours);
    const result = await approve(t.vault, store, id, { onWrite, onto: etagOf(ours) });
    expect(result).toMatchObject({ outcome: 'updated', hunks: { total: 2, kept: [1] }, merged: true });
    expect(t.read('plan.md')).toBe(ours.replace('line 5\n', 'line five\n'));
    expect(writes).toHaveLength(1);
    expect(writes[0]).toMatchObject({ before: ours, merged: true, hunks: { total: 2, kept: [1] } });
    expect(store.count()).toBe(0);
  });
});

describe('rejected changes are kept and can be put back (issue 30, point 7)', () => {
  it('keeps the rejected change with its texts and reason, tells onDecision first, and puts it back under its id', async () => {
    const { store } = setup({ 'plan.md': BASE });
    const rejected = new RejectedStore(t.vault);
    const { id } = store.add(update('plan.md', BASE, NEXT));
    const decisions: string[] = [];
    const onDecision = (d: DecisionInfo) => {
      decisions.push(`${d.action} ${d.change.id} ${d.reason}`);
    };
    reject(store, id, { keep: rejected, reason: ' not now ', onDecision });
    expect(store.count()).toBe(0);
    expect(rejected.get(id)).toMatchObject({
      id,
      baseText: BASE,
      newText: NEXT,
      reason: 'not now',
      client: 'Claude Code',
    });
    putBack(store, rejected, id, { onDecision });
    expect(store.get(id)).toMatchObject({ id, baseText: BASE, newText: NEXT });
    expect(rejected.list()).toEqual([]);
    expect(decisions).toEqual([`reject ${id} not now`, `put_back ${id} null`]);
  });

  it('a second rejection of the same change (another tab) is refused and neither records nor drops anything', async () => {
    const { store } = setup({ 'plan.md': BASE });
    const rejected = new RejectedStore(t.vault);
    const { id } = store.add(update('plan.md', BASE, NEXT));
    let decided = 0;
    const onDecision = () => {
      decided++;
    };
    const claimed = store.claim(id); // the first reviewer holds it while its journal entry is written
    expect(() => reject(store, id, { keep: rejected, onDecision })).toThrow(/nothing was rejected/);
    claimed.restore();
    reject(store, id, { keep: rejected, onDecision });
    expect(() => reject(store, id, { keep: rejected, onDecision })).toThrow(/nothing was rejected/);
    expect(decided).toBe(1);
    expect(rejected.list().map((r) => r.id)).toEqual([id]);
    expect(fs.readdirSync(store.dir)).toEqual([]);
  });

  it('an approval that writes nothing is still told to onDecision (the journal records the decision)', async () => {
    const { store, writes, onWrite } = setup({ 'plan.md': BASE });
    const { id } = store.add(update('plan.md', BASE, BASE));
    const decisions: DecisionInfo[] = [];
    const result = await approve(t.vault, store, id, { onWrite, onDecision: (d) => void decisions.push(d) });
    expect(result.outcome).toBe('unchanged');
    expect(writes).toEqual([]);
    expect(decisions.map((d) => [d.action, d.change.id])).toEqual([['approve', id]]);
  });

  it('rejects nothing when the journal cannot record the decision', async () => {
    const { store } = setup({ 'plan.md': BASE });
    const rejected = new RejectedStore(t.vault);
    const { id } = store.add(update('plan.md', BASE, NEXT));
    expect(() =>
      reject(store, id, {
        keep: rejected,
        onDecision: () => {
          throw new Error('journal full');
        },
      }),
    ).toThrow('journal full');
    expect(store.count()).toBe(1);
    expect(rejected.list()).toEqual([]);
  });
});

describe('a staged .base file (SPEC 16.3)', () => {
  it('is stored under its own path and approved like a note', async () => {
    const { store, onWrite } = setup({ 'drafts/Books.base': 'views: []\n' });
    const text = 'views:\n  - type: table\n    name: Books\n';
    const id = store.add(update('drafts/Books.base', 'views: []\n', text)).id;
    const created = store.add({
      note: 'drafts/New.base',
      kind: 'create',
      baseEtag: null,
      baseText: null,
      newText: text,
      ...WHO,
    }).id;
    await approve(t.vault, store, id, { onWrite });
    await approve(t.vault, store, created, { onWrite });
    expect(fs.readFileSync(path.join(t.dir, 'drafts/Books.base'), 'utf8')).toBe(text);
    expect(fs.readFileSync(path.join(t.dir, 'drafts/New.base'), 'utf8')).toBe(text);
    expect(store.list()).toEqual([]);
  });
});
