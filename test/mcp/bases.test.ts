/**
 * Obsidian Bases through a real MCP client (SPEC 16): list_bases, query_base on every view type,
 * a ```base block with `this`, hidden notes never rows, counts, group keys or backlinks.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AN_ID } from '../helpers/note-ids.js';
import { openTestVault, type Structured, type TestVault } from '../helpers/vault.js';

const NOW = new Date(2025, 4, 27, 12, 0, 0);

const READING = `filters:
  and:
    - file.hasTag("book")
formulas:
  ppu: "(price / pages * 100).toFixed(2)"
  label: 'if(price, price.toFixed(2) + " dollars")'
properties:
  formula.ppu:
    displayName: Price per 100 pages
  status:
    displayName: Status
summaries:
  total: 'values.reduce(acc + value, 0)'
views:
  - type: table
    name: All books
    order:
      - file.name
      - status
      - price
      - formula.ppu
    sort:
      - property: price
        direction: DESC
    summaries:
      price: Sum
  - type: list
    name: To read
    filters: 'status == "to-read"'
    order:
      - file.basename
      - author
  - type: cards
    name: By status
    groupBy:
      property: status
      direction: ASC
    order:
      - file.name
      - formula.label
    summaries:
      price: total
  - type: map
    name: Cheapest
    limit: 1
    sort:
      - property: price
        direction: ASC
    order:
      - file.name
`;

const FILES: Record<string, string> = {
  'Reading.base': READING,
  'Books/Dune.md':
    '---\ntags: [book]\nstatus: reading\nprice: 12\npages: 600\nauthor: "[[Frank]]"\n---\nA classic.\n',
  'Books/Emma.md': '---\ntags: [book]\nstatus: to-read\nprice: 5\npages: 400\nauthor: "[[Jane]]"\n---\n',
  'Books/Ulysses.md': '---\ntags: [book]\nstatus: to-read\nprice: 20\npages: 0\n---\n',
  'Frank.md': '---\nrole: author\n---\nWrote [[Dune]].\n',
  'Jane.md': 'Wrote [[Emma]].\n',
  'Authors.md': [
    '# Authors',
    '',
    '```base',
    'filters: this.file.hasLink(file)',
    'views:',
    '  - type: table',
    '    name: Linked',
    '    order: [file.name]',
    '```',
    '',
    '[[Frank]] [[Jane]]',
    '',
    '```base',
    'views:',
    '  - type: table',
    '    name: Backlinks',
    '    filters: file.hasLink(this)',
    '    order: [file.name, file.backlinks]',
    '```',
    '',
  ].join('\n'),
  'Broken.base': 'views:\n  - type: table\n    filters: \'status = "x"\'\n',
  'private/Secret book.md':
    '---\ntags: [book]\nstatus: secret-status\nprice: 1000\npages: 1\n---\n[[Frank]] [[Dune]]\n',
  'private/Hidden.base': 'views:\n  - type: table\n    name: Hidden\n',
  '.noted/mcp-policy.yaml': 'default: read-write\nfolders:\n  private: hidden\n',
};

let vault: TestVault;
beforeAll(async () => {
  vault = await openTestVault(FILES, { now: () => NOW });
});
afterAll(async () => {
  await vault.close();
});

async function ok(tool: string, args: Record<string, unknown>): Promise<{ s: Structured; text: string }> {
  const r = await vault.call(tool, args);
  expect(r.isError, JSON.stringify(r.structured)).toBe(false);
  return { s: r.structured, text: r.text };
}

const rowsOf = (s: Structured): Structured[] => s.groups.flatMap((g: Structured) => g.rows);

describe('list_bases', () => {
  it('lists the .base files and the ```base blocks, with their views, and where a base does not parse', async () => {
    const { s } = await ok('list_bases', {});
    // A base in a note gives the note's id (pinned in note-ids.test.ts); a .base file none.
    const bases = s.bases as { name: string; id?: string }[];
    expect(bases.every((b) => (b.id !== undefined) === b.name.endsWith('.md'))).toBe(true);
    expect(bases.map(({ id: _id, ...rest }) => rest)).toEqual([
      { name: 'Authors.md', block: 0, views: [{ name: 'Linked', type: 'table' }] },
      { name: 'Authors.md', block: 1, views: [{ name: 'Backlinks', type: 'table' }] },
      {
        name: 'Broken.base',
        views: [],
        error: { message: expect.stringContaining('write == to compare'), line: 3, column: 22 },
      },
      {
        name: 'Reading.base',
        views: [
          { name: 'All books', type: 'table' },
          { name: 'To read', type: 'list' },
          { name: 'By status', type: 'cards' },
          { name: 'Cheapest', type: 'map' },
        ],
      },
    ]);
    expect(s.total).toBe(4);
  });

  it('a base in a hidden folder does not exist for agents', async () => {
    const { s } = await ok('list_bases', { folder: 'private' });
    expect(s.bases).toEqual([]);
    const r = await vault.call('query_base', { base: 'private/Hidden.base' });
    expect(r.isError).toBe(true);
    expect(r.structured.code).toBe('not_found');
    const missing = await vault.call('query_base', { base: 'private/Nothing.base' });
    expect(missing.structured.message).toBe(r.structured.message.replace('Hidden', 'Nothing'));
  });
});

describe('query_base', () => {
  it('a table view: filters, formulas, display names, sort and summaries; hidden notes never rows or summed', async () => {
    const { s, text } = await ok('query_base', { base: 'Reading.base' });
    expect(s.view).toBe('All books');
    expect(s.type).toBe('table');
    expect(s.this).toBe('Reading.base');
    expect(s.columns).toEqual([
      { id: 'file.name', displayName: 'file.name' },
      { id: 'status', displayName: 'Status' },
      { id: 'price', displayName: 'price' },
      { id: 'formula.ppu', displayName: 'Price per 100 pages' },
    ]);
    expect(s.total).toBe(3);
    expect(s.groups).toEqual([
      {
        rows: [
          {
            name: 'Books/Ulysses.md',
            id: AN_ID,
            values: { 'file.name': 'Ulysses.md', status: 'to-read', price: 20, 'formula.ppu': 'Infinity' },
          },
          {
            name: 'Books/Dune.md',
            id: AN_ID,
            values: { 'file.name': 'Dune.md', status: 'reading', price: 12, 'formula.ppu': '2.00' },
          },
          {
            name: 'Books/Emma.md',
            id: AN_ID,
            values: { 'file.name': 'Emma.md', status: 'to-read', price: 5, 'formula.ppu': '1.25' },
          },
        ],
        summaries: { price: 37 },
      },
    ]);
    expect(text).toContain('| file.name | Status | price | Price per 100 pages |');
    expect(text).not.toContain('Secret');
  });

  it('a list view with its own filter', async () => {
    const { s, text } = await ok('query_base', { base: 'Reading.base', view: 'To read' });
    expect(s.type).toBe('list');
    expect(rowsOf(s).map((r) => r.values)).toEqual([
      { 'file.basename': 'Emma', author: '[[Jane.md]]' },
      { 'file.basename': 'Ulysses', author: null },
    ]);
    expect(text).toContain('- Books/Emma.md — file.basename: Emma; author: [[Jane.md]]');
  });

  it('a cards view grouped by a property, with a custom summary per group; no hidden group key', async () => {
    const { s } = await ok('query_base', { base: 'Reading.base', view: 'By status' });
    expect(s.type).toBe('cards');
    expect(
      s.groups.map((g: Structured) => [g.key, g.rows.map((r: Structured) => r.name), g.summaries]),
    ).toEqual([
      ['reading', ['Books/Dune.md'], { price: 12 }],
      ['to-read', ['Books/Emma.md', 'Books/Ulysses.md'], { price: 25 }],
    ]);
    expect(rowsOf(s)[0]?.values['formula.label']).toBe('12.00 dollars');
  });

  it('a map view with a limit', async () => {
    const { s } = await ok('query_base', { base: 'Reading.base', view: 'Cheapest' });
    expect(s.type).toBe('map');
    expect(s.total).toBe(1);
    expect(rowsOf(s).map((r) => r.name)).toEqual(['Books/Emma.md']);
  });

  it('pages rows with a cursor, total counting them all', async () => {
    const first = await ok('query_base', { base: 'Reading.base', limit: 2 });
    expect(rowsOf(first.s).map((r) => r.name)).toEqual(['Books/Ulysses.md', 'Books/Dune.md']);
    expect(first.s.more).toBe(true);
    const second = await ok('query_base', { base: 'Reading.base', limit: 2, cursor: first.s.nextCursor });
    expect(rowsOf(second.s).map((r) => r.name)).toEqual(['Books/Emma.md']);
    expect(second.s.more).toBe(false);
    expect(second.s.total).toBe(3);
  });

  it('a ```base block: this is the embedding note, or the note the agent names', async () => {
    const linked = await ok('query_base', { base: 'Authors.md' });
    expect(linked.s.this).toBe('Authors.md');
    expect(rowsOf(linked.s).map((r) => r.name)).toEqual(['Frank.md', 'Jane.md']);
    const backlinks = await ok('query_base', { base: 'Authors.md', block: 1, this: 'Frank' });
    expect(backlinks.s.this).toBe('Frank.md');
    // The hidden private/Secret book.md links to Frank too, but is never a row.
    expect(rowsOf(backlinks.s).map((r) => r.name)).toEqual(['Authors.md', 'Books/Dune.md']);
  });

  it('file.backlinks leaves hidden notes out', async () => {
    const r = await ok('query_base', { base: 'Authors.md', block: 1, this: 'Frank' });
    // Dune is linked from Frank.md and from the hidden private/Secret book.md.
    expect(rowsOf(r.s).find((row) => row.name === 'Books/Dune.md')?.values['file.backlinks']).toEqual([
      '[[Frank.md]]',
    ]);
  });

  it('a base that does not parse is refused with its line and column', async () => {
    const r = await vault.call('query_base', { base: 'Broken.base' });
    expect(r.isError).toBe(true);
    expect(r.structured.code).toBe('validation_error');
    expect(r.structured.message).toContain('line 3, column 22');
  });

  it('an unknown view names the views there are', async () => {
    const r = await vault.call('query_base', { base: 'Reading.base', view: 'Nope' });
    expect(r.structured.code).toBe('validation_error');
    expect(r.structured.message).toContain('"All books", "To read", "By status", "Cheapest"');
  });
});

describe('query_notes where: one Bases filter, the same evaluator', () => {
  const names = async (args: Record<string, unknown>): Promise<string[]> =>
    (await ok('query_notes', args)).s.rows.map((r: Structured) => r.name);

  it('an expression string, ANDed with the other arguments; hidden notes never match', async () => {
    expect(await names({ where: 'file.hasTag("book") && price > 10' })).toEqual([
      'Books/Dune.md',
      'Books/Ulysses.md',
    ]);
    expect(
      await names({
        where: 'price > 10',
        folder: 'Books',
        filters: [{ property: 'status', op: 'equals', value: 'to-read' }],
      }),
    ).toEqual(['Books/Ulysses.md']);
    expect(await names({ where: 'author == link("Frank")' })).toEqual(['Books/Dune.md']);
  });

  it('an and/or/not object', async () => {
    expect(
      await names({
        where: { and: ['file.hasTag("book")', { not: ['status == "reading"'] }] },
        columns: ['status'],
      }),
    ).toEqual(['Books/Emma.md', 'Books/Ulysses.md']);
    expect(await names({ where: { or: ['file.name == "Frank.md"', 'file.name == "Jane.md"'] } })).toEqual([
      'Frank.md',
      'Jane.md',
    ]);
  });

  it('a filter that does not parse is refused with its line and column; an unknown function with a suggestion', async () => {
    const bad = await vault.call('query_notes', { where: { and: ['price >', 'true'] } });
    expect(bad.structured.code).toBe('validation_error');
    expect(bad.structured.message).toBe(
      'where.and[0] (line 1, column 8): The expression ends where a value was expected.',
    );
    const unknown = await vault.call('query_notes', { where: 'file.hasTagg("book")' });
    expect(unknown.structured.message).toContain('Unknown function "hasTagg". Did you mean "hasTag"?');
  });
});
