/**
 * @module bench/lib/calibrate
 * How fast this machine is right now, measured the way issue 2 states its reference: a bare SQLite
 * FTS5 table (title, tags, body; unicode61) built in one transaction, in this process, from 10,000
 * of the vault's notes ("about 3,900 notes/s on this machine"). The same machine has measured far
 * apart from one hour to the next, so each run prints this next to its own figures; the server's
 * cold build is read against it. A stat of every note is timed too: the warm start is mostly that.
 */

import { readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { noteFiles } from './note-files.mjs';

const require = createRequire(import.meta.url);
const Database = require('better-sqlite3');

const SAMPLE = 10_000;

/**
 * @returns {{ ftsNotes: number, ftsNotesPerSec: number, ftsQueryMedianMs: number,
 *   statFiles: number, statMicros: number }}
 */
export function calibrate(dir, queries) {
  const files = noteFiles(dir);
  const sample = files.slice(0, SAMPLE).map((rel) => ({
    title: rel.slice(rel.lastIndexOf('/') + 1, -3),
    text: readFileSync(join(dir, rel), 'utf8'),
  }));
  const db = new Database(':memory:');
  try {
    db.exec("CREATE VIRTUAL TABLE f USING fts5(title, tags, body, tokenize='unicode61 remove_diacritics 2')");
    const insert = db.prepare('INSERT INTO f(title, tags, body) VALUES (?, ?, ?)');
    const tagLine = /^tags:\s*\[([^\]]*)\]/m;
    const started = performance.now();
    db.transaction(() => {
      for (const note of sample) insert.run(note.title, note.text.match(tagLine)?.[1] ?? '', note.text);
    })();
    const buildMs = performance.now() - started;
    const search = db.prepare('SELECT rowid FROM f WHERE f MATCH ? ORDER BY bm25(f, 3.0, 2.0, 1.0) LIMIT 10');
    const times = [];
    for (let round = 0; round < 5; round++) {
      for (const q of queries) {
        const t = performance.now();
        search.all(q);
        times.push(performance.now() - t);
      }
    }
    times.sort((a, b) => a - b);
    const statStarted = performance.now();
    for (const rel of files) statSync(join(dir, rel));
    const statMs = performance.now() - statStarted;
    return {
      ftsNotes: sample.length,
      ftsNotesPerSec: Math.round(sample.length / (buildMs / 1000)),
      ftsQueryMedianMs: Math.round((times[Math.floor(times.length / 2)] ?? 0) * 100) / 100,
      statFiles: files.length,
      statMicros: Math.round(((statMs * 1000) / Math.max(1, files.length)) * 10) / 10,
    };
  } finally {
    db.close();
  }
}
