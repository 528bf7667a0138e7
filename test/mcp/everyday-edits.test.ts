/**
 * edit_note's everyday operations through a real client (SPEC 13.1): set_properties, add_tags,
 * remove_tags, prepend and prepend_to_section, on top of the etag guard, the policy, staging, the
 * journal and undo like every other write.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Journal } from '../../src/journal/journal.js';
import { approve } from '../../src/staging/approve.js';
import { PendingStore } from '../../src/staging/pending-store.js';
import { etagOf } from '../../src/vault/etag.js';
import { openTestVault, readBytes, type TestVault, testJournalKey } from '../helpers/vault.js';

let vault: TestVault | undefined;
afterEach(async () => {
  await vault?.close();
  vault = undefined;
});

const NOTE = [
  '---',
  'status: draft   # keep this comment',
  "owner: 'Ann'",
  'tags:',
  '  - project   # main',
  '  - "#review"',
  '---',
  '# Plan',
  '',
  'Intro. #review and #review/later',
  '',
  '## Log',
  '',
  '- older entry',
  '',
].join('\n');

const POLICY = 'default: read-write\nfolders:\n  drafts: staged\n  archive: read-only\n  private: hidden\n';

async function open(extra: Record<string, string> = {}): Promise<TestVault> {
  return openTestVault({
    'plan.md': NOTE,
    'drafts/plan.md': NOTE,
    'archive/plan.md': NOTE,
    'private/plan.md': NOTE,
    '.noted/mcp-policy.yaml': POLICY,
    ...extra,
  });
}

function stored(v: TestVault, rel = 'plan.md'): string {
  return readBytes(v.dir, rel)?.toString('utf8') ?? '';
}

async function edit(v: TestVault, args: Record<string, unknown>, rel = 'plan.md') {
  return v.call('edit_note', { name: rel, expected_etag: etagOf(stored(v, rel)), ...args });
}

describe('edit_note set_properties through a client', () => {
  it('changes, adds and removes properties, keeping every other byte; get_properties reads the result', async () => {
    vault = await open();
    const r = await edit(vault, {
      operation: 'set_properties',
      properties: { status: 'done', owner: null, due: '2026-05-01', people: ['Ann', 'Bo'] },
    });
    expect(r.isError).toBe(false);
    const expected = NOTE.replace('status: draft ', 'status: done ')
      .replace("owner: 'Ann'\n", '')
      .replace('  - "#review"\n---', '  - "#review"\ndue: 2026-05-01\npeople:\n  - Ann\n  - Bo\n---');
    expect(stored(vault)).toBe(expected);
    expect(r.structured).toMatchObject({ name: 'plan.md', etag: etagOf(expected), changed: true });
    const props = await vault.call('get_properties', { name: 'plan' });
    expect(props.structured.properties).toEqual({
      status: 'done',
      tags: ['project', '#review'],
      due: '2026-05-01',
      people: ['Ann', 'Bo'],
    });
    expect(props.structured.types).toMatchObject({ due: 'date', people: 'list' });
  });

  it('follows the property types the vault assigns in Obsidian, and refuses a value of another type', async () => {
    vault = await open({ '.obsidian/types.json': '{"types": {"rating": "number", "due": "date"}}' });
    const ok = await edit(vault, { operation: 'set_properties', properties: { rating: '4' } });
    expect(ok.isError).toBe(false);
    expect(stored(vault)).toContain('rating: 4\n');
    const before = stored(vault);
    const bad = await edit(vault, { operation: 'set_properties', properties: { due: 'next Friday' } });
    expect(bad.structured).toMatchObject({ code: 'validation_error', committed: false });
    expect(bad.structured.message).toMatch(/Date property in this vault/);
    expect(stored(vault)).toBe(before);
  });

  it('refuses, writing nothing: missing arguments, a broken block, a stale etag', async () => {
    vault = await open({ 'broken.md': '---\na: [unclosed\n---\nbody\n' });
    const missing = await edit(vault, { operation: 'set_properties' });
    expect(missing.structured.code).toBe('validation_error');
    expect(missing.structured.message).toMatch(/needs the argument properties/);
    const broken = await edit(vault, { operation: 'set_properties', properties: { b: 1 } }, 'broken.md');
    expect(broken.structured.code).toBe('validation_error');
    expect(broken.structured.message).toMatch(/does not parse/);
    expect(stored(vault, 'broken.md')).toBe('---\na: [unclosed\n---\nbody\n');
    const stale = await vault.call('edit_note', {
      name: 'plan',
      operation: 'set_properties',
      properties: { status: 'x' },
      expected_etag: 'sha256:stale',
    });
    expect(stale.structured).toMatchObject({
      code: 'conflict',
      currentEtag: etagOf(NOTE),
      currentText: NOTE,
    });
    const tooMany = Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`k${i}`, i]));
    expect((await edit(vault, { operation: 'set_properties', properties: tooMany })).structured.code).toBe(
      'too_large',
    );
    expect(stored(vault)).toBe(NOTE);
  });
});

describe('edit_note add_tags and remove_tags through a client', () => {
  it('adds tags once, and the tag index sees them at once', async () => {
    vault = await open();
    const r = await edit(vault, { operation: 'add_tags', tags: ['#area/home', 'PROJECT', 'area/home'] });
    expect(r.isError).toBe(false);
    expect(stored(vault)).toBe(NOTE.replace('  - "#review"\n', '  - "#review"\n  - area/home\n'));
    const byTag = await vault.call('list_by_tag', { tag: 'area' });
    expect(byTag.structured.notes.map((n: { name: string }) => n.name)).toEqual(['plan.md']);
    const again = await edit(vault, { operation: 'add_tags', tags: ['project'] });
    expect(again.structured.changed).toBe(false);
  });

  it('removes a frontmatter tag and reports the inline #tags it left in the body', async () => {
    vault = await open();
    const r = await edit(vault, { operation: 'remove_tags', tags: ['review'] });
    expect(r.isError).toBe(false);
    expect(stored(vault)).toBe(NOTE.replace('  - "#review"\n', ''));
    expect(r.structured.inlineLeft).toEqual([
      { tag: '#review', line: 9 },
      { tag: '#review/later', line: 9 },
    ]);
    expect(r.text).toMatch(/still has 2 inline tags.*#review \(line 9\)/);
  });

  it('refuses a tag Obsidian would not read as one, naming it', async () => {
    vault = await open();
    const r = await edit(vault, { operation: 'add_tags', tags: ['two words'] });
    expect(r.structured.code).toBe('validation_error');
    expect(r.structured.message).toMatch(/"two words" contains a space/);
    expect(stored(vault)).toBe(NOTE);
  });
});

describe('edit_note prepend and prepend_to_section through a client', () => {
  it('prepends to the body and under a heading', async () => {
    vault = await open();
    await edit(vault, { operation: 'prepend', content: '> Summary first.' });
    await edit(vault, { operation: 'prepend_to_section', heading: 'Log', content: '- newest entry' });
    expect(stored(vault)).toBe(
      NOTE.replace('---\n# Plan', '---\n> Summary first.\n\n# Plan').replace(
        '## Log\n\n- older',
        '## Log\n\n- newest entry\n\n- older',
      ),
    );
  });
});

describe('everyday edits under the policy, the journal and undo (SPEC 4, 5, 6)', () => {
  it('in a staged folder the edit is kept for review as a diff, not applied; approving applies it', async () => {
    vault = await open();
    const r = await edit(
      vault,
      { operation: 'set_properties', properties: { status: 'done' } },
      'drafts/plan.md',
    );
    expect(r.structured).toMatchObject({ staged: true, note: 'drafts/plan.md', kind: 'update' });
    expect(stored(vault, 'drafts/plan.md')).toBe(NOTE);
    const pending = new PendingStore(vault.opened.vault);
    const change = pending.get(r.structured.pendingId);
    expect(change).toMatchObject({ tool: 'edit_note', baseText: NOTE });
    expect(change.newText).toBe(NOTE.replace('status: draft ', 'status: done '));
    const approved = await approve(vault.opened.vault, pending, r.structured.pendingId, {
      onWrite: () => undefined,
    });
    expect(approved.outcome).toBe('updated');
    expect(stored(vault, 'drafts/plan.md')).toBe(change.newText);
  });

  it('a read-only folder refuses, a hidden one answers like a missing note', async () => {
    vault = await open();
    const ro = await edit(vault, { operation: 'add_tags', tags: ['x'] }, 'archive/plan.md');
    expect(ro.structured).toMatchObject({ code: 'read_only', committed: false });
    const hidden = await edit(vault, { operation: 'add_tags', tags: ['x'] }, 'private/plan.md');
    const missing = await edit(vault, { operation: 'add_tags', tags: ['x'] }, 'nowhere/plan.md');
    expect(hidden.structured.code).toBe('not_found');
    expect(hidden.structured.message).toBe(missing.structured.message.replace('nowhere', 'private'));
    expect(stored(vault, 'archive/plan.md')).toBe(NOTE);
    expect(stored(vault, 'private/plan.md')).toBe(NOTE);
  });

  it('each edit is journaled with both texts and can be undone', async () => {
    vault = await open();
    await edit(vault, { operation: 'set_properties', properties: { status: 'done' } });
    const afterSet = stored(vault);
    await edit(vault, { operation: 'remove_tags', tags: ['project'] });
    const journal = new Journal(vault.opened.vault, { now: () => new Date(), key: testJournalKey() });
    const entries = journal.list();
    expect(entries.map((e) => [e.tool, e.kind, e.note])).toEqual([
      ['edit_note', 'update', 'plan.md'],
      ['edit_note', 'update', 'plan.md'],
    ]);
    expect(journal.textOf(entries[0]!.beforeSha256 as string)).toBe(afterSet);
    const undone = await journal.undo({ entry: entries[0]!.id }, { session: 'cli', client: 'owner' });
    expect(undone.outcomes.map((o) => o.outcome)).toEqual(['undone']);
    expect(stored(vault)).toBe(afterSet);
    expect(journal.verify()).toMatchObject({ ok: true });
  });

  it('a note whose bytes are not UTF-8 is not edited', async () => {
    vault = await open();
    fs.writeFileSync(path.join(vault.dir, 'bin.md'), Buffer.from([0x2d, 0x2d, 0x2d, 0x0a, 0xff, 0x0a]));
    const r = await vault.call('edit_note', {
      name: 'bin',
      operation: 'set_properties',
      properties: { a: 1 },
      expected_etag: etagOf(readBytes(vault.dir, 'bin.md')!),
    });
    expect(r.structured.code).toBe('not_supported');
  });
});
