/**
 * Moves under the owner's policy and the journal: read-only and staged notes, hidden notes that are
 * neither read nor changed nor mentioned, one journal group that undo puts back whole, and a rewrite
 * target that changed after planning, which is never overwritten.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { applyRewrites, moveWriter } from '../../src/access/moves/apply.js';
import { planMove } from '../../src/access/moves/plan.js';
import { unobservedWork } from '../../src/common/work.js';
import { PendingStore } from '../../src/staging/pending-store.js';
import { AN_ID } from '../helpers/note-ids.js';
import { openTestVault, readBytes, snapshot, type TestVault } from '../helpers/vault.js';

const POLICY = 'default: read-write\nfolders:\n  private: hidden\n  archive: read-only\n  drafts: staged\n';
const ME = { session: 'undo-test', client: 'test' };
const SESSION = { id: 'rules-test', clientName: () => undefined };

let vaults: TestVault[] = [];
afterEach(async () => {
  for (const v of vaults) await v.close();
  vaults = [];
});

async function open(files: Record<string, string>, policy = POLICY): Promise<TestVault> {
  const v = await openTestVault({ ...files, '.noted/mcp-policy.yaml': policy });
  vaults.push(v);
  return v;
}

const text = (v: TestVault, rel: string) => readBytes(v.dir, rel)?.toString() ?? null;

describe('move_note under the policy', () => {
  it('links in read-only notes are left and named; in staged notes they become pending changes', async () => {
    const v = await open({
      'Plan.md': 'p\n',
      'open.md': '[[Plan]]\n',
      'archive/old.md': 'old [[Plan]]\n',
      'drafts/d.md': 'draft [[Plan]]\n',
    });
    const r = await v.call('move_note', { name: 'Plan', new_name: 'x/Roadmap' });
    expect(r.isError, r.text).toBe(false);
    expect(r.structured.updated).toEqual(['open.md']);
    expect(r.structured.notUpdated).toEqual([
      { name: 'archive/old.md', reason: 'read_only', message: expect.stringMatching(/read-only/) },
    ]);
    expect(r.structured.staged).toEqual([{ note: 'drafts/d.md', pendingId: expect.any(String) }]);
    expect(text(v, 'open.md')).toBe('[[Roadmap]]\n');
    expect(text(v, 'archive/old.md')).toBe('old [[Plan]]\n');
    expect(text(v, 'drafts/d.md')).toBe('draft [[Plan]]\n');
    const pending = new PendingStore(v.opened.vault).get(r.structured.staged[0].pendingId);
    expect(pending.newText).toBe('draft [[Roadmap]]\n');
  });

  it('moves from or into read-only and staged folders are refused; a hidden destination like create_note', async () => {
    const v = await open({ 'Plan.md': 'p\n', 'archive/old.md': 'o\n', 'drafts/d.md': 'd\n' });
    const cases: [Record<string, unknown>, string][] = [
      [{ name: 'archive/old', new_name: 'free' }, 'read_only'],
      [{ name: 'Plan', new_name: 'archive/Plan' }, 'read_only'],
      [{ name: 'drafts/d', new_name: 'free' }, 'staged'],
      [{ name: 'Plan', new_name: 'drafts/Plan' }, 'staged'],
      [{ name: 'Plan', new_name: 'private/Plan' }, 'read_only'],
    ];
    const before = snapshot(v.dir);
    for (const [args, code] of cases) {
      const r = await v.call('move_note', args);
      expect(r.structured, JSON.stringify(args)).toMatchObject({ code, committed: false });
    }
    const created = await v.call('create_note', { name: 'private/Plan', content: 'x' });
    const moved = await v.call('move_note', { name: 'Plan', new_name: 'private/Plan' });
    expect(moved.structured.message).toBe(created.structured.message);
    expect(snapshot(v.dir)).toEqual(before);
  });

  it('hidden notes are neither read nor changed nor mentioned', async () => {
    const v = await open({
      'Plan.md': 'p\n',
      'private/secret.md': 'hidden [[Plan]]\n',
      'private/Goal.md': 'a hidden goal\n',
      'src.md': '[[Plan]] [[Goal]]\n',
    });
    const r = await v.call('move_note', { name: 'Plan', new_name: 'Goal' });
    expect(r.isError, r.text).toBe(false);
    expect(JSON.stringify(r.structured)).not.toMatch(/private|secret/);
    expect(r.text).not.toMatch(/private|secret/);
    expect(text(v, 'private/secret.md')).toBe('hidden [[Plan]]\n');
    // [[Goal]] resolved to nothing an agent can see; now it finds the moved note, and says so.
    expect(text(v, 'src.md')).toBe('[[Goal]] [[Goal]]\n');
    expect(r.structured.nowResolved).toEqual([
      {
        note: 'src.md',
        noteId: AN_ID,
        line: 1,
        raw: '[[Goal]]',
        target: 'Goal.md',
        targetId: r.structured.id,
      },
    ]);
    const hiddenSource = await v.call('move_note', { name: 'private/secret', new_name: 'out' });
    expect(hiddenSource.structured.code).toBe('not_found');
  });
});

describe('one journal group for a move and its rewrites', () => {
  it('undo --group puts back the move and every rewrite together', async () => {
    const v = await open(
      { 'Plan.md': 'p\n', 'a.md': '[[Plan]]\n', 'b/c.md': 'see [p](Plan.md)\n' },
      'default: read-write\n',
    );
    const before = snapshot(v.dir);
    const r = await v.call('move_note', { name: 'Plan', new_name: 'x/Roadmap' });
    const group = r.structured.group as string;
    const entries = v.opened.access.ctx.journal.list({ group }).reverse();
    expect(entries.map((e) => [e.note, e.kind])).toEqual([
      ['Plan.md', 'delete'],
      ['x/Roadmap.md', 'create'],
      ['a.md', 'update'],
      ['b/c.md', 'update'],
    ]);
    const undone = await v.opened.access.ctx.journal.undo({ group }, ME);
    expect(undone.outcomes.map((o) => o.outcome)).toEqual(['undone', 'undone', 'undone', 'undone']);
    const after = snapshot(v.dir);
    after.delete('x/');
    expect(after).toEqual(before);
  });

  it('undo is refused whole when a touched note changed since', async () => {
    const v = await open(
      { 'Plan.md': 'p\n', 'a.md': '[[Plan]]\n', 'b.md': '[[Plan]]\n' },
      'default: read-write\n',
    );
    const r = await v.call('move_note', { name: 'Plan', new_name: 'Roadmap' });
    fs.writeFileSync(path.join(v.dir, 'b.md'), '[[Roadmap]] edited by hand\n');
    const undone = await v.opened.access.ctx.journal.undo({ group: r.structured.group }, ME);
    expect(undone.outcomes.every((o) => o.outcome === 'refused')).toBe(true);
    expect(text(v, 'Roadmap.md')).toBe('p\n');
    expect(text(v, 'Plan.md')).toBeNull();
    expect(text(v, 'a.md')).toBe('[[Roadmap]]\n');
  });

  it('a note that changed after planning is not overwritten, and is reported', async () => {
    const v = await open({ 'Plan.md': 'p\n', 'a.md': '[[Plan]]\n' }, 'default: read-write\n');
    const ctx = v.opened.access.ctx;
    const rules = v.opened.access.rules(SESSION);
    const plan = await planMove(ctx, rules, new Map([['Plan.md', 'Roadmap.md']]), true, unobservedWork());
    fs.writeFileSync(path.join(v.dir, 'a.md'), '[[Plan]] and more\n');
    const who = moveWriter({ session: 's', client: null }, 'move_note', 'g-test');
    const others = plan.sources.filter((s) => s.name !== 'Plan.md');
    const outcome = await applyRewrites(ctx, rules, who, others, unobservedWork());
    expect(outcome.updated).toEqual([]);
    expect(outcome.notUpdated).toEqual([{ name: 'a.md', reason: 'changed', message: expect.any(String) }]);
    expect(text(v, 'a.md')).toBe('[[Plan]] and more\n');
  });
  it('more linking notes than one batch: all rewritten, one journaled each, a stale one left alone', async () => {
    const files: Record<string, string> = { 'Plan.md': 'p\n', 'drafts/d.md': '[[Plan]] draft\n' };
    for (let i = 0; i < 450; i++) files[`l/n${String(i).padStart(3, '0')}.md`] = `[[Plan]] ${i}\n`;
    const v = await open(files);
    const ctx = v.opened.access.ctx;
    const rules = v.opened.access.rules(SESSION);
    const plan = await planMove(ctx, rules, new Map([['Plan.md', 'Roadmap.md']]), true, unobservedWork());
    // Changed after planning, in the third batch: only this one is left as it is.
    fs.writeFileSync(path.join(v.dir, 'l/n420.md'), '[[Plan]] edited meanwhile\n');
    const who = moveWriter({ session: 's', client: null }, 'move_note', 'g-big');
    const others = plan.sources.filter((s) => s.name !== 'Plan.md');
    const outcome = await applyRewrites(ctx, rules, who, others, unobservedWork());
    expect(outcome.updated).toHaveLength(449);
    expect(outcome.staged.map((s) => s.note)).toEqual(['drafts/d.md']);
    expect(outcome.notUpdated).toEqual([
      { name: 'l/n420.md', reason: 'changed', message: expect.any(String) },
    ]);
    expect(text(v, 'l/n000.md')).toBe('[[Roadmap]] 0\n');
    expect(text(v, 'l/n449.md')).toBe('[[Roadmap]] 449\n');
    expect(text(v, 'l/n420.md')).toBe('[[Plan]] edited meanwhile\n');
    const entries = ctx.journal.list({ group: 'g-big' }).reverse();
    expect(entries.map((e) => e.note)).toEqual(outcome.updated);
    expect(entries.every((e, i) => i === 0 || e.seq === (entries[i - 1]?.seq ?? 0) + 1)).toBe(true);
    expect(ctx.journal.verify()).toMatchObject({ ok: true, entries: 449, unverified: null });
    const leftovers = fs.readdirSync(path.join(v.dir, 'l')).filter((f) => !f.endsWith('.md'));
    expect(leftovers).toEqual([]);
  });
  it('a note saved on disk while its rewrite is journaled keeps the save, is reported, and its entry voided', async () => {
    const v = await open(
      { 'Plan.md': 'p\n', 'a.md': '[[Plan]] a\n', 'b.md': '[[Plan]] b\n' },
      'default: read-write\n',
    );
    const ctx = v.opened.access.ctx;
    const rules = v.opened.access.rules(SESSION);
    const plan = await planMove(ctx, rules, new Map([['Plan.md', 'Roadmap.md']]), true, unobservedWork());
    const journal = ctx.journal;
    const real = journal.recordMany.bind(journal);
    let saved = false;
    journal.recordMany = (inputs) => {
      const entries = real(inputs);
      if (!saved) {
        saved = true; // an editor saves b.md right after the rewrites are journaled
        fs.writeFileSync(path.join(v.dir, 'b.md'), '[[Plan]] b, saved by hand\n');
      }
      return entries;
    };
    const who = moveWriter({ session: 's', client: null }, 'move_note', 'g-saved');
    const others = plan.sources.filter((s) => s.name !== 'Plan.md');
    const outcome = await applyRewrites(ctx, rules, who, others, unobservedWork());
    journal.recordMany = real;
    expect(outcome.updated).toEqual(['a.md']);
    expect(outcome.notUpdated).toEqual([{ name: 'b.md', reason: 'changed', message: expect.any(String) }]);
    expect(text(v, 'b.md')).toBe('[[Plan]] b, saved by hand\n');
    expect(text(v, 'a.md')).toBe('[[Roadmap]] a\n');
    const entries = journal.list({ group: 'g-saved' }).reverse();
    expect(entries.map((e) => [e.note, e.kind])).toEqual([
      ['a.md', 'update'],
      ['b.md', 'update'],
      ['b.md', 'not_applied'],
    ]);
    expect(entries[2]?.voids).toBe(entries[1]?.id);
    expect(journal.verify()).toMatchObject({ ok: true, entries: 3, unverified: null });
    expect(fs.readdirSync(v.dir).filter((f) => f.includes('noted-tmp'))).toEqual([]);
  });
});
