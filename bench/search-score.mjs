#!/usr/bin/env node
/**
 * @module bench/search-score
 * What showing Lucene's BM25 costs search_notes (SPEC 17.7): on an index a bench run left (a vault
 * made by bench/run.mjs with --keep), times, interleaved, the ranked page statement of a one-word
 * query as search_notes runs it, and the extra statements the rescale adds (the count of visible
 * notes; the count of the word's notes when the search has not counted them). Prints medians.
 *
 *   node bench/search-score.mjs --vault /tmp/bench10k [--rounds 200] [--words the,project,groprai]
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import { argsOrExit } from './lib/args.mjs';

const opts = argsOrExit(
  { vault: { type: 'string' }, rounds: { type: 'string' }, words: { type: 'string' } },
  'usage: node bench/search-score.mjs --vault DIR [--rounds N] [--words a,b]',
);
if (!opts.vault) {
  console.error('usage: node bench/search-score.mjs --vault DIR [--rounds N] [--words a,b]');
  process.exit(2);
}
const rounds = Number(opts.rounds ?? 200);
const words = (opts.words ?? 'the,project,groprai').split(',');
const db = new Database(path.join(opts.vault, '.noted', 'index.sqlite'), { readonly: true });
const BM25 = 'bm25(notes_fts, 3.0, 2.0, 1.0)';
const page = db.prepare(
  `SELECT n.id, n.path, -f.r AS score FROM (SELECT rowid, ${BM25} AS r FROM notes_fts WHERE notes_fts MATCH ? ORDER BY r LIMIT 40) f JOIN notes n ON n.id = f.rowid ORDER BY f.r, n.mtime_ms DESC, n.path LIMIT 11`,
);
const countMatch = db.prepare('SELECT count(*) AS n FROM notes_fts WHERE notes_fts MATCH ?');
const countVisible = db.prepare('SELECT count(*) AS n FROM notes WHERE visible = 1');

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};
const time = (fn) => {
  const t = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - t) / 1e6;
};

console.log(`rounds ${rounds}, ${countVisible.get().n} visible notes`);
console.log('word       notes  page+count ms  +visible count ms  +word count ms (filtered searches only)');
for (const word of words) {
  const match = `"${word}"`;
  const t = { page: [], visible: [], count: [] };
  for (let i = 0; i < rounds; i++) {
    t.page.push(
      time(() => {
        page.all(match);
        countMatch.get(match);
      }),
    );
    t.visible.push(time(() => countVisible.get()));
    t.count.push(time(() => countMatch.get(match)));
  }
  console.log(
    `${word.padEnd(10)} ${String(countMatch.get(match).n).padStart(5)}  ${median(t.page).toFixed(2).padStart(13)}  ${median(t.visible).toFixed(2).padStart(17)}  ${median(t.count).toFixed(2).padStart(14)}`,
  );
}
db.close();
