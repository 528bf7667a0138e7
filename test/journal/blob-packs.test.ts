/**
 * Texts of a large batch stored in one pack file (journal/blob-packs.ts): every text reads back, from
 * this journal and from another process's, and a damaged pack gives back nothing it cannot vouch for.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PACK_MIN_BLOBS } from '../../src/journal/blob-packs.js';
import { sha256Hex } from '../../src/journal/entry.js';
import { Journal } from '../../src/journal/journal.js';
import { type JournalVault, journalVault } from './fixtures/journal-vault.js';

let jv: JournalVault;
afterEach(() => jv?.cleanup());

/** A batch of `n` updates, each with its own before- and after-text. */
function batch(n: number) {
  return Array.from({ length: n }, (_, i) => ({
    session: 's1',
    client: null,
    tool: 'move_note',
    note: `n${i}.md`,
    kind: 'update' as const,
    before: `before ${i} [[Old]]\n`,
    after: `after ${i} [[New]]\n`,
    group: 'g1',
  }));
}

const packsOf = (j: JournalVault) => path.join(j.journalDir, 'blobs', 'packs');
const looseOf = (j: JournalVault) =>
  fs.readdirSync(path.join(j.journalDir, 'blobs')).filter((n) => n !== 'packs');

/** A fresh journal vault with a batch of ten updates recorded: the inputs and the one pack's path. */
function packedTen() {
  jv = journalVault();
  const inputs = batch(10);
  jv.journal.recordMany(inputs);
  const [name] = fs.readdirSync(packsOf(jv));
  return { inputs, file: path.join(packsOf(jv), name as string) };
}

/** A journal over the same vault, as another server process has it. */
const otherProcess = (j: JournalVault) => new Journal(j.vault, { now: () => new Date(), key: j.journal.key });

describe('blob packs', () => {
  it('a batch of many new texts is one pack file, and every text reads back here and elsewhere', () => {
    jv = journalVault();
    const inputs = batch(100);
    jv.journal.recordMany(inputs);
    expect(fs.readdirSync(packsOf(jv))).toHaveLength(1);
    expect(looseOf(jv)).toEqual([]);
    const other = otherProcess(jv);
    for (const input of inputs) {
      for (const text of [input.before, input.after]) {
        expect(jv.journal.textOf(sha256Hex(text))).toBe(text);
        expect(other.textOf(sha256Hex(text))).toBe(text);
      }
    }
    expect(jv.journal.verify()).toMatchObject({ ok: true, entries: 100, unverified: null });
  });

  it('a few texts stay single files; texts already stored are not stored again', () => {
    jv = journalVault();
    const few = batch(PACK_MIN_BLOBS / 2 - 1);
    jv.journal.recordMany(few);
    expect(fs.existsSync(packsOf(jv))).toBe(false);
    expect(looseOf(jv)).toHaveLength(few.length * 2);
    // The same texts again, plus many new ones: only the new ones go into the pack.
    jv.journal.recordMany(batch(20));
    const [pack] = fs.readdirSync(packsOf(jv));
    const header = fs.readFileSync(path.join(packsOf(jv), pack as string), 'latin1').split('\n')[0];
    expect(header).toBe(`NOTEDPACK1 ${(20 - few.length) * 2}`);
  });

  it('a packed text whose bytes were changed reads as missing; the others still read', () => {
    const { inputs, file } = packedTen();
    const bytes = fs.readFileSync(file);
    const at = bytes.indexOf('before 3 ');
    bytes[at] = 'B'.charCodeAt(0);
    fs.writeFileSync(file, bytes);
    const other = otherProcess(jv);
    expect(other.textOf(sha256Hex(inputs[3]?.before as string))).toBeNull();
    expect(other.textOf(sha256Hex(inputs[4]?.before as string))).toBe(inputs[4]?.before);
  });

  it('a cut-off pack gives back the texts it still holds whole, and no others', () => {
    const { inputs, file } = packedTen();
    const bytes = fs.readFileSync(file);
    fs.writeFileSync(file, bytes.subarray(0, bytes.indexOf('after 9 ') + 3));
    const other = otherProcess(jv);
    expect(other.textOf(sha256Hex(inputs[0]?.before as string))).toBe(inputs[0]?.before);
    expect(other.textOf(sha256Hex(inputs[9]?.after as string))).toBeNull();
  });

  it('a pack whose header is damaged is not trusted at all, and reading never throws', () => {
    const { inputs, file } = packedTen();
    const text = fs.readFileSync(file, 'latin1');
    fs.writeFileSync(file, text.replace(/ 000000000000 /, ' 00000000000x '), 'latin1');
    fs.writeFileSync(path.join(packsOf(jv), 'junk.pack'), 'not a pack');
    fs.writeFileSync(path.join(packsOf(jv), 'empty.pack'), '');
    const other = otherProcess(jv);
    for (const input of inputs) expect(other.textOf(sha256Hex(input.before))).toBeNull();
  });

  it('an undo of a packed batch puts every note back', async () => {
    jv = journalVault();
    const notes = batch(12);
    for (const n of notes) fs.writeFileSync(path.join(jv.dir, n.note), n.before);
    const entries = jv.journal.recordMany(notes);
    for (const n of notes) fs.writeFileSync(path.join(jv.dir, n.note), n.after);
    expect(fs.readdirSync(packsOf(jv))).toHaveLength(1);
    const result = await otherProcess(jv).undo({ group: 'g1' }, { session: 'owner', client: null });
    expect(result.outcomes.map((o) => o.entry).sort()).toEqual(entries.map((e) => e.id).sort());
    for (const n of notes) expect(fs.readFileSync(path.join(jv.dir, n.note), 'utf8')).toBe(n.before);
  });
});
