/**
 * Undo (SPEC 6.3): restores the before-version only while the note is exactly what the agent left,
 * once per change, never an undo, a session newest first, a group together or not at all — and
 * every undo is itself journaled.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type JournalEntry, sha256Hex } from '../../src/journal/entry.js';
import { noteLockKey, vaultLocks, withNoteLocks } from '../../src/journal/note-locks.js';
import { undoEntries } from '../../src/journal/undo.js';
import { listTrash } from '../../src/vault/trash.js';
import { agentWrite, type JournalVault, journalVault, noteBytes } from './fixtures/journal-vault.js';

let jv: JournalVault;
afterEach(() => {
  vi.restoreAllMocks();
  jv?.cleanup();
});

const ME = { session: 'owner', client: 'noted-mcp-cli' };

function write(note: string, text: string): void {
  fs.writeFileSync(path.join(jv.dir, note), text);
}

describe('undo of one change', () => {
  it('an update: the before-text is back, and the undo is journaled with the replaced text kept', async () => {
    jv = journalVault({ 'a.md': 'original\n' });
    const change = await agentWrite(jv, 'a.md', 'agent text\n');
    const result = await jv.journal.undo({ entry: change.id }, ME);
    expect(result.outcomes).toEqual([
      { entry: change.id, note: 'a.md', outcome: 'undone', undoEntry: expect.any(String) },
    ]);
    expect(noteBytes(jv, 'a.md')?.toString()).toBe('original\n');
    const undo = jv.journal.list()[0];
    expect(undo).toMatchObject({
      id: result.outcomes[0]?.undoEntry,
      session: 'owner',
      client: 'noted-mcp-cli',
      tool: 'undo',
      kind: 'undo',
      note: 'a.md',
      undoOf: change.id,
      beforeSha256: sha256Hex('agent text\n'),
      afterSha256: sha256Hex('original\n'),
    });
    expect(jv.journal.textOf(sha256Hex('agent text\n'))).toBe('agent text\n');
    expect(jv.journal.verify()).toMatchObject({ ok: true, entries: 2, unverified: null });
  });

  it('a save an editor makes while the undo is being written is kept, and the undo is noted as not made', async () => {
    jv = journalVault({ 'a.md': 'original\n' });
    const change = await agentWrite(jv, 'a.md', 'agent text\n');
    // The moment between the undo's journal entry and its rename: the new bytes are being synced.
    const fsync = fs.fsyncSync;
    let saved = false;
    vi.spyOn(fs, 'fsyncSync').mockImplementation((fd) => {
      fsync(fd);
      if (!saved && fs.readlinkSync(`/proc/self/fd/${fd}`).includes('a.md.')) {
        saved = true;
        write('a.md', 'saved in an editor\n');
      }
    });
    const result = await jv.journal.undo({ entry: change.id }, ME);
    vi.restoreAllMocks();
    expect(saved).toBe(true);
    expect(result.outcomes).toEqual([
      {
        entry: change.id,
        note: 'a.md',
        outcome: 'refused',
        reason: expect.stringMatching(/saved on disk .* while it was being undone, so that save was kept/),
        why: 'failed',
      },
    ]);
    expect(noteBytes(jv, 'a.md')?.toString()).toBe('saved in an editor\n');
    const [voided, undo] = jv.journal.list();
    expect(undo).toMatchObject({ kind: 'undo', undoOf: change.id });
    expect(voided).toMatchObject({ kind: 'not_applied', voids: undo?.id });
    expect(jv.journal.verify().ok).toBe(true);
    expect(fs.readdirSync(jv.dir).filter((f) => f.includes('.noted-tmp'))).toEqual([]);
  });

  it('a creation: the note goes to the trash', async () => {
    jv = journalVault();
    const change = await agentWrite(jv, 'new.md', 'made by the agent');
    const result = await jv.journal.undo({ entry: change.id }, ME);
    expect(result.outcomes[0]?.outcome).toBe('undone');
    expect(noteBytes(jv, 'new.md')).toBeNull();
    expect(listTrash(jv.vault).map((t) => t.name)).toEqual(['new.md']);
    expect(jv.journal.list()[0]).toMatchObject({ kind: 'undo', afterSha256: null });
  });

  it('a deletion: the before-text is back at its path', async () => {
    jv = journalVault({ 'gone.md': 'keep me\n' });
    const change = await agentWrite(jv, 'gone.md', null);
    expect(noteBytes(jv, 'gone.md')).toBeNull();
    const result = await jv.journal.undo({ entry: change.id }, ME);
    expect(result.outcomes[0]?.outcome).toBe('undone');
    expect(noteBytes(jv, 'gone.md')?.toString()).toBe('keep me\n');
  });

  it('a deletion is not undone over a note that exists at that path again', async () => {
    jv = journalVault({ 'gone.md': 'keep me\n' });
    const change = await agentWrite(jv, 'gone.md', null);
    write('gone.md', 'someone else\n');
    const result = await jv.journal.undo({ entry: change.id }, ME);
    expect(result.outcomes[0]).toMatchObject({
      outcome: 'refused',
      reason: expect.stringMatching(/exists .* again/),
    });
    expect(noteBytes(jv, 'gone.md')?.toString()).toBe('someone else\n');
    expect(jv.journal.list()).toHaveLength(1);
  });

  it('a restore (from the trash): the note goes back to the trash', async () => {
    jv = journalVault();
    const change = await jv.vault.withNoteLock('r.md', () => {
      const entry = jv.journal.record({
        session: 's1',
        client: null,
        tool: 'restore_note',
        note: 'r.md',
        kind: 'restore',
        before: null,
        after: 'restored\n',
      });
      jv.vault.write('r.md', 'restored\n');
      return entry;
    });
    const result = await jv.journal.undo({ entry: change.id }, ME);
    expect(result.outcomes[0]?.outcome).toBe('undone');
    expect(noteBytes(jv, 'r.md')).toBeNull();
    expect(listTrash(jv.vault)).toHaveLength(1);
  });

  it('refused, the note untouched byte for byte, when it changed since the agent wrote it', async () => {
    jv = journalVault({ 'a.md': 'original\n' });
    const change = await agentWrite(jv, 'a.md', 'agent text\n');
    const edited = Buffer.from('agent text\nplus an edit by hand \u00e9\r\n');
    fs.writeFileSync(path.join(jv.dir, 'a.md'), edited);
    const result = await jv.journal.undo({ entry: change.id }, ME);
    expect(result.outcomes[0]).toMatchObject({
      outcome: 'refused',
      reason: expect.stringMatching(/changed since/),
    });
    expect(noteBytes(jv, 'a.md')).toEqual(edited);
    expect(jv.journal.list()).toHaveLength(1);
  });

  it('refused when the note was deleted since', async () => {
    jv = journalVault({ 'a.md': 'original\n' });
    const change = await agentWrite(jv, 'a.md', 'agent text\n');
    fs.rmSync(path.join(jv.dir, 'a.md'));
    const result = await jv.journal.undo({ entry: change.id }, ME);
    expect(result.outcomes[0]).toMatchObject({
      outcome: 'refused',
      reason: expect.stringMatching(/no longer exists/),
    });
    expect(noteBytes(jv, 'a.md')).toBeNull();
  });

  it('a change is undone once', async () => {
    jv = journalVault({ 'a.md': 'original\n' });
    const change = await agentWrite(jv, 'a.md', 'agent text\n');
    await jv.journal.undo({ entry: change.id }, ME);
    // Even with the note back at the agent's text, a second undo is refused.
    write('a.md', 'agent text\n');
    const again = await jv.journal.undo({ entry: change.id }, ME);
    expect(again.outcomes[0]).toMatchObject({
      outcome: 'refused',
      reason: expect.stringMatching(/already undone/),
    });
    expect(noteBytes(jv, 'a.md')?.toString()).toBe('agent text\n');
  });

  it('an undo is not undone', async () => {
    jv = journalVault({ 'a.md': 'original\n' });
    const change = await agentWrite(jv, 'a.md', 'agent text\n');
    const first = await jv.journal.undo({ entry: change.id }, ME);
    const undoId = first.outcomes[0]?.undoEntry as string;
    const result = await jv.journal.undo({ entry: undoId }, ME);
    expect(result.outcomes[0]).toMatchObject({
      outcome: 'refused',
      reason: expect.stringMatching(/itself an undo/),
    });
    expect(noteBytes(jv, 'a.md')?.toString()).toBe('original\n');
  });

  it('texts recorded by hash only (over 5 MB) are not undone', async () => {
    const big = 'b'.repeat(5 * 1024 * 1024 + 10);
    jv = journalVault({ 'big.md': 'small\n' });
    const change = await agentWrite(jv, 'big.md', big);
    const result = await jv.journal.undo({ entry: change.id }, ME);
    expect(result.outcomes[0]).toMatchObject({
      outcome: 'refused',
      reason: expect.stringMatching(/hash only/),
    });
    expect(noteBytes(jv, 'big.md')?.length).toBe(big.length);
  });

  it('an unknown entry id is not_found', async () => {
    jv = journalVault();
    await expect(jv.journal.undo({ entry: 'nope' }, ME)).rejects.toMatchObject({ code: 'not_found' });
  });
});

describe('undo of a session', () => {
  it('undoes its changes newest first, back to where the session started, and skips other sessions', async () => {
    jv = journalVault({ 'a.md': 'a0', 'b.md': 'b0' });
    const e1 = await agentWrite(jv, 'a.md', 'a1', { session: 'S' });
    const e2 = await agentWrite(jv, 'a.md', 'a2', { session: 'S' });
    await agentWrite(jv, 'b.md', 'b1', { session: 'other' });
    const e4 = await agentWrite(jv, 'c.md', 'c1', { session: 'S' });
    const e5 = await agentWrite(jv, 'c.md', null, { session: 'S' });
    const result = await jv.journal.undo({ session: 'S' }, ME);
    expect(result.outcomes.map((o) => [o.entry, o.outcome])).toEqual([
      [e5.id, 'undone'],
      [e4.id, 'undone'],
      [e2.id, 'undone'],
      [e1.id, 'undone'],
    ]);
    expect(noteBytes(jv, 'a.md')?.toString()).toBe('a0');
    expect(noteBytes(jv, 'b.md')?.toString()).toBe('b1');
    expect(noteBytes(jv, 'c.md')).toBeNull();
    expect(jv.journal.verify()).toMatchObject({ ok: true, entries: 9, unverified: null });
    // Running it again finds nothing left to undo.
    expect((await jv.journal.undo({ session: 'S' }, ME)).outcomes).toEqual([]);
  });

  it('a note changed since is refused; the session’s other notes are still undone', async () => {
    jv = journalVault({ 'a.md': 'a0', 'b.md': 'b0' });
    await agentWrite(jv, 'a.md', 'a1', { session: 'S' });
    await agentWrite(jv, 'b.md', 'b1', { session: 'S' });
    write('a.md', 'a by hand');
    const result = await jv.journal.undo({ session: 'S' }, ME);
    expect(result.outcomes.map((o) => [o.note, o.outcome])).toEqual([
      ['b.md', 'undone'],
      ['a.md', 'refused'],
    ]);
    expect(noteBytes(jv, 'a.md')?.toString()).toBe('a by hand');
    expect(noteBytes(jv, 'b.md')?.toString()).toBe('b0');
  });

  it('an unknown session is not_found', async () => {
    jv = journalVault();
    await expect(jv.journal.undo({ session: 'nobody' }, ME)).rejects.toMatchObject({ code: 'not_found' });
  });
});

describe('undo of a group', () => {
  async function moveLike() {
    jv = journalVault({ 'a.md': 'see [[old]]', 'b.md': 'also [[old]]', 'old.md': 'the note' });
    const g = 'g-move';
    await agentWrite(jv, 'a.md', 'see [[new]]', { group: g, tool: 'move_note' });
    await agentWrite(jv, 'b.md', 'also [[new]]', { group: g, tool: 'move_note' });
    await agentWrite(jv, 'new.md', 'the note', { group: g, tool: 'move_note' });
    await agentWrite(jv, 'old.md', null, { group: g, tool: 'move_note' });
    return g;
  }

  it('undoes every note of the group, and the undo entries share a new group', async () => {
    const g = await moveLike();
    const result = await jv.journal.undo({ group: g }, ME);
    expect(result.outcomes.map((o) => [o.note, o.outcome])).toEqual([
      ['old.md', 'undone'],
      ['new.md', 'undone'],
      ['b.md', 'undone'],
      ['a.md', 'undone'],
    ]);
    expect(noteBytes(jv, 'a.md')?.toString()).toBe('see [[old]]');
    expect(noteBytes(jv, 'old.md')?.toString()).toBe('the note');
    expect(noteBytes(jv, 'new.md')).toBeNull();
    const undos = jv.journal.list({ kind: 'undo' });
    expect(new Set(undos.map((u) => u.group)).size).toBe(1);
    expect(undos[0]?.group).not.toBe(g);
  });

  it('one note changed since: nothing of the group is undone', async () => {
    const g = await moveLike();
    write('b.md', 'also [[new]] and more');
    const snapshot = ['a.md', 'b.md', 'new.md', 'old.md'].map((n) => noteBytes(jv, n));
    const result = await jv.journal.undo({ group: g }, ME);
    expect(result.outcomes.every((o) => o.outcome === 'refused')).toBe(true);
    expect(result.outcomes.find((o) => o.note === 'b.md')?.reason).toMatch(/changed since/);
    expect(result.outcomes.find((o) => o.note === 'a.md')?.reason).toMatch(/together or not at all.*b\.md/);
    expect(['a.md', 'b.md', 'new.md', 'old.md'].map((n) => noteBytes(jv, n))).toEqual(snapshot);
    expect(jv.journal.list({ kind: 'undo' })).toEqual([]);
  });

  it('one change of a group is not undone alone: conflict, naming the group, nothing undone', async () => {
    const g = await moveLike();
    const member = jv.journal.list({ note: 'b.md' })[0];
    const snapshot = ['a.md', 'b.md', 'new.md', 'old.md'].map((n) => noteBytes(jv, n));
    const alone = jv.journal.undo({ entry: member?.id as string }, ME);
    await expect(alone).rejects.toMatchObject({ code: 'conflict' });
    await expect(alone).rejects.toThrow(`noted-mcp undo --group ${g}`);
    expect(['a.md', 'b.md', 'new.md', 'old.md'].map((n) => noteBytes(jv, n))).toEqual(snapshot);
    expect(jv.journal.list({ kind: 'undo' })).toEqual([]);
  });

  it('a group with one member undone on its own (a journal from before, a rollback) is refused whole, by --group and by --session', async () => {
    const g = await moveLike();
    const member = jv.journal.list({ note: 'b.md' })[0];
    await undoEntries(jv.journal, [member as JournalEntry], ME);
    const snapshot = ['a.md', 'b.md', 'new.md', 'old.md'].map((n) => noteBytes(jv, n));
    for (const target of [{ group: g }, { session: 's1' }]) {
      const result = await jv.journal.undo(target, ME);
      expect(result.outcomes.map((o) => o.outcome)).toEqual(['refused', 'refused', 'refused', 'refused']);
      expect(result.outcomes.find((o) => o.note === 'b.md')?.reason).toMatch(/already undone/);
    }
    expect(['a.md', 'b.md', 'new.md', 'old.md'].map((n) => noteBytes(jv, n))).toEqual(snapshot);
  });

  it('a session undo treats a group inside it as one unit', async () => {
    const g = await moveLike();
    write('new.md', 'edited');
    const result = await jv.journal.undo({ session: 's1' }, ME);
    expect(result.outcomes.map((o) => o.outcome)).toEqual(['refused', 'refused', 'refused', 'refused']);
    expect(jv.journal.list({ group: g })).toHaveLength(4);
    expect(noteBytes(jv, 'a.md')?.toString()).toBe('see [[new]]');
  });
});

describe('locks', () => {
  it('the group lock is the very lock Vault.withNoteLock takes for a note', async () => {
    jv = journalVault();
    const file = vaultLocks(jv.vault).pathFor(noteLockKey('Inbox/Idea.md'));
    const held = await jv.vault.withNoteLock('inbox/idea.md', () => fs.existsSync(file));
    expect(held).toBe(true);
    expect(fs.existsSync(file)).toBe(false);
  });

  it('withNoteLocks holds every named note lock at once, and lets go of all of them', async () => {
    jv = journalVault();
    const files = ['b.md', 'a.md', 'A.md'].map((n) => vaultLocks(jv.vault).pathFor(noteLockKey(n)));
    const held = await withNoteLocks(jv.vault, ['b.md', 'a.md', 'A.md'], () =>
      files.map((f) => fs.existsSync(f)),
    );
    expect(held).toEqual([true, true, true]);
    expect(files.map((f) => fs.existsSync(f))).toEqual([false, false, false]);
  });
});
