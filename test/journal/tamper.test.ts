/**
 * Issue 25 item 5: `journal verify` must catch every careful forgery by whoever has only the vault, and
 * undo must refuse what does not verify (SPEC 6.2). Each tamper kind the red team tried is a test
 * here; all of them passed as "intact" before entries were authenticated and the head anchored.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { journalCommand } from '../../src/cli/journal-command.js';
import { undoCommand } from '../../src/cli/undo-command.js';
import {
  entryHash,
  entryLine,
  type JournalEntry,
  parseEntryLine,
  sha256Hex,
} from '../../src/journal/entry.js';
import { Journal } from '../../src/journal/journal.js';
import { KEY_FILE_NAME, noJournalKey, openJournalKey } from '../../src/journal/journal-key.js';
import { ANYWHERE } from '../../src/vault/checked-folder.js';
import { Vault } from '../../src/vault/vault.js';
import { type CliRun, runCommand } from '../helpers/cli-run.js';
import {
  agentWrite,
  dayLines,
  fixtureKey,
  type JournalVault,
  journalVault,
  noteBytes,
  writeDayLines,
} from './fixtures/journal-vault.js';

let jvs: JournalVault[] = [];
afterEach(() => {
  for (const jv of jvs) jv.cleanup();
  jvs = [];
});

function open(...args: Parameters<typeof journalVault>): JournalVault {
  const jv = journalVault(...args);
  jvs.push(jv);
  return jv;
}

const ME = { session: 'owner', client: 'noted-mcp-cli' };

/** The change of a.md from its last text in `fiveChanges` to `x`, as an agent records it. */
const A3_TO_X = {
  session: 's',
  client: null,
  tool: 't',
  note: 'a.md',
  kind: 'update' as const,
  before: 'a3\n',
  after: 'x',
};

/** Five agent changes to a.md and b.md. */
async function fiveChanges(jv: JournalVault): Promise<JournalEntry[]> {
  const out: JournalEntry[] = [];
  out.push(await agentWrite(jv, 'a.md', 'a1\n'));
  out.push(await agentWrite(jv, 'b.md', 'b1\n'));
  out.push(await agentWrite(jv, 'a.md', 'a2\n'));
  out.push(await agentWrite(jv, 'b.md', 'b2\n'));
  out.push(await agentWrite(jv, 'a.md', 'a3\n'));
  return out;
}

function entriesOf(jv: JournalVault): JournalEntry[] {
  return dayLines(jv).map((l) => parseEntryLine(l) as JournalEntry);
}

/**
 * What a forger with only the vault can do: recompute each hash and `prev` from `from` on. The codes
 * need the key, so each keeps the code it had (`keep`) or loses it (`drop`).
 */
function rechain(entries: JournalEntry[], from: number, codes: 'keep' | 'drop'): JournalEntry[] {
  const out = entries.slice(0, from);
  for (const e of entries.slice(from)) {
    const { hash: _h, mac, keyId, ...rest } = e;
    const fields = {
      ...rest,
      prev: out.at(-1)?.hash ?? null,
      ...(codes === 'keep' && keyId !== undefined ? { keyId } : {}),
    };
    const hash = entryHash(fields);
    out.push({ ...fields, hash, ...(codes === 'keep' && mac !== undefined ? { mac } : {}) });
  }
  return out;
}

function writeEntries(jv: JournalVault, entries: JournalEntry[]): void {
  writeDayLines(jv, entries.map(entryLine));
}

/** A made-up entry after `last`, as a forger would write it (hashes computed, no key). */
function forgedAfter(last: JournalEntry, fields: Partial<JournalEntry>): JournalEntry {
  const { hash: _h, mac: _m, keyId: _k, ...rest } = last;
  const unhashed = {
    ...rest,
    id: `20261201T120000000Z-${String(last.seq + 1).padStart(8, '0')}-abcdef`,
    seq: last.seq + 1,
    prev: last.hash,
    ...fields,
  };
  return { ...unhashed, hash: entryHash(unhashed) } as JournalEntry;
}

describe('verify finds every careful forgery', () => {
  it('an appended entry with its hashes recomputed: it has no code, or a code the key did not make', async () => {
    const jv = open();
    const entries = await fiveChanges(jv);
    const last = entries.at(-1) as JournalEntry;
    const bare = forgedAfter(last, { note: 'x.md' });
    writeEntries(jv, [...entries, bare]);
    expect(jv.journal.verify()).toMatchObject({
      ok: false,
      entries: 5,
      brokenAt: { line: 6, id: bare.id },
      reason: expect.stringMatching(/no authentication code/),
    });
    const coded = { ...bare, keyId: last.keyId as string, mac: 'e'.repeat(64) };
    const { hash: _h, mac: _m, ...unhashed } = coded;
    writeEntries(jv, [...entries, { ...coded, hash: entryHash(unhashed) }]);
    expect(jv.journal.verify()).toMatchObject({
      ok: false,
      entries: 5,
      reason: expect.stringMatching(/authentication code does not match/),
    });
  });

  it('an edited entry with the chain recomputed after it', async () => {
    const jv = open();
    const entries = await fiveChanges(jv);
    const edited = entries.map((e, i) => (i === 2 ? { ...e, note: 'secret.md' } : e));
    for (const codes of ['keep', 'drop'] as const) {
      writeEntries(jv, rechain(edited, 2, codes));
      expect(jv.journal.verify()).toMatchObject({
        ok: false,
        entries: 2,
        brokenAt: { line: 3, id: entries[2]?.id },
        reason: expect.stringMatching(codes === 'keep' ? /code does not match/ : /no authentication code/),
      });
    }
  });

  it('an inserted entry with the chain recomputed after it', async () => {
    const jv = open();
    const entries = await fiveChanges(jv);
    const inserted = forgedAfter(entries[1] as JournalEntry, { note: 'x.md' });
    const renumbered = [...entries.slice(0, 2), inserted, ...entries.slice(2)].map((e, i) => ({
      ...e,
      seq: i + 1,
    }));
    writeEntries(jv, rechain(renumbered, 2, 'keep'));
    expect(jv.journal.verify()).toMatchObject({
      ok: false,
      entries: 2,
      brokenAt: { line: 3, id: inserted.id },
    });
  });

  it('the last entries cut off', async () => {
    const jv = open();
    const entries = await fiveChanges(jv);
    writeEntries(jv, entries.slice(0, 3));
    expect(jv.journal.verify()).toMatchObject({
      ok: false,
      entries: 3,
      brokenAt: { file: '2026-12-01.jsonl', line: 4 },
      reason: expect.stringMatching(
        /ends after entry 3, but its anchor .* records 5: the last 2 entries were removed/,
      ),
    });
  });

  it('the day file emptied, or deleted', async () => {
    const jv = open();
    await fiveChanges(jv);
    const file = path.join(jv.journalDir, '2026-12-01.jsonl');
    fs.writeFileSync(file, '');
    expect(jv.journal.verify()).toMatchObject({
      ok: false,
      entries: 0,
      reason: expect.stringMatching(/records 5/),
    });
    fs.rmSync(file);
    expect(jv.journal.verify()).toMatchObject({
      ok: false,
      entries: 0,
      reason: expect.stringMatching(/records 5/),
    });
  });

  it('the whole journal folder deleted, and a new journal started in its place', async () => {
    const jv = open();
    await fiveChanges(jv);
    fs.rmSync(jv.journalDir, { recursive: true });
    const gone =
      /a journal of 5 entries was anchored for this vault .* no longer here: it was deleted or replaced/;
    expect(jv.journal.verify()).toMatchObject({ ok: false, reason: expect.stringMatching(gone) });
    await agentWrite(jv, 'c.md', 'new start\n');
    expect(jv.journal.verify()).toMatchObject({ ok: false, reason: expect.stringMatching(gone) });
  });

  it('every code stripped, to pass the journal off as one written before keys', async () => {
    const jv = open();
    const entries = await fiveChanges(jv);
    writeEntries(jv, rechain(entries, 0, 'drop'));
    expect(jv.journal.verify()).toMatchObject({
      ok: false,
      entries: 0,
      brokenAt: { line: 1 },
      reason: expect.stringMatching(/no authentication code although the journal is authenticated/),
    });
  });

  it('the vault id changed, or removed', async () => {
    const jv = open();
    await fiveChanges(jv);
    const idFile = path.join(jv.journalDir, 'vault-id');
    // Its anchor is still recorded for this folder under the real id, so the swap shows either way.
    const lost = /not anchored here|was anchored for this vault .* no longer here/;
    fs.writeFileSync(idFile, `${'0'.repeat(32)}\n`);
    expect(jv.journal.verify()).toMatchObject({ ok: false, reason: expect.stringMatching(lost) });
    fs.rmSync(idFile);
    expect(jv.journal.verify()).toMatchObject({ ok: false, reason: expect.stringMatching(lost) });
    fs.writeFileSync(idFile, 'garbage\n');
    expect(jv.journal.verify()).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/vault id .* is damaged/),
    });
  });

  it('a stored text changed, or deleted', async () => {
    const jv = open();
    const entries = await fiveChanges(jv);
    const blob = path.join(jv.journalDir, 'blobs', (entries[2] as JournalEntry).afterSha256 as string);
    fs.writeFileSync(blob, 'rewritten\n');
    expect(jv.journal.verify()).toMatchObject({
      ok: false,
      entries: 2,
      brokenAt: { line: 3 },
      reason: expect.stringMatching(/stored text from after this change no longer matches its hash/),
    });
    fs.rmSync(blob);
    expect(jv.journal.verify()).toMatchObject({
      ok: false,
      entries: 2,
      reason: expect.stringMatching(/text from after this change .* is missing/),
    });
  });
});

describe('undo refuses what does not verify', () => {
  it('a forged delete entry and its text do not make undo create the note, in a hidden folder neither', async () => {
    const jv = open();
    const entries = await fiveChanges(jv);
    const text = Buffer.from('planted by a sync tool\n');
    const sha = sha256Hex(text);
    fs.writeFileSync(path.join(jv.journalDir, 'blobs', sha), text);
    const forged = forgedAfter(entries.at(-1) as JournalEntry, {
      note: 'private/plan.md',
      kind: 'delete',
      tool: 'delete_note',
      beforeSha256: sha,
      afterSha256: null,
      beforeStored: true,
      afterStored: false,
    });
    writeEntries(jv, [...entries, forged]);
    const result = await jv.journal.undo({ entry: forged.id }, ME);
    expect(result.outcomes).toEqual([
      {
        entry: forged.id,
        note: 'private/plan.md',
        outcome: 'refused',
        reason: expect.stringMatching(/does not verify .* an entry that does not verify is not undone/),
        why: 'unproven',
      },
    ]);
    expect(noteBytes(jv, 'private/plan.md')).toBeNull();
    // The same through the command line: exit 1, nothing created.
    const run = await cli(jv, undoCommand, [forged.id]);
    expect(run.code).toBe(1);
    expect(run.out).toMatch(/refused {2}private\/plan\.md/);
    expect(noteBytes(jv, 'private/plan.md')).toBeNull();
  });

  it('a real entry copied under a new id elsewhere in the files is not undone either', async () => {
    const jv = open();
    const entries = await fiveChanges(jv);
    const copy = { ...(entries[0] as JournalEntry), id: '20261201T130000000Z-00000001-fedcba' };
    const { hash: _h, mac: _m, ...rest } = copy;
    writeEntries(jv, [...entries, { ...copy, hash: entryHash(rest), mac: copy.mac as string }]);
    const result = await jv.journal.undo({ entry: copy.id }, ME);
    expect(result.outcomes[0]).toMatchObject({
      outcome: 'refused',
      reason: expect.stringMatching(/does not verify/),
    });
  });

  it('entries before the break still verify and are undone', async () => {
    const jv = open({ 'b.md': 'b0\n' });
    const entries = await fiveChanges(jv);
    writeEntries(jv, [...entries, forgedAfter(entries.at(-1) as JournalEntry, { note: 'x.md' })]);
    // b.md's last change is entry 4 (b1 -> b2), before the forged line.
    const result = await jv.journal.undo({ entry: (entries[3] as JournalEntry).id }, ME);
    expect(result.outcomes[0]).toMatchObject({ outcome: 'undone' });
    expect(noteBytes(jv, 'b.md')?.toString()).toBe('b1\n');
  });
});

describe('issue 35 finding 4: only an entry whose own code checks is undone', () => {
  /** Chain-correct entries without codes, as whoever has only the vault plants them; texts beside them. */
  function plant(jv: JournalVault, notes: string[]): JournalEntry[] {
    fs.mkdirSync(path.join(jv.journalDir, 'blobs'), { recursive: true });
    const out: JournalEntry[] = [];
    for (const [i, note] of notes.entries()) {
      const text = Buffer.from(`the forger's text for ${note}\n`);
      const sha = sha256Hex(text);
      fs.writeFileSync(path.join(jv.journalDir, 'blobs', sha), text);
      const unhashed = {
        id: `20261201T090000000Z-${String(i + 1).padStart(8, '0')}-abcdef`,
        seq: i + 1,
        time: '2026-12-01T09:00:00.000Z',
        session: 'forged',
        client: 'forger',
        tool: 'delete_note',
        note,
        kind: 'delete' as const,
        beforeSha256: sha,
        afterSha256: null,
        beforeStored: true,
        afterStored: false,
        prev: out.at(-1)?.hash ?? null,
      };
      out.push({ ...unhashed, hash: entryHash(unhashed) });
    }
    writeEntries(jv, out);
    return out;
  }

  it('entries planted before the first agent change are chained to but not vouched for: verify says so, undo creates nothing', async () => {
    const jv = open();
    const notes = ['pub/planted.md', 'private/planted.md', 'ro/planted.md'];
    const planted = plant(jv, notes);
    await agentWrite(jv, 'pub/real.md', 'real\n');
    const result = jv.journal.verify();
    expect(result).toMatchObject({
      ok: true,
      entries: 4,
      authentication: { checked: 1, unauthenticated: 3 },
      unverified: expect.stringMatching(/3 entries carry no authentication code .* never undone/),
    });
    for (const e of planted) {
      const undo = await jv.journal.undo({ entry: e.id }, ME);
      expect(undo.outcomes).toEqual([
        {
          entry: e.id,
          note: e.note,
          outcome: 'refused',
          reason: expect.stringMatching(/carries no authentication code .* is not undone/),
          why: 'unproven',
        },
      ]);
    }
    expect(await jv.journal.undo({ session: 'forged' }, ME)).toMatchObject({
      outcomes: planted.map(() => ({ outcome: 'refused' })),
    });
    for (const note of notes) expect(noteBytes(jv, note)).toBeNull();
    // As the owner meets it: verify exits 1 naming them, undo exits 1 and creates nothing.
    const verify = await cli(jv, journalCommand, ['verify']);
    expect(verify.code).toBe(1);
    expect(verify.out).toMatch(/not fully verifiable here: 3 entries carry no authentication code/);
    const run = await cli(jv, undoCommand, [(planted[1] as JournalEntry).id]);
    expect(run.code).toBe(1);
    expect(noteBytes(jv, 'private/planted.md')).toBeNull();
    // The agent's own change is still proven and undone.
    const real = entriesOf(jv).at(-1) as JournalEntry;
    expect((await jv.journal.undo({ entry: real.id }, ME)).outcomes[0]).toMatchObject({ outcome: 'undone' });
  });

  it("a journal replaced wholesale (another vault's, signed with the same key) undoes nothing", async () => {
    const jv = open();
    await fiveChanges(jv);
    // Another vault of the same user: the same key signs its journal.
    const other = open({ 'x.md': 'the other vault\n' }, { key: fixtureKey(jv.base) });
    const deleted = await agentWrite(other, 'x.md', null);
    expect(other.journal.verify()).toMatchObject({ ok: true, unverified: null });
    fs.rmSync(jv.journalDir, { recursive: true });
    fs.cpSync(other.journalDir, jv.journalDir, { recursive: true });
    const here = jv.journal;
    const result = here.verify();
    expect(result).toMatchObject({
      ok: false,
      scope: 'vault',
      authenticatedThrough: 0,
      reason: expect.stringMatching(/deleted or replaced|not anchored here/),
    });
    const undo = await here.undo({ entry: deleted.id }, ME);
    expect(undo.outcomes[0]).toMatchObject({
      outcome: 'refused',
      reason: expect.stringMatching(/does not verify as a whole/),
    });
    expect(noteBytes(jv, 'x.md')).toBeNull();
    const run = await cli(jv, undoCommand, [deleted.id]);
    expect(run.code).toBe(1);
    expect(noteBytes(jv, 'x.md')).toBeNull();
  });
});

describe('what this machine cannot check is said, not called tampering', () => {
  it("entries written with another machine's key: intact but not verifiable here, and not undone here", async () => {
    const jv = open();
    const entries = await fiveChanges(jv);
    // The same vault opened where another key lives (the vault was synced to a second machine).
    const elsewhere = new Journal(Vault.open(jv.dir), {
      now: () => new Date(),
      key: openJournalKey(path.join(jv.base, 'other-machine')),
    });
    const result = elsewhere.verify();
    expect(result).toMatchObject({
      ok: true,
      entries: 5,
      authentication: { checked: 0, otherKeys: [{ keyId: entries[0]?.keyId, entries: 5 }] },
      unverified: expect.stringMatching(
        /authenticated with a journal key this machine does not have .* another machine/,
      ),
    });
    const undo = await elsewhere.undo({ entry: (entries[4] as JournalEntry).id }, ME);
    expect(undo.outcomes[0]).toMatchObject({
      outcome: 'refused',
      reason: expect.stringMatching(/not authenticated by this machine's journal key/),
    });
    expect(noteBytes(jv, 'a.md')?.toString()).toBe('a3\n');
    // Back on the first machine, everything verifies, the second machine's entries included.
    await agentWriteWith(elsewhere, jv, 'a.md', 'a4\n');
    expect(jv.journal.verify()).toMatchObject({
      ok: true,
      entries: 6,
      authentication: { checked: 5, otherKeys: [{ entries: 1 }] },
      unverified: expect.stringMatching(
        /1 entry was authenticated with a journal key this machine does not have/,
      ),
    });
  });

  it('no key here at all: the chain is checked and the rest is said', async () => {
    const jv = open();
    await fiveChanges(jv);
    const keyless = new Journal(Vault.open(jv.dir), {
      now: () => new Date(),
      key: noJournalKey('no folder'),
    });
    expect(keyless.verify()).toMatchObject({
      ok: true,
      entries: 5,
      unverified: expect.stringMatching(/No journal key is available here \(no folder\)/),
    });
  });

  it('entries from before keys: chained to by the first authenticated entry, but never proven by it, so never undone', async () => {
    const jv = open({ 'a.md': 'a0\n' }, { key: noJournalKey('an earlier version') });
    const old = await agentWrite(jv, 'a.md', 'a1\n');
    const withKey = new Journal(jv.vault, { now: () => new Date(), key: fixtureKey(jv.base) });
    expect(withKey.verify()).toMatchObject({
      ok: true,
      unverified: expect.stringMatching(/without a journal key .* never undone/),
    });
    expect((await withKey.undo({ entry: old.id }, ME)).outcomes[0]).toMatchObject({ outcome: 'refused' });
    await agentWriteWith(withKey, jv, 'b.md', 'b1\n');
    expect(withKey.verify()).toMatchObject({
      ok: true,
      entries: 2,
      authentication: { checked: 1, unauthenticated: 1 },
      unverified: expect.stringMatching(/1 entry carries no authentication code .* never undone/),
    });
    expect((await withKey.undo({ entry: old.id }, ME)).outcomes[0]).toMatchObject({
      outcome: 'refused',
      reason: expect.stringMatching(/carries no authentication code/),
    });
    expect(noteBytes(jv, 'a.md')?.toString()).toBe('a1\n');
  });

  it('a copy of the vault shares the anchor until its first change, then has its own; both verify', async () => {
    const jv = open({ 'a.md': 'a0\n' });
    await fiveChanges(jv);
    const copyDir = path.join(jv.base, 'copy');
    fs.cpSync(jv.dir, copyDir, { recursive: true });
    const copy = new Journal(Vault.open(copyDir), { now: () => new Date(), key: fixtureKey(jv.base) });
    expect(copy.verify()).toMatchObject({
      ok: true,
      unverified: expect.stringMatching(/is a copy of the vault at/),
    });
    await agentWrite(jv, 'a.md', 'original moves on\n');
    await copy.vault.withNoteLock('a.md', () => copy.record(A3_TO_X));
    expect(copy.verify()).toMatchObject({ ok: true, entries: 6, unverified: null });
    expect(jv.journal.verify()).toMatchObject({ ok: true, entries: 6, unverified: null });
  });

  it('a moved vault keeps its anchor', async () => {
    const jv = open();
    await fiveChanges(jv);
    const moved = path.join(jv.base, 'moved');
    fs.renameSync(jv.dir, moved);
    const there = new Journal(Vault.open(moved), { now: () => new Date(), key: fixtureKey(jv.base) });
    expect(there.verify()).toMatchObject({ ok: true, entries: 5, unverified: null });
    writeEntries({ ...jv, journalDir: there.dir }, entriesOf({ ...jv, journalDir: there.dir }).slice(0, 4));
    expect(there.verify()).toMatchObject({ ok: false, reason: expect.stringMatching(/records 5/) });
  });

  it('journal verify on the command line: exit 1 with what cannot be checked, distinct from broken', async () => {
    const jv = open();
    await fiveChanges(jv);
    fs.renameSync(path.join(jv.base, '.config'), path.join(jv.base, '.config-elsewhere'));
    const run = await cli(jv, journalCommand, ['verify']);
    expect(run.code).toBe(1);
    expect(run.out).toMatch(
      /^intact: 5 entries \(hash chain intact, 8 stored texts checked\)\nStored texts: .*\nnot fully verifiable here: No journal key/,
    );
    expect(run.err).toBe('');
  });
});

describe('the anchor', () => {
  it('an anchor behind the journal (a crash between an append and its anchor) is not tampering', async () => {
    const jv = open();
    const entries = await fiveChanges(jv);
    const file = anchorFile(jv, entries);
    const anchor = JSON.parse(fs.readFileSync(file, 'utf8'));
    fs.writeFileSync(file, JSON.stringify({ ...anchor, seq: 3, hash: entries[2]?.hash }));
    expect(jv.journal.verify()).toMatchObject({ ok: true, entries: 5, unverified: null });
    fs.writeFileSync(file, JSON.stringify({ ...anchor, seq: 3, hash: entries[1]?.hash }));
    expect(jv.journal.verify()).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/entry 3 is not the one anchored there/),
    });
  });

  it('an anchor a crash left empty: verify says it cannot vouch for the end; the next change writes it anew', async () => {
    const jv = open();
    const entries = await fiveChanges(jv);
    fs.writeFileSync(anchorFile(jv, entries), '');
    expect(jv.journal.verify()).toMatchObject({
      ok: true,
      entries: 5,
      unverified: expect.stringMatching(/anchor .* cannot be read .* the next agent change writes it anew/),
    });
    await agentWrite(jv, 'a.md', 'a4\n');
    expect(jv.journal.verify()).toMatchObject({ ok: true, entries: 6, unverified: null });
  });

  it('an anchor that cannot be written undoes the append: nothing is recorded, and the caller is told', async () => {
    const jv = open();
    await fiveChanges(jv);
    const anchors = path.join(jv.base, '.config', 'noted-mcp', 'anchors');
    fs.rmSync(anchors, { recursive: true });
    fs.writeFileSync(anchors, 'a file where the folder should be');
    const before = dayLines(jv);
    expect(() => jv.journal.record(A3_TO_X)).toThrow(/journal could not be written/);
    expect(dayLines(jv)).toEqual(before);
  });
});

function anchorFile(jv: JournalVault, entries: JournalEntry[]): string {
  expect(entries.length).toBeGreaterThan(0);
  const id = fs.readFileSync(path.join(jv.journalDir, 'vault-id'), 'utf8').trim();
  return path.join(jv.base, '.config', 'noted-mcp', 'anchors', `${id}.json`);
}

describe('the key', () => {
  it('is created once, owner-only, even by several processes at once', async () => {
    const jv = open();
    const dir = path.join(jv.base, 'race', 'noted-mcp');
    const script = `import { openJournalKey } from ${JSON.stringify(path.resolve('src/journal/journal-key.ts'))};
      const s = openJournalKey(${JSON.stringify(dir)}); process.stdout.write(s.key ? s.key.id : 'none: ' + s.reason);`;
    const ids = await Promise.all(
      Array.from({ length: 4 }, () =>
        run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script]),
      ),
    );
    expect(new Set(ids).size).toBe(1);
    expect(ids[0]).toMatch(/^[0-9a-f]{16}$/);
    expect(fs.statSync(path.join(dir, KEY_FILE_NAME)).mode & 0o777).toBe(0o600);
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
    expect(fs.readdirSync(dir)).toEqual([KEY_FILE_NAME]);
  });

  it('made at the first agent change, not before: a server that only reads leaves the folder alone', async () => {
    const jv = open({ 'a.md': 'a0\n' });
    const dir = path.join(jv.base, 'first-use');
    const journal = new Journal(jv.vault, {
      now: () => new Date(),
      key: openJournalKey(dir, { create: 'first use' }),
    });
    expect(journal.verify()).toMatchObject({ ok: true, entries: 0, unverified: null });
    expect(fs.existsSync(dir)).toBe(false);
    const entry = journal.record(A3_TO_X);
    expect(fs.readdirSync(dir).sort()).toEqual(['anchors', KEY_FILE_NAME]);
    expect(entry.keyId).toBe(journal.key.key?.id);
    expect(journal.verify()).toMatchObject({ ok: true, entries: 1, unverified: null });
  });

  it('a key other users can read is not used', () => {
    const jv = open();
    const dir = path.join(jv.base, 'loose');
    const first = openJournalKey(dir);
    expect(first.key).not.toBeNull();
    fs.chmodSync(path.join(dir, KEY_FILE_NAME), 0o644);
    const again = openJournalKey(dir);
    expect(again).toMatchObject({
      key: null,
      reason: expect.stringMatching(/can be read by other users.*chmod 600/),
    });
  });
});

async function agentWriteWith(journal: Journal, jv: JournalVault, note: string, text: string): Promise<void> {
  await jv.vault.withNoteLock(note, () => {
    const before = jv.vault.read(note, ANYWHERE)?.text ?? null;
    journal.record({
      session: 's2',
      client: null,
      tool: 'update_note',
      note,
      kind: before === null ? 'create' : 'update',
      before,
      after: text,
    });
    jv.vault.write(note, text);
  });
}

function cli(jv: JournalVault, command: Parameters<typeof runCommand>[0], args: string[]): Promise<CliRun> {
  return runCommand(command, [...args, '--notes-dir', jv.dir], { HOME: jv.base });
}

function run(cmd: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
    });
    child.stderr.on('data', (c: Buffer) => {
      err += c.toString();
    });
    child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`exit ${code}: ${err}`))));
  });
}
