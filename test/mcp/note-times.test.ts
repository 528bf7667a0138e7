/**
 * SPEC 17.4 through a real client: list_notes and search_notes give each note's word count and
 * created time (frontmatter `created` when a date, else the file's birth time), and list_notes,
 * search_notes and export_notes keep a time range (modified_after/_before, created_after/_before).
 * Hidden notes are never counted, bad dates are refused naming the argument, and a cursor stays with
 * the filters it was given with.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CallResult, openTestVault, type TestVault } from '../helpers/vault.js';

const DAY = 24 * 3600 * 1000;
const JAN_10 = Date.UTC(2026, 0, 10, 12);

/** name → [text, modified ms] */
const NOTES: Record<string, [string, number]> = {
  'old.md': ['---\ncreated: 2020-05-01\n---\nalpha beta gamma\n', JAN_10 - 30 * DAY],
  'jan.md': ['alpha words here, four\n', JAN_10],
  'later.md': ['---\ncreated: 2026-01-20T08:00:00Z\n---\nalpha\n', JAN_10 + 20 * DAY],
  'notadate.md': ['---\ncreated: someday\n---\nalpha and omega\n', JAN_10 + 5 * DAY],
  'private/secret.md': ['---\ncreated: 2026-01-11\n---\nalpha secret\n', JAN_10 + 1 * DAY],
};

let vault: TestVault;
beforeAll(async () => {
  const files: Record<string, string> = {
    '.noted/mcp-policy.yaml': 'folders:\n  private: hidden\n',
  };
  for (const [name, [text]] of Object.entries(NOTES)) files[name] = text;
  vault = await openTestVault(files, {
    prepare: (dir) => {
      for (const [name, [, ms]] of Object.entries(NOTES)) {
        fs.utimesSync(path.join(dir, ...name.split('/')), new Date(ms), new Date(ms));
      }
    },
  });
}, 60_000);
afterAll(async () => {
  await vault.close();
});

const names = (r: CallResult, key = 'notes') => (r.structured[key] as { name: string }[]).map((n) => n.name);

describe('words and created on list_notes and search_notes (SPEC 17.4)', () => {
  it('list_notes gives the word count and created: the frontmatter date, else the birth time', async () => {
    const r = await vault.call('list_notes');
    expect(r.isError, r.text).toBe(false);
    const byName = new Map(r.structured.notes.map((n: { name: string }) => [n.name, n]));
    expect(byName.get('old.md')).toMatchObject({ words: 3, created: '2020-05-01T00:00:00.000Z' });
    expect(byName.get('later.md')).toMatchObject({ words: 1, created: '2026-01-20T08:00:00.000Z' });
    expect(byName.get('jan.md')).toMatchObject({ words: 4 });
    // No date in frontmatter: the file's birth time, which is an ISO time like any other.
    for (const name of ['jan.md', 'notadate.md']) {
      const created = (byName.get(name) as { created: string }).created;
      expect(Number.isNaN(Date.parse(created)), created).toBe(false);
      expect(created).not.toBe('2020-05-01T00:00:00.000Z');
    }
    expect(byName.has('private/secret.md')).toBe(false);
  });

  it('search_notes hits carry words and created too', async () => {
    const r = await vault.call('search_notes', { query: 'alpha', max_results: 50 });
    expect(r.isError, r.text).toBe(false);
    const old = r.structured.results.find((h: { name: string }) => h.name === 'old.md');
    expect(old).toMatchObject({ words: 3, created: '2020-05-01T00:00:00.000Z' });
    expect(names(r, 'results')).not.toContain('private/secret.md');
  });
});

describe('time filters (SPEC 17.4)', () => {
  it('list_notes keeps notes modified in [after, before): a date is its first instant', async () => {
    const r = await vault.call('list_notes', { modified_after: '2026-01-10', modified_before: '2026-01-31' });
    expect(r.isError, r.text).toBe(false);
    // jan (Jan 10 12:00) and notadate (Jan 15); later is Jan 30 12:00 — inside too.
    expect(names(r)).toEqual(['later.md', 'notadate.md', 'jan.md']);
    const exact = await vault.call('list_notes', { modified_before: new Date(JAN_10).toISOString() });
    expect(names(exact)).toEqual(['old.md']);
    const from = await vault.call('list_notes', { modified_after: new Date(JAN_10).toISOString() });
    expect(names(from)).toEqual(['later.md', 'notadate.md', 'jan.md']);
  });

  it('created filters read the frontmatter date; a hidden note in range is never listed nor counted', async () => {
    const r = await vault.call('list_notes', { created_after: '2026-01-01', created_before: '2026-02-01' });
    expect(names(r)).toContain('later.md');
    expect(names(r)).not.toContain('old.md');
    expect(names(r)).not.toContain('private/secret.md');
    const before = await vault.call('list_notes', { created_before: '2021-01-01' });
    expect(names(before)).toEqual(['old.md']);
    const search = await vault.call('search_notes', {
      query: 'alpha',
      created_after: '2026-01-11',
      created_before: '2026-01-12',
    });
    expect(search.isError, search.text).toBe(false);
    expect(search.structured.total).toBe(0);
    expect(search.structured.results).toEqual([]);
  });

  it('search_notes filters before paging; its cursor keeps the filters and refuses other ones', async () => {
    const first = await vault.call('search_notes', {
      query: 'alpha',
      max_results: 1,
      modified_after: '2026-01-01',
    });
    expect(first.isError, first.text).toBe(false);
    expect(first.structured.total).toBe(3);
    const seen = [...names(first, 'results')];
    let cursor = first.structured.nextCursor as string | undefined;
    while (cursor !== undefined) {
      const next = await vault.call('search_notes', {
        query: 'alpha',
        max_results: 1,
        modified_after: '2026-01-01',
        cursor,
      });
      seen.push(...names(next, 'results'));
      cursor = next.structured.nextCursor;
    }
    expect(seen.sort()).toEqual(['jan.md', 'later.md', 'notadate.md']);
    const other = await vault.call('search_notes', {
      query: 'alpha',
      max_results: 1,
      modified_after: '2025-01-01',
      cursor: first.structured.nextCursor,
    });
    expect(other.isError).toBe(true);
    expect(other.structured.code).toBe('validation_error');
    expect(other.structured.message).toContain('time filters');
  });

  it('search_notes without words lists the range newest first', async () => {
    const r = await vault.call('search_notes', { query: '[created]', modified_before: '2026-01-01' });
    expect(r.isError, r.text).toBe(false);
    expect(names(r, 'results')).toEqual(['old.md']);
  });

  it('export_notes exports the range, and its cursor keeps it', async () => {
    const r = await vault.call('export_notes', { format: 'json', modified_after: '2026-01-10' });
    expect(r.isError, r.text).toBe(false);
    expect(names(r)).toEqual(['jan.md', 'later.md', 'notadate.md']);
    expect(r.structured.total).toBe(3);
    const none = await vault.call('export_notes', { format: 'json', created_before: '2000-01-01' });
    expect(none.structured.total).toBe(0);
  });

  it('a bad date is refused naming the argument and the forms accepted', async () => {
    for (const [tool, extra] of [
      ['list_notes', {}],
      ['search_notes', { query: 'alpha' }],
      ['export_notes', { format: 'json' }],
    ] as const) {
      for (const bad of ['2026-02-30', 'yesterday', '31/01/2026', '2026-1-5', '']) {
        const r = await vault.call(tool, { ...extra, created_after: bad });
        expect(r.isError, `${tool} ${bad}`).toBe(true);
        expect(r.structured.code).toBe('validation_error');
        expect(r.structured.message).toContain('created_after');
        expect(r.structured.message).toContain('2026-01-31');
      }
    }
    const both = await vault.call('list_notes', { modified_after: 'x', created_before: 'y' });
    expect(both.structured.message).toContain('modified_after');
    expect(both.structured.message).toContain('created_before');
  });

  it('an after not before its before is refused', async () => {
    for (const tool of ['list_notes', 'search_notes', 'export_notes']) {
      const args =
        tool === 'search_notes' ? { query: 'alpha' } : tool === 'export_notes' ? { format: 'json' } : {};
      const r = await vault.call(tool, {
        ...args,
        modified_after: '2026-02-01',
        modified_before: '2026-01-01',
      });
      expect(r.isError, tool).toBe(true);
      expect(r.structured.code).toBe('validation_error');
      expect(r.structured.message).toContain('modified_after');
    }
  });

  it('times with offsets compare as instants', async () => {
    // later.md was created 2026-01-20T08:00Z = 09:00+01:00.
    const at = await vault.call('list_notes', {
      created_after: '2026-01-20T09:00+01:00',
      created_before: '2026-01-20T09:00:01+01:00',
    });
    expect(names(at)).toEqual(['later.md']);
  });
});
