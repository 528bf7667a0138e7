/**
 * edit_note add_block_id through a real client (SPEC 17.4): the block holding a line gets a ^id where
 * Obsidian reads it, the id comes back and get_note_outline and read_note block find it; a block with
 * an id is refused naming it; the etag guard, the policy, staging and the journal apply as to every edit.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Journal } from '../../src/journal/journal.js';
import { PendingStore } from '../../src/staging/pending-store.js';
import { etagOf } from '../../src/vault/etag.js';
import { openTestVaultIn } from '../helpers/formats.js';
import { openTestVault, readBytes, type TestVault, testJournalKey } from '../helpers/vault.js';

let vault: TestVault | undefined;
afterEach(async () => {
  await vault?.close();
  vault = undefined;
});

const NOTE = [
  '---',
  'status: draft',
  '---',
  '# Plan',
  '',
  'The goal is',
  'to ship in May.',
  '',
  '- first step',
  '- second step',
  '',
  '| who | what |',
  '| --- | ---- |',
  '| Ann | docs |',
  '',
  'Already marked. ^done1',
  '',
].join('\n');

const POLICY = 'default: read-write\nfolders:\n  drafts: staged\n  archive: read-only\n  private: hidden\n';

function open(): Promise<TestVault> {
  return openTestVault({
    'plan.md': NOTE,
    'drafts/plan.md': NOTE,
    'archive/plan.md': NOTE,
    'private/plan.md': NOTE,
    '.noted/mcp-policy.yaml': POLICY,
  });
}

function stored(v: TestVault, rel = 'plan.md'): string {
  return readBytes(v.dir, rel)?.toString('utf8') ?? '';
}

function addId(v: TestVault, args: Record<string, unknown>, rel = 'plan.md') {
  return v.call('edit_note', {
    name: rel,
    operation: 'add_block_id',
    expected_etag: etagOf(stored(v, rel)),
    ...args,
  });
}

describe('edit_note add_block_id', () => {
  it('marks a paragraph at its last line with the id given, and read_note block finds it', async () => {
    vault = await open();
    const r = await addId(vault, { line: 6, block_id: 'goal' });
    expect(r.isError, r.text).toBe(false);
    expect(r.structured).toMatchObject({ name: 'plan.md', blockId: 'goal', blockIdLine: 7 });
    expect(r.text).toContain('[[plan#^goal]]');
    expect(stored(vault)).toBe(NOTE.replace('to ship in May.', 'to ship in May. ^goal'));
    const part = await vault.call('read_note', { name: 'plan', block: 'goal' });
    expect(part.structured.content ?? part.structured.body ?? part.text).toContain('The goal is');
    const outline = await vault.call('get_note_outline', { name: 'plan' });
    expect(outline.structured.blocks.map((b: { id: string }) => b.id)).toEqual(['goal', 'done1']);
  });

  it('a list item gets its own id; a table gets one on its own line after it; a fresh id is six characters', async () => {
    vault = await open();
    const item = await addId(vault, { line: 10 });
    expect(item.isError, item.text).toBe(false);
    const id = item.structured.blockId as string;
    expect(id).toMatch(/^[a-z0-9]{6}$/);
    expect(stored(vault)).toContain(`- second step ^${id}\n`);
    const table = await addId(vault, { line: 14, block_id: 'people' });
    expect(table.structured.blockIdLine).toBe(16);
    expect(stored(vault)).toContain('| Ann | docs |\n\n^people\n\nAlready marked.');
  });

  it('refuses a block that has an id, naming it, and writes nothing', async () => {
    vault = await open();
    const r = await addId(vault, { line: 16 });
    expect(r.isError).toBe(true);
    expect(r.structured.code).toBe('validation_error');
    expect(r.structured.message).toContain('^done1');
    expect(r.structured.committed).toBe(false);
    expect(stored(vault)).toBe(NOTE);
  });

  it('refuses bad input with what to do: no line, a heading, the frontmatter, a bad or taken id', async () => {
    vault = await open();
    const cases: [Record<string, unknown>, string][] = [
      [{}, 'needs the argument line'],
      [{ line: 4 }, 'heading'],
      [{ line: 2 }, 'frontmatter'],
      [{ line: 5 }, 'blank'],
      [{ line: 400 }, 'not in the note'],
      [{ line: 6, block_id: 'has space' }, 'letters, digits and dashes'],
      [{ line: 6, block_id: 'DONE1' }, 'already has a block ^DONE1'],
    ];
    for (const [args, says] of cases) {
      const r = await addId(vault, args);
      expect(r.isError, JSON.stringify(args)).toBe(true);
      expect(r.structured.message).toContain(says);
      // The argument to change is named as the tool takes it: `id` is the note's (SPEC 17.3).
      if ('block_id' in args) expect(r.structured.message).toMatch(/block_id/);
    }
    const zero = await addId(vault, { line: 0 });
    expect(zero.isError).toBe(true);
    expect(stored(vault)).toBe(NOTE);
  });

  it('a stale etag is a conflict; read-only refuses; hidden answers like missing; staged returns the id to be', async () => {
    vault = await open();
    const stale = await vault.call('edit_note', {
      name: 'plan',
      operation: 'add_block_id',
      line: 6,
      expected_etag: 'stale',
    });
    expect(stale.structured.code).toBe('conflict');
    const ro = await addId(vault, { line: 6 }, 'archive/plan.md');
    expect(ro.structured.code).toBe('read_only');
    const hidden = await addId(vault, { line: 6 }, 'private/plan.md');
    const missing = await addId(vault, { line: 6 }, 'nowhere/plan.md');
    expect(hidden.structured.code).toBe('not_found');
    expect(hidden.structured.message).toBe(missing.structured.message.replace('nowhere', 'private'));
    const staged = await addId(vault, { line: 6, block_id: 'later' }, 'drafts/plan.md');
    expect(staged.structured).toMatchObject({ staged: true, blockId: 'later' });
    expect(stored(vault, 'drafts/plan.md')).toBe(NOTE);
    const change = new PendingStore(vault.opened.vault).get(staged.structured.pendingId);
    expect(change.newText).toContain('to ship in May. ^later');
  });

  it('is journaled like every edit', async () => {
    vault = await open();
    await addId(vault, { line: 6, block_id: 'goal' });
    const journal = new Journal(vault.opened.vault, { now: () => new Date(), key: testJournalKey() });
    expect(journal.list().map((e) => [e.tool, e.kind, e.note])).toEqual([['edit_note', 'update', 'plan.md']]);
  });

  it('an HTML vault refuses it as not supported', async () => {
    vault = await openTestVaultIn('html', { 'plan.md': 'A paragraph.\n' });
    const read = await vault.call('read_note', { name: 'plan' });
    const r = await vault.call('edit_note', {
      name: 'plan',
      operation: 'add_block_id',
      line: 1,
      expected_etag: read.structured.etag,
    });
    expect(r.structured.code).toBe('not_supported');
    expect(r.structured.message).toContain('add_block_id');
  });
});
