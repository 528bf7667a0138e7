/**
 * The journal's start-up check (journal/reconcile.ts): a change recorded but never written — the
 * process died between `record` and the note's write — is found once and noted by a chained
 * `not_applied` entry; applied changes and notes edited outside the server are left alone; a checkpoint
 * keeps the check to what is new; undo refuses what never happened.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { journalCommand } from '../../src/cli/journal-command.js';
import { entryLine, type JournalEntry, parseEntryLine, sha256Hex } from '../../src/journal/entry.js';
import { Journal } from '../../src/journal/journal.js';
import { noteLockKey, vaultLocks } from '../../src/journal/note-locks.js';
import { CHECKPOINT_FILE, reconcileJournal } from '../../src/journal/reconcile.js';
import { type ConsoleFixture, startFixture } from '../console/console-fixture.js';
import { runCommand } from '../helpers/cli-run.js';
import { testJournalKey } from '../helpers/vault.js';
import {
  agentWrite,
  dayLines,
  type JournalVault,
  journalVault,
  noteBytes,
  writeDayLines,
} from './fixtures/journal-vault.js';

let jv: JournalVault;
let console_: ConsoleFixture | undefined;
afterEach(async () => {
  jv?.cleanup();
  await console_?.close();
  console_ = undefined;
});

const ME = { session: 'owner', client: 'noted-mcp-cli' };

/** Records a change the way the gate does, but "dies" before writing the note. */
async function recordOnly(
  note: string,
  before: string | null,
  after: string | null,
  extra = {},
): Promise<JournalEntry> {
  const kind = before === null ? 'create' : after === null ? 'delete' : 'update';
  return jv.vault.withNoteLock(note, () =>
    jv.journal.record({ session: 's1', client: 'c', tool: 't', note, kind, before, after, ...extra }),
  );
}

function write(note: string, text: string): void {
  fs.mkdirSync(path.dirname(path.join(jv.dir, note)), { recursive: true });
  fs.writeFileSync(path.join(jv.dir, note), text);
}

function notApplied(): JournalEntry[] {
  return jv.journal.list({ kind: 'not_applied' }).reverse();
}

function cli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  return runCommand(journalCommand, [...args, '--notes-dir', jv.dir], { HOME: jv.base });
}

describe('a change recorded but never written', () => {
  it('is found once, noted by a chained not_applied entry that changes nothing, and not again', async () => {
    jv = journalVault({ 'a.md': 'before\n' });
    const lost = await recordOnly('a.md', 'before\n', 'after\n');

    const first = await reconcileJournal(jv.journal, { session: 'startup-1' });
    expect(first.notApplied).toHaveLength(1);
    expect(first.notApplied[0]).toMatchObject({
      session: 'startup-1',
      client: null,
      tool: 'startup',
      note: 'a.md',
      kind: 'not_applied',
      voids: lost.id,
      beforeSha256: sha256Hex('before\n'),
      afterSha256: sha256Hex('before\n'),
      prev: lost.hash,
    });
    expect(noteBytes(jv, 'a.md')?.toString()).toBe('before\n');
    expect(jv.journal.verify()).toMatchObject({ ok: true, entries: 2, unverified: null });

    const second = await reconcileJournal(jv.journal);
    expect(second.notApplied).toEqual([]);
    expect(notApplied()).toHaveLength(1);
    expect(jv.journal.verify()).toMatchObject({ ok: true, entries: 2, unverified: null });
  });

  it('a creation never made leaves no file: the not_applied entry has no before and no after', async () => {
    jv = journalVault();
    const lost = await recordOnly('new.md', null, 'text');
    const { notApplied: found } = await reconcileJournal(jv.journal);
    expect(found).toEqual([
      expect.objectContaining({ voids: lost.id, note: 'new.md', beforeSha256: null, afterSha256: null }),
    ]);
    expect(jv.journal.verify().ok).toBe(true);
  });

  it('a deletion never made: the note is still there', async () => {
    jv = journalVault({ 'gone.md': 'still here' });
    const lost = await recordOnly('gone.md', 'still here', null);
    const { notApplied: found } = await reconcileJournal(jv.journal);
    expect(found.map((e) => [e.voids, e.afterSha256])).toEqual([[lost.id, sha256Hex('still here')]]);
  });

  it('an earlier entry is judged by the next entry of its note: a lost change followed by a made one', async () => {
    jv = journalVault({ 'a.md': 'one' });
    const lost = await recordOnly('a.md', 'one', 'two');
    const made = await agentWrite(jv, 'a.md', 'three'); // read "one" from the file: "two" never landed
    const { notApplied: found } = await reconcileJournal(jv.journal);
    expect(found.map((e) => e.voids)).toEqual([lost.id]);
    expect(found.map((e) => e.voids)).not.toContain(made.id);
    expect(found[0]?.afterSha256).toBe(sha256Hex('three'));
  });

  it('both entries of a move stopped before the file moved', async () => {
    jv = journalVault({ 'a.md': 'moving' });
    const group = 'g-move';
    const [from, to] = jv.journal.recordMany([
      {
        session: 's',
        client: null,
        tool: 'move_note',
        note: 'a.md',
        kind: 'delete',
        before: 'moving',
        after: null,
        group,
      },
      {
        session: 's',
        client: null,
        tool: 'move_note',
        note: 'b.md',
        kind: 'create',
        before: null,
        after: 'moving',
        group,
      },
    ]);
    const { notApplied: found } = await reconcileJournal(jv.journal);
    expect(found.map((e) => e.voids).sort()).toEqual([from?.id, to?.id].sort());
  });
});

describe('a line cut off mid-append', () => {
  it('is removed at start-up (its change was never made), so verify passes without waiting for the next write', async () => {
    jv = journalVault({ 'a.md': 'one' });
    const made = await agentWrite(jv, 'a.md', 'two');
    const file = path.join(jv.journalDir, '2026-12-01.jsonl');
    const whole = fs.readFileSync(file);
    fs.appendFileSync(file, '{"id":"20261201T100009000Z-00000002-abcdef","seq":2,"ti');
    expect(jv.journal.verify()).toMatchObject({ ok: false, reason: expect.stringMatching(/incomplete/) });

    const result = await reconcileJournal(jv.journal);
    expect(result.cutOff).toBe(55);
    expect(fs.readFileSync(file)).toEqual(whole);
    expect(jv.journal.verify()).toMatchObject({ ok: true, entries: 1, unverified: null });
    expect(result.notApplied).toEqual([]);
    expect((await reconcileJournal(jv.journal)).cutOff).toBe(0);
    expect(jv.journal.list().map((e) => e.id)).toEqual([made.id]);
  });
});

describe('what the check leaves alone', () => {
  it('applied changes of every kind', async () => {
    jv = journalVault({ 'a.md': 'one' });
    await agentWrite(jv, 'a.md', 'two');
    await agentWrite(jv, 'b.md', 'created');
    await agentWrite(jv, 'b.md', null);
    const result = await reconcileJournal(jv.journal);
    expect(result).toMatchObject({ checked: 3, notApplied: [], problems: [] });
  });

  it('a note edited outside the server after the change: neither before nor after, so nothing is said', async () => {
    jv = journalVault({ 'a.md': 'one' });
    await recordOnly('a.md', 'one', 'two');
    write('a.md', 'edited in an editor');
    expect((await reconcileJournal(jv.journal)).notApplied).toEqual([]);
  });

  it('a live writer between its record and its write is waited for (the check takes the note lock)', async () => {
    jv = journalVault({ 'a.md': 'one' });
    await recordOnly('a.md', 'one', 'two');
    // Another live process holds the note's lock and writes "two" a moment later.
    const lockFile = vaultLocks(jv.vault).pathFor(noteLockKey('a.md'));
    fs.mkdirSync(path.dirname(lockFile), { recursive: true });
    fs.writeFileSync(lockFile, `${process.pid} ${Date.now()}`);
    const finishing = new Promise<void>((resolve) =>
      setTimeout(() => {
        write('a.md', 'two');
        fs.rmSync(lockFile);
        resolve();
      }, 150),
    );
    const result = await reconcileJournal(jv.journal);
    await finishing;
    expect(result.notApplied).toEqual([]);
  });
});

describe('the checkpoint', () => {
  it('keeps the next check to entries appended since, and the journal stays one chain', async () => {
    jv = journalVault({ 'a.md': 'one' });
    for (let i = 0; i < 5; i++) await agentWrite(jv, 'a.md', `v${i}`);
    expect(await reconcileJournal(jv.journal)).toMatchObject({ checked: 5, from: 'tail' });
    expect(fs.existsSync(path.join(jv.journalDir, CHECKPOINT_FILE))).toBe(true);

    const lost = await recordOnly('a.md', 'v4', 'v5');
    const next = await reconcileJournal(jv.journal);
    expect(next).toMatchObject({ checked: 1, from: 'checkpoint' });
    expect(next.notApplied.map((e) => e.voids)).toEqual([lost.id]);
    // The not_applied entry is read back by the next check, which finds nothing new to say.
    expect(await reconcileJournal(jv.journal)).toMatchObject({
      checked: 1,
      from: 'checkpoint',
      notApplied: [],
    });
    expect(await reconcileJournal(jv.journal)).toMatchObject({ checked: 0, from: 'checkpoint' });
    expect(jv.journal.verify()).toMatchObject({ ok: true, entries: 7, unverified: null });
  });

  it('a damaged checkpoint means the newest entries are checked, and nothing is noted twice', async () => {
    jv = journalVault({ 'a.md': 'one' });
    await recordOnly('a.md', 'one', 'two');
    expect((await reconcileJournal(jv.journal)).notApplied).toHaveLength(1);
    fs.writeFileSync(path.join(jv.journalDir, CHECKPOINT_FILE), '{"seq": "garbage"');
    const again = await reconcileJournal(jv.journal);
    expect(again).toMatchObject({ checked: 2, from: 'tail', notApplied: [] });
    expect(notApplied()).toHaveLength(1);
  });

  it('a checkpoint that no longer matches the journal (rewritten by hand) is not trusted', async () => {
    jv = journalVault({ 'a.md': 'one' });
    await agentWrite(jv, 'a.md', 'two');
    await reconcileJournal(jv.journal);
    // The journal is replaced by one whose first entry is a change that never happened.
    fs.rmSync(jv.journalDir, { recursive: true });
    write('a.md', 'one');
    const lost = await recordOnly('a.md', 'one', 'ninety');
    fs.writeFileSync(
      path.join(jv.journalDir, CHECKPOINT_FILE),
      JSON.stringify({ seq: 1, hash: 'f'.repeat(64), file: '2026-12-01.jsonl', start: 0, end: 10 }),
    );
    const result = await reconcileJournal(jv.journal);
    expect(result.from).toBe('tail');
    expect(result.notApplied.map((e) => e.voids)).toEqual([lost.id]);
  });

  it('without a checkpoint only the newest entries are checked (bounded start-up)', async () => {
    jv = journalVault({ 'old.md': 'one', 'a.md': 'a' });
    await recordOnly('old.md', 'one', 'two'); // older than the tail: not looked at
    for (let i = 0; i < 3; i++) await agentWrite(jv, 'a.md', `v${i}`);
    const lost = await recordOnly('a.md', 'v2', 'v3');
    const result = await reconcileJournal(jv.journal, { tail: 3 });
    expect(result).toMatchObject({ checked: 3, from: 'tail' });
    expect(result.notApplied.map((e) => e.voids)).toEqual([lost.id]);
  });

  it('reads the newest entries across day files', async () => {
    jv = journalVault({ 'a.md': 'a', 'b.md': 'b' });
    const lostOld = await recordOnly('b.md', 'b', 'b2');
    jv.setTime('2026-12-02T08:00:00.000Z');
    await agentWrite(jv, 'a.md', 'a2');
    const result = await reconcileJournal(jv.journal, { tail: 2 });
    expect(result.checked).toBe(2);
    expect(result.notApplied.map((e) => e.voids)).toEqual([lostOld.id]);
  });
});

describe('the not_applied entry in the chain', () => {
  it('verify accepts it, and its voids is covered by the hash', async () => {
    jv = journalVault({ 'a.md': 'one' });
    await recordOnly('a.md', 'one', 'two');
    await reconcileJournal(jv.journal);
    expect(jv.journal.verify()).toMatchObject({ ok: true, entries: 2, unverified: null });
    const lines = dayLines(jv);
    const forged = JSON.parse(lines[1] as string);
    forged.voids = '20261201T100000000Z-00000099-abcdef';
    writeDayLines(jv, [lines[0] as string, JSON.stringify(forged)]);
    expect(jv.journal.verify()).toMatchObject({ ok: false, brokenAt: { line: 2 } });
  });

  it('a not_applied line must name what it voids, and no other kind may carry voids', () => {
    const base = {
      id: '20261201T100000000Z-00000001-abcdef',
      seq: 1,
      time: '2026-12-01T10:00:00.000Z',
      session: 's',
      client: null,
      tool: 'startup',
      note: 'a.md',
      kind: 'not_applied' as const,
      beforeSha256: null,
      afterSha256: null,
      beforeStored: false,
      afterStored: false,
      prev: null,
      hash: 'a'.repeat(64),
    };
    expect(parseEntryLine(entryLine(base))).toEqual({ error: 'the entry lacks valid fields: voids' });
    expect(parseEntryLine(entryLine({ ...base, voids: 'x' }))).toMatchObject({ voids: 'x' });
    expect(parseEntryLine(entryLine({ ...base, kind: 'update', voids: 'x' }))).toEqual({
      error: 'the entry lacks valid fields: voids',
    });
  });

  it('record refuses a not_applied entry that would change something, and voids on another kind', () => {
    jv = journalVault();
    const rec = (over: object) => () =>
      jv.journal.record({
        session: 's',
        client: null,
        tool: 'startup',
        note: 'a.md',
        kind: 'not_applied',
        before: 'x',
        after: 'x',
        voids: 'e',
        ...over,
      });
    expect(rec({ after: 'y' })).toThrow(/same before and after/);
    expect(rec({ voids: undefined })).toThrow(/voids goes with kind not_applied/);
    expect(rec({ kind: 'update', after: 'y' })).toThrow(/voids goes with kind not_applied/);
    expect(rec({})).not.toThrow();
  });
});

describe('undo and the journal CLI', () => {
  it('undo refuses a change that was never applied, and the not_applied entry itself', async () => {
    jv = journalVault({ 'a.md': 'one' });
    const lost = await recordOnly('a.md', 'one', 'two');
    const [noted] = (await reconcileJournal(jv.journal)).notApplied;
    const one = await jv.journal.undo({ entry: lost.id }, ME);
    expect(one.outcomes).toEqual([
      expect.objectContaining({
        entry: lost.id,
        outcome: 'refused',
        reason: expect.stringMatching(/^recorded but never applied: nothing to undo/),
      }),
    ]);
    const two = await jv.journal.undo({ entry: noted?.id as string }, ME);
    expect(two.outcomes[0]).toMatchObject({
      outcome: 'refused',
      reason: expect.stringContaining('nothing to undo'),
    });
    expect(noteBytes(jv, 'a.md')?.toString()).toBe('one');
    expect(jv.journal.list({ kind: 'undo' })).toEqual([]);
  });

  it('a session undo leaves out what never happened and undoes the rest', async () => {
    jv = journalVault({ 'a.md': 'one', 'b.md': 'bee' });
    const made = await agentWrite(jv, 'a.md', 'two', { session: 's1' });
    await recordOnly('b.md', 'bee', 'never');
    await reconcileJournal(jv.journal);
    const result = await jv.journal.undo({ session: 's1' }, ME);
    expect(result.outcomes).toEqual([expect.objectContaining({ entry: made.id, outcome: 'undone' })]);
    expect(noteBytes(jv, 'a.md')?.toString()).toBe('one');
    expect(noteBytes(jv, 'b.md')?.toString()).toBe('bee');
  });

  it('a move stopped after the copy and before the removal: the group undo takes back the copy only', async () => {
    jv = journalVault({ 'a.md': 'moving' });
    const group = 'g-move';
    const [, to] = jv.journal.recordMany([
      {
        session: 's',
        client: null,
        tool: 'move_note',
        note: 'a.md',
        kind: 'delete',
        before: 'moving',
        after: null,
        group,
      },
      {
        session: 's',
        client: null,
        tool: 'move_note',
        note: 'b.md',
        kind: 'create',
        before: null,
        after: 'moving',
        group,
      },
    ]);
    write('b.md', 'moving'); // linked in place; the old name was never removed
    const found = (await reconcileJournal(jv.journal)).notApplied;
    expect(found.map((e) => e.note)).toEqual(['a.md']);
    const result = await jv.journal.undo({ group }, ME);
    expect(result.outcomes).toEqual([expect.objectContaining({ entry: to?.id, outcome: 'undone' })]);
    expect(noteBytes(jv, 'a.md')?.toString()).toBe('moving');
    expect(noteBytes(jv, 'b.md')).toBeNull();
  });

  it('an undo that was recorded but never made does not count as undoing', async () => {
    jv = journalVault({ 'a.md': 'one' });
    const made = await agentWrite(jv, 'a.md', 'two');
    await recordOnly('a.md', 'two', 'one', { kind: 'undo', tool: 'undo', undoOf: made.id });
    expect((await reconcileJournal(jv.journal)).notApplied).toHaveLength(1);
    const result = await jv.journal.undo({ entry: made.id }, ME);
    expect(result.outcomes[0]).toMatchObject({ outcome: 'undone' });
    expect(noteBytes(jv, 'a.md')?.toString()).toBe('one');
  });

  it('journal list and show say which change never happened and which entry says so', async () => {
    jv = journalVault({ 'a.md': 'one' });
    const lost = await recordOnly('a.md', 'one', 'two');
    const [noted] = (await reconcileJournal(jv.journal)).notApplied;
    const list = await cli(['list']);
    expect(list.code).toBe(0);
    expect(list.out).toContain(`${lost.id}  (NOT APPLIED: recorded, never written; see ${noted?.id})`);
    expect(list.out).toMatch(
      new RegExp(
        `startup\\s+not_applied\\s+a\\.md\\s+${noted?.id}  \\(entry ${lost.id} was recorded but never applied\\)`,
      ),
    );
    const showLost = await cli(['show', lost.id]);
    expect(showLost.out).toContain(
      `Applied  NO: recorded but never written (the writer stopped in between); found at start-up by ${noted?.id}`,
    );
    const showNoted = await cli(['show', noted?.id as string]);
    expect(showNoted.out).toContain(`Voids    ${lost.id}: recorded but never applied`);
    expect(showNoted.out).toContain('Nothing changed');
    expect((await cli(['list', '--kind', 'not_applied'])).out).toContain(noted?.id);
  });
});

describe('the console', () => {
  it('offers no Undo for a change never applied nor for the not_applied entry, and says which is which', async () => {
    console_ = await startFixture({ 'notes/a.md': 'A\n', 'notes/b.md': 'B\n' });
    const vault = console_.vault.opened.vault;
    const journal = new Journal(vault, { now: () => new Date(), key: testJournalKey() });
    const made = await vault.withNoteLock('notes/a.md', () => {
      const entry = journal.record({
        session: 's1',
        client: 'c',
        tool: 'update_note',
        note: 'notes/a.md',
        kind: 'update',
        before: 'A\n',
        after: 'A2\n',
      });
      vault.write('notes/a.md', 'A2\n');
      return entry;
    });
    const lost = await vault.withNoteLock('notes/b.md', () =>
      journal.record({
        session: 's1',
        client: 'c',
        tool: 'update_note',
        note: 'notes/b.md',
        kind: 'update',
        before: 'B\n',
        after: 'B2\n',
      }),
    );
    const [noted] = (await reconcileJournal(journal)).notApplied;
    const { cookie } = await console_.signIn();
    const activity = (await console_.request('/api/activity', { cookie })).json;
    const entries = activity.sessions.flatMap((s: { entries: unknown[] }) => s.entries);
    const byId = (id: string | undefined) => entries.find((e: { id: string }) => e.id === id);
    expect(byId(made.id)).toMatchObject({ undoable: true, notAppliedBy: null });
    expect(byId(lost.id)).toMatchObject({ undoable: false, notAppliedBy: noted?.id });
    expect(byId(noted?.id)).toMatchObject({ kind: 'not_applied', undoable: false, voids: lost.id });
    expect(activity.kinds).toContain('not_applied');
    expect(activity.integrity).toMatchObject({ ok: true, entries: 3, unverified: null });
  });
});
