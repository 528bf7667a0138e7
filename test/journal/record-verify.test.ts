/**
 * The journal's record and its tamper evidence (SPEC 6.1, 6.2): every change is one hash-chained line
 * in the day's file, texts are stored once by hash, and `verify` names the first entry where the
 * chain breaks.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { NotedError } from '../../src/common/errors.js';
import {
  canonicalJson,
  entryHash,
  entryLine,
  type JournalEntry,
  sha256Hex,
} from '../../src/journal/entry.js';
import { Journal } from '../../src/journal/journal.js';
import {
  agentWrite,
  dayLines,
  type JournalVault,
  journalVault,
  writeDayLines,
} from './fixtures/journal-vault.js';

let jv: JournalVault;
afterEach(() => jv?.cleanup());

function record(j: Journal, note: string, before: string | null, after: string | null, extra = {}) {
  const kind = before === null ? 'create' : after === null ? 'delete' : 'update';
  return j.record({ session: 's1', client: 'c', tool: 't', note, kind, before, after, ...extra });
}

describe('record', () => {
  it('appends one chained JSON line per change to the UTC day file, with hashes of both texts', async () => {
    jv = journalVault();
    const a = await agentWrite(jv, 'a.md', 'one\n', { session: 'sess', client: 'claude' });
    const b = await agentWrite(jv, 'a.md', 'two\n', { session: 'sess', client: 'claude', group: 'g1' });
    const c = await agentWrite(jv, 'a.md', null, { session: 'sess', client: null });

    const lines = dayLines(jv);
    expect(lines).toHaveLength(3);
    expect(lines.map((l) => JSON.parse(l))).toEqual([a, b, c]);
    expect(a).toMatchObject({
      seq: 1,
      time: '2026-12-01T10:00:01.000Z',
      session: 'sess',
      client: 'claude',
      tool: 'create_note',
      note: 'a.md',
      kind: 'create',
      beforeSha256: null,
      afterSha256: sha256Hex('one\n'),
      beforeStored: false,
      afterStored: true,
      prev: null,
    });
    expect(b).toMatchObject({ seq: 2, kind: 'update', group: 'g1', prev: a.hash });
    expect(b.beforeSha256).toBe(sha256Hex('one\n'));
    expect(c).toMatchObject({ seq: 3, kind: 'delete', client: null, afterSha256: null, prev: b.hash });
    expect(c).not.toHaveProperty('group');
    expect(a.id).toMatch(/^20261201T100001000Z-00000001-[0-9a-f]{6}$/);
    expect(a.id < b.id && b.id < c.id).toBe(true);
    const { hash, mac, ...rest } = b;
    expect(hash).toBe(sha256Hex(canonicalJson(rest)));
    // Authenticated with the user's key (journal-key.ts): the code is over the hash.
    expect(b.keyId).toBe(jv.journal.key.key?.id);
    expect(jv.journal.key.key?.verifies(hash, mac as string)).toBe(true);
    expect(jv.journal.verify()).toMatchObject({ ok: true, entries: 3, unverified: null });
  });

  it('starts a new file each UTC day and keeps the chain across days', () => {
    jv = journalVault();
    jv.setTime('2026-12-01T23:59:59.000Z');
    const first = record(jv.journal, 'a.md', null, 'x');
    jv.setTime('2026-12-02T00:00:00.500Z');
    const second = record(jv.journal, 'a.md', 'x', 'y');
    expect(fs.readdirSync(jv.journalDir).sort()).toEqual([
      '2026-12-01.jsonl',
      '2026-12-02.jsonl',
      'blobs',
      'usage.json',
      'vault-id',
    ]);
    expect(second).toMatchObject({ seq: 2, prev: first.hash });
    expect(jv.journal.verify()).toMatchObject({ ok: true, entries: 2, unverified: null });
  });

  it('a clock set back past midnight keeps appending to the latest file, so file order stays chain order', () => {
    jv = journalVault();
    jv.setTime('2026-12-02T00:00:01.000Z');
    record(jv.journal, 'a.md', null, 'x');
    jv.setTime('2026-12-01T23:59:00.000Z');
    record(jv.journal, 'a.md', 'x', 'y');
    expect(fs.readdirSync(jv.journalDir).filter((f) => f.endsWith('.jsonl'))).toEqual(['2026-12-02.jsonl']);
    expect(jv.journal.verify()).toMatchObject({ ok: true, entries: 2, unverified: null });
  });

  it('stores each text once, by its hash, and gives it back', () => {
    jv = journalVault();
    record(jv.journal, 'a.md', null, 'same text');
    record(jv.journal, 'b.md', null, 'same text');
    record(jv.journal, 'a.md', 'same text', 'other');
    const blobs = fs.readdirSync(path.join(jv.journalDir, 'blobs')).sort();
    expect(blobs).toEqual([sha256Hex('other'), sha256Hex('same text')].sort());
    expect(jv.journal.textOf(sha256Hex('same text'))).toBe('same text');
    expect(jv.journal.textOf(sha256Hex('never stored'))).toBeNull();
    expect(jv.journal.textOf('../../etc/passwd')).toBeNull();
  });

  it('a damaged blob is not given back as the text', () => {
    jv = journalVault();
    record(jv.journal, 'a.md', null, 'original');
    fs.writeFileSync(path.join(jv.journalDir, 'blobs', sha256Hex('original')), 'forged');
    expect(jv.journal.textOf(sha256Hex('original'))).toBeNull();
  });

  it('texts over 5 MB are recorded by hash only', () => {
    jv = journalVault();
    const big = 'x'.repeat(5 * 1024 * 1024 + 1);
    const entry = record(jv.journal, 'big.md', 'small', big);
    expect(entry).toMatchObject({ beforeStored: true, afterStored: false, afterSha256: sha256Hex(big) });
    expect(fs.existsSync(path.join(jv.journalDir, 'blobs', sha256Hex(big)))).toBe(false);
    expect(jv.journal.textOf(sha256Hex(big))).toBeNull();
    const exactly = 'y'.repeat(5 * 1024 * 1024);
    expect(record(jv.journal, 'big.md', big, exactly).afterStored).toBe(true);
  });

  it('refuses a kind that does not fit its texts (a bug in the caller)', () => {
    jv = journalVault();
    const bad = { session: 's', client: null, tool: 't', note: 'a.md', before: 'x', after: 'y' } as const;
    expect(() => jv.journal.record({ ...bad, kind: 'create' })).toThrow(/create entry/);
    expect(fs.existsSync(jv.journalDir)).toBe(false);
  });
});

describe('recordMany', () => {
  it('appends consecutive chained entries in one write, each text stored once', () => {
    jv = journalVault();
    record(jv.journal, 'first.md', null, 'x');
    const inputs = ['a.md', 'b.md', 'c.md'].map((note) => ({
      session: 's1',
      client: null,
      tool: 'move_note',
      note,
      kind: 'update' as const,
      before: `[[Old]] in ${note}\n`,
      after: 'shared after-text\n',
      group: 'g1',
    }));
    const entries = jv.journal.recordMany(inputs);
    expect(entries.map((e) => [e.seq, e.note, e.group])).toEqual([
      [2, 'a.md', 'g1'],
      [3, 'b.md', 'g1'],
      [4, 'c.md', 'g1'],
    ]);
    expect(entries[1]?.prev).toBe(entries[0]?.hash);
    expect(dayLines(jv).map((l) => JSON.parse(l))).toEqual([expect.objectContaining({ seq: 1 }), ...entries]);
    expect(jv.journal.textOf(sha256Hex('[[Old]] in b.md\n'))).toBe('[[Old]] in b.md\n');
    expect(jv.journal.textOf(sha256Hex('shared after-text\n'))).toBe('shared after-text\n');
    expect(fs.readdirSync(path.join(jv.journalDir, 'blobs')).sort()).toEqual(
      [
        sha256Hex('x'),
        ...['a', 'b', 'c'].map((n) => sha256Hex(`[[Old]] in ${n}.md\n`)),
        sha256Hex('shared after-text\n'),
      ].sort(),
    );
    expect(jv.journal.verify()).toMatchObject({ ok: true, entries: 4, unverified: null });
  });

  it('all or nothing: a failing append adds none of the entries', () => {
    jv = journalVault();
    record(jv.journal, 'a.md', null, 'one');
    const failing = new Journal(jv.vault, {
      now: () => new Date('2026-12-01T11:00:00Z'),
      key: jv.journal.key,
      writer: (fd, bytes) => {
        fs.writeSync(fd, bytes, 0, Math.floor(bytes.length / 3));
        throw Object.assign(new Error('EIO: i/o error, write'), { code: 'EIO' });
      },
    });
    const input = {
      session: 's',
      client: null,
      tool: 't',
      kind: 'update' as const,
      before: 'one',
      after: 'two',
    };
    expect(() =>
      failing.recordMany([input, input, input].map((i, n) => ({ ...i, note: `n${n}.md` }))),
    ).toThrow(NotedError);
    expect(dayLines(jv)).toHaveLength(1);
    expect(record(jv.journal, 'a.md', 'one', 'two').seq).toBe(2);
    expect(jv.journal.verify()).toMatchObject({ ok: true, entries: 2, unverified: null });
  });

  it('a kind that does not fit its texts refuses the whole batch before anything is stored', () => {
    jv = journalVault();
    const ok = {
      session: 's',
      client: null,
      tool: 't',
      note: 'a.md',
      kind: 'create' as const,
      before: null,
      after: 'a',
    };
    const bad = { ...ok, note: 'b.md', kind: 'update' as const };
    expect(() => jv.journal.recordMany([ok, bad])).toThrow(/cannot have before=false and after=true/);
    expect(fs.existsSync(jv.journalDir)).toBe(false);
  });
});

describe('voidEntries', () => {
  it('names each change not made with a not_applied entry under its own session, tool and group', () => {
    jv = journalVault({ 'a.md': 'one' });
    const [entry] = jv.journal.recordMany([
      {
        session: 's9',
        client: 'c',
        tool: 'move_note',
        note: 'a.md',
        kind: 'update',
        before: 'one',
        after: 'two',
        group: 'g7',
      },
    ]);
    expect(jv.journal.voidEntries([{ entry: entry as JournalEntry, now: Buffer.from('one') }])).toBe(true);
    const [voiding] = jv.journal.list({ kind: 'not_applied' });
    expect(voiding).toMatchObject({
      session: 's9',
      tool: 'move_note',
      note: 'a.md',
      group: 'g7',
      voids: entry?.id,
    });
    expect(voiding?.beforeSha256).toBe(sha256Hex('one'));
    expect(voiding?.afterSha256).toBe(sha256Hex('one'));
    expect(jv.journal.verify()).toMatchObject({ ok: true, entries: 2, unverified: null });
  });

  it('answers false and adds nothing when the journal cannot be written', () => {
    jv = journalVault();
    const entry = record(jv.journal, 'a.md', null, 'one');
    const failing = new Journal(jv.vault, {
      now: () => new Date('2026-12-01T11:00:00Z'),
      key: jv.journal.key,
      writer: () => {
        throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
      },
    });
    expect(failing.voidEntries([{ entry, now: null }])).toBe(false);
    expect(dayLines(jv)).toHaveLength(1);
  });
});

describe('a journal that cannot be written', () => {
  it('a failing append throws not_supported, leaves no partial line, and the next append chains on', () => {
    jv = journalVault();
    record(jv.journal, 'a.md', null, 'one');
    const before = fs.readFileSync(path.join(jv.journalDir, '2026-12-01.jsonl'));
    const failing = new Journal(jv.vault, {
      now: () => new Date('2026-12-01T11:00:00Z'),
      key: jv.journal.key,
      writer: (fd, bytes) => {
        fs.writeSync(fd, bytes, 0, Math.floor(bytes.length / 2));
        throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
      },
    });
    let thrown: unknown;
    try {
      record(failing, 'a.md', 'one', 'two');
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(NotedError);
    expect((thrown as NotedError).code).toBe('not_supported');
    expect((thrown as NotedError).message).toMatch(
      /^The journal could not be written \(the disk is full: .*\), so the note was not changed\./,
    );
    expect(fs.readFileSync(path.join(jv.journalDir, '2026-12-01.jsonl'))).toEqual(before);
    expect(record(jv.journal, 'a.md', 'one', 'two').seq).toBe(2);
    expect(jv.journal.verify()).toMatchObject({ ok: true, entries: 2, unverified: null });
  });

  it('a file where the journal folder should be: not_supported, nothing written', () => {
    jv = journalVault();
    fs.writeFileSync(jv.journalDir, 'not a folder');
    expect(() => record(jv.journal, 'a.md', null, 'one')).toThrow(
      expect.objectContaining({
        code: 'not_supported',
        message: expect.stringMatching(/note was not changed/),
      }),
    );
    expect(fs.readFileSync(jv.journalDir, 'utf8')).toBe('not a folder');
  });

  it.skipIf(process.getuid?.() === 0)('a read-only journal folder: not_supported', () => {
    jv = journalVault();
    record(jv.journal, 'a.md', null, 'one');
    fs.chmodSync(jv.journalDir, 0o500);
    fs.chmodSync(path.join(jv.journalDir, 'blobs'), 0o500);
    try {
      expect(() => record(jv.journal, 'a.md', 'one', 'two')).toThrow(
        expect.objectContaining({ code: 'not_supported' }),
      );
    } finally {
      fs.chmodSync(jv.journalDir, 0o700);
      fs.chmodSync(path.join(jv.journalDir, 'blobs'), 0o700);
    }
  });

  it('a damaged last entry stops appends (nothing to chain to) rather than starting a new chain', () => {
    jv = journalVault();
    record(jv.journal, 'a.md', null, 'one');
    writeDayLines(jv, [...dayLines(jv), '{"not":"an entry"}']);
    expect(() => record(jv.journal, 'a.md', 'one', 'two')).toThrow(
      expect.objectContaining({ code: 'not_supported', message: expect.stringMatching(/is damaged/) }),
    );
  });

  it('a cut-off last line (a crash mid-append) is dropped by the next append, which chains on', () => {
    jv = journalVault();
    const first = record(jv.journal, 'a.md', null, 'one');
    const file = path.join(jv.journalDir, '2026-12-01.jsonl');
    fs.appendFileSync(file, '{"id":"20261201T1');
    const next = record(jv.journal, 'a.md', 'one', 'two');
    expect(next).toMatchObject({ seq: 2, prev: first.hash });
    expect(dayLines(jv)).toHaveLength(2);
    expect(jv.journal.verify()).toMatchObject({ ok: true, entries: 2, unverified: null });
  });
});

describe('verify', () => {
  function fiveEntries(): JournalEntry[] {
    jv = journalVault();
    return ['a', 'b', 'c', 'd', 'e'].map((t, i) =>
      record(jv.journal, 'n.md', i === 0 ? null : String.fromCharCode(96 + i), t),
    );
  }

  it('an empty or missing journal is intact with 0 entries', () => {
    jv = journalVault();
    expect(jv.journal.verify()).toMatchObject({ ok: true, entries: 0, unverified: null });
  });

  it('a changed entry: its hash no longer matches', () => {
    const entries = fiveEntries();
    const lines = dayLines(jv);
    lines[2] = (lines[2] as string).replace('"tool":"t"', '"tool":"edit_note"');
    writeDayLines(jv, lines);
    expect(jv.journal.verify()).toMatchObject({
      ok: false,
      entries: 2,
      brokenAt: { file: '2026-12-01.jsonl', line: 3, id: entries[2]?.id },
      reason: expect.stringMatching(/hash does not match its content/),
    });
  });

  it('a removed entry: the next entry no longer follows', () => {
    const entries = fiveEntries();
    const lines = dayLines(jv);
    lines.splice(1, 1);
    writeDayLines(jv, lines);
    expect(jv.journal.verify()).toMatchObject({
      ok: false,
      entries: 1,
      brokenAt: { file: '2026-12-01.jsonl', line: 2, id: entries[2]?.id },
      reason: expect.stringMatching(/removed/),
    });
  });

  it('reordered entries', () => {
    const entries = fiveEntries();
    const lines = dayLines(jv);
    [lines[2], lines[3]] = [lines[3] as string, lines[2] as string];
    writeDayLines(jv, lines);
    expect(jv.journal.verify()).toMatchObject({
      ok: false,
      entries: 2,
      brokenAt: { line: 3, id: entries[3]?.id },
      reason: expect.stringMatching(/reordered/),
    });
  });

  it('a forged entry inserted with a made-up hash', () => {
    const entries = fiveEntries();
    const lines = dayLines(jv);
    const forged = { ...(entries[1] as JournalEntry), id: 'forged', note: 'secret.md', hash: 'f'.repeat(64) };
    lines.splice(2, 0, entryLine(forged));
    writeDayLines(jv, lines);
    expect(jv.journal.verify()).toMatchObject({
      ok: false,
      entries: 2,
      brokenAt: { line: 3, id: 'forged' },
      reason: expect.stringMatching(/made up/),
    });
  });

  it('a forged entry with a correctly computed hash fails its authentication code', () => {
    const entries = fiveEntries();
    const lines = dayLines(jv);
    const { hash: _h, mac, ...rest } = { ...(entries[2] as JournalEntry), note: 'secret.md' };
    lines.splice(2, 1, entryLine({ ...rest, hash: entryHash(rest), ...(mac === undefined ? {} : { mac }) }));
    writeDayLines(jv, lines);
    expect(jv.journal.verify()).toMatchObject({
      ok: false,
      entries: 2,
      brokenAt: { line: 3, id: entries[2]?.id },
      reason: expect.stringMatching(/authentication code does not match/),
    });
  });

  it('a torn last line', () => {
    fiveEntries();
    fs.appendFileSync(path.join(jv.journalDir, '2026-12-01.jsonl'), '{"id":"2026');
    expect(jv.journal.verify()).toMatchObject({
      ok: false,
      entries: 5,
      brokenAt: { file: '2026-12-01.jsonl', line: 6 },
      reason: expect.stringMatching(/incomplete/),
    });
  });

  it('a line that is not JSON', () => {
    fiveEntries();
    const lines = dayLines(jv);
    lines.splice(4, 0, 'hello');
    writeDayLines(jv, lines);
    expect(jv.journal.verify()).toMatchObject({
      ok: false,
      entries: 4,
      brokenAt: { line: 5 },
      reason: 'the line is not JSON',
    });
  });

  it('a removed day file breaks the chain at the first entry after it', () => {
    jv = journalVault();
    jv.setTime('2026-12-01T12:00:00Z');
    record(jv.journal, 'a.md', null, 'one');
    jv.setTime('2026-12-02T12:00:00Z');
    record(jv.journal, 'a.md', 'one', 'two');
    jv.setTime('2026-12-03T12:00:00Z');
    const third = record(jv.journal, 'a.md', 'two', 'three');
    fs.rmSync(path.join(jv.journalDir, '2026-12-02.jsonl'));
    expect(jv.journal.verify()).toMatchObject({
      ok: false,
      entries: 1,
      brokenAt: { file: '2026-12-03.jsonl', line: 1, id: third.id },
    });
  });
});

describe('reading the journal', () => {
  it('list filters and returns newest first; sessions summarise; get finds by id', async () => {
    jv = journalVault();
    const a1 = await agentWrite(jv, 'a.md', 'a1', { session: 'A', client: 'claude' });
    const b1 = await agentWrite(jv, 'b.md', 'b1', { session: 'B', client: 'cursor', group: 'g' });
    const a2 = await agentWrite(jv, 'a.md', 'a2', { session: 'A', client: 'claude' });
    const b2 = await agentWrite(jv, 'c.md', 'c1', { session: 'B', client: 'cursor', group: 'g' });

    expect(jv.journal.list().map((e) => e.seq)).toEqual([4, 3, 2, 1]);
    expect(jv.journal.list({ session: 'A' })).toEqual([a2, a1]);
    expect(jv.journal.list({ client: 'cursor' })).toEqual([b2, b1]);
    expect(jv.journal.list({ note: 'a.md', kind: 'update' })).toEqual([a2]);
    expect(jv.journal.list({ group: 'g', limit: 1 })).toEqual([b2]);
    expect(jv.journal.sessions()).toEqual([
      { session: 'B', client: 'cursor', firstTime: b1.time, lastTime: b2.time, entries: 2 },
      { session: 'A', client: 'claude', firstTime: a1.time, lastTime: a2.time, entries: 2 },
    ]);
    expect(jv.journal.get(a2.id)).toEqual(a2);
    expect(jv.journal.get('20261201T100000000Z-00000009-abcdef')).toBeNull();
  });
});
