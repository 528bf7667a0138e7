/**
 * Two built server processes on one vault (SPEC 1.6, 1.7; ARCHITECTURE "Storage"): each sees the
 * other's writes within a second, they share the index without corrupting it, and per-note locks and
 * etags make concurrent edits safe — exactly one of two racing edits wins.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { etagOf } from '../../src/vault/etag.js';
import { ensureBuilt, type ServerProcess, spawnServer } from '../helpers/server-process.js';
import { makeVault, readBytes, type Structured, within } from '../helpers/vault.js';

let base: string;
let dir: string;
let a: ServerProcess;
let b: ServerProcess;

beforeAll(async () => {
  await ensureBuilt();
  ({ base, dir } = makeVault({ 'shared.md': '# Shared\n\nstart\n' }));
  a = await spawnServer(dir, { name: 'client-a' });
  b = await spawnServer(dir, { name: 'client-b' });
}, 60_000);

afterAll(async () => {
  await a?.close();
  await b?.close();
  fs.rmSync(base, { recursive: true, force: true });
});

async function names(p: ServerProcess, query: string): Promise<string[]> {
  const { structured, isError } = await p.call('search_notes', { query, max_results: 50 });
  expect(isError, JSON.stringify(structured)).toBe(false);
  return structured.results.map((r: { name: string }) => r.name);
}

async function read(p: ServerProcess, name: string): Promise<Structured> {
  return (await p.call('read_note', { name })).structured;
}

describe('two server processes on one vault', () => {
  it('a write from each is visible to the other within 1 s (list, read, search)', async () => {
    const created = await a.call('create_note', { name: 'from-a', content: 'written by a: aardvark\n' });
    expect(created.isError).toBe(false);
    const seenByB = await within(1000, async () => {
      const listed = (await b.call('list_notes')).structured.notes.map((n: { name: string }) => n.name);
      return listed.includes('from-a.md') && (await names(b, 'aardvark')).includes('from-a.md');
    });
    expect(seenByB, 'b sees a’s note within 1 s').not.toBeNull();
    expect((await read(b, 'from-a')).body).toBe('written by a: aardvark\n');

    const updated = await b.call('update_note', {
      name: 'from-a',
      content: 'rewritten by b: bonobo\n',
      expected_etag: created.structured.etag,
    });
    expect(updated.isError).toBe(false);
    const seenByA = await within(1000, async () => {
      const hits = await names(a, 'bonobo');
      return hits.includes('from-a.md') && (await names(a, 'aardvark')).length === 0;
    });
    expect(seenByA, 'a sees b’s update within 1 s').not.toBeNull();
    expect((await read(a, 'from-a')).etag).toBe(updated.structured.etag);
    process.stdout.write(
      `two processes: b saw a's create after ${seenByB} ms, a saw b's update after ${seenByA} ms\n`,
    );
  });

  it('interleaved creates and updates from both do not corrupt the index: each note is found exactly once', async () => {
    const count = 15;
    const work = (p: ServerProcess, who: string) =>
      (async () => {
        for (let i = 0; i < count; i++) {
          const name = `batch/${who}-${i}`;
          const c = await p.call('create_note', { name, content: `${who} note ${i} marsupial\n` });
          expect(c.isError, JSON.stringify(c.structured)).toBe(false);
          const u = await p.call('update_note', {
            name,
            content: `tapir ${who}${i}\n`,
            append: true,
            expected_etag: c.structured.etag,
          });
          expect(u.isError, JSON.stringify(u.structured)).toBe(false);
        }
      })();
    await Promise.all([work(a, 'a'), work(b, 'b')]);

    const expected = ['a', 'b']
      .flatMap((who) => Array.from({ length: count }, (_, i) => `batch/${who}-${i}.md`))
      .sort();
    for (const p of [a, b]) {
      const ok = await within(1000, async () => {
        const hits = await names(p, 'marsupial tapir');
        return (
          hits.length === expected.length && JSON.stringify([...hits].sort()) === JSON.stringify(expected)
        );
      });
      expect(ok, 'both processes find every note exactly once').not.toBeNull();
      const total = (await p.call('search_notes', { query: 'marsupial', max_results: 1 })).structured.total;
      expect(total).toBe(expected.length);
      const listed = (await p.call('list_notes', { folder: 'batch', limit: 500 })).structured.notes;
      expect(listed.map((n: { name: string }) => n.name).sort()).toEqual(expected);
      for (const who of ['a', 'b']) {
        for (const i of [0, count - 1]) {
          expect(await names(p, `${who}${i}`)).toEqual([`batch/${who}-${i}.md`]);
        }
      }
    }
    for (const name of expected) {
      const text = readBytes(dir, name)?.toString() ?? '';
      const [, who, i] = /batch\/(\w)-(\d+)\.md/.exec(name) ?? [];
      expect(text).toBe(`${who} note ${i} marsupial\n\n\n---\n\ntapir ${who}${i}\n`);
    }
  });

  it('an edit with a stale etag from either process is a conflict, and the other’s write survives', async () => {
    const start = await read(a, 'shared');
    const byA = await a.call('edit_note', {
      name: 'shared',
      operation: 'replace',
      old_text: 'start',
      new_text: 'changed by a',
      expected_etag: start.etag,
    });
    expect(byA.isError).toBe(false);
    const afterA = readBytes(dir, 'shared.md')?.toString();

    const staleB = await b.call('edit_note', {
      name: 'shared',
      operation: 'replace',
      old_text: 'start',
      new_text: 'changed by b',
      expected_etag: start.etag,
    });
    expect(staleB.structured).toMatchObject({
      code: 'conflict',
      committed: false,
      currentEtag: byA.structured.etag,
      currentText: afterA,
    });
    expect(readBytes(dir, 'shared.md')?.toString()).toBe(afterA);

    const byB = await b.call('edit_note', {
      name: 'shared',
      operation: 'append_to_section',
      heading: 'Shared',
      content: 'b was here',
      expected_etag: staleB.structured.currentEtag,
    });
    expect(byB.isError).toBe(false);
    const afterB = readBytes(dir, 'shared.md')?.toString();
    expect(afterB).toBe('# Shared\n\nchanged by a\n\nb was here\n');

    const staleA = await a.call('edit_note', {
      name: 'shared',
      operation: 'replace',
      old_text: 'changed by a',
      new_text: 'a again',
      expected_etag: byA.structured.etag,
    });
    expect(staleA.structured).toMatchObject({
      code: 'conflict',
      committed: false,
      currentEtag: etagOf(afterB!),
    });
    expect(readBytes(dir, 'shared.md')?.toString()).toBe(afterB);
  });

  it('concurrent edits of one note from both with the same starting etag: exactly one succeeds', async () => {
    await a.call('create_note', { name: 'race', content: 'round 0\n' });
    for (let round = 1; round <= 10; round++) {
      const current = await read(a, 'race');
      expect(current.body).toBe(`round ${round - 1}\n`);
      const edit = (p: ServerProcess, who: string) =>
        p.call('edit_note', {
          name: 'race',
          operation: 'replace',
          old_text: `round ${round - 1}`,
          new_text: `round ${round}\n${who} won`,
          expected_etag: current.etag,
        });
      const [ra, rb] = await Promise.all([edit(a, 'a'), edit(b, 'b')]);
      const winners = [ra, rb].filter((r) => !r.isError);
      const losers = [ra, rb].filter((r) => r.isError);
      expect(winners, `round ${round}`).toHaveLength(1);
      expect(losers[0]?.structured).toMatchObject({ code: 'conflict', committed: false });
      const winner = ra.isError ? 'b' : 'a';
      const text = readBytes(dir, 'race.md')?.toString();
      expect(text).toBe(`round ${round}\n${winner} won\n`);
      expect(winners[0]?.structured.etag).toBe(etagOf(text!));
      expect(losers[0]?.structured.currentEtag).toBe(etagOf(text!));
      // Reset for the next round, through one process.
      await a.call('update_note', {
        name: 'race',
        content: `round ${round}\n`,
        expected_etag: etagOf(text!),
      });
    }
  });

  it('the index of both answers the same after all this', async () => {
    const ok = await within(1000, async () => {
      const la = (await a.call('list_notes', { limit: 500 })).structured.notes;
      const lb = (await b.call('list_notes', { limit: 500 })).structured.notes;
      return JSON.stringify(la) === JSON.stringify(lb);
    });
    expect(ok).not.toBeNull();
    expect(a.stderr()).not.toMatch(/error|corrupt|malformed/i);
    expect(b.stderr()).not.toMatch(/error|corrupt|malformed/i);
  });
});
