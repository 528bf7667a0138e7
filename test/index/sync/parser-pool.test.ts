/**
 * What a parser thread hands the writer (index/sync/parser-pool.ts): the records parsing gives, with the
 * batch's bodies as UTF-8 bytes in one buffer (so that buffer can be moved between threads whole).
 * Real threads (the built bundle is their script) answer the same, and their batches wait on their
 * ports, in order, until taken.
 */

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, expect, it } from 'vitest';
import { markdownFormat } from '../../../src/format/markdown-format.js';
import { type ParsedNote, parseNoteFile } from '../../../src/index/sync/parse-note.js';
import { type ParsedBatch, ParserPool, parseHere } from '../../../src/index/sync/parser-pool.js';
import type { FileEntry } from '../../../src/vault/walk.js';
import { DIST, ensureBuilt } from '../../helpers/server-process.js';

let dir: string | undefined;
afterEach(() => {
  if (dir !== undefined) fs.rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

function entries(files: Record<string, string>, missing: string[] = []): FileEntry[] {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'noted-pool-'));
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
  return [...Object.keys(files), ...missing].map((name, i) => ({
    name,
    size: files[name]?.length ?? 0,
    mtimeMs: 1_700_000_000_000 + i,
    ctimeMs: 1_700_000_000_000 + i,
    birthtimeMs: 1_700_000_000_000 + i,
    ino: 1000 + i,
  }));
}

/** A parsed note with its body as text, whichever form it came in. */
const asText = (note: ParsedNote | null) =>
  note === null
    ? null
    : {
        ...note,
        derived: {
          ...note.derived,
          ftsBody:
            typeof note.derived.ftsBody === 'string'
              ? note.derived.ftsBody
              : Buffer.from(note.derived.ftsBody).toString('utf8'),
        },
      };

it('gives the records parsing gives, with each body as its own UTF-8 bytes in one shared buffer', () => {
  const files = entries(
    {
      'a.md':
        '---\ntags: [x, y/z]\nstatus: draft\n---\n# Alpha\nSee [[b]] and #tag. - [ ] task 📅 2026-12-03\n',
      'b.md': '',
      'c.md': 'Café déjà vu, 東京の会議, emoji 😀 and a final sigma: ΟΔΟΣ\n',
      'd.md': '---\naliases: [Dee]\n---\n',
    },
    ['gone.md'],
  );
  const root = dir as string;
  const unpacked = parseHere(root, files).notes();
  const direct = files.map((file) => parseNoteFile(root, file, markdownFormat));
  expect(unpacked.map(asText)).toEqual(direct.map(asText));
  expect(unpacked[4]).toBeNull();
  // Bodies arrive as bytes: one buffer shared by the batch, each note a view of its own part.
  const bodies = unpacked.slice(0, 4).map((n) => n?.derived.ftsBody as Uint8Array);
  expect(bodies.every((b) => b instanceof Uint8Array)).toBe(true);
  expect(new Set(bodies.map((b) => b.buffer)).size).toBe(1);
  expect(Buffer.from(bodies[2] as Uint8Array).toString('utf8')).toMatch(/^Café déjà vu, .*東.*😀.*ΟΔΟΣ/);
});

it('a batch with nothing readable, or with only empty bodies', () => {
  const none = entries({}, ['x.md', 'y.md']);
  expect(parseHere(dir as string, none).notes()).toEqual([null, null]);
  fs.rmSync(dir as string, { recursive: true, force: true });
  const empty = entries({ 'e.md': '', 'f.md': '---\ntitle: F\n---\n' });
  const notes = parseHere(dir as string, empty).notes();
  expect(notes.map((n) => ((n as ParsedNote).derived.ftsBody as Uint8Array).length)).toEqual([0, 0]);
  expect(notes.map((n) => n?.file.name)).toEqual(['e.md', 'f.md']);
});

beforeAll(ensureBuilt, 120_000);

it('real parser threads answer as this thread parses; every batch waits on its port until it is taken', async () => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 12; i++)
    files[`n${i}.md`] = `---\ntags: [t${i}]\n---\nNote ${i} [[n${(i + 1) % 12}]] 東京 ${i}\n`;
  const all = entries(files, ['gone.md']);
  const root = dir as string;
  const batches = [all.slice(0, 4), all.slice(4, 8), all.slice(8, 11), all.slice(11)];
  const pool = new ParserPool(DIST, 2);
  try {
    // All four are ready (the two threads took turns) before the first is taken.
    const ready: ParsedBatch[] = await Promise.all(
      batches.map((files) => pool.parse(root, files, 'markdown')),
    );
    for (const [i, batch] of ready.entries()) {
      const expected = parseHere(root, batches[i] as FileEntry[]).notes();
      expect(batch.notes().map(asText)).toEqual(expected.map(asText));
    }
    // Taken once: a second take finds nothing left on the port and says so.
    expect(() => ready[0]?.notes()).toThrow(/was not next on its port/);
  } finally {
    await pool.close();
  }
});
