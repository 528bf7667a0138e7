/**
 * countWords counts what SQLite's unicode61 tokenizer counts in the text the indexer stores (CJK spaced
 * out), for every code point SQLite can be given: note layouts (note-layout.ts) place FTS5's word
 * positions in lines by these counts. The table of word characters is generated from SQLite
 * (scripts/fts-token-chars.mjs); this fails when an upgraded SQLite reads characters otherwise.
 */
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { FTS_TOKENIZER } from '../../../src/index/db/schema.js';
import { readVarints } from '../../../src/index/store/fts-totals.js';
import { segmentCjk } from '../../../src/index/words/cjk.js';
import { countWords } from '../../../src/index/words/words.js';

const db = new Database(':memory:');
db.exec(
  `CREATE VIRTUAL TABLE f USING fts5(b, content='', contentless_delete=1, tokenize='${FTS_TOKENIZER}')`,
);
afterAll(() => db.close());

/** SQLite's word count of each text, as the indexer stores it. */
function sqliteCounts(texts: readonly string[]): number[] {
  db.exec("INSERT INTO f(f) VALUES('delete-all')");
  const insert = db.prepare('INSERT INTO f(rowid, b) VALUES (?, ?)');
  db.transaction(() => {
    texts.forEach((t, i) => {
      insert.run(i + 1, segmentCjk(t));
    });
  })();
  const out = new Array<number>(texts.length).fill(0);
  for (const row of db.prepare('SELECT id, sz FROM f_docsize').iterate() as Iterable<{
    id: number;
    sz: Buffer;
  }>) {
    out[row.id - 1] = readVarints(row.sz)[0] ?? 0;
  }
  return out;
}

function mismatches(texts: readonly string[]): { text: string; sqlite: number; ours: number }[] {
  const counts = sqliteCounts(texts);
  return texts
    .map((text, i) => ({ text, sqlite: counts[i]!, ours: countWords(text) }))
    .filter((m) => m.sqlite !== m.ours);
}

const SPAN = 16;

describe('countWords', () => {
  it('counts as SQLite does for every code point: alone, inside a word, and next to its neighbours', () => {
    const texts: string[] = [];
    for (let from = 0; from < 0x110000; from += SPAN) {
      const chars: string[] = [];
      for (let c = from; c < from + SPAN; c++)
        if (c < 0xd800 || c > 0xdfff) chars.push(String.fromCodePoint(c));
      if (chars.length === 0) continue;
      texts.push(chars.join(' '), chars.map((ch) => `a${ch}a`).join(' '), chars.join(''));
    }
    const wrong = mismatches(texts);
    expect(
      wrong.slice(0, 5).map((m) => ({ ...m, text: [...m.text].map((c) => c.codePointAt(0)!.toString(16)) })),
    ).toEqual([]);
    // The texts held words and separators both: the comparison was not of zeros.
    const total = texts.reduce((n, t) => n + countWords(t), 0);
    expect(total).toBeGreaterThan(500_000);
  });

  it('counts as SQLite does in any mix of scripts, accents, marks, emoji, lone surrogates and line breaks', () => {
    const pieces = [
      'word',
      'Café',
      'cafe\u0301',
      'naïve',
      'e\u0300\u0301',
      'snake_case',
      'a-b',
      "don't",
      '3.14',
      '東京都',
      'ひらがな',
      'カタカナー',
      '한국어',
      'ㄱ',
      'ไทย',
      'العربية',
      'हिन्दी',
      '😀',
      '👩‍💻',
      '\ud800',
      '\udc00',
      'x\u200dy',
      '\u0301',
      ' ',
      '  ',
      '\n',
      '\r\n',
      '\t',
      '#tag',
      '[[link]]',
      '**bold**',
      '`code`',
      '\u00a0',
      '\ufeff',
      '𝔘𝔫𝔦',
      '𠀀𠀁',
      '\u3005',
      '\uff70',
      '½',
      'Ⅻ',
      '\ue000',
      '\u{f0000}',
    ];
    const text = fc.array(fc.constantFrom(...pieces), { minLength: 0, maxLength: 30 }).map((p) => p.join(''));
    const samples = fc.sample(text, { numRuns: 3000, seed: 42 });
    expect(mismatches(samples).slice(0, 5)).toEqual([]);
    expect(samples.filter((s) => countWords(s) > 5).length).toBeGreaterThan(1000);
  });

  it('counts a slice of a text as that slice alone', () => {
    const text = 'one two\nthree 東京\nfour';
    const lines = text.split('\n');
    let at = 0;
    for (const line of lines) {
      expect(countWords(text, at, at + line.length)).toBe(countWords(line));
      at += line.length + 1;
    }
    expect(countWords(text)).toBe(6);
  });
});
