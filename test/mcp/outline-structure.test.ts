/**
 * SPEC 17.4 through a real client: get_note_outline lists a note's tags (frontmatter and inline, with
 * lines), its embeds and attachment links (with lines, resolved as get_outgoing_links resolves, hidden
 * files resolving to nothing), and its Markdown tables with rows as objects by header — each list
 * bounded, so a hostile note's outline is a bounded answer that says what it cut.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestVault, type TestVault } from '../helpers/vault.js';

const NOTE = [
  '---', // 1
  'tags:', // 2
  '  - project/alpha', // 3
  '  - "#review"', // 4
  'cover: "[[pics/cover.png]]"', // 5
  '---', // 6
  '# Plan #inline-one', // 7
  '', // 8
  '![[pics/cover.png]] and ![[missing.png|200]] and [[report.pdf#page=2]]', // 9
  'A [[other]] note link and [[v1.2]] and ![[other]] and ![[private/secret.png]]', // 10
  '', // 11
  '| Who | Task | Who |', // 12
  '|:----|-----:|-----|', // 13
  '| Ann | docs \\| site | x |', // 14
  '| Bo |', // 15
  '', // 16
  '```', // 17
  '| a | b |', // 18
  '| - | - |', // 19
  '#not-a-tag', // 20
  '```', // 21
  'End #inline-two', // 22
  '',
].join('\n');

const ROWS = 3_000;
const EMBEDS = 1_500;

let vault: TestVault;
beforeAll(async () => {
  vault = await openTestVault({
    'plan.md': NOTE,
    'other.md': '# Other\n',
    'v1.2.md': 'a note with a dot\n',
    'pics/cover.png': 'png',
    'report.pdf': 'pdf',
    'private/secret.png': 'png',
    'private/note.md': '#secret\n| a |\n| - |\n',
    '.noted/mcp-policy.yaml': 'folders:\n  private: hidden\n',
    'big-table.md': `| n | sq |\n| - | -- |\n${Array.from({ length: ROWS }, (_, i) => `| ${i} | ${i * i} |`).join('\n')}\n`,
    'many-embeds.md': `${'![[pics/cover.png]] '.repeat(EMBEDS)}\n`,
    'many-tables.md': Array.from({ length: 120 }, (_, i) => `| t${i} |\n| - |\n| ${i} |\n`).join('\n'),
  });
}, 60_000);
afterAll(async () => {
  await vault.close();
});

describe('get_note_outline tags, embeds and tables (SPEC 17.4)', () => {
  it('lists tags with lines and source, frontmatter first; none from code', async () => {
    const r = await vault.call('get_note_outline', { name: 'plan' });
    expect(r.isError, r.text).toBe(false);
    expect(r.structured.tags).toEqual([
      { tag: 'project/alpha', line: 3, source: 'frontmatter' },
      { tag: 'review', line: 4, source: 'frontmatter' },
      { tag: 'inline-one', line: 7, source: 'inline' },
      { tag: 'inline-two', line: 22, source: 'inline' },
    ]);
    expect(r.structured.cut).toBeUndefined();
  });

  it('lists embeds and attachment links, resolved; links to notes only when embedded; hidden files resolve to nothing', async () => {
    const r = await vault.call('get_note_outline', { name: 'plan' });
    expect(r.structured.embeds).toEqual([
      { target: 'pics/cover.png', line: 5, embed: false, resolved: 'pics/cover.png' },
      { target: 'pics/cover.png', line: 9, embed: true, resolved: 'pics/cover.png' },
      { target: 'missing.png', line: 9, embed: true, resolved: null },
      { target: 'report.pdf', line: 9, embed: false, resolved: 'report.pdf' },
      { target: 'other', line: 10, embed: true, resolved: 'other.md' },
      { target: 'private/secret.png', line: 10, embed: true, resolved: null },
    ]);
    expect(r.text).not.toContain('private/secret.png → private');
  });

  it('lists tables with rows by header: repeated headers kept apart, short rows filled, code fences skipped', async () => {
    const r = await vault.call('get_note_outline', { name: 'plan' });
    expect(r.structured.tables).toEqual([
      {
        line: 12,
        to: 15,
        headers: ['Who', 'Task', 'Who (2)'],
        rows: [
          { Who: 'Ann', Task: 'docs | site', 'Who (2)': 'x' },
          { Who: 'Bo', Task: '', 'Who (2)': '' },
        ],
      },
    ]);
  });

  it('gives 1,000 rows of a longer table and says it is truncated', async () => {
    const r = await vault.call('get_note_outline', { name: 'big-table' });
    expect(r.isError, r.text).toBe(false);
    const [t] = r.structured.tables;
    expect(t.rows).toHaveLength(1_000);
    expect(t.rows[999]).toEqual({ n: '999', sq: String(999 * 999) });
    expect(t.truncated).toBe(true);
    expect(t.to).toBe(ROWS + 2);
  });

  it('stops the embeds at 1,000 and the tables at 100, and says so in cut', async () => {
    const embeds = await vault.call('get_note_outline', { name: 'many-embeds' });
    expect(embeds.isError, embeds.text).toBe(false);
    expect(embeds.structured.embeds).toHaveLength(1_000);
    expect(embeds.structured.cut).toEqual(['embeds']);
    expect(embeds.structured.links.outgoing).toBe(EMBEDS);
    const tables = await vault.call('get_note_outline', { name: 'many-tables' });
    expect(tables.structured.tables).toHaveLength(100);
    expect(tables.structured.cut).toEqual(['tables']);
  });

  it('a hidden note answers like a missing one', async () => {
    const hidden = await vault.call('get_note_outline', { name: 'private/note' });
    const missing = await vault.call('get_note_outline', { name: 'nowhere/note' });
    expect(hidden.structured.code).toBe('not_found');
    expect(hidden.structured.message).toBe(missing.structured.message.replace('nowhere', 'private'));
  });
});
