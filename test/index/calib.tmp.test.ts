import { it } from 'vitest';
import { openIndexDatabase } from '../../src/index/database.js';
import { syncAll } from '../../src/index/sync.js';
import { EVERYTHING_VISIBLE } from '../../src/index/visibility.js';
import { parseSearchQuery } from '../../src/index/search-query.js';
import { compileSearch, searchSql } from '../../src/index/search-compile.js';
import { searchWork } from '../../src/index/search-work.js';
import fs from 'node:fs';

it('calibrate', () => {
  const exists = fs.existsSync('/tmp/q/idx10k.sqlite');
  const { db } = openIndexDatabase('/tmp/q/idx10k.sqlite');
  if (!exists) syncAll(db, '/tmp/q/v10k', '', undefined, EVERYTHING_VISIBLE);
  const qs = [
    'the',
    'the of',
    'the of and',
    'the of and to a',
    'the of and to a in is it',
    'the OR of',
    'the OR of OR and',
    'the OR of OR and OR to OR a',
    'the OR of OR and OR to OR a OR in OR is OR it OR that OR for OR on OR with',
    'budget the',
    'zebra the of and',
    '"the of"',
    'project budget',
    'the -of',
  ];
  for (const q of qs) {
    const node = parseSearchQuery(q);
    const sql = searchSql(compileSearch(node), { limit: 10 });
    const stmt = db.prepare(sql.sql);
    stmt.all(...sql.params);
    const t = process.cpuUsage();
    const n = 5;
    for (let i = 0; i < n; i++) stmt.all(...sql.params);
    const c = process.cpuUsage(t);
    const ms = (c.user + c.system) / 1000 / n;
    const w = searchWork(db, node);
    console.log(
      JSON.stringify({
        q: q.slice(0, 40),
        ms: Math.round(ms * 10) / 10,
        work: w.work,
        nsPerUnit: Math.round(((ms * 1e6) / w.work) * 10) / 10,
        words: w.words.map((x) => [x.word, x.occurrences]),
      }),
    );
  }
  db.close();
}, 600000);
