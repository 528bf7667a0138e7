import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type BlockResult,
  parseFrontmatter,
  parseFrontmatterYaml,
  parseYamlBlock,
  readDocument,
  resolvePlainScalar,
} from '../../../src/markdown/frontmatter/frontmatter.js';
import { parseSimpleFrontmatter } from '../../../src/markdown/frontmatter/simple.js';

/** What the YAML library alone makes of a block: the reference the subset must agree with. */
function byLibrary(yaml: string): BlockResult {
  const parsed = parseFrontmatterYaml(yaml);
  return 'error' in parsed ? parsed : readDocument(parsed.doc, yaml);
}

/** Whether the block is read without the library (null: left to it). */
function simple(yaml: string): Record<string, unknown> | null {
  return parseSimpleFrontmatter(yaml, resolvePlainScalar);
}

describe('frontmatter read without the YAML library', () => {
  it('reads the blocks notes usually have, with the core schema’s types', () => {
    const yaml = [
      'title: Weekly sync notes',
      'tags:',
      '  - meeting',
      '  - area/house',
      'aliases: [Sync, "[[Weekly]]", \'Team sync\']',
      'created: 2025-04-28',
      'due:',
      'done: false',
      'Rating: 4',
      'ratio: 0.75',
      'big: 1e3',
      'hex: 0x1F',
      'octal: 0o17',
      'nothing: ~',
      'cssclasses: []',
      '# a comment line',
      'related:',
      '- "[[Other note]]"',
      '- 7',
      '-',
      '',
    ].join('\n');
    const expected = {
      title: 'Weekly sync notes',
      tags: ['meeting', 'area/house'],
      aliases: ['Sync', '[[Weekly]]', 'Team sync'],
      created: '2025-04-28',
      due: null,
      done: false,
      Rating: 4,
      ratio: 0.75,
      big: 1000,
      hex: 31,
      octal: 15,
      nothing: null,
      cssclasses: [],
      related: ['[[Other note]]', 7, null],
    };
    expect(simple(yaml)).not.toBeNull();
    expect(parseYamlBlock(yaml)).toStrictEqual({ data: expected });
    expect(byLibrary(yaml)).toStrictEqual({ data: expected });
    expect(Object.keys((parseYamlBlock(yaml) as { data: object }).data)).toEqual(Object.keys(expected));
  });

  it('reads an empty block and one of comments only as no properties', () => {
    expect(simple('')).toStrictEqual({});
    expect(simple('# just a comment\n\n')).toStrictEqual({});
    expect(byLibrary('# just a comment\n\n')).toStrictEqual({ data: {} });
  });

  it.each([
    ['a block scalar', 'summary: |\n  line one\n'],
    ['a folded scalar', 'summary: >-\n  text\n'],
    ['a comment after a value', 'status: draft # for now\n'],
    ['a nested map', 'author:\n  name: Ada\n'],
    ['a continuation line', 'title: a long\n  title\n'],
    ['a duplicate key', 'a: 1\na: 2\n'],
    ['a tab', 'a:\t1\n'],
    ['a carriage return', 'a: 1\r\n'],
    ['a key the schema reads as a boolean', 'true: 1\n'],
    ['the key __proto__', '__proto__: x\n'],
    ['an escape in double quotes', 'a: "x\\ty"\n'],
    ['a doubled quote in single quotes', "a: 'it''s'\n"],
    ['a nested flow list', 'a: [b, [c]]\n'],
    ['a flow map', 'a: {b: 1}\n'],
    ['a trailing comma', 'a: [b,]\n'],
    ['a flow list over two lines', 'a: [b,\n  c]\n'],
    ['an unquoted wikilink', 'up: [[Home]]\n'],
    ['an anchor and an alias', 'a: &x 1\nb: *x\n'],
    ['an explicit tag', 'a: !!str 5\n'],
    ['a value with ": "', 'a: b: c\n'],
    ['list items at two indents', 'a:\n  - x\n    - y\n'],
    ['a top-level list', '- a\n- b\n'],
    ['a key with a space before the colon', 'a : 1\n'],
    ['a document end marker', 'a: 1\n...\n'],
    ['a non-ASCII key', 'título: x\n'],
    ['a key over 200 characters', `${'k'.repeat(201)}: x\n`],
  ])('leaves %s to the library', (_what, yaml) => {
    expect(simple(yaml)).toBeNull();
    // …which reads it, or refuses it, as it did before the subset existed.
    expect(parseYamlBlock(yaml)).toStrictEqual(byLibrary(yaml));
  });

  it('resolves plain scalars as the library does, from its own tags', () => {
    const cases: [string, unknown][] = [
      ['~', null],
      ['Null', null],
      ['TRUE', true],
      ['false', false],
      ['0o17', 15],
      ['+5', 5],
      ['0x1F', 31],
      ['1e3', 1000],
      ['.5', 0.5],
      ['-.inf', Number.NEGATIVE_INFINITY],
      ['yes', 'yes'],
      ['2025-01-02', '2025-01-02'],
    ];
    for (const [text, value] of cases) expect(resolvePlainScalar(text)).toStrictEqual(value);
    expect(resolvePlainScalar('.nan')).toBeNaN();
    // Numbers past the float range are spelled out in the JSON form, as the library's are.
    expect(parseYamlBlock('a: .inf\nb: -1e400\nc: .NaN\n')).toStrictEqual({
      data: { a: '.inf', b: '-.inf', c: '.nan' },
    });
    expect(simple('a: .inf\n')).not.toBeNull();
  });

  it('keeps the library’s errors and values for what it leaves to it', () => {
    expect(parseFrontmatter('---\na: 1\na: 2\n---\n').error).toBe(
      'frontmatter YAML is invalid at line 3: Map keys must be unique',
    );
    expect(parseFrontmatter('---\nstatus: draft # for now\n---\n').data).toStrictEqual({ status: 'draft' });
    expect(parseFrontmatter('---\nup: [[Home]]\n---\n').data).toStrictEqual({ up: [['Home']] });
    expect(parseFrontmatter('---\na: b: c\n---\n').data).toBeNull();
  });

  it('keeps Unicode spaces that YAML does not strip (only spaces and tabs are YAML white space)', () => {
    // JavaScript's trim() also strips U+00A0, U+2000…U+200A, U+3000: such a block is left to the library.
    for (const space of ['\u00a0', '\u1680', '\u2000', '\u200a', '\u202f', '\u205f', '\u3000']) {
      for (const yaml of [`a: x${space}\n`, `a: ${space}x\n`, `a:\n  - x${space}\n`, `a: [x${space}]\n`]) {
        expect(parseYamlBlock(yaml), JSON.stringify(yaml)).toStrictEqual(byLibrary(yaml));
      }
    }
    expect(parseYamlBlock('a: x\u2000\n')).toStrictEqual({ data: { a: 'x\u2000' } });
  });

  it('agrees with the YAML library on every block it reads (generated blocks)', () => {
    const key = fc.constantFrom(
      'a',
      'b',
      'due date',
      'x.y',
      'k-1',
      '_k',
      'null',
      'True',
      'a ',
      '__proto__',
      'é',
      '1',
    );
    const scalar = fc.constantFrom(
      ...[
        ...[
          '',
          'x',
          'two words',
          '5',
          '-5',
          '+5',
          '007',
          '-0',
          '0o17',
          '0o8',
          '0x1F',
          '0xG',
          '1.5',
          '.5',
          '1.',
        ],
        ...[
          '1e3',
          '1E-3',
          '-2.5e+2',
          '1e400',
          '-1e400',
          '.inf',
          '-.Inf',
          '+.INF',
          '.NaN',
          '.nan',
          '.NAN',
          'nan',
        ],
        ...[
          'null',
          'Null',
          'NULL',
          'nULL',
          '~',
          'true',
          'TRUE',
          'tRue',
          'False',
          'yes',
          'no',
          'on',
          '2025-01-02',
        ],
        ...[
          '12:30',
          'a: b',
          'a:b',
          'ends:',
          'x #c',
          'x#c',
          '#c',
          "'q'",
          "'it''s'",
          "'a",
          '"d"',
          '"a\\"b"',
          '"a\\nb"',
        ],
        ...[
          '[a, b]',
          '[]',
          '[ ]',
          '[a,]',
          '[a, [b]]',
          '["x", \'y\']',
          '[-1, +2, 0x1, .5]',
          '[a b, c]',
          '[a:b]',
        ],
        ...[
          '[- a]',
          '[?x]',
          '["a, b"]',
          '{a: 1}',
          '|',
          '>-',
          '&a x',
          '*a',
          '!!str 5',
          '-',
          '- x',
          '--x',
          '---',
        ],
        ...[
          '?x',
          ':x',
          '%x',
          '@x',
          '`x`',
          'a, b',
          'a [b]',
          '[[Note]]',
          '"[[Note]]"',
          'é',
          '東京',
          '💡',
          '\t1',
        ],
        ...['x\r', '  spaced  ', 'C#', '5" screen', "it's", '"quoted" tail', "'q' 'r'", '"', "''", '""'],
      ],
    );
    const line = fc.oneof(
      {
        weight: 5,
        arbitrary: fc.tuple(key, fc.constantFrom(': ', ':', ':  ', ' : '), scalar).map((p) => p.join('')),
      },
      {
        weight: 4,
        arbitrary: fc
          .tuple(fc.constantFrom('- ', '  - ', '    - ', '-', '  -', '-  '), scalar)
          .map((p) => p.join('')),
      },
      {
        weight: 1,
        arbitrary: fc.constantFrom('# c', '', '   ', '  # c', '  more', '...', '---', 'a:', 'tags:'),
      },
    );
    let read = 0;
    fc.assert(
      fc.property(fc.array(line, { maxLength: 7 }), fc.boolean(), (lines, finalBreak) => {
        const yaml = lines.join('\n') + (finalBreak ? '\n' : '');
        if (simple(yaml) === null) return;
        read++;
        expect(parseYamlBlock(yaml)).toStrictEqual(byLibrary(yaml));
      }),
      { numRuns: 4000 },
    );
    // The comparison means something only if the subset read a good share of the blocks.
    expect(read).toBeGreaterThan(400);
  });
});
