/**
 * line:, block: and section: answered from the index (search/check/positions.ts): FTS5's word positions
 * placed in lines, blocks and sections by each note's stored layout give what reading the note gives
 * (search/check/scopes.ts), hits and lines alike, without reading a note; what that would read is bounded;
 * and a note whose layout does not count what FTS5 counted keeps none, so its text is checked instead.
 */
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NotedError } from '../../../../src/common/errors.js';
import { markdownFormat } from '../../../../src/format/markdown-format.js';
import { type CandidateFacts, type Found, matchesNote } from '../../../../src/index/search/check/check.js';
import { IndexedScopes } from '../../../../src/index/search/check/positions.js';
import { parseSearchQuery, type QueryNode } from '../../../../src/index/search/parse/query.js';
import { deriveNote } from '../../../../src/index/store/derive.js';
import { IndexWriter } from '../../../../src/index/store/store.js';
import { NoteRegions } from '../../../../src/index/words/regions.js';
import { fileEntryOf } from '../../../../src/vault/walk.js';
import { type IndexedVault, indexedVault } from '../../indexed-vault.js';

const WORDS = ['dog', 'cat', 'Café', 'cafe', 'the', 'dog-cat', 'naïve', '東京', 'DOG'];
const BREAKS = [
  '\n',
  '\n\n',
  '\n# Head\n',
  '\n## Sub dog\n',
  '\n- ',
  '\n> ',
  '\n```\n',
  '\n---\n',
  '\r\n',
  '\n\n\n',
];
const body = fc
  .array(fc.oneof(fc.constantFrom(...WORDS), fc.constantFrom(...WORDS), fc.constantFrom(...BREAKS)), {
    minLength: 1,
    maxLength: 50,
  })
  .map((parts) => parts.join(' '));
const note = fc
  .tuple(fc.boolean(), body)
  .map(([front, text]) => (front ? `---\ntitle: cat dog\ntags: [dog]\n---\n${text}` : text));

const term = fc.constantFrom(
  'dog',
  'cat',
  'cafe',
  'naive',
  'the',
  '"dog cat"',
  '"the dog"',
  '"cat dog"',
  '東京',
  'dog-cat',
  '京',
);
const operand: fc.Arbitrary<string> = fc.letrec<{ expr: string }>((tie) => ({
  expr: fc.oneof(
    { weight: 4, arbitrary: term },
    { weight: 1, arbitrary: term.map((t) => `-${t}`) },
    { weight: 2, arbitrary: fc.tuple(tie('expr'), tie('expr')).map(([a, b]) => `(${a} ${b})`) },
    { weight: 2, arbitrary: fc.tuple(tie('expr'), tie('expr')).map(([a, b]) => `(${a} OR ${b})`) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.constantFrom('line', 'block', 'section'), tie('expr'))
        .map(([k, e]) => `${k}:(${e})`),
    },
  ),
})).expr;
const query = fc
  .tuple(fc.constantFrom('line', 'block', 'section'), operand)
  .map(([scope, op]) => `${scope}:(${op})`);

let v: IndexedVault;
let notes: { id: number; path: string }[];

beforeAll(() => {
  const files: Record<string, string> = {};
  fc.sample(note, { numRuns: 80, seed: 26 }).forEach((text, i) => {
    files[`n${String(i).padStart(2, '0')}.md`] = text;
  });
  v = indexedVault(files);
  notes = v.db.prepare<[], { id: number; path: string }>('SELECT id, path FROM notes ORDER BY path').all();
});
afterAll(() => v.close());

function textFacts(p: string): CandidateFacts {
  const regions = new NoteRegions(fs.readFileSync(path.join(v.dir, p), 'utf8'));
  return { path: p, title: p, tags: () => [], tasks: () => [], properties: () => [], regions: () => regions };
}

/** The facts of the index's answer; `reads` counts the notes it read anyway. */
function indexFacts(
  row: { id: number; path: string },
  scopes: IndexedScopes,
  reads?: { n: number },
): CandidateFacts {
  const text = textFacts(row.path);
  return {
    ...text,
    regions: () => {
      if (!reads) throw new Error(`read ${row.path}`);
      reads.n++;
      return text.regions();
    },
    indexed: () => scopes.note(row.id),
  };
}

function answer(node: QueryNode, facts: CandidateFacts): { hit: boolean; found: Found } {
  const found: Found = { where: new Set(), lines: [] };
  return { hit: matchesNote(node, facts, found), found };
}

describe('scopes answered from word positions', () => {
  it('every note keeps a layout that counts what FTS5 counted', () => {
    const kept = v.db.prepare('SELECT count(*) AS n FROM note_layout').get() as { n: number };
    expect(kept.n).toBe(notes.length);
  });

  it('give what reading the note gives: the same hits, on the same lines, reading no note', () => {
    const seen = { yes: 0, no: 0 };
    const nested = { reads: { n: 0 }, checks: 0 };
    for (const q of fc.sample(query, { numRuns: 300, seed: 5 })) {
      const node = parseSearchQuery(q);
      const scopes = IndexedScopes.read(
        v.db,
        node,
        notes.map((n) => n.id),
      );
      // A block across two sections (a paragraph ending in a setext heading) is left to the text when
      // a scope nests in a section; nothing else reads a note.
      const mayRead = /^section:.*(line|block):/.test(q);
      for (const row of notes) {
        const byText = answer(node, textFacts(row.path));
        const byIndex = answer(node, indexFacts(row, scopes, mayRead ? nested.reads : undefined));
        expect({ q, note: row.path, ...byIndex }).toEqual({ q, note: row.path, ...byText });
        seen[byText.hit ? 'yes' : 'no']++;
        if (mayRead) nested.checks++;
      }
    }
    expect(seen.yes).toBeGreaterThan(2000);
    expect(seen.no).toBeGreaterThan(2000);
    expect(nested.checks).toBeGreaterThan(1000);
    expect(nested.reads.n).toBeLessThan(nested.checks / 10);
  });

  it('leave to the text what the index cannot answer: match-case and regexes', () => {
    for (const q of ['line:(match-case:DOG)', 'block:(/d.g/)', 'section:(line:(dog /c.t/))']) {
      const node = parseSearchQuery(q);
      const scopes = IndexedScopes.read(
        v.db,
        node,
        notes.map((n) => n.id),
      );
      expect(() => matchesNote(node, indexFacts(notes[0]!, scopes)), q).toThrow(/^read /);
    }
  });

  it('refuses, reading nothing, a search whose positions are past the bound, naming its common words', () => {
    const node = parseSearchQuery('line:(dog cat)');
    const ids = notes.map((n) => n.id);
    const refused = (() => {
      try {
        IndexedScopes.read(v.db, node, ids, { positions: 10 });
        return null;
      } catch (e) {
        return e as NotedError;
      }
    })();
    expect(refused).toBeInstanceOf(NotedError);
    expect(refused?.code).toBe('too_large');
    expect(refused?.message).toMatch(/"dog" \(\d+\)/);
    expect(refused?.message).toContain('the limit is 10');
    expect(() => IndexedScopes.read(v.db, node, ids)).not.toThrow();
  });

  it('refuses exclusions and nested scopes that would go through too many parts, whatever their words', () => {
    const ids = notes.map((n) => n.id);
    const bytes = (v.db.prepare('SELECT sum(length(data)) AS n FROM note_layout').get() as { n: number }).n;
    // Words found nowhere: no position to read, yet each `-` goes through every line of every note.
    const excluded = Array.from({ length: 40 }, (_, i) => `-zz${i}`).join(' ');
    const node = parseSearchQuery(`line:(${excluded})`);
    const refusal = (limit: number) => {
      try {
        IndexedScopes.read(v.db, node, ids, { parts: limit });
        return null;
      } catch (e) {
        return e as NotedError;
      }
    };
    const refused = refusal(bytes * 40 - 1);
    expect(refused?.code).toBe('too_large');
    expect(refused?.message).toContain(`${notes.length} notes`);
    expect(refusal(bytes * 40)).toBeNull();
    // A nested scope goes through its parts too; plain words and phrases add nothing.
    const nested = parseSearchQuery('section:(line:(dog cat) "the dog")');
    expect(() => IndexedScopes.read(v.db, nested, ids, { parts: bytes - 1 })).toThrow(/nested scopes/);
    expect(() => IndexedScopes.read(v.db, nested, ids, { parts: bytes })).not.toThrow();
  });

  it('keeps no layout for a note whose words FTS5 counted otherwise: its scopes are read from its text', () => {
    const name = 'odd.md';
    const text = 'dog cat\n\ncat\n';
    fs.writeFileSync(path.join(v.dir, name), text);
    const derived = deriveNote(name, text, markdownFormat);
    const writer = new IndexWriter(v.db);
    const st = fs.statSync(path.join(v.dir, name));
    writer.write(() => {
      writer.putNote(fileEntryOf(name, st, name), 'etag-odd', {
        ...derived,
        layout: { ...derived.layout!, words: derived.layout!.words + 1 },
      });
    });
    const id = (v.db.prepare('SELECT id FROM notes WHERE path = ?').get(name) as { id: number }).id;
    expect(v.db.prepare('SELECT count(*) AS n FROM note_layout WHERE note_id = ?').get(id)).toEqual({ n: 0 });
    const node = parseSearchQuery('line:(dog cat)');
    const scopes = IndexedScopes.read(v.db, node, [id]);
    expect(scopes.has(id)).toBe(false);
    const facts = { ...textFacts(name), indexed: () => scopes.note(id) };
    expect(answer(node, facts).found.lines).toEqual([{ scope: 'line', from: 1, to: 1 }]);
    // Written again as it is, the note keeps its layout.
    writer.write(() => writer.putNote(fileEntryOf(name, st, name), 'etag-odd2', derived));
    expect(v.db.prepare('SELECT count(*) AS n FROM note_layout WHERE note_id = ?').get(id)).toEqual({ n: 1 });
    v.remove(name);
    expect(v.db.prepare('SELECT count(*) AS n FROM note_layout WHERE note_id = ?').get(id)).toEqual({ n: 0 });
  });
});
