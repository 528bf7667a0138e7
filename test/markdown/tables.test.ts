import { describe, expect, it } from 'vitest';
import { splitLines } from '../../src/markdown/lines.js';
import { outlineTables } from '../../src/markdown/outline-parts.js';

const tables = (body: string, maxRows?: number) => outlineTables(splitLines(body), 0, 100, maxRows).tables;

describe('Markdown pipe tables as GFM reads them', () => {
  it('reads header, delimiter with alignment colons, and rows as objects by header, cells trimmed', () => {
    expect(tables('| Name | Qty |\n|:-----|----:|\n| apple |  3 |\n|pear|10|\n')).toEqual([
      {
        line: 1,
        to: 4,
        headers: ['Name', 'Qty'],
        rows: [
          { Name: 'apple', Qty: '3' },
          { Name: 'pear', Qty: '10' },
        ],
      },
    ]);
  });

  it('needs no outer pipes; short rows get empty cells, long rows lose the extra ones', () => {
    expect(tables('a | b | c\n--- | --- | ---\n1 | 2\n1 | 2 | 3 | 4\n')[0]?.rows).toEqual([
      { a: '1', b: '2', c: '' },
      { a: '1', b: '2', c: '3' },
    ]);
  });

  it('reads \\| as a pipe inside a cell; a pipe inside `code` still splits, as in GFM and Obsidian', () => {
    const [t] = tables('| expr | note |\n| --- | --- |\n| `a \\| b` | or |\n| `x | y` |\n');
    expect(t?.rows).toEqual([
      { expr: '`a | b`', note: 'or' },
      { expr: '`x', note: 'y`' },
    ]);
  });

  it('is not a table when the delimiter row has another number of cells, or there is none', () => {
    expect(tables('| a | b |\n| --- |\n| 1 | 2 |\n')).toEqual([]);
    expect(tables('| a | b |\n| 1 | 2 |\n')).toEqual([]);
    expect(tables('a | b\n')).toEqual([]);
  });

  it('ends at a blank line or another block; a plain line right after the rows is one more row', () => {
    const body = '| a |\n| - |\n| 1 |\nlazy\n# Heading\n\n| b |\n| - |\n| 2 |\n\nafter\n';
    expect(tables(body).map((t) => [t.line, t.to, t.rows])).toEqual([
      [1, 4, [{ a: '1' }, { a: 'lazy' }]],
      [7, 9, [{ b: '2' }]],
    ]);
  });

  it('finds none inside fenced code', () => {
    expect(tables('```\n| a | b |\n| - | - |\n| 1 | 2 |\n```\n')).toEqual([]);
    expect(tables('~~~md\n| a |\n| - |\n~~~\n| b |\n| - |\n')).toEqual([
      { line: 5, to: 6, headers: ['b'], rows: [] },
    ]);
  });

  it('keys an empty header as column N and a repeated one with (2); __proto__ is a key like any', () => {
    const [t] = tables('| x | | x | __proto__ |\n|-|-|-|-|\n| 1 | 2 | 3 | 4 |\n');
    expect(t?.headers).toEqual(['x', 'column 2', 'x (2)', '__proto__']);
    expect(Object.keys(t?.rows[0] ?? {})).toEqual(['x', 'column 2', 'x (2)', '__proto__']);
    expect(Object.getPrototypeOf(t?.rows[0])).toBe(Object.prototype);
  });

  it('gives at most maxRows rows and says it is truncated; its last line is still the table’s', () => {
    const body = `| n |\n| - |\n${Array.from({ length: 50 }, (_, i) => `| ${i} |`).join('\n')}\n`;
    const [t] = tables(body, 10);
    expect(t?.rows).toHaveLength(10);
    expect(t?.truncated).toBe(true);
    expect(t?.to).toBe(52);
    expect(tables(body, 50)[0]?.truncated).toBeUndefined();
  });
});
