import { afterEach, describe, expect, it } from 'vitest';
import { etagOf } from '../../src/vault/etag.js';
import { openTestVault, readBytes, snapshot, type TestVault } from '../helpers/vault.js';

let vault: TestVault | undefined;
afterEach(async () => {
  await vault?.close();
  vault = undefined;
});

function text(dir: string, rel: string): string | null {
  return readBytes(dir, rel)?.toString('utf8') ?? null;
}

describe('create_note', () => {
  it('creates a note at the given name (.md added, folders made) and returns its etag', async () => {
    vault = await openTestVault();
    const { structured, isError } = await vault.call('create_note', {
      name: 'inbox/new idea',
      content: '# Idea\n\nGo.\n',
    });
    expect(isError).toBe(false);
    const bytes = readBytes(vault.dir, 'inbox/new idea.md');
    expect(bytes?.toString()).toBe('# Idea\n\nGo.\n');
    expect(structured).toMatchObject({ name: 'inbox/new idea.md', etag: etagOf(bytes!), created: true });
    expect(new Date(structured.modified).toISOString()).toBe(structured.modified);
    const read = await vault.call('read_note', { name: 'inbox/new idea' });
    expect(read.structured.etag).toBe(structured.etag);
  });

  it('a name ending in another extension gets .md added, never written with that ending', async () => {
    vault = await openTestVault();
    await vault.call('create_note', { name: 'v1.2 notes', content: 'a' });
    await vault.call('create_note', { name: 'x.txt', content: 'b' });
    expect(text(vault.dir, 'v1.2 notes.md')).toBe('a');
    expect(text(vault.dir, 'x.txt.md')).toBe('b');
    expect(text(vault.dir, 'x.txt')).toBeNull();
  });

  it('derives the name from a title, removing \\ / : * ? " < > | # ^ [ ]', async () => {
    vault = await openTestVault();
    const title = 'Q3: plan / "draft" #1 <a|b> [x]^*?\\';
    const { structured } = await vault.call('create_note', { title, content: 'body\n' });
    expect(structured.name).toBe('Q3 plan draft 1 ab x.md');
    // The title differs from the file name, so it is kept as the title property.
    const read = await vault.call('read_note', { name: structured.name });
    expect(read.structured.frontmatter).toEqual({ title });
    expect(read.structured.body).toBe('body\n');
  });

  it('a title that is already a clean file name is not repeated in the frontmatter', async () => {
    vault = await openTestVault();
    const { structured } = await vault.call('create_note', { title: 'Weekly review', content: 'x\n' });
    expect(structured.name).toBe('Weekly review.md');
    expect(text(vault.dir, 'Weekly review.md')).toBe('x\n');
  });

  it('a title whose name is taken gets " 2", then " 3", also when taken in another letter case', async () => {
    vault = await openTestVault({ 'meeting notes.md': 'old' });
    const second = await vault.call('create_note', { title: 'Meeting Notes', content: 'two' });
    const third = await vault.call('create_note', { title: 'Meeting Notes', content: 'three' });
    expect(second.structured.name).toBe('Meeting Notes 2.md');
    expect(third.structured.name).toBe('Meeting Notes 3.md');
    expect(text(vault.dir, 'meeting notes.md')).toBe('old');
    // "Meeting Notes" is no longer the file name, so it is kept as the title property.
    expect(text(vault.dir, 'Meeting Notes 2.md')).toBe('---\ntitle: Meeting Notes\n---\ntwo');
    expect(text(vault.dir, 'Meeting Notes 3.md')).toBe('---\ntitle: Meeting Notes\n---\nthree');
  });

  it('a title with nothing usable left is a validation_error and nothing is written', async () => {
    vault = await openTestVault();
    const before = snapshot(vault.dir);
    const { structured, isError } = await vault.call('create_note', { title: '/:*?', content: 'x' });
    expect(isError).toBe(true);
    expect(structured).toMatchObject({ code: 'validation_error', committed: false });
    expect(snapshot(vault.dir)).toEqual(before);
  });

  it('neither name nor title is a validation_error and nothing is written', async () => {
    vault = await openTestVault();
    const before = snapshot(vault.dir);
    const { structured, isError } = await vault.call('create_note', { content: 'orphan' });
    expect(isError).toBe(true);
    expect(structured).toMatchObject({ code: 'validation_error', committed: false });
    expect(structured.message).toMatch(/name|title/);
    expect(snapshot(vault.dir)).toEqual(before);
  });

  it('puts tags (without #) and the title into new frontmatter', async () => {
    vault = await openTestVault();
    await vault.call('create_note', {
      name: 'tagged',
      title: 'A tagged note',
      content: 'body\n',
      tags: ['#project', 'area/work', 'Project'],
    });
    const read = await vault.call('read_note', { name: 'tagged' });
    expect(read.structured.frontmatter).toEqual({ title: 'A tagged note', tags: ['project', 'area/work'] });
    expect(read.structured.body).toBe('body\n');
  });

  it('merges tags into existing frontmatter, keeping its bytes', async () => {
    vault = await openTestVault();
    const content = '---\n# a comment\nstatus: draft\ntags: [old]\n---\nbody\n';
    await vault.call('create_note', { name: 'merged', content, tags: ['new'] });
    const read = await vault.call('read_note', { name: 'merged' });
    expect(read.structured.frontmatter).toEqual({ status: 'draft', tags: ['old', 'new'] });
    expect(read.structured.frontmatterRaw).toContain('# a comment');
    expect(read.structured.body).toBe('body\n');
  });

  it('a tag with a space is a validation_error and nothing is written', async () => {
    vault = await openTestVault();
    const { structured, isError } = await vault.call('create_note', {
      name: 'n',
      content: 'x',
      tags: ['two words'],
    });
    expect(isError).toBe(true);
    expect(structured).toMatchObject({ code: 'validation_error', committed: false });
    expect(readBytes(vault.dir, 'n.md')).toBeNull();
  });

  it('refuses an existing name with already_exists and leaves it byte for byte', async () => {
    vault = await openTestVault({ 'plan.md': 'original\n' });
    const before = snapshot(vault.dir);
    const { structured, isError } = await vault.call('create_note', { name: 'plan', content: 'new' });
    expect(isError).toBe(true);
    expect(structured).toMatchObject({ code: 'already_exists', committed: false, name: 'plan.md' });
    expect(structured.message).toMatch(/update_note|edit_note/);
    expect(snapshot(vault.dir)).toEqual(before);
  });

  it('refuses a name that exists in another letter case, naming the existing note', async () => {
    vault = await openTestVault({ 'Projects/Plan.md': 'original\n' });
    const before = snapshot(vault.dir);
    const { structured, isError } = await vault.call('create_note', {
      name: 'projects/PLAN.md',
      content: 'new',
    });
    expect(isError).toBe(true);
    expect(structured).toMatchObject({ code: 'already_exists', committed: false, name: 'Projects/Plan.md' });
    expect(snapshot(vault.dir)).toEqual(before);
  });

  it('converts HTML to Markdown and sanitizes it: no script, no event handlers, no javascript: URLs', async () => {
    vault = await openTestVault();
    const html =
      '<h1 onclick="steal()">Report</h1><p>See <a href="javascript:alert(1)">this</a> and <a href="https://example.com/a">that</a>.</p>' +
      '<script>alert("x")</script><img src="x" onerror="alert(2)"><ul><li>one</li><li>two</li></ul>' +
      '<p>&lt;script&gt;alert(3)&lt;/script&gt;</p><a href="JaVaScRiPt&colon;alert(4)">sneaky</a>';
    const { isError } = await vault.call('create_note', { name: 'report', content: html });
    expect(isError).toBe(false);
    const stored = text(vault.dir, 'report.md')!;
    expect(stored).toContain('# Report');
    expect(stored).toContain('[that](https://example.com/a)');
    expect(stored).toContain('- one');
    expect(stored).toContain('sneaky');
    expect(stored).not.toMatch(/javascript/i);
    expect(stored).not.toMatch(/onclick|onerror|steal/i);
    expect(stored).not.toContain('alert("x")');
    // No tag survives: the one `<` that was text in the HTML is escaped, so it stays text.
    expect(stored).not.toMatch(/(^|[^\\])</);
    expect(stored).toContain('\\<script>alert(3)');
  });

  it('keeps Markdown with some inline HTML as it is', async () => {
    vault = await openTestVault();
    const content = '# Title\n\nSome <b>bold</b> text.\n';
    await vault.call('create_note', { name: 'md', content });
    expect(text(vault.dir, 'md.md')).toBe(content);
  });

  it('a body over 5 MB is too_large and nothing is written', async () => {
    vault = await openTestVault();
    const before = snapshot(vault.dir);
    const { structured, isError } = await vault.call('create_note', {
      name: 'huge',
      content: 'x'.repeat(5 * 1024 * 1024 + 1),
    });
    expect(isError).toBe(true);
    expect(structured).toMatchObject({ code: 'too_large', committed: false });
    expect(snapshot(vault.dir)).toEqual(before);
  });

  it('a body of exactly 5 MB is accepted', async () => {
    vault = await openTestVault();
    const content = 'y'.repeat(5 * 1024 * 1024);
    const { isError } = await vault.call('create_note', { name: 'max', content });
    expect(isError).toBe(false);
    expect(readBytes(vault.dir, 'max.md')?.length).toBe(content.length);
  });
});
