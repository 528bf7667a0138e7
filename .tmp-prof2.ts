import Database from 'better-sqlite3';
import { createWork } from './src/common/work.js';
import { parseSearchQuery } from './src/index/search/parse/query.js';
import { compileSearch } from './src/index/search/plan/compile.js';
import { searchSql } from './src/index/search/plan/sql.js';
import { runSearch } from './src/index/search/run/run.js';
import { forgetKeptRows } from './src/index/search/run/top-rows.js';
import { storedVisibility } from './src/index/store/visibility.js';
const db = new Database('/work/vaults/100k/.noted/index.sqlite', { readonly: true });
db.pragma('cache_size = -32000');
const key = storedVisibility(db)!;
for (const q of ['project meeting', 'budget morning', 'notes review plan', 'design research client', 'meeting OR thougeshe', 'weekly sync', 'budget']) {
  const node = parseSearchQuery(q);
  const sql = searchSql(compileSearch(node), { limit: 11 });
  const ts: number[] = [];
  for (let i = 0; i < 3; i++) { forgetKeptRows(db); const t = performance.now(); const r = await runSearch(db, node, sql, key, 10, createWork()); ts.push(performance.now() - t); if (!r) throw new Error('null'); }
  console.log(q, ts.map((t) => t.toFixed(0)).join(' '));
}
