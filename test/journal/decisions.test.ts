/**
 * The owner's decisions in the journal (issue 30, point 7): approvals, rejections, putting a rejected
 * change back and undos are entries like any other, chained and authenticated, so verify passes; a
 * rejection changes no note and is never undone; an older journal without decisions verifies as before.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { parseEntryLine } from '../../src/journal/entry.js';
import { agentWrite, dayLines, type JournalVault, journalVault } from './fixtures/journal-vault.js';

let jv: JournalVault;
afterEach(() => jv?.cleanup());

describe("the owner's decisions in the journal", () => {
  it('records a rejection as an entry that changes nothing, keeps the chain verifying, and never undoes it', async () => {
    jv = journalVault({ 'a.md': 'one\n' });
    const before = await agentWrite(jv, 'a.md', 'two\n', { session: 'agent' });
    const rejected = jv.journal.record({
      session: 'agent',
      client: 'claude',
      tool: 'edit_note',
      note: 'a.md',
      kind: 'decision',
      before: 'two\n',
      after: 'two\n',
      decision: { by: 'owner', action: 'reject', pending: '20261201-100000-000-abcdef', reason: 'not now' },
    });
    const approved = await agentWrite(jv, 'a.md', 'three\n', { session: 'agent' });
    expect(rejected.decision).toEqual({
      by: 'owner',
      action: 'reject',
      pending: '20261201-100000-000-abcdef',
      reason: 'not now',
    });
    expect(rejected.prev).toBe(before.hash);
    expect(approved.prev).toBe(rejected.hash);
    const lines = dayLines(jv);
    expect(parseEntryLine(lines[1] as string)).toEqual(rejected);
    const verified = jv.journal.verify();
    expect(verified.ok).toBe(true);
    expect(verified.entries).toBe(3);

    // Named alone, a decision is refused; in a session it is left out and the changes are undone.
    const alone = await jv.journal.undo(
      { entry: rejected.id },
      { session: 'owner', client: null, owner: true },
    );
    expect(alone.outcomes[0]).toMatchObject({ outcome: 'refused' });
    expect(alone.outcomes[0]?.reason).toMatch(/changed no note, so there is nothing to undo/);
    const session = await jv.journal.undo(
      { session: 'agent' },
      { session: 'owner', client: null, owner: true },
    );
    expect(session.outcomes.map((o) => o.entry)).toEqual([approved.id, before.id]);
    expect(session.outcomes.every((o) => o.outcome === 'undone')).toBe(true);
    const undos = jv.journal.list({ kind: 'undo' });
    expect(undos.map((u) => u.decision)).toEqual([
      { by: 'owner', action: 'undo' },
      { by: 'owner', action: 'undo' },
    ]);
    expect(jv.journal.verify().ok).toBe(true);
  });

  it('refuses a decision entry without its decision, or with before and after differing (a bug in the caller)', () => {
    jv = journalVault({ 'a.md': 'one\n' });
    const base = { session: 's', client: null, tool: 't', note: 'a.md', kind: 'decision' as const };
    expect(() => jv.journal.record({ ...base, before: 'x', after: 'x' })).toThrow(/names the decision/);
    expect(() =>
      jv.journal.record({ ...base, before: 'x', after: 'y', decision: { by: 'owner', action: 'reject' } }),
    ).toThrow(/same before and after/);
  });

  it('reads a line whose decision is not the owner’s as damaged', () => {
    jv = journalVault({ 'a.md': 'one\n' });
    const entry = jv.journal.record({
      session: 's',
      client: null,
      tool: 't',
      note: 'a.md',
      kind: 'decision',
      before: null,
      after: null,
      decision: { by: 'owner', action: 'put_back', pending: 'p' },
    });
    const forged = JSON.stringify({ ...entry, decision: { by: 'agent', action: 'approve' } });
    expect(parseEntryLine(forged)).toEqual({ error: 'the entry lacks valid fields: decision' });
  });
});
