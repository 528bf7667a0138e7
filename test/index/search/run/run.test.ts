/**
 * runSearch: a page is the same whatever order the notes were indexed in (ties go newest first, then
 * by path, even past what the fast statement looks at), and it is never read from an index that
 * follows other visibility rules than the request's.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { NotedError } from '../../../../src/common/errors.js';
import { createWork, isCancelled, type Work } from '../../../../src/common/work.js';
import type { CandidateFacts } from '../../../../src/index/search/check/check.js';
import { parseSearchQuery } from '../../../../src/index/search/parse/query.js';
import { compileSearch } from '../../../../src/index/search/plan/compile.js';
import type { SearchPosition } from '../../../../src/index/search/plan/sql.js';
import { candidateSql, searchSql } from '../../../../src/index/search/plan/sql.js';
import {
  type CandidateRow,
  checkCandidates,
  runCandidates,
  runSearch,
} from '../../../../src/index/search/run/run.js';
import { EVERYTHING_VISIBLE, setStoredVisibility } from '../../../../src/index/store/visibility.js';
import { syncPaths } from '../../../../src/index/sync/sync-paths.js';
import { NoteRegions } from '../../../../src/index/words/regions.js';
import { type IndexedVault, indexedVault } from '../../indexed-vault.js';

let vaults: IndexedVault[] = [];
afterEach(() => {
  for (const v of vaults) v.close();
  vaults = [];
});

function search(v: IndexedVault, query: string, limit: number, key = 'all') {
  const node = parseSearchQuery(query);
  return runSearch(v.db, node, searchSql(compileSearch(node), { limit }), key);
}

/** 60 notes with the same text (so the same score), and times that have nothing to do with their names. */
function tiedVault(): IndexedVault {
  const files: Record<string, string> = {};
  for (let i = 0; i < 60; i++) files[`n${String(i).padStart(2, '0')}.md`] = 'same words here\n';
  const v = indexedVault(files);
  vaults.push(v);
  for (let i = 0; i < 60; i++) {
    const name = `n${String(i).padStart(2, '0')}.md`;
    const t = new Date(1_700_000_000_000 + ((i * 37) % 60) * 60_000);
    fs.utimesSync(path.join(v.dir, name), t, t);
    v.write(name, 'same words here\n');
  }
  return v;
}

describe('runSearch', () => {
  it('pages a run of equal scores newest first even where it goes on past what the fast statement looks at', async () => {
    const v = tiedVault();
    const all = (await search(v, 'words', 50))!;
    const expected = [...all.rows].sort((a, b) => b.mtime_ms - a.mtime_ms || (a.path < b.path ? -1 : 1));
    expect(all.rows.map((r) => r.path)).toEqual(expected.map((r) => r.path));
    for (const limit of [1, 3, 7, 20]) {
      const page = (await search(v, 'words', limit))!;
      expect(
        page.rows.map((r) => r.path),
        `limit ${limit}`,
      ).toEqual(all.rows.slice(0, limit).map((r) => r.path));
      expect(page.total).toBe(60);
    }
  });

  it('reads nothing from an index that follows other visibility rules, so the caller can bring it in line', async () => {
    const v = indexedVault({ 'a.md': 'words' });
    vaults.push(v);
    expect((await search(v, 'words', 5))?.total).toBe(1);
    expect(await search(v, 'words', 5, 'other rules')).toBeNull();
    setStoredVisibility(v.db, '');
    expect(await search(v, 'words', 5)).toBeNull();
  });
});

describe("runSearch stepped through (issue 36.4): the ordered statement's pages, with safe points", () => {
  /** 700 notes: scores spread and tied, times tied and unrelated to names, two folders. */
  function spreadVault(): IndexedVault {
    const files: Record<string, string> = {};
    const names: string[] = [];
    for (let i = 0; i < 700; i++) {
      const name = `${i % 3 === 0 ? 'a' : 'b'}/n${String(i).padStart(3, '0')}.md`;
      names.push(name);
      files[name] =
        `${'alpha '.repeat((i % 7) + 1)}${'filler words '.repeat(i % 5)}${i % 4 === 0 ? 'beta' : ''}\n`;
    }
    const v = indexedVault(files);
    vaults.push(v);
    // Some notes get the same text and one of three times that have nothing to do with their names
    // (the rest were written in order): ties of score, then of time, ordered by path.
    const tied = names.filter((_, i) => i % 17 === 0);
    tied.forEach((name, i) => {
      const t = new Date(1_700_000_000_000 + ((i * 37) % 3) * 60_000);
      fs.writeFileSync(path.join(v.dir, name), 'alpha alpha filler words\n');
      fs.utimesSync(path.join(v.dir, name), t, t);
    });
    syncPaths(v.db, v.dir, tied, { visibility: EVERYTHING_VISIBLE });
    return v;
  }

  /** Every page of a search, following the last row of each as the next one's start. */
  async function allPages(v: IndexedVault, query: string, opts: { folderLower?: string }, stepFrom: number) {
    const node = parseSearchQuery(query);
    const compiled = compileSearch(node);
    const pages: unknown[] = [];
    let after: SearchPosition | undefined;
    for (;;) {
      const sql = searchSql(compiled, { ...opts, limit: 41, ...(after ? { after } : {}) });
      const page = (await runSearch(v.db, node, sql, 'all', 40, undefined, stepFrom))!;
      pages.push(page);
      const last = page.rows[page.rows.length - 1];
      if (!page.more || last === undefined) return pages;
      after = { s: last.score, m: last.mtime_ms, p: last.path };
    }
  }

  it('gives the same pages, scores, totals and page starts as the one statement', async () => {
    const v = spreadVault();
    for (const [query, opts] of [
      ['alpha', {}],
      ['alpha -beta', {}],
      ['alpha OR beta', {}],
      ['alpha', { folderLower: 'a' }],
    ] as const) {
      const one = await allPages(v, query, opts, Number.POSITIVE_INFINITY);
      const stepped = await allPages(v, query, opts, 0);
      expect(one.length, query).toBeGreaterThan(3);
      expect(stepped, `${query} ${JSON.stringify(opts)}`).toEqual(one);
    }
  });

  it('stops at a safe point part way when cancelled, and says so', async () => {
    const v = spreadVault();
    const node = parseSearchQuery('alpha');
    const controller = new AbortController();
    const inner = createWork({ signal: controller.signal });
    let safePoints = 0;
    const work: Work = {
      report: () => undefined,
      get cancelled() {
        return inner.cancelled;
      },
      checkpoint: () => {
        safePoints++;
        controller.abort('stopped by the test');
        return inner.checkpoint();
      },
    };
    const sql = searchSql(compileSearch(node), { limit: 11 });
    const err = await runSearch(v.db, node, sql, 'all', 10, work, 0).then(
      () => null,
      (e: unknown) => e,
    );
    expect(isCancelled(err), String(err)).toBe(true);
    // 700 matches, a safe point every 256: it stopped at the first, not after stepping through them all.
    expect(safePoints).toBe(1);
    // Not cancelled, the same search answers: the reader it stopped on was let go.
    expect((await runSearch(v.db, node, sql, 'all', 10, undefined, 0))?.total).toBe(700);
  });
});

describe('checkCandidates: what code checks, bounded and in slices (issue 26)', () => {
  function candidates(v: IndexedVault, query: string) {
    const node = parseSearchQuery(query);
    const compiled = compileSearch(node);
    if (!compiled.check) throw new Error(`${query} needs no check`);
    const rows = runCandidates(v.db, node, candidateSql(compiled, {}), 'all', () => null)!.rows;
    return { rows, check: compiled.check };
  }

  function facts(v: IndexedVault) {
    return (row: CandidateRow): CandidateFacts => ({
      path: row.path,
      title: row.title,
      tags: () => [],
      tasks: () => [],
      properties: () => [],
      regions: () => new NoteRegions(fs.readFileSync(path.join(v.dir, row.path), 'utf8')),
    });
  }

  it('refuses before reading anything when the notes to read are past the bound, naming how much', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 20; i++) files[`n${i}.md`] = `alpha beta\n${'filler '.repeat(1000)}\n`;
    const v = indexedVault(files);
    vaults.push(v);
    const { rows, check } = candidates(v, 'line:(alpha beta)');
    expect(rows).toHaveLength(20);
    let read = 0;
    const counting = (row: CandidateRow) => {
      read++;
      return facts(v)(row);
    };
    const bytes = rows.reduce((n, r) => n + r.size, 0);
    const refused = await checkCandidates(rows, check, counting, {
      limit: 10,
      keep: () => true,
      maxWork: bytes * 2 - 1,
    }).catch((e: unknown) => e as NotedError);
    expect(refused).toBeInstanceOf(NotedError);
    expect((refused as NotedError).code).toBe('too_large');
    expect((refused as NotedError).message).toContain('read and check 20 notes');
    expect(read).toBe(0);
    // Notes the request may not see are never counted: without them it fits.
    const page = await checkCandidates(rows, check, counting, {
      limit: 10,
      keep: (r) => r.path < 'n2',
      maxWork: bytes * 2 - 1,
    });
    expect(page.total).toBe(rows.filter((r) => r.path < 'n2').length);
  });

  it('lets other work run while it checks many notes', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 60; i++) files[`n${i}.md`] = `alpha beta\n`;
    const v = indexedVault(files);
    vaults.push(v);
    const { rows, check } = candidates(v, 'line:(alpha beta)');
    let ranBetween = false;
    let finished = false;
    setImmediate(() => {
      ranBetween = !finished;
    });
    // Each note takes about 2 ms to check: the whole run is far longer than one slice.
    const slow = (row: CandidateRow) => {
      const until = Date.now() + 2;
      while (Date.now() < until);
      return facts(v)(row);
    };
    const page = await checkCandidates(rows, check, slow, { limit: 5, keep: () => true });
    finished = true;
    expect(page.total).toBe(60);
    expect(ranBetween).toBe(true);
  });
});
