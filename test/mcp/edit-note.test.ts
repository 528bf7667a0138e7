import { afterEach, describe, expect, it } from 'vitest';
import { etagOf } from '../../src/vault/etag.js';
import { openTestVault, readBytes, snapshot, type TestVault } from '../helpers/vault.js';

let vault: TestVault | undefined;
afterEach(async () => {
  await vault?.close();
  vault = undefined;
});

const DOC = [
  '---',
  'status: draft   # keep this comment',
  'owner:  "Ann"',
  '---',
  '# Project',
  '',
  'Intro  text, with two spaces.',
  '',
  '## Risks',
  '',
  'Old risk.',
  '',
  '### Sub risk',
  '',
  'Deep.',
  '',
  '## Plan',
  '',
  'Step one.',
  'Step one.',
  '',
  '## Risks',
  '',
  'Second risks.',
  '',
].join('\n');

async function docVault(text = DOC): Promise<TestVault> {
  return openTestVault({ 'doc.md': text, 'other.md': 'untouched\n' });
}

function stored(v: TestVault, rel = 'doc.md'): string {
  return readBytes(v.dir, rel)?.toString('utf8') ?? '';
}

/** `before` with exactly one span replaced: everything before and after it is the same bytes. */
function spliced(before: string, old: string, replacement: string): string {
  const at = before.indexOf(old);
  expect(at).toBeGreaterThanOrEqual(0);
  expect(before.indexOf(old, at + 1)).toBe(-1);
  return before.slice(0, at) + replacement + before.slice(at + old.length);
}

async function edit(v: TestVault, args: Record<string, unknown>) {
  return v.call('edit_note', { name: 'doc', expected_etag: etagOf(stored(v)), ...args });
}

describe('edit_note replace', () => {
  it('replaces old_text found once and leaves every other byte unchanged', async () => {
    vault = await docVault();
    const { structured, isError } = await edit(vault, {
      operation: 'replace',
      old_text: 'Intro  text',
      new_text: 'Opening',
    });
    expect(isError).toBe(false);
    const expected = spliced(DOC, 'Intro  text', 'Opening');
    expect(stored(vault)).toBe(expected);
    expect(structured).toMatchObject({ name: 'doc.md', etag: etagOf(expected), changed: true });
    expect(stored(vault, 'other.md')).toBe('untouched\n');
  });

  it('empty new_text deletes old_text', async () => {
    vault = await docVault();
    await edit(vault, { operation: 'replace', old_text: ', with two spaces', new_text: '' });
    expect(stored(vault)).toBe(spliced(DOC, ', with two spaces', ''));
  });

  it('old_text found in several places is ambiguous, says how many, and nothing is written', async () => {
    vault = await docVault();
    const before = snapshot(vault.dir);
    const { structured, isError } = await edit(vault, {
      operation: 'replace',
      old_text: 'Step one.',
      new_text: 'x',
    });
    expect(isError).toBe(true);
    expect(structured).toMatchObject({ code: 'ambiguous', committed: false, matches: 2 });
    expect(structured.message).toContain('2');
    expect(structured.message).toContain('replace_all');
    expect(snapshot(vault.dir)).toEqual(before);
  });

  it('replace_all replaces every occurrence', async () => {
    vault = await docVault();
    await edit(vault, {
      operation: 'replace',
      old_text: 'Step one.',
      new_text: 'Step 1.',
      replace_all: true,
    });
    expect(stored(vault)).toBe(DOC.replace('Step one.\nStep one.', 'Step 1.\nStep 1.'));
  });

  it('old_text found nowhere (also when only the case differs) is a validation_error and nothing is written', async () => {
    vault = await docVault();
    const before = snapshot(vault.dir);
    for (const old_text of ['not in the note', 'intro  text', 'Intro text']) {
      const { structured, isError } = await edit(vault, { operation: 'replace', old_text, new_text: 'x' });
      expect(isError).toBe(true);
      expect(structured).toMatchObject({ code: 'validation_error', committed: false });
      expect(structured.message).toContain('not found');
    }
    expect(snapshot(vault.dir)).toEqual(before);
  });

  it('replace without old_text or new_text is a validation_error naming the argument', async () => {
    vault = await docVault();
    const noOld = await edit(vault, { operation: 'replace', new_text: 'x' });
    expect(noOld.structured).toMatchObject({ code: 'validation_error', committed: false });
    expect(noOld.structured.message).toContain('old_text');
    const noNew = await edit(vault, { operation: 'replace', old_text: 'Deep.' });
    expect(noNew.structured).toMatchObject({ code: 'validation_error', committed: false });
    expect(noNew.structured.message).toContain('new_text');
    expect(stored(vault)).toBe(DOC);
  });

  it("new text takes the note's CRLF line breaks", async () => {
    const crlf = 'a\r\nb\r\nc\r\n';
    vault = await docVault(crlf);
    await edit(vault, { operation: 'replace', old_text: 'b', new_text: 'x\ny' });
    expect(stored(vault)).toBe('a\r\nx\r\ny\r\nc\r\n');
  });

  it('keeps a leading BOM (the edit touches only its own span)', async () => {
    const withBom = '\uFEFF# T\n\nold\n';
    vault = await docVault(withBom);
    await edit(vault, { operation: 'replace', old_text: 'old', new_text: 'new' });
    expect(readBytes(vault.dir, 'doc.md')?.equals(Buffer.from('\uFEFF# T\n\nnew\n', 'utf8'))).toBe(true);
  });

  it('an edit that would make the frontmatter unparseable is refused and nothing is written', async () => {
    vault = await docVault();
    const before = snapshot(vault.dir);
    const { structured, isError } = await edit(vault, {
      operation: 'replace',
      old_text: 'owner:  "Ann"',
      new_text: 'owner: [Ann',
    });
    expect(isError).toBe(true);
    expect(structured).toMatchObject({ code: 'validation_error', committed: false });
    expect(structured.message).toMatch(/frontmatter/);
    expect(typeof structured.frontmatterError).toBe('string');
    expect(snapshot(vault.dir)).toEqual(before);
  });

  it('a valid frontmatter edit keeps the comment and the rest of the block', async () => {
    vault = await docVault();
    await edit(vault, { operation: 'replace', old_text: 'status: draft', new_text: 'status: done' });
    expect(stored(vault)).toBe(spliced(DOC, 'status: draft', 'status: done'));
    const read = await vault.call('read_note', { name: 'doc' });
    expect(read.structured.frontmatter).toEqual({ status: 'done', owner: 'Ann' });
  });
});

describe('edit_note sections', () => {
  it('several equal headings without occurrence are ambiguous, with the candidates', async () => {
    vault = await docVault();
    const before = snapshot(vault.dir);
    const { structured, isError } = await edit(vault, {
      operation: 'replace_section',
      heading: 'Risks',
      content: 'x',
    });
    expect(isError).toBe(true);
    expect(structured).toMatchObject({ code: 'ambiguous', committed: false });
    expect(structured.candidates.map((c: { line: number }) => c.line)).toEqual([9, 22]);
    expect(snapshot(vault.dir)).toEqual(before);
  });

  it("replace_section replaces the section's own text and keeps its sub-sections", async () => {
    vault = await docVault();
    await edit(vault, {
      operation: 'replace_section',
      heading: 'Risks',
      occurrence: 1,
      content: 'New risk.',
    });
    expect(stored(vault)).toBe(spliced(DOC, '## Risks\n\nOld risk.\n', '## Risks\n\nNew risk.\n'));
  });

  it('replace_section with whole replaces the sub-sections too', async () => {
    vault = await docVault();
    await edit(vault, {
      operation: 'replace_section',
      heading: '## Risks',
      occurrence: 1,
      whole: true,
      content: 'All new.\n',
    });
    expect(stored(vault)).toBe(
      spliced(
        DOC,
        '## Risks\n\nOld risk.\n\n### Sub risk\n\nDeep.\n\n## Plan',
        '## Risks\n\nAll new.\n\n## Plan',
      ),
    );
  });

  it('occurrence picks the second of two equal headings', async () => {
    vault = await docVault();
    await edit(vault, {
      operation: 'replace_section',
      heading: 'Risks',
      occurrence: 2,
      content: 'Replaced.',
    });
    expect(stored(vault)).toBe(spliced(DOC, 'Second risks.\n', 'Replaced.\n'));
  });

  it('a heading with a level only matches that level', async () => {
    vault = await docVault();
    const wrongLevel = await edit(vault, {
      operation: 'replace_section',
      heading: '## Sub risk',
      content: 'x',
    });
    expect(wrongLevel.structured).toMatchObject({ code: 'validation_error', committed: false });
    expect(stored(vault)).toBe(DOC);
    await edit(vault, { operation: 'replace_section', heading: '### Sub risk', content: 'Shallow.' });
    expect(stored(vault)).toBe(spliced(DOC, 'Deep.', 'Shallow.'));
  });

  it('a heading that does not exist is a validation_error listing the headings', async () => {
    vault = await docVault();
    const { structured } = await edit(vault, {
      operation: 'append_to_section',
      heading: 'Budget',
      content: 'x',
    });
    expect(structured).toMatchObject({ code: 'validation_error', committed: false });
    expect(structured.headings).toContain('## Plan');
    expect(stored(vault)).toBe(DOC);
  });

  it('occurrence out of range is a validation_error', async () => {
    vault = await docVault();
    const { structured } = await edit(vault, {
      operation: 'replace_section',
      heading: 'Risks',
      occurrence: 3,
      content: 'x',
    });
    expect(structured).toMatchObject({ code: 'validation_error', committed: false });
    expect(stored(vault)).toBe(DOC);
  });

  it("append_to_section adds content after a blank line at the end of the section's own text", async () => {
    vault = await docVault();
    await edit(vault, { operation: 'append_to_section', heading: 'Plan', content: 'Step two.' });
    expect(stored(vault)).toBe(
      spliced(DOC, 'Step one.\nStep one.\n\n', 'Step one.\nStep one.\n\nStep two.\n\n'),
    );
  });

  it('append_to_section goes before the first sub-section, or after the sub-sections with whole', async () => {
    vault = await docVault();
    await edit(vault, { operation: 'append_to_section', heading: 'Risks', occurrence: 1, content: 'Own.' });
    const first = spliced(DOC, 'Old risk.\n\n', 'Old risk.\n\nOwn.\n\n');
    expect(stored(vault)).toBe(first);
    await edit(vault, {
      operation: 'append_to_section',
      heading: 'Risks',
      occurrence: 1,
      whole: true,
      content: 'After.',
    });
    expect(stored(vault)).toBe(spliced(first, 'Deep.\n\n', 'Deep.\n\nAfter.\n\n'));
  });

  it('append_to_section of the last section appends at the end of the note', async () => {
    vault = await docVault();
    await edit(vault, { operation: 'append_to_section', heading: 'Risks', occurrence: 2, content: 'Last.' });
    expect(stored(vault)).toBe(`${DOC}\nLast.\n`);
  });

  it('sections without heading or content are a validation_error naming the argument', async () => {
    vault = await docVault();
    const noHeading = await edit(vault, { operation: 'append_to_section', content: 'x' });
    expect(noHeading.structured.message).toContain('heading');
    const noContent = await edit(vault, { operation: 'replace_section', heading: 'Plan' });
    expect(noContent.structured.message).toContain('content');
    for (const r of [noHeading, noContent])
      expect(r.structured).toMatchObject({ code: 'validation_error', committed: false });
    expect(stored(vault)).toBe(DOC);
  });
});

describe('edit_note versions', () => {
  it('without expected_etag or expected_modified it is refused and nothing is written', async () => {
    vault = await docVault();
    const { structured, isError } = await vault.call('edit_note', {
      name: 'doc',
      operation: 'replace',
      old_text: 'Deep.',
      new_text: 'x',
    });
    expect(isError).toBe(true);
    expect(structured).toMatchObject({ code: 'validation_error', committed: false });
    expect(structured.message).toContain('expected_etag');
    expect(stored(vault)).toBe(DOC);
  });

  it('a stale etag is refused with the current text and etag, and nothing is written', async () => {
    vault = await docVault();
    const before = snapshot(vault.dir);
    const { structured, isError, text } = await vault.call('edit_note', {
      name: 'doc',
      operation: 'replace',
      old_text: 'Deep.',
      new_text: 'x',
      expected_etag: etagOf('an older version'),
    });
    expect(isError).toBe(true);
    expect(structured).toMatchObject({
      code: 'conflict',
      committed: false,
      currentEtag: etagOf(DOC),
      currentText: DOC,
    });
    expect(text).toContain('Second risks.');
    expect(snapshot(vault.dir)).toEqual(before);
  });

  it('the etag a write returns is the one the next edit needs; the old one is then stale', async () => {
    vault = await docVault();
    const first = await edit(vault, { operation: 'replace', old_text: 'Deep.', new_text: 'Deeper.' });
    const again = await vault.call('edit_note', {
      name: 'doc',
      operation: 'replace',
      old_text: 'Deeper.',
      new_text: 'Deepest.',
      expected_etag: etagOf(DOC),
    });
    expect(again.structured.code).toBe('conflict');
    const next = await vault.call('edit_note', {
      name: 'doc',
      operation: 'replace',
      old_text: 'Deeper.',
      new_text: 'Deepest.',
      expected_etag: first.structured.etag,
    });
    expect(next.isError).toBe(false);
    expect(stored(vault)).toBe(spliced(DOC, 'Deep.', 'Deepest.'));
  });

  it('expected_modified works like an etag: the current time passes, another is a conflict', async () => {
    vault = await docVault();
    const read = await vault.call('read_note', { name: 'doc' });
    const stale = await vault.call('edit_note', {
      name: 'doc',
      operation: 'replace',
      old_text: 'Deep.',
      new_text: 'x',
      expected_modified: '2001-01-01T00:00:00.000Z',
    });
    expect(stale.structured).toMatchObject({ code: 'conflict', committed: false });
    const bad = await vault.call('edit_note', {
      name: 'doc',
      operation: 'replace',
      old_text: 'Deep.',
      new_text: 'x',
      expected_modified: 'yesterday',
    });
    expect(bad.structured).toMatchObject({ code: 'validation_error', committed: false });
    expect(stored(vault)).toBe(DOC);
    const ok = await vault.call('edit_note', {
      name: 'doc',
      operation: 'replace',
      old_text: 'Deep.',
      new_text: 'x',
      expected_modified: read.structured.modified,
    });
    expect(ok.isError).toBe(false);
    expect(stored(vault)).toBe(spliced(DOC, 'Deep.', 'x'));
  });

  it('a missing note is not_found and nothing is created', async () => {
    vault = await docVault();
    const before = snapshot(vault.dir);
    const { structured } = await vault.call('edit_note', {
      name: 'ghost',
      operation: 'replace',
      old_text: 'a',
      new_text: 'b',
      expected_etag: etagOf(''),
    });
    expect(structured).toMatchObject({ code: 'not_found', committed: false });
    expect(snapshot(vault.dir)).toEqual(before);
  });

  it('an edit whose result is over 5 MB is too_large and nothing is written', async () => {
    vault = await docVault();
    const { structured } = await edit(vault, {
      operation: 'replace',
      old_text: 'Deep.',
      new_text: 'd'.repeat(5 * 1024 * 1024),
    });
    expect(structured).toMatchObject({ code: 'too_large', committed: false });
    expect(stored(vault)).toBe(DOC);
  });
});
