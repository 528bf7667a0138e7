/**
 * Views of a base over a small vault made in the test: a table of cases, each a base and the rows,
 * values, groups and summaries it answers (SPEC 16.2). The Bases syntax page's own example base is
 * among them.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { readBase } from '../../src/bases/base-file.js';
import type { BasesHost, FileFacts } from '../../src/bases/host.js';
import { BasesSyntaxError } from '../../src/bases/syntax-error.js';
import { pickView, runView, type ViewAnswer } from '../../src/bases/view.js';
import { memoryHost } from './memory-host.js';

let host: BasesHost & { all: FileFacts[] };

beforeAll(async () => {
  host = await memoryHost([
    {
      path: 'Books/Dune.md',
      props: { price: 12, age: 4, status: 'reading', read: true, finished: '2025-01-10' },
      tags: ['book'],
      links: ['Textbook'],
    },
    {
      path: 'Books/Emma.md',
      props: { price: 5, age: 2, status: 'to-read', read: false, finished: '2025-03-01' },
      tags: ['book'],
    },
    {
      path: 'Books/Ulysses.md',
      props: { price: 20, age: 1, status: 'done', read: true },
      tags: ['book', 'classic'],
    },
    { path: 'Required Reading/Iliad.md', props: { price: 8, age: 10, status: 'to-read' }, tags: ['book'] },
    { path: 'Textbook.md', props: { price: 50, age: 3 }, tags: ['tag'] },
    { path: 'notes.md', props: {}, tags: [] },
    { path: 'cover.png' },
  ]);
});

async function run(yaml: string, view?: string): Promise<ViewAnswer> {
  const base = readBase(yaml);
  const v = pickView(base, view);
  if (v === null) throw new Error(`no view ${view}`);
  return runView(base, v, host.all, { host, thisPath: 'Books.base', checkpoint: async () => undefined });
}

const names = (a: ViewAnswer): string[] => a.groups.flatMap((g) => g.rows.map((r) => r.name));

describe('views of a base (a table of cases)', () => {
  it("the syntax page's example base: global or/and/not filters, view filters, formulas, groupBy DESC, limit, a summary", async () => {
    const a = await run(`filters:
  or:
    - file.hasTag("tag")
    - and:
        - file.hasTag("book")
        - file.hasLink("Textbook")
    - not:
        - file.hasTag("book")
        - file.inFolder("Required Reading")
formulas:
  formatted_price: 'if(price, price.toFixed(2) + " dollars")'
  ppu: "(price / age).toFixed(2)"
properties:
  status:
    displayName: Status
  formula.formatted_price:
    displayName: "Price"
  file.ext:
    displayName: Extension
summaries:
  customAverage: 'values.mean().round(3)'
views:
  - type: table
    name: "My table"
    limit: 10
    groupBy:
      property: note.age
      direction: DESC
    filters:
      and:
        - 'status != "done"'
        - or:
            - "formula.ppu > 5"
            - "price > 2.1"
    order:
      - file.name
      - file.ext
      - note.age
      - formula.ppu
      - formula.formatted_price
    summaries:
      formula.ppu: Average
`);
    // Rows: Textbook (tag), Dune (book linking Textbook), notes.md and cover.png (neither book nor
    // in Required Reading) — then the view keeps status != "done" and (ppu > 5 or price > 2.1).
    expect(a.columns).toEqual([
      { id: 'file.name', displayName: 'file.name' },
      { id: 'file.ext', displayName: 'Extension' },
      { id: 'note.age', displayName: 'age' },
      { id: 'formula.ppu', displayName: 'formula.ppu' },
      { id: 'formula.formatted_price', displayName: 'Price' },
    ]);
    expect(a.groups.map((g) => [g.key, g.rows.map((r) => r.values)])).toEqual([
      [
        4,
        [
          {
            'file.name': 'Dune.md',
            'file.ext': 'md',
            'note.age': 4,
            'formula.ppu': '3.00',
            'formula.formatted_price': '12.00 dollars',
          },
        ],
      ],
      [
        3,
        [
          {
            'file.name': 'Textbook.md',
            'file.ext': 'md',
            'note.age': 3,
            'formula.ppu': '16.67',
            'formula.formatted_price': '50.00 dollars',
          },
        ],
      ],
    ]);
    // Average of formula.ppu, whose values are text ("3.00"): text holding a number counts.
    expect(a.groups.map((g) => g.summaries)).toEqual([{ 'formula.ppu': 3 }, { 'formula.ppu': 16.67 }]);
    expect(a.total).toBe(2);
  });

  it('every default summary, over one group', async () => {
    // One view per summary: a view maps each column to one summary.
    const one = async (prop: string, s: string) =>
      (
        await run(
          `filters: file.hasTag("book")\nviews:\n  - type: table\n    name: v\n    summaries:\n      ${prop}: ${s}\n`,
        )
      ).groups[0]?.summaries?.[prop];
    expect(await one('price', 'Average')).toBe(11.25);
    expect(await one('price', 'Min')).toBe(5);
    expect(await one('price', 'Max')).toBe(20);
    expect(await one('price', 'Sum')).toBe(45);
    expect(await one('price', 'Range')).toBe(15);
    expect(await one('price', 'Median')).toBe(10);
    expect(await one('price', 'Stddev')).toBeCloseTo(
      Math.sqrt((0.75 ** 2 + 6.25 ** 2 + 8.75 ** 2 + 3.25 ** 2) / 4),
      10,
    );
    expect(await one('status', 'Unique')).toBe(3);
    expect(await one('finished', 'Empty')).toBe(2);
    expect(await one('finished', 'Filled')).toBe(2);
    expect(await one('finished', 'Earliest')).toBe('2025-01-10T00:00:00');
    expect(await one('finished', 'Latest')).toBe('2025-03-01T00:00:00');
    expect(await one('finished', 'Range')).toBe('50d');
    expect(await one('read', 'Checked')).toBe(2);
    expect(await one('read', 'Unchecked')).toBe(1);
  });

  it('a custom summary over values, as the syntax page writes it', async () => {
    const a = await run(`filters: file.hasTag("book")
summaries:
  customAverage: 'values.mean().round(3)'
views:
  - type: table
    name: v
    order: [file.name, age]
    summaries:
      age: customAverage
`);
    expect(a.groups[0]?.summaries).toEqual({ age: 4.25 });
  });

  it('sorts by several keys, empty values last in either direction', async () => {
    const a = await run(`views:
  - type: table
    name: v
    filters: 'file.ext == "md"'
    sort:
      - property: status
        direction: DESC
      - property: price
        direction: ASC
`);
    expect(names(a)).toEqual([
      'Books/Emma.md',
      'Required Reading/Iliad.md',
      'Books/Dune.md',
      'Books/Ulysses.md',
      // No status: after every status, then by price (none last).
      'Textbook.md',
      'notes.md',
    ]);
  });

  it('a formula error shows in its cell and keeps the row; a formula may use another', async () => {
    const a = await run(`formulas:
  half: "price / 2"
  label: 'formula.half.toFixed(1) + " each"'
  bad: "status.round()"
views:
  - type: table
    name: v
    filters: 'file.inFolder("Books")'
    order: [file.basename, formula.label, formula.bad]
`);
    expect(a.groups[0]?.rows.map((r) => r.values)).toEqual([
      {
        'file.basename': 'Dune',
        'formula.label': '6.0 each',
        'formula.bad': { error: '"round" is not a method of a string.' },
      },
      {
        'file.basename': 'Emma',
        'formula.label': '2.5 each',
        'formula.bad': { error: '"round" is not a method of a string.' },
      },
      {
        'file.basename': 'Ulysses',
        'formula.label': '10.0 each',
        'formula.bad': { error: '"round" is not a method of a string.' },
      },
    ]);
  });

  it('rows are every file: attachments too, as file.ext tells', async () => {
    const a = await run(
      `views:\n  - type: list\n    name: v\n    filters: 'file.ext != "md"'\n    order: [file.name, file.size]\n`,
    );
    expect(a.groups[0]?.rows).toEqual([
      { name: 'cover.png', values: { 'file.name': 'cover.png', 'file.size': 100 } },
    ]);
    expect(a.type).toBe('list');
  });

  it('a base without views answers one table view of every file, by name', async () => {
    const a = await run('filters: file.hasTag("classic")\n');
    expect(a.view).toBe('Table');
    expect(names(a)).toEqual(['Books/Ulysses.md']);
  });

  it('refuses what does not parse with line and column: YAML, an expression, an unknown key, a cycle', () => {
    const err = (yaml: string): [number, number, string] => {
      try {
        readBase(yaml);
      } catch (e) {
        if (e instanceof BasesSyntaxError) return [e.line, e.column, e.message];
        throw e;
      }
      throw new Error('parsed');
    };
    expect(err('views: [\n')[0]).toBe(2);
    expect(err('formulas:\n  a: "1 +"\n')).toEqual([
      2,
      10,
      'In formula "a": The expression ends where a value was expected.',
    ]);
    expect(err('filter: x\n')).toEqual([
      1,
      1,
      'Unknown key "filter" in a base; the keys are filters, formulas, properties, summaries, views.',
    ]);
    expect(err('formulas:\n  a: "formula.a"\n')[2]).toBe(
      'The formulas refer to each other in a cycle: formula.a → formula.a.',
    );
    expect(err('filters:\n  any: []\n')[2]).toBe('Unknown filter key "any" at filters; use and, or or not.');
    expect(err('views:\n  - name: v\n    summaries:\n      price: Mean\n')[2]).toContain(
      'Unknown summary "Mean"',
    );
    expect(err('views:\n  - name: v\n    order: [file.nmae]\n')[2]).toBe(
      'In the property "file.nmae": Unknown file property "file.nmae". Did you mean "file.name"?',
    );
  });
});
