/**
 * get_note_outline and read_note's section / block (SPEC 12.3): headings with Obsidian's anchors,
 * block ids with their lines, counts, links both ways; a part read returns only that part, its lines
 * and the whole note's etag; get_outgoing_links says which lines a #heading or #^block link points at.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { openTestVault, type TestVault } from '../helpers/vault.js';

let vaults: TestVault[] = [];
afterEach(async () => {
  for (const v of vaults) await v.close();
  vaults = [];
});

const PLAN = [
  '---', // 1
  'title: Plan', // 2
  '---', // 3
  '# Plan', // 4
  'Goals for the quarter ^goals', // 5
  '', // 6
  '## Step 1: C# [[setup]]', // 7
  '- [ ] install ^inst', // 8
  '  - [x] download', // 9
  '', // 10
  '### Details', // 11
  '计划 text', // 12
  '## Risks', // 13
  'none', // 14
  '',
].join('\n');

async function open(extra: Record<string, string> = {}): Promise<TestVault> {
  const v = await openTestVault({
    'work/Plan.md': PLAN,
    'work/setup.md': 'setup\n',
    'a.md': 'See [[Plan#Risks]], [[Plan#Plan#Details]], [[Plan#^inst]], [[Plan#Nowhere]] and [[Plan]].\n',
    'b.md': '[[work/Plan]]\n',
    ...extra,
  });
  vaults.push(v);
  return v;
}

describe('get_note_outline', () => {
  it('gives headings with anchors, blocks with lines, counts and links both ways', async () => {
    const v = await open();
    const r = await v.call('get_note_outline', { name: 'Plan' });
    expect(r.isError, r.text).toBe(false);
    const o = r.structured;
    expect(o.name).toBe('work/Plan.md');
    expect(o.etag).toBe((await v.call('read_note', { name: 'Plan' })).structured.etag);
    expect(o.headings).toEqual([
      { level: 1, text: 'Plan', line: 4, anchor: 'Plan' },
      { level: 2, text: 'Step 1: C# [[setup]]', line: 7, anchor: 'Step 1 C setup' },
      { level: 3, text: 'Details', line: 11, anchor: 'Details' },
      { level: 2, text: 'Risks', line: 13, anchor: 'Risks' },
    ]);
    expect(o.blocks).toEqual([
      { id: 'goals', line: 5, lines: [5, 5], text: 'Goals for the quarter' },
      { id: 'inst', line: 8, lines: [8, 9], text: '- [ ] install\n  - [x] download' },
    ]);
    expect(o.tasks).toEqual({ open: 1, done: 1 });
    expect(o.lines).toBe(14);
    // As Obsidian counts: a list marker "-" is a word of its own (a hyphen run), "1" and "C" are words.
    expect(o.words).toBe(22);
    expect(o.links).toEqual({ outgoing: 1, backlinks: 2 });
    expect(r.text).toContain('[[work/Plan#Step 1 C setup]]');
  });

  it('a hidden note is missing, and hidden notes do not count among the backlinks', async () => {
    const v = await open({
      'private/p.md': '[[Plan]] [[secret]]\n',
      'private/secret.md': '# S\n',
      '.noted/mcp-policy.yaml': 'folders:\n  private: hidden\n',
    });
    expect((await v.call('get_note_outline', { name: 'secret' })).structured.code).toBe('not_found');
    expect((await v.call('get_note_outline', { name: 'Plan' })).structured.links.backlinks).toBe(2);
  });
});

describe('read_note section and block', () => {
  it('a section comes with its sub-sections, its lines and the whole note etag', async () => {
    const v = await open();
    const whole = (await v.call('read_note', { name: 'Plan' })).structured;
    const r = await v.call('read_note', { name: 'Plan', section: 'Step 1: C# [[setup]]' });
    expect(r.isError, r.text).toBe(false);
    expect(r.structured.body).toBe(
      '## Step 1: C# [[setup]]\n- [ ] install ^inst\n  - [x] download\n\n### Details\n计划 text\n',
    );
    expect(r.structured.lines).toEqual([7, 12]);
    expect(r.structured.section).toBe('## Step 1: C# [[setup]]');
    expect(r.structured.partial).toBe(true);
    expect(r.structured.frontmatterRaw).toBe('');
    expect(r.structured.frontmatter).toEqual({ title: 'Plan' });
    expect(r.structured.etag).toBe(whole.etag);
    expect(r.text).toContain('lines 7–12');
    const last = await v.call('read_note', { name: 'Plan', section: '## risks' });
    expect(last.structured.body).toBe('## Risks\nnone\n');
    expect(last.structured.lines).toEqual([13, 14]);
  });

  it('a block by ^id or id, case-insensitive', async () => {
    const v = await open();
    const r = await v.call('read_note', { name: 'Plan', block: '^INST' });
    expect(r.structured.body).toBe('- [ ] install ^inst\n  - [x] download\n');
    expect(r.structured).toMatchObject({ lines: [8, 9], block: 'inst', partial: true });
    expect((await v.call('read_note', { name: 'Plan', block: 'goals' })).structured.lines).toEqual([5, 5]);
  });

  it('a heading or block that is not there is refused with what there is', async () => {
    const v = await open();
    const s = await v.call('read_note', { name: 'Plan', section: 'Budget' });
    expect(s.structured.code).toBe('validation_error');
    expect(s.text).toContain('## Risks');
    const b = await v.call('read_note', { name: 'Plan', block: 'nope' });
    expect(b.structured.code).toBe('validation_error');
    expect(b.text).toContain('^goals');
    const both = await v.call('read_note', { name: 'Plan', section: 'Risks', block: 'goals' });
    expect(both.structured.code).toBe('validation_error');
    const dup = await openTestVault({ 'd.md': '## A\nx\n## A\ny\n' });
    vaults.push(dup);
    expect((await dup.call('read_note', { name: 'd', section: 'A' })).structured.code).toBe('ambiguous');
    expect((await dup.call('read_note', { name: 'd', section: 'A', occurrence: 2 })).structured.body).toBe(
      '## A\ny\n',
    );
  });
});

describe('get_outgoing_links resolves #heading and #^block to lines', () => {
  it('gives the lines of the section or block in the target, null when not found', async () => {
    const v = await open();
    const r = await v.call('get_outgoing_links', { name: 'a' });
    const lines = r.structured.links.map((l: { raw: string; lines: unknown }) => [l.raw, l.lines]);
    expect(lines).toEqual([
      ['[[Plan#Risks]]', [13, 14]],
      ['[[Plan#Plan#Details]]', [11, 12]],
      ['[[Plan#^inst]]', [8, 9]],
      ['[[Plan#Nowhere]]', null],
      ['[[Plan]]', null],
    ]);
  });
});
