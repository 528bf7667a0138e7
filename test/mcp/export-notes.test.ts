/**
 * export_notes (SPEC 12.2): the selected notes by name, in json, markdown and html, in pages that
 * never split a note and stay under max_bytes as sent, with count, total and nextCursor.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openTestVault, type Structured, type TestVault } from '../helpers/vault.js';

let vaults: TestVault[] = [];
afterEach(async () => {
  for (const v of vaults) await v.close();
  vaults = [];
});

async function open(files: Record<string, string>): Promise<TestVault> {
  const v = await openTestVault(files);
  vaults.push(v);
  return v;
}

/** Every page of an export; checks each result's size as sent against max_bytes. */
async function allPages(v: TestVault, args: Record<string, unknown>, between?: () => Promise<void>) {
  const pages: Structured[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < 10_000; i++) {
    const raw = await v.client.callTool({
      name: 'export_notes',
      arguments: { ...args, ...(cursor === undefined ? {} : { cursor }) },
    });
    const r = await v.call('export_notes', { ...args, ...(cursor === undefined ? {} : { cursor }) });
    expect(r.isError, r.text).toBe(false);
    const sent = Buffer.byteLength(JSON.stringify(raw), 'utf8');
    expect(sent, 'a page as sent stays under max_bytes').toBeLessThanOrEqual(
      (args.max_bytes as number | undefined) ?? 1024 * 1024,
    );
    pages.push(r.structured);
    cursor = r.structured.nextCursor;
    if (cursor === undefined) break;
    await between?.();
  }
  return pages;
}

describe('export_notes', () => {
  it('json: every selected note once, by name, with frontmatter and body; hidden notes never', async () => {
    const v = await open({
      'b.md': '---\ntags: [x]\n---\nB body\n',
      'a.md': 'A body\n',
      'sub/c.md': 'C',
      'private/p.md': 'secret',
      '.noted/mcp-policy.yaml': 'folders:\n  private: hidden\n',
    });
    const [page] = await allPages(v, { format: 'json' });
    expect(page).toMatchObject({ format: 'json', count: 3, total: 3 });
    expect(page?.nextCursor).toBeUndefined();
    expect(page?.notes.map((n: Structured) => n.name)).toEqual(['a.md', 'b.md', 'sub/c.md']);
    expect(page?.notes[1]).toMatchObject({ frontmatter: { tags: ['x'] }, body: 'B body\n' });
    expect(page?.notes[1].etag).toBe((await v.call('read_note', { name: 'b' })).structured.etag);
    expect(JSON.stringify(page)).not.toContain('secret');
  });

  it('folder, tag (nested included) and query select; total counts the selection', async () => {
    const v = await open({
      'p/a.md': '#work/x alpha',
      'p/b.md': 'beta',
      'q/c.md': '#work gamma alpha',
      'q/d.md': 'delta',
    });
    const names = async (args: Record<string, unknown>) =>
      (await allPages(v, { format: 'json', ...args })).flatMap((p) => p.notes.map((n: Structured) => n.name));
    expect(await names({ folder: 'P' })).toEqual(['p/a.md', 'p/b.md']);
    expect(await names({ tag: '#work' })).toEqual(['p/a.md', 'q/c.md']);
    expect(await names({ query: 'alpha -gamma' })).toEqual(['p/a.md']);
    expect(await names({ folder: 'q', query: 'alpha' })).toEqual(['q/c.md']);
    expect((await v.call('export_notes', { format: 'json', query: '"unclosed' })).structured.code).toBe(
      'validation_error',
    );
  });

  it('selects by the search operators the index answers, and refuses those settled note by note (issue 26)', async () => {
    const v = await open({
      'a.md': '---\nstatus: draft\n---\n- [ ] call Bob\nalpha beta\n',
      'b.md': '---\nstatus: done\n---\n- [x] call Ann\nalpha\nbeta\n',
      'c.md': 'no tasks\n',
    });
    const names = async (query: string) =>
      (await allPages(v, { format: 'json', query })).flatMap((p) => p.notes.map((n: Structured) => n.name));
    expect(await names('[status:draft]')).toEqual(['a.md']);
    expect(await names('task-done:call')).toEqual(['b.md']);
    expect(await names('file:/^[ab]/')).toEqual(['a.md', 'b.md']);
    // line:(alpha beta) would be a.md only; its SQL alone would give both: refused, never widened.
    const refused = await v.call('export_notes', { format: 'json', query: 'line:(alpha beta)' });
    expect(refused.structured.code).toBe('validation_error');
    expect(refused.structured.message).toContain('search_notes');
  });

  it('markdown: one document, each note after its comment line, text exactly as stored', async () => {
    const v = await open({ 'a.md': '---\nx: 1\n---\nA', 'b.md': 'B\n' });
    const [page] = await allPages(v, { format: 'markdown' });
    const etag = (n: string) => page?.notes.find((x: Structured) => x.name === n).etag;
    expect(page?.document).toBe(
      `<!-- note: a.md etag: ${etag('a.md')} -->\n---\nx: 1\n---\nA\n\n<!-- note: b.md etag: ${etag('b.md')} -->\nB\n\n`,
    );
  });

  it('html: one sanitized document; links between notes of the page are in-page anchors', async () => {
    const v = await open({
      'a.md':
        '# A\n\nTo [[b#Part]], [[c]], [[missing]], [md](b.md) <script>alert(1)</script> [x](javascript:alert(1))\n',
      'b.md': '## Part\ntext <img src=x onerror="alert(2)">\n',
      'c.md': 'c\n',
    });
    const [page] = await allPages(v, { format: 'html', query: 'text OR script' });
    const doc: string = page?.document;
    expect(doc.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(doc).not.toMatch(/<script|onerror|href="javascript:/i);
    const anchorOf = (name: string) => new RegExp(`<article id="([^"]+)" data-note="${name}"`).exec(doc)?.[1];
    const b = anchorOf('b.md');
    expect(b).toBeDefined();
    expect(doc).toContain(`href="#${b}--part"`);
    expect(doc).toContain(`<h2 id="${b}--part">Part</h2>`);
    expect(doc).toContain(`href="#${b}"`);
    expect(doc).toContain('href="noted://note/c.md"');
    expect(doc).toContain('<span class="unresolved-link">missing</span>');
  });

  it('pages never split a note, stay under max_bytes, and a note too large alone comes cut with truncated', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 30; i++) files[`n${String(i).padStart(2, '0')}.md`] = `${'x'.repeat(10_000)} ${i}\n`;
    files['big.md'] = `${'é"\n'.repeat(60_000)}end\n`;
    const v = await open(files);
    for (const format of ['json', 'markdown', 'html']) {
      const pages = await allPages(v, { format, max_bytes: 65_536 });
      expect(pages.length).toBeGreaterThan(5);
      const names = pages.flatMap((p) => p.notes.map((n: Structured) => n.name));
      expect(names).toEqual([
        'big.md',
        ...Object.keys(files)
          .filter((n) => n !== 'big.md')
          .sort(),
      ]);
      const big = pages[0];
      expect(big).toMatchObject({ count: 1, truncated: true });
      expect(big?.notes[0].totalChars).toBe(files['big.md']?.length);
      expect(pages.slice(1).every((p) => p.truncated === undefined && p.count >= 1)).toBe(true);
      expect(pages.every((p) => p.total === 31)).toBe(true);
    }
  });

  it('a cursor from another export is refused; max_bytes out of range is refused', async () => {
    const v = await open({ 'a.md': 'a'.repeat(40_000), 'b.md': 'b'.repeat(40_000) });
    const first = await v.call('export_notes', { format: 'json', max_bytes: 65_536 });
    expect(first.structured.nextCursor).toBeDefined();
    const other = await v.call('export_notes', { format: 'markdown', cursor: first.structured.nextCursor });
    expect(other.structured.code).toBe('validation_error');
    expect((await v.call('export_notes', { format: 'json', max_bytes: 100 })).isError).toBe(true);
  });

  it('10,000 notes page by page: each exactly once, while notes elsewhere are added and removed', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 10_000; i++) files[`f${i % 10}/n${String(i).padStart(5, '0')}.md`] = `note ${i}\n`;
    const v = await open(files);
    let round = 0;
    const pages = await allPages(v, { format: 'json', max_bytes: 131_072 }, async () => {
      // Changes behind and ahead of the cursor: a new note before it is not re-sent, one removed ahead is not sent.
      round++;
      fs.writeFileSync(path.join(v.dir, `f0/a-new-${round}.md`), 'new\n');
      v.opened.index.touched([`f0/a-new-${round}.md`]);
    });
    const names = pages.flatMap((p) => p.notes.map((n: Structured) => n.name));
    const original = names.filter((n) => !n.includes('a-new-'));
    expect(original).toHaveLength(10_000);
    expect(new Set(names).size).toBe(names.length);
    expect(original).toEqual(Object.keys(files).sort());
    expect(pages.length).toBeGreaterThan(3);
  }, 120_000); // a hang detector on a busy machine, not a speed test
});
