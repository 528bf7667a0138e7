import { afterEach, describe, expect, it } from 'vitest';
import { etagOf } from '../../src/vault/etag.js';
import { openTestVault, readBytes, snapshot, type TestVault } from '../helpers/vault.js';

let vault: TestVault | undefined;
afterEach(async () => {
  await vault?.close();
  vault = undefined;
});

const NOTE = '---\ntags: [a]\n---\n# Log\n\nfirst entry\n';

describe('update_note', () => {
  it('overwrites the whole text and returns the new etag', async () => {
    vault = await openTestVault({ 'log.md': NOTE });
    const { structured, isError } = await vault.call('update_note', { name: 'log', content: 'all new\n' });
    expect(isError).toBe(false);
    expect(readBytes(vault.dir, 'log.md')?.toString()).toBe('all new\n');
    expect(structured).toMatchObject({ name: 'log.md', etag: etagOf('all new\n'), changed: true });
    expect(structured.created).toBeUndefined();
  });

  it('frontmatterRaw + body from read_note is accepted back unchanged, and nothing is written', async () => {
    vault = await openTestVault({ 'log.md': NOTE });
    const read = await vault.call('read_note', { name: 'log' });
    const result = await vault.call('update_note', {
      name: 'log',
      content: read.structured.frontmatterRaw + read.structured.body,
      expected_etag: read.structured.etag,
    });
    expect(result.structured).toMatchObject({ etag: read.structured.etag, changed: false });
    expect(readBytes(vault.dir, 'log.md')?.toString()).toBe(NOTE);
  });

  it('append leaves the stored text exactly and adds the new part after \\n\\n---\\n\\n', async () => {
    // No trailing line break, trailing spaces and CRLF: none of it may be tidied.
    const stored = 'line one\r\nline two  ';
    vault = await openTestVault({ 'log.md': stored });
    const { structured } = await vault.call('update_note', {
      name: 'log',
      content: 'added part\n',
      append: true,
    });
    const expected = `${stored}\n\n---\n\nadded part\n`;
    expect(readBytes(vault.dir, 'log.md')?.toString()).toBe(expected);
    expect(structured.etag).toBe(etagOf(expected));
  });

  it('append to an empty note is just the new part', async () => {
    vault = await openTestVault({ 'empty.md': '' });
    await vault.call('update_note', { name: 'empty', content: 'first', append: true });
    expect(readBytes(vault.dir, 'empty.md')?.toString()).toBe('first');
  });

  it('a matching expected_etag lets the write through', async () => {
    vault = await openTestVault({ 'log.md': NOTE });
    const { isError } = await vault.call('update_note', {
      name: 'log',
      content: 'v2',
      expected_etag: etagOf(NOTE),
    });
    expect(isError).toBe(false);
    expect(readBytes(vault.dir, 'log.md')?.toString()).toBe('v2');
  });

  it('a stale expected_etag is a conflict with currentEtag and currentText, and nothing is written', async () => {
    vault = await openTestVault({ 'log.md': NOTE });
    const before = snapshot(vault.dir);
    for (const append of [false, true]) {
      const { structured, isError, text } = await vault.call('update_note', {
        name: 'log',
        content: 'mine',
        append,
        expected_etag: etagOf('what I read earlier'),
      });
      expect(isError).toBe(true);
      expect(structured).toMatchObject({
        code: 'conflict',
        committed: false,
        currentEtag: etagOf(NOTE),
        currentText: NOTE,
      });
      // Text-only clients get the current text too.
      expect(text).toContain('first entry');
      expect(snapshot(vault.dir)).toEqual(before);
    }
  });

  it('a missing note is not_found and nothing is created', async () => {
    vault = await openTestVault({ 'log.md': NOTE });
    const before = snapshot(vault.dir);
    const { structured, isError } = await vault.call('update_note', { name: 'ghost', content: 'boo' });
    expect(isError).toBe(true);
    expect(structured).toMatchObject({ code: 'not_found', committed: false });
    expect(snapshot(vault.dir)).toEqual(before);
  });

  it('resolves a unique bare name and writes the canonical note', async () => {
    vault = await openTestVault({ 'deep/Log.md': NOTE });
    const { structured } = await vault.call('update_note', { name: 'log', content: 'moved on' });
    expect(structured.name).toBe('deep/Log.md');
    expect(readBytes(vault.dir, 'deep/Log.md')?.toString()).toBe('moved on');
    expect(readBytes(vault.dir, 'log.md')).toBeNull();
  });

  it('a bare name shared by several notes is ambiguous and nothing is written', async () => {
    vault = await openTestVault({ 'a/log.md': 'one', 'b/log.md': 'two' });
    const before = snapshot(vault.dir);
    const { structured, isError } = await vault.call('update_note', { name: 'log', content: 'which?' });
    expect(isError).toBe(true);
    expect(structured).toMatchObject({ code: 'ambiguous', committed: false });
    expect([...structured.candidates].sort()).toEqual(['a/log.md', 'b/log.md']);
    expect(snapshot(vault.dir)).toEqual(before);
  });

  it('converts HTML content to sanitized Markdown, in append too', async () => {
    vault = await openTestVault({ 'log.md': 'kept' });
    await vault.call('update_note', {
      name: 'log',
      content: '<p>new <b>bold</b> <a href="javascript:x()">link</a></p><script>bad()</script>',
      append: true,
    });
    expect(readBytes(vault.dir, 'log.md')?.toString()).toBe('kept\n\n---\n\nnew **bold** link\n');
  });

  it('a result over 5 MB (also by appending) is too_large and nothing is written', async () => {
    vault = await openTestVault({ 'log.md': 'z'.repeat(4 * 1024 * 1024) });
    const before = snapshot(vault.dir);
    const appended = await vault.call('update_note', {
      name: 'log',
      content: 'q'.repeat(1024 * 1024),
      append: true,
    });
    expect(appended.structured).toMatchObject({ code: 'too_large', committed: false });
    const whole = await vault.call('update_note', { name: 'log', content: 'q'.repeat(5 * 1024 * 1024 + 1) });
    expect(whole.structured).toMatchObject({ code: 'too_large', committed: false });
    expect(snapshot(vault.dir)).toEqual(before);
  });

  it('a note with bytes that are not UTF-8 is not appended to (the bytes would be lost)', async () => {
    const bytes = Buffer.from([0x61, 0xff, 0xfe, 0x62]);
    vault = await openTestVault({ 'latin.md': bytes });
    const { structured, isError } = await vault.call('update_note', {
      name: 'latin',
      content: 'x',
      append: true,
    });
    expect(isError).toBe(true);
    expect(structured).toMatchObject({ code: 'not_supported', committed: false });
    expect(readBytes(vault.dir, 'latin.md')?.equals(bytes)).toBe(true);
  });
});
