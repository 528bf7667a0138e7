import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestVault, type Structured, type TestVault } from '../helpers/vault.js';

/**
 * SPEC 3.3, issue 18: every list that can grow pages with cursor/nextCursor and says total or more,
 * so a cut list is never mistaken for a whole one. For each paged tool: the pages put together are
 * the whole list; the text says how to read on exactly when more follow; a page boundary holds
 * while the vault changes; a cursor that is not one of this list's is a validation_error.
 */

/** A text value longer than a cursor keeps (100 characters), to page across cut sort keys. */
const LONG = 'x'.repeat(150);

function files(): Record<string, string> {
  const out: Record<string, string> = { 'hub.md': '# Hub\n' };
  for (let i = 0; i < 12; i++) {
    const n = String(i).padStart(2, '0');
    // Sort values that agree on their first 150 characters and differ after, in the reverse of
    // the path order, so a cursor cutting them cannot fall back on the path.
    const status = i < 6 ? `${LONG}${String.fromCharCode(122 - i)}` : `s${i % 3}`;
    const links = Array.from({ length: 1 + (i % 4) }, () => '[[hub]]').join(' ');
    out[`p/f${n}/n${n}.md`] =
      `---\nstatus: ${status}\nrank: ${i % 5}\ntags: [t${i % 4}, k${n}, all]\n---\n# N${n}\n\n${links}\n\n- [ ] task ${n} 📅 2026-05-${String((i % 3) + 1).padStart(2, '0')}\n- [ ] undated ${n}\n`;
  }
  return out;
}

interface Paged {
  readonly tool: string;
  readonly args: Record<string, unknown>;
  /** The field holding the page's items. */
  readonly items: string;
  /** How an item is named in comparisons. */
  readonly key: (item: Structured) => string;
  /** What the text calls the items ("More X follow"). */
  readonly what: string;
}

const LISTS: Paged[] = [
  { tool: 'list_notes', args: {}, items: 'notes', key: (n) => n.name, what: 'notes' },
  {
    tool: 'list_tasks',
    args: { status: 'all' },
    items: 'tasks',
    key: (t) => `${t.note}:${t.line}`,
    what: 'tasks',
  },
  { tool: 'list_tags', args: {}, items: 'tags', key: (t) => `${t.tag}=${t.count}`, what: 'tags' },
  { tool: 'list_by_tag', args: { tag: 'all' }, items: 'notes', key: (n) => n.name, what: 'notes' },
  { tool: 'list_folders', args: {}, items: 'folders', key: (f) => f.path, what: 'folders' },
  {
    tool: 'get_backlinks',
    args: { name: 'hub' },
    items: 'backlinks',
    key: (b) => b.name,
    what: 'linking notes',
  },
  {
    tool: 'query_notes',
    args: { sort: [{ property: 'status', direction: 'desc' }, { property: 'rank' }], columns: ['status'] },
    items: 'rows',
    key: (r) => r.name,
    what: 'rows',
  },
];

/** The numbered notes, by name. */
const NOTES = Array.from({ length: 12 }, (_, i) => {
  const n = String(i).padStart(2, '0');
  return `p/f${n}/n${n}`;
});

let v: TestVault;
beforeAll(async () => {
  // Modification times with ties, as a busy machine writes them (several files within one
  // millisecond): list_notes and list_by_tag sort newest first and then by path, so cursors must
  // hold across equal times.
  const t = Date.now() / 1000 - 100;
  v = await openTestVault(files(), {
    prepare: (dir) => {
      for (const [i, name] of NOTES.entries()) {
        const when = i < 8 ? t : t + 1;
        fs.utimesSync(path.join(dir, `${name}.md`), when, when);
      }
    },
  });
});
afterAll(async () => {
  await v.close();
});

/** Every page of a list, following nextCursor; checks each page's text and fields on the way. */
async function walk(list: Paged, limit: number): Promise<string[]> {
  const seen: string[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < 100; pages++) {
    const r = await v.call(list.tool, { ...list.args, limit, ...(cursor === undefined ? {} : { cursor }) });
    expect(r.isError, JSON.stringify(r.structured)).toBe(false);
    const page = r.structured;
    expect(typeof page.more).toBe('boolean');
    expect(page[list.items].length).toBeLessThanOrEqual(limit);
    seen.push(...page[list.items].map(list.key));
    if (typeof page.total === 'number') expect(seen.length).toBeLessThanOrEqual(page.total);
    const readOn = `More ${list.what} follow: call again with cursor "${page.nextCursor}".`;
    if (!page.more) {
      expect(page.nextCursor).toBeUndefined();
      expect(r.text).not.toContain('call again with cursor');
      if (typeof page.total === 'number') expect(seen.length).toBe(page.total);
      return seen;
    }
    expect(page[list.items]).toHaveLength(limit);
    expect(r.text.endsWith(readOn)).toBe(true);
    cursor = page.nextCursor;
  }
  throw new Error(`${list.tool} did not end`);
}

describe('paged lists (SPEC 3.3)', () => {
  for (const list of LISTS) {
    it(`${list.tool}: the pages put together are the whole list, for page sizes 1, 2, 5`, async () => {
      const whole = await v.call(list.tool, { ...list.args, limit: 500 });
      expect(whole.structured.more).toBe(false);
      const all = whole.structured[list.items].map(list.key);
      expect(all.length).toBeGreaterThan(5);
      for (const limit of [1, 2, 5]) expect(await walk(list, limit)).toEqual(all);
    });

    it(`${list.tool}: a cursor it did not give out is a validation_error naming the cursor`, async () => {
      const other = LISTS.find((l) => l.tool !== list.tool) as Paged;
      const foreign = (await v.call(other.tool, { ...other.args, limit: 1 })).structured.nextCursor;
      for (const cursor of ['not-a-cursor', foreign, Buffer.from('{}').toString('base64url')]) {
        const r = await v.call(list.tool, { ...list.args, cursor });
        expect(r.structured.code, `${cursor}`).toBe('validation_error');
        expect(r.structured.message).toMatch(/cursor/);
      }
    });
  }
});

describe('a page boundary holds while the vault changes (keyset cursors)', () => {
  /**
   * Reads a first page, lets `change` alter the vault, then reads on. What follows must be exactly
   * the items of the new whole list that sort after the first page's last item: nothing given twice,
   * nothing that stayed skipped.
   */
  async function across(
    list: Paged,
    change: (firstKeys: readonly string[]) => Promise<void>,
    limit = 4,
  ): Promise<void> {
    const first = await v.call(list.tool, { ...list.args, limit });
    const firstKeys = first.structured[list.items].map(list.key);
    const boundary = firstKeys[firstKeys.length - 1];
    await change(firstKeys);
    const rest: string[] = [];
    let cursor: string | undefined = first.structured.nextCursor;
    while (cursor !== undefined) {
      const page = await v.call(list.tool, { ...list.args, limit, cursor });
      expect(page.isError, JSON.stringify(page.structured)).toBe(false);
      rest.push(...page.structured[list.items].map(list.key));
      cursor = page.structured.nextCursor;
    }
    const now = (await v.call(list.tool, { ...list.args, limit: 500 })).structured[list.items].map(list.key);
    const at = now.indexOf(boundary);
    // The boundary item itself may have gone; then everything the old order put after it still follows.
    const expected = at === -1 ? now.filter((k: string) => !firstKeys.includes(k)) : now.slice(at + 1);
    expect(rest).toEqual(expected);
    for (const k of rest) expect(firstKeys).not.toContain(k);
  }

  it('list_tasks: tasks added before the boundary and removed after it', async () => {
    const list = LISTS[1] as Paged;
    await across(list, async () => {
      await v.call('create_note', { name: 'early', content: '- [ ] first of all 📅 2026-01-01\n' });
      await v.call('delete_note', { name: 'p/f11/n11' });
    });
  });

  it('list_by_tag and list_notes: a note rewritten (newest now) and one created', async () => {
    for (const list of [LISTS[3] as Paged, LISTS[0] as Paged]) {
      await across(list, async (firstKeys) => {
        // A note from past the boundary: rewritten, it sorts before it. Which notes the first page
        // holds depends on the files' modification times (a busy machine writes several within one
        // millisecond, and ties go by path), so the note is picked off the page, not named.
        const name = NOTES.find((n) => !firstKeys.includes(`${n}.md`)) as string;
        const r = await v.call('read_note', { name });
        await v.call('update_note', {
          name,
          content: `${r.structured.frontmatterRaw}${r.structured.body}\nmore\n`,
        });
        await v.call('create_note', { name: `fresh-${list.tool}`, content: '#all new\n' });
      });
    }
  });

  it('list_notes: the boundary note itself rewritten, so it sorts first now', async () => {
    const list = LISTS[0] as Paged;
    const old = (await v.call(list.tool, { ...list.args, limit: 500 })).structured[list.items].map(list.key);
    const first = await v.call(list.tool, { ...list.args, limit: 4 });
    const boundary = first.structured[list.items].map(list.key)[3] as string;
    const r = await v.call('read_note', { name: boundary });
    await v.call('update_note', {
      name: boundary,
      content: `${r.structured.frontmatterRaw}${r.structured.body}\nagain\n`,
    });
    const rest: string[] = [];
    let cursor: string | undefined = first.structured.nextCursor;
    while (cursor !== undefined) {
      const page = await v.call(list.tool, { ...list.args, limit: 4, cursor });
      rest.push(...page.structured[list.items].map(list.key));
      cursor = page.structured.nextCursor;
    }
    // The cursor holds the boundary's old place: what followed it then follows now, and the
    // boundary, now first, is not given again.
    expect(rest).toEqual(old.slice(4));
  });

  it('list_tags, list_folders, get_backlinks, query_notes: items added and removed around the boundary', async () => {
    let round = 0;
    for (const list of [LISTS[2], LISTS[4], LISTS[5], LISTS[6]] as Paged[]) {
      round++;
      await across(list, async () => {
        await v.call('create_folder', { folder: `a-new-${round}` });
        await v.call('create_note', {
          name: `a-new-${round}/note`,
          content: `---\nstatus: ${LONG}zz\n---\n#all #t${round} [[hub]] [[hub]] [[hub]] [[hub]] [[hub]]\n`,
        });
        await v.call('delete_note', { name: `p/f0${round}/n0${round}` });
      });
    }
  });

  it('query_notes sorted by text too long for a cursor: after a change, no row is skipped', async () => {
    const long = 'y'.repeat(700);
    const more: Record<string, string> = {};
    for (let i = 0; i < 6; i++)
      more[`long/l${i}.md`] = `---\nessay: ${long}${String.fromCharCode(102 - i)}\n---\n`;
    const w = await openTestVault(more);
    try {
      const args = { folder: 'long', sort: [{ property: 'essay' }] };
      const first = await w.call('query_notes', { ...args, limit: 2 });
      const firstNames = first.structured.rows.map((r: Structured) => r.name);
      expect(firstNames).toEqual(['long/l5.md', 'long/l4.md']);
      // Unchanged, the next page is exact.
      const exact = await w.call('query_notes', { ...args, limit: 2, cursor: first.structured.nextCursor });
      expect(exact.structured.rows.map((r: Structured) => r.name)).toEqual(['long/l3.md', 'long/l2.md']);
      await w.call('delete_note', { name: 'long/l5' });
      const rest: string[] = [];
      let cursor: string | undefined = first.structured.nextCursor;
      while (cursor !== undefined) {
        const page = await w.call('query_notes', { ...args, limit: 2, cursor });
        rest.push(...page.structured.rows.map((r: Structured) => r.name));
        cursor = page.structured.nextCursor;
      }
      for (const name of ['long/l3.md', 'long/l2.md', 'long/l1.md', 'long/l0.md'])
        expect(rest).toContain(name);
      expect(rest).not.toContain('long/l5.md');
    } finally {
      await w.close();
    }
  });
});
