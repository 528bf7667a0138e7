import { afterEach, describe, expect, it } from 'vitest';
import { etagOf } from '../../src/vault/etag.js';
import { openTestVault, readBytes, type TestVault } from '../helpers/vault.js';

let vault: TestVault | undefined;
afterEach(async () => {
  await vault?.close();
  vault = undefined;
});

const PLAN = '---\ntitle: The plan\ntags: [work, q3]\n---\n# Plan\n\nShip it.\n';

describe('read_note', () => {
  it('returns the SPEC 2.1 fields, and frontmatterRaw + body is byte for byte the stored text', async () => {
    vault = await openTestVault({ 'projects/plan.md': PLAN });
    const { structured, text, isError } = await vault.call('read_note', { name: 'projects/plan' });
    expect(isError).toBe(false);
    const stored = readBytes(vault.dir, 'projects/plan.md')!;
    expect(structured).toMatchObject({
      schemaVersion: 2,
      name: 'projects/plan.md',
      format: 'markdown',
      frontmatter: { title: 'The plan', tags: ['work', 'q3'] },
      frontmatterRaw: '---\ntitle: The plan\ntags: [work, q3]\n---\n',
      body: '# Plan\n\nShip it.\n',
      etag: etagOf(stored),
      sizeBytes: stored.length,
    });
    expect(structured.frontmatterError).toBeUndefined();
    expect(Buffer.from(structured.frontmatterRaw + structured.body, 'utf8').equals(stored)).toBe(true);
    expect(new Date(structured.modified).toISOString()).toBe(structured.modified);
    expect(text).toContain('Ship it.');
    expect(text).toContain('The plan');
  });

  it('accepts the name with or without .md', async () => {
    vault = await openTestVault({ 'projects/plan.md': PLAN });
    const withEnding = await vault.call('read_note', { name: 'projects/plan.md' });
    const without = await vault.call('read_note', { name: 'projects/plan' });
    expect(withEnding.structured).toEqual(without.structured);
  });

  it('a note without frontmatter has frontmatter null and frontmatterRaw ""', async () => {
    vault = await openTestVault({ 'plain.md': 'just text, no block\n' });
    const { structured } = await vault.call('read_note', { name: 'plain' });
    expect(structured.frontmatter).toBeNull();
    expect(structured.frontmatterRaw).toBe('');
    expect(structured.body).toBe('just text, no block\n');
    expect(structured.frontmatterError).toBeUndefined();
  });

  it('an empty frontmatter block is {}', async () => {
    vault = await openTestVault({ 'empty.md': '---\n---\nbody\n' });
    const { structured } = await vault.call('read_note', { name: 'empty' });
    expect(structured.frontmatter).toEqual({});
    expect(structured.frontmatterRaw).toBe('---\n---\n');
    expect(structured.body).toBe('body\n');
  });

  it('invalid YAML gives frontmatter null with frontmatterError, and the raw block kept exactly', async () => {
    const text = '---\ntitle: [unclosed\nkey: : :\n---\nbody stays\n';
    vault = await openTestVault({ 'broken.md': text });
    const { structured, isError } = await vault.call('read_note', { name: 'broken' });
    expect(isError).toBe(false);
    expect(structured.frontmatter).toBeNull();
    expect(typeof structured.frontmatterError).toBe('string');
    expect(structured.frontmatterError.length).toBeGreaterThan(0);
    expect(structured.frontmatterRaw + structured.body).toBe(text);
    expect(structured.body).toBe('body stays\n');
  });

  it('keeps CRLF line breaks and a BOM exactly', async () => {
    const text = '\uFEFF---\r\na: 1\r\n---\r\nline one\r\nline two\r\n';
    vault = await openTestVault({ 'win.md': text });
    const { structured } = await vault.call('read_note', { name: 'win' });
    expect(
      Buffer.from(structured.frontmatterRaw + structured.body, 'utf8').equals(
        readBytes(vault.dir, 'win.md')!,
      ),
    ).toBe(true);
    expect(structured.frontmatter).toEqual({ a: 1 });
  });

  it('a bare name finds a note in any folder and reports its canonical name', async () => {
    vault = await openTestVault({ 'deep/down/there/idea.md': 'an idea\n', 'other.md': 'x' });
    const { structured } = await vault.call('read_note', { name: 'idea' });
    expect(structured.name).toBe('deep/down/there/idea.md');
    expect(structured.body).toBe('an idea\n');
  });

  it('a trailing part of the path finds the note too', async () => {
    vault = await openTestVault({ 'deep/down/idea.md': 'an idea\n' });
    const { structured } = await vault.call('read_note', { name: 'down/idea' });
    expect(structured.name).toBe('deep/down/idea.md');
  });

  it('a bare name shared by several notes is ambiguous and lists the candidates', async () => {
    vault = await openTestVault({ 'a/idea.md': 'one', 'b/idea.md': 'two', 'c/Idea.md': 'three' });
    const { structured, isError } = await vault.call('read_note', { name: 'idea' });
    expect(isError).toBe(true);
    expect(structured.code).toBe('ambiguous');
    expect([...structured.candidates].sort()).toEqual(['a/idea.md', 'b/idea.md', 'c/Idea.md']);
    expect(structured.message).toContain('a/idea.md');
    expect(structured.committed).toBeUndefined();
  });

  it('an exact path wins over the wikilink reading even when the bare name is shared', async () => {
    vault = await openTestVault({ 'idea.md': 'root', 'b/idea.md': 'two' });
    const { structured } = await vault.call('read_note', { name: 'idea' });
    expect(structured.name).toBe('idea.md');
    expect(structured.body).toBe('root');
  });

  it('a case-insensitive lookup reports the canonical name', async () => {
    vault = await openTestVault({ 'Projects/Road Map.md': 'the map\n' });
    const byPath = await vault.call('read_note', { name: 'projects/road map' });
    expect(byPath.structured.name).toBe('Projects/Road Map.md');
    const byBare = await vault.call('read_note', { name: 'ROAD MAP.md' });
    expect(byBare.structured.name).toBe('Projects/Road Map.md');
    expect(byBare.structured.body).toBe('the map\n');
  });

  it('a missing note is not_found, and the message says how to find the right name', async () => {
    vault = await openTestVault({ 'a.md': 'x' });
    const { structured, isError } = await vault.call('read_note', { name: 'nowhere/missing' });
    expect(isError).toBe(true);
    expect(structured.code).toBe('not_found');
    expect(structured.message).toMatch(/search_notes|list_notes/);
  });

  it('pages a note over 1,000,000 characters: truncated, nextOffset, and the pages concatenate to the body', async () => {
    const line = 'The quick brown fox jumps over the lazy dog. 0123456789\n';
    const body = line.repeat(Math.ceil(2_300_000 / line.length));
    const text = `---\ntitle: Big\n---\n${body}`;
    vault = await openTestVault({ 'big.md': text });
    const first = await vault.call('read_note', { name: 'big' });
    expect(first.isError).toBe(false);
    expect(first.structured.truncated).toBe(true);
    expect(first.structured.offset).toBe(0);
    expect(first.structured.totalChars).toBe(body.length);
    expect(first.structured.body.length).toBe(1_000_000);
    expect(first.structured.nextOffset).toBe(1_000_000);
    expect(first.structured.frontmatterRaw).toBe('---\ntitle: Big\n---\n');
    // The JSON line is shortened (SPEC 3.1): the body is shown in full in the text above.
    expect(first.line.body).toBe('[shown in full above]');

    const pages = [first.structured.body as string];
    let next: number | undefined = first.structured.nextOffset;
    let last = first.structured;
    while (next !== undefined) {
      const page = await vault.call('read_note', { name: 'big', offset: next });
      expect(page.isError).toBe(false);
      expect(page.structured.offset).toBe(next);
      pages.push(page.structured.body);
      last = page.structured;
      next = page.structured.nextOffset;
    }
    expect(pages.length).toBe(3);
    expect(last.truncated).toBe(false);
    expect(last.nextOffset).toBeUndefined();
    expect(pages.join('')).toBe(body);
    expect(first.structured.frontmatterRaw + pages.join('')).toBe(text);
  });

  it('max_chars makes smaller pages, and an offset past the end is a validation_error', async () => {
    vault = await openTestVault({ 'n.md': 'abcdefghij' });
    const page = await vault.call('read_note', { name: 'n', offset: 2, max_chars: 3 });
    expect(page.structured).toMatchObject({ body: 'cde', truncated: true, nextOffset: 5, totalChars: 10 });
    const past = await vault.call('read_note', { name: 'n', offset: 11 });
    expect(past.isError).toBe(true);
    expect(past.structured.code).toBe('validation_error');
    expect(past.structured.message).toContain('offset');
  });

  it('a file that is not valid UTF-8 is read with encodingError, said in the text too (issue 10)', async () => {
    // Its bad bytes come back as U+FFFD, so frontmatterRaw + body is not the stored bytes; this used to
    // be answered as if it were, and an agent writing it back replaced those bytes unawares.
    vault = await openTestVault({ 'latin1.md': Buffer.from('# Café\n', 'latin1'), 'nul.md': 'a\u0000b\n' });
    const bad = await vault.call('read_note', { name: 'latin1' });
    expect(bad.structured.encodingError).toMatch(/not valid UTF-8/);
    expect(bad.structured.body).toBe('# Caf\uFFFD\n');
    expect(bad.text).toContain(`Warning: ${bad.structured.encodingError}`);
    const nul = await vault.call('read_note', { name: 'nul' });
    expect(nul.structured.encodingError).toBeUndefined();
    expect(nul.text).not.toContain('Warning:');
  });
});

describe('the frontmatter is sent once (SPEC 17.7, issue 32)', () => {
  it('a note with 5.8 KB of frontmatter: the text shows the block as stored, the JSON line does not repeat it', async () => {
    const keys = Array.from(
      { length: 120 },
      (_, i) => `property_${String(i).padStart(3, '0')}: value number ${i} of the list`,
    );
    const frontmatter = `---\n${keys.join('\n')}\n---\n`;
    expect(frontmatter.length).toBeGreaterThan(5000);
    vault = await openTestVault({ 'big.md': `${frontmatter}# Body\n\nShort body.\n` });
    const raw = await vault.client.callTool({ name: 'read_note', arguments: { name: 'big' } });
    const sent = (raw.content as { text: string }[]).map((c) => c.text).join('\n');
    expect(sent.split('property_077').length - 1).toBe(1);
    expect(sent.length).toBeLessThan(frontmatter.length + 2000);
    const r = await vault.call('read_note', { name: 'big' });
    expect(r.structured.frontmatter.property_077).toBe('value number 77 of the list');
    expect(r.structured.frontmatterRaw).toBe(frontmatter);
    expect(r.line.frontmatter).toBe('[shown in full above]');
    expect(r.line.frontmatterRaw).toBe('[shown in full above]');
    expect(r.text).toContain(`Frontmatter:\n${frontmatter}`);
  });
});

describe('obsidian:// links (SPEC 17.4, issue 32)', () => {
  it('read_note, list_notes and search_notes name each note with the link that opens it in Obsidian', async () => {
    vault = await openTestVault({ 'inbox/Q3 plan #1.md': '# Plan\n\nA kestrel.\n' });
    const uri = 'obsidian://open?vault=vault&file=inbox%2FQ3%20plan%20%231';
    expect((await vault.call('read_note', { name: 'inbox/Q3 plan #1' })).structured.uri).toBe(uri);
    expect((await vault.call('list_notes', {})).structured.notes[0].uri).toBe(uri);
    expect((await vault.call('search_notes', { query: 'kestrel' })).structured.results[0].uri).toBe(uri);
  });
});
