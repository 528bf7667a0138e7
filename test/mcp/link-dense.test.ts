/**
 * Issue 35 finding 2 through a real client: a note dense with links no longer holds every reading tool.
 * get_outgoing_links refuses a note with more links than an answer holds before resolving any;
 * get_note_outline and get_backlinks count a note's repeated links without resolving each;
 * export_notes html renders at most MAX_HTML_LINKS links a page, cutting a note that holds more.
 * No timing here: bench/abuse.mjs --parts stalls prints it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_HTML_LINKS } from '../../src/access/export/export.js';
import { MAX_OUTGOING_LINKS } from '../../src/access/links/links.js';
import { AN_ID } from '../helpers/note-ids.js';
import { openTestVault, type TestVault } from '../helpers/vault.js';

const DENSE = 30_000;

let vault: TestVault;
beforeAll(async () => {
  vault = await openTestVault({
    'pub/a-first.md': '# First\n\n[[t]] and [[b-second]]\n',
    'pub/b-second.md': '# Second\n\n[[t]]\n',
    'pub/spam.md': '[[t]] '.repeat(DENSE),
    'pub/t.md': '# t\n',
  });
}, 120_000);
afterAll(async () => {
  await vault.close();
});

describe('a link-dense note (issue 35)', () => {
  it('get_outgoing_links refuses it before resolving, naming the count and what to use instead', async () => {
    expect(DENSE).toBeGreaterThan(MAX_OUTGOING_LINKS);
    const r = await vault.call('get_outgoing_links', { name: 'pub/spam' });
    expect(r.isError).toBe(true);
    expect(r.structured.code).toBe('too_large');
    expect(r.structured.message).toContain(`holds ${DENSE.toLocaleString('en-US')} links`);
    expect(r.structured.message).toContain('get_note_outline');
    const small = await vault.call('get_outgoing_links', { name: 'pub/a-first' });
    expect(small.structured.links.map((l: { target: string }) => l.target)).toEqual([
      'pub/t.md',
      'pub/b-second.md',
    ]);
  });

  it('get_note_outline and get_backlinks count every link', async () => {
    const outline = await vault.call('get_note_outline', { name: 'pub/spam' });
    expect(outline.isError, outline.text).toBe(false);
    expect(outline.structured.links).toEqual({ outgoing: DENSE, backlinks: 0 });
    const back = await vault.call('get_backlinks', { name: 'pub/t' });
    expect(back.structured.backlinks).toEqual([
      { name: 'pub/spam.md', id: AN_ID, count: DENSE },
      { name: 'pub/a-first.md', id: AN_ID, count: 1 },
      { name: 'pub/b-second.md', id: AN_ID, count: 1 },
    ]);
  });

  it('export_notes html stops a page before the dense note, then renders it cut after MAX_HTML_LINKS links', async () => {
    const first = await vault.call('export_notes', { format: 'html', max_bytes: 8 * 1024 * 1024 });
    expect(first.isError, first.text).toBe(false);
    expect(first.structured.notes.map((n: { name: string }) => n.name)).toEqual([
      'pub/a-first.md',
      'pub/b-second.md',
    ]);
    expect(first.structured.nextCursor).toBeDefined();
    const second = await vault.call('export_notes', {
      format: 'html',
      max_bytes: 8 * 1024 * 1024,
      cursor: first.structured.nextCursor,
    });
    expect(second.isError, second.text).toBe(false);
    expect(second.structured.notes.map((n: { name: string }) => n.name)).toEqual(['pub/spam.md']);
    expect(second.structured.truncated).toBe(true);
    expect(second.structured.notes[0].totalChars).toBe(DENSE * 6);
    const rendered = (second.structured.document as string).match(/<a /g)?.length ?? 0;
    expect(rendered).toBeGreaterThan(MAX_HTML_LINKS / 4);
    expect(rendered).toBeLessThanOrEqual(MAX_HTML_LINKS);
    // The rest of the vault follows on the next page.
    const third = await vault.call('export_notes', {
      format: 'html',
      max_bytes: 8 * 1024 * 1024,
      cursor: second.structured.nextCursor,
    });
    expect(third.structured.notes.map((n: { name: string }) => n.name)).toEqual(['pub/t.md']);
  });
});
