import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NotedError } from '../../../src/common/errors.js';
import { queryNotes } from '../../../src/index/table/query.js';
import { MAX_GROUP_DEPTH } from '../../../src/index/table/spec.js';
import { type IndexedVault, indexedVault } from '../indexed-vault.js';

const TODAY = '2026-05-10';

let vault: IndexedVault;
beforeAll(() => {
  vault = indexedVault({
    'projects/alpha.md': [
      '---',
      'status: Active',
      'priority: 2',
      'due: 2026-05-01',
      'tags: [project/alpha, urgent]',
      'owner: Bo Berg',
      'score: "7"',
      'done: false',
      '---',
      '[[beta]] [[Gamma]]',
      '',
    ].join('\n'),
    'projects/beta.md': [
      '---',
      'Status: done',
      'priority: 10',
      'due: 2026-06-15T09:30',
      'tags: project',
      'related: ["[[alpha]]"]',
      'empty: ""',
      'list: []',
      '---',
      '',
    ].join('\n'),
    'projects/old/gamma.md':
      '---\nstatus: active\npriority: 1\ndue: 2025-12-31\naliases: [G]\n---\n#inline-tag\n',
    'notes/delta.md': 'No frontmatter. [[Nowhere]] [[G]]\n',
    'notes/epsilon.md': '---\nstatus: [a, b]\npriority: high\nname: Eps\n$weird: 1\n---\n',
    'archive/beta.md': 'another note called beta\n',
    'broken.md': '---\nstatus: [active\n---\n',
  });
});
afterAll(() => vault.close());

// biome-ignore lint/suspicious/noExplicitAny: requests are written as a model would send them
function names(q: any, today = TODAY): string[] {
  return queryNotes(vault.db, { limit: 500, ...q }, { today }).rows.map((r) => r.name as string);
}

// biome-ignore lint/suspicious/noExplicitAny: one filter, as a model would send it
function where(filter: any): string[] {
  return names({ filters: [filter] });
}

describe('queryNotes: scope, rows, sort, limit', () => {
  it('with nothing asked, lists every note by name, 50 at most, with the total', () => {
    const result = queryNotes(vault.db, {}, { today: TODAY });
    expect(result.total).toBe(7);
    expect(result.rows.map((r) => r.name)).toEqual([
      'archive/beta.md',
      'broken.md',
      'notes/delta.md',
      'notes/epsilon.md',
      'projects/alpha.md',
      'projects/beta.md',
      'projects/old/gamma.md',
    ]);
  });

  it('folder includes sub-folders; tag includes nested tags; both together narrow', () => {
    expect(names({ folder: 'Projects' })).toEqual([
      'projects/alpha.md',
      'projects/beta.md',
      'projects/old/gamma.md',
    ]);
    expect(names({ folder: 'projects/old/' })).toEqual(['projects/old/gamma.md']);
    expect(names({ tag: '#project' })).toEqual(['projects/alpha.md', 'projects/beta.md']);
    expect(names({ tag: 'inline-tag', folder: 'projects' })).toEqual(['projects/old/gamma.md']);
  });

  it('columns: frontmatter keys case-insensitively, file properties, null when missing', () => {
    const result = queryNotes(
      vault.db,
      { folder: 'projects', columns: ['STATUS', '$folder', '$tags', 'missing', 'due'], limit: 2 },
      { today: TODAY },
    );
    expect(result.total).toBe(3);
    expect(result.rows).toEqual([
      {
        name: 'projects/alpha.md',
        STATUS: 'Active',
        $folder: 'projects',
        $tags: ['project/alpha', 'urgent'],
        missing: null,
        due: '2026-05-01',
      },
      {
        name: 'projects/beta.md',
        STATUS: 'done',
        $folder: 'projects',
        $tags: ['project'],
        missing: null,
        due: '2026-06-15T09:30',
      },
    ]);
  });

  it('note.key reaches a frontmatter key called name or starting with $', () => {
    const rows = queryNotes(
      vault.db,
      { folder: 'notes', columns: ['note.name', 'note.$weird', '$name'] },
      { today: TODAY },
    ).rows;
    expect(rows).toEqual([
      { name: 'notes/delta.md', 'note.name': null, 'note.$weird': null, $name: 'notes/delta.md' },
      { name: 'notes/epsilon.md', 'note.name': 'Eps', 'note.$weird': 1, $name: 'notes/epsilon.md' },
    ]);
  });

  it('sort: by a property with empty values last either way, ties by name', () => {
    expect(names({ sort: [{ property: 'due', direction: 'asc' }] })).toEqual([
      'projects/old/gamma.md',
      'projects/alpha.md',
      'projects/beta.md',
      'archive/beta.md',
      'broken.md',
      'notes/delta.md',
      'notes/epsilon.md',
    ]);
    expect(names({ sort: [{ property: 'due', direction: 'desc' }] }).slice(0, 4)).toEqual([
      'projects/beta.md',
      'projects/alpha.md',
      'projects/old/gamma.md',
      'archive/beta.md',
    ]);
    expect(names({ folder: 'projects', sort: [{ property: 'priority', direction: 'DESC' }] })).toEqual([
      'projects/beta.md',
      'projects/alpha.md',
      'projects/old/gamma.md',
    ]);
  });

  it('sort: several keys, the first one deciding; direction defaults to asc', () => {
    expect(
      names({
        folder: 'projects',
        sort: [{ property: 'status' }, { property: '$name', direction: 'desc' }],
      }),
    ).toEqual(['projects/old/gamma.md', 'projects/alpha.md', 'projects/beta.md']);
  });

  it('a note with unparseable frontmatter has no properties (PROP-20)', () => {
    expect(where({ property: 'status', op: 'is_empty' })).toContain('broken.md');
  });

  it('hidden notes are left out of rows, totals and has_link', () => {
    const visible = (p: string) => !p.startsWith('projects/old/');
    const hidden = { filters: [{ op: 'has_link', value: 'projects/old/gamma' }] };
    expect(queryNotes(vault.db, hidden, { today: TODAY, visible })).toEqual({
      rows: [],
      total: 0,
      more: false,
    });
    // With its only owner hidden, the alias link [[G]] is an unresolved link like any other.
    const alias = { filters: [{ op: 'has_link', value: 'G' }] };
    expect(queryNotes(vault.db, alias, { today: TODAY }).rows.map((r) => r.name)).toEqual([
      'notes/delta.md',
      'projects/alpha.md',
    ]);
    expect(queryNotes(vault.db, alias, { today: TODAY, visible }).rows.map((r) => r.name)).toEqual([
      'notes/delta.md',
    ]);
    expect(
      queryNotes(vault.db, { filters: [{ op: 'has_link', value: 'nowhere' }] }, { today: TODAY, visible })
        .total,
    ).toBe(1);
    expect(queryNotes(vault.db, { folder: 'projects' }, { today: TODAY, visible }).total).toBe(2);
  });
});

describe('queryNotes: operators', () => {
  it('equals compares the whole value: text case-insensitively, numbers loosely, lists whole, dates by day', () => {
    expect(where({ property: 'status', op: 'equals', value: 'ACTIVE' })).toEqual([
      'projects/alpha.md',
      'projects/old/gamma.md',
    ]);
    expect(where({ property: 'status', op: 'equals', value: 'done' })).toEqual(['projects/beta.md']);
    expect(where({ property: 'priority', op: 'equals', value: 2 })).toEqual(['projects/alpha.md']);
    expect(where({ property: 'priority', op: 'equals', value: '2' })).toEqual(['projects/alpha.md']);
    expect(where({ property: 'score', op: 'equals', value: 7 })).toEqual(['projects/alpha.md']);
    expect(where({ property: 'status', op: 'equals', value: ['A', 'b'] })).toEqual(['notes/epsilon.md']);
    expect(where({ property: 'status', op: 'equals', value: 'a' })).toEqual([]);
    expect(where({ property: 'due', op: 'equals', value: '2026-06-15' })).toEqual(['projects/beta.md']);
    expect(where({ property: 'done', op: 'equals', value: false })).toEqual(['projects/alpha.md']);
    expect(where({ property: '$name', op: 'equals', value: 'Projects/Alpha' })).toEqual([
      'projects/alpha.md',
    ]);
    expect(where({ property: '$folder', op: 'equals', value: 'projects/' })).toEqual([
      'projects/alpha.md',
      'projects/beta.md',
    ]);
    expect(where({ property: '$tags', op: 'equals', value: ['#Inline-Tag'] })).toEqual([
      'projects/old/gamma.md',
    ]);
  });

  it('not_equals is the exact negation, so notes without the property match', () => {
    expect(where({ property: 'status', op: 'not_equals', value: 'active' })).toEqual([
      'archive/beta.md',
      'broken.md',
      'notes/delta.md',
      'notes/epsilon.md',
      'projects/beta.md',
    ]);
  });

  it('contains: list membership, substring of text, nested tags for tags and $tags', () => {
    expect(where({ property: 'status', op: 'contains', value: 'a' })).toEqual([
      'notes/epsilon.md',
      'projects/alpha.md',
      'projects/old/gamma.md',
    ]);
    expect(where({ property: 'owner', op: 'contains', value: 'BERG' })).toEqual(['projects/alpha.md']);
    expect(where({ property: 'tags', op: 'contains', value: 'project' })).toEqual([
      'projects/alpha.md',
      'projects/beta.md',
    ]);
    expect(where({ property: 'tags', op: 'contains', value: 'proj' })).toEqual([]);
    expect(where({ property: '$tags', op: 'contains', value: '#inline-tag' })).toEqual([
      'projects/old/gamma.md',
    ]);
    expect(where({ property: '$name', op: 'contains', value: 'TA' })).toEqual([
      'archive/beta.md',
      'notes/delta.md',
      'projects/beta.md',
    ]);
    expect(where({ property: 'priority', op: 'contains', value: 1 })).toEqual([]);
  });

  it('not_contains is the exact negation', () => {
    expect(
      names({ folder: 'projects', filters: [{ property: 'tags', op: 'not_contains', value: 'urgent' }] }),
    ).toEqual(['projects/beta.md', 'projects/old/gamma.md']);
  });

  it('is_empty: missing, null, "", [] ; is_not_empty the rest', () => {
    expect(where({ property: 'empty', op: 'is_not_empty' })).toEqual([]);
    expect(where({ property: 'list', op: 'is_not_empty' })).toEqual([]);
    expect(where({ property: 'status', op: 'is_not_empty' })).toEqual([
      'notes/epsilon.md',
      'projects/alpha.md',
      'projects/beta.md',
      'projects/old/gamma.md',
    ]);
    expect(where({ property: 'status', op: 'is_empty' })).toEqual([
      'archive/beta.md',
      'broken.md',
      'notes/delta.md',
    ]);
  });

  it('gt, lt, gte, lte compare numbers numerically (text holding a number too), other values never match', () => {
    expect(where({ property: 'priority', op: 'gt', value: 1 })).toEqual([
      'projects/alpha.md',
      'projects/beta.md',
    ]);
    expect(where({ property: 'priority', op: 'lte', value: 2 })).toEqual([
      'projects/alpha.md',
      'projects/old/gamma.md',
    ]);
    expect(where({ property: 'priority', op: 'gte', value: '10' })).toEqual(['projects/beta.md']);
    expect(where({ property: 'priority', op: 'lt', value: 1.5 })).toEqual(['projects/old/gamma.md']);
    expect(where({ property: 'score', op: 'gt', value: 5 })).toEqual(['projects/alpha.md']);
  });

  it('gt, lt, before, after compare dates; a plain date compares by day; "today" is the given day', () => {
    expect(where({ property: 'due', op: 'before', value: '2026-05-01' })).toEqual(['projects/old/gamma.md']);
    expect(where({ property: 'due', op: 'after', value: '2026-05-01' })).toEqual(['projects/beta.md']);
    expect(where({ property: 'due', op: 'gte', value: '2026-05-01' })).toEqual([
      'projects/alpha.md',
      'projects/beta.md',
    ]);
    expect(where({ property: 'due', op: 'lt', value: '2026-06-15T09:31' })).toEqual([
      'projects/alpha.md',
      'projects/beta.md',
      'projects/old/gamma.md',
    ]);
    expect(where({ property: 'due', op: 'lt', value: '2026-06-15T09:30' })).toEqual([
      'projects/alpha.md',
      'projects/old/gamma.md',
    ]);
    expect(where({ property: 'due', op: 'lte', value: '2026-06-15' })).toHaveLength(3);
    expect(where({ property: 'due', op: 'before', value: 'today' })).toEqual([
      'projects/alpha.md',
      'projects/old/gamma.md',
    ]);
    expect(names({ filters: [{ property: 'due', op: 'before', value: 'today' }] }, '2026-01-01')).toEqual([
      'projects/old/gamma.md',
    ]);
    // Times without a zone read as UTC; an offset is converted.
    expect(where({ property: 'due', op: 'after', value: '2026-06-15T10:30+01:00' })).toEqual([]);
    expect(where({ property: 'due', op: 'after', value: '2026-06-15T09:30+01:00' })).toEqual([
      'projects/beta.md',
    ]);
    expect(where({ property: '$modified', op: 'after', value: '2000-01-01' })).toHaveLength(7);
    expect(where({ property: '$created', op: 'before', value: '2000-01-01' })).toEqual([]);
  });

  it('has_tag: the tag or one nested below it', () => {
    expect(where({ op: 'has_tag', value: 'Urgent' })).toEqual(['projects/alpha.md']);
    expect(where({ op: 'has_tag', value: '#project' })).toEqual(['projects/alpha.md', 'projects/beta.md']);
  });

  it('has_link: notes with a link resolving to the named note (frontmatter links and aliases too)', () => {
    expect(where({ op: 'has_link', value: 'projects/alpha' })).toEqual(['projects/beta.md']);
    expect(where({ op: 'has_link', value: 'gamma' })).toEqual(['notes/delta.md', 'projects/alpha.md']);
    expect(where({ op: 'has_link', value: 'projects/beta.md' })).toEqual(['projects/alpha.md']);
    expect(where({ op: 'has_link', value: 'archive/beta' })).toEqual([]);
  });

  it('has_link with a name no note has: the notes whose unresolved links name it', () => {
    expect(where({ op: 'has_link', value: 'nowhere' })).toEqual(['notes/delta.md']);
    expect(where({ op: 'has_link', value: 'Nothing At All' })).toEqual([]);
  });

  it('has_link with a bare name that several notes have is ambiguous, with the candidates', () => {
    let error: unknown;
    try {
      where({ op: 'has_link', value: 'beta' });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(NotedError);
    expect((error as NotedError).code).toBe('ambiguous');
    expect((error as NotedError).details.candidates).toEqual(['archive/beta.md', 'projects/beta.md']);
  });

  it('an OR branch that accepts notes without the property keeps them (no narrowing to the key)', () => {
    expect(
      names({
        filters: [
          {
            any: [
              { property: 'status', op: 'equals', value: 'done' },
              { property: 'status', op: 'is_empty' },
            ],
          },
        ],
      }),
    ).toEqual(['archive/beta.md', 'broken.md', 'notes/delta.md', 'projects/beta.md']);
    expect(
      names({
        filters: [
          { property: 'priority', op: 'gt', value: 1 },
          { property: 'owner', op: 'not_equals', value: 'x' },
        ],
      }),
    ).toEqual(['projects/alpha.md', 'projects/beta.md']);
  });

  it('has_link reaches an attachment by its name', () => {
    vault.write('img/Photo.png', 'png bytes');
    vault.write('notes/pic.md', '![[Photo.png]]\n');
    try {
      expect(where({ op: 'has_link', value: 'Photo.png' })).toEqual(['notes/pic.md']);
    } finally {
      vault.remove('notes/pic.md');
      vault.remove('img/Photo.png');
    }
  });

  it('filters combine with AND; {any: […]} is an OR group; groups nest', () => {
    expect(
      names({
        filters: [
          { property: 'priority', op: 'gte', value: 1 },
          {
            any: [
              { property: 'status', op: 'equals', value: 'done' },
              { op: 'has_tag', value: 'urgent' },
            ],
          },
        ],
      }),
    ).toEqual(['projects/alpha.md', 'projects/beta.md']);
    expect(
      names({
        filters: [
          {
            any: [
              { any: [{ property: '$folder', op: 'equals', value: 'notes' }] },
              {
                all: [
                  { property: 'priority', op: 'gt', value: 1 },
                  { property: 'priority', op: 'lt', value: 5 },
                ],
              },
            ],
          },
        ],
      }),
    ).toEqual(['notes/delta.md', 'notes/epsilon.md', 'projects/alpha.md']);
  });

  it('groups nest up to the depth limit; deeper is refused as too_large, never a stack overflow', () => {
    const nest = (group: 'any' | 'all', depth: number): unknown => {
      let filter: unknown = { property: 'status', op: 'equals', value: 'done' };
      for (let i = 0; i < depth; i++) filter = { [group]: [filter] };
      return filter;
    };
    expect(where(nest('any', MAX_GROUP_DEPTH))).toEqual(['projects/beta.md']);
    expect(where(nest('all', MAX_GROUP_DEPTH))).toEqual(['projects/beta.md']);
    // 3,000 levels overflowed the stack (a RangeError, not an answer).
    for (const depth of [MAX_GROUP_DEPTH + 1, 3000]) {
      let error: unknown;
      try {
        where(nest('any', depth));
      } catch (err) {
        error = err;
      }
      expect(error).toBeInstanceOf(NotedError);
      expect((error as NotedError).code).toBe('too_large');
      expect((error as NotedError).message).toContain(`more than ${MAX_GROUP_DEPTH} deep`);
      expect((error as NotedError).details.at).toBe(`filters[0]${'.any[0]'.repeat(MAX_GROUP_DEPTH)}`);
    }
  });
});

describe('queryNotes refuses what it cannot understand, saying where and why', () => {
  const refusals: [string, unknown, RegExp][] = [
    [
      'unknown op',
      { filters: [{ property: 'a', op: 'like', value: 'x' }] },
      /filters\[0\] has op "like"; the ops are/,
    ],
    [
      'unknown $ property',
      { filters: [{ property: '$size', op: 'gt', value: 1 }] },
      /filters\[0\]\.property is "\$size"/,
    ],
    [
      'gt with text',
      { filters: [{ property: 'a', op: 'gt', value: 'abc' }] },
      /filters\[0\]\.value gt needs a number/,
    ],
    [
      'gt with a boolean',
      { filters: [{ property: 'a', op: 'lt', value: true }] },
      /filters\[0\]\.value lt needs/,
    ],
    ['before with a number', { filters: [{ property: 'a', op: 'before', value: 5 }] }, /before needs a date/],
    [
      '$modified with a number',
      { filters: [{ property: '$modified', op: 'gt', value: 5 }] },
      /gt needs a date/,
    ],
    [
      '$name ordered',
      { filters: [{ property: '$name', op: 'gt', value: 'a' }] },
      /\$name is text and cannot be ordered/,
    ],
    [
      '$modified contains',
      { filters: [{ property: '$modified', op: 'contains', value: '2026' }] },
      /is a date and contains nothing/,
    ],
    [
      '$modified equals text',
      { filters: [{ property: '$modified', op: 'equals', value: 'x' }] },
      /\$modified is a date/,
    ],
    [
      'has_tag with a number',
      { filters: [{ op: 'has_tag', value: 3 }] },
      /filters\[0\]\.value must be a tag/,
    ],
    [
      'has_tag with a property',
      { filters: [{ property: 'tags', op: 'has_tag', value: 'a' }] },
      /has_tag takes only a value/,
    ],
    [
      'has_link without a value',
      { filters: [{ op: 'has_link' }] },
      /filters\[0\]\.value must be a note name/,
    ],
    [
      'is_empty with a value',
      { filters: [{ property: 'a', op: 'is_empty', value: 'x' }] },
      /is_empty takes no value/,
    ],
    [
      'is_empty with null',
      { filters: [{ property: 'a', op: 'is_not_empty', value: null }] },
      /is_not_empty takes no value/,
    ],
    ['equals without a value', { filters: [{ property: 'a', op: 'equals' }] }, /equals needs a value/],
    [
      'equals null',
      { filters: [{ property: 'a', op: 'equals', value: null }] },
      /use is_empty or is_not_empty/,
    ],
    [
      'equals an object',
      { filters: [{ property: 'a', op: 'equals', value: { b: 1 } }] },
      /equals needs a string/,
    ],
    [
      'contains a list',
      { filters: [{ property: 'a', op: 'contains', value: ['x'] }] },
      /contains needs one string/,
    ],
    [
      'missing property',
      { filters: [{ op: 'equals', value: 'x' }] },
      /filters\[0\]\.property must be a property name/,
    ],
    [
      'unknown filter key',
      { filters: [{ property: 'a', op: 'equals', value: 'x', negate: true }] },
      /has "negate"/,
    ],
    ['a filter that is a string', { filters: ['status = done'] }, /filters\[0\] must be an object/],
    ['empty group', { filters: [{ any: [] }] }, /filters\[0\]\.any must be a non-empty list/],
    [
      'group with extra key',
      { filters: [{ any: [{ op: 'has_tag', value: 'a' }], op: 'x' }] },
      /is a group and may hold only "any"/,
    ],
    [
      'nested refusal names its path',
      { filters: [{ op: 'has_tag', value: 'a' }, { any: [{ property: 'a', op: 'gt', value: 'soon' }] }] },
      /filters\[1\]\.any\[0\]\.value gt needs/,
    ],
    ['filters not a list', { filters: { property: 'a' } }, /filters must be a list/],
    [
      'bad direction',
      { sort: [{ property: 'a', direction: 'up' }] },
      /sort\[0\]\.direction must be "asc" or "desc"/,
    ],
    ['sort unknown key', { sort: [{ property: 'a', order: 'asc' }] }, /sort\[0\] has "order"/],
    ['sort unknown $', { sort: [{ property: '$size' }] }, /sort\[0\]\.property is "\$size"/],
    ['column name', { columns: ['name'] }, /columns\[0\] is "name".*note\.name/],
    ['column not a string', { columns: [3] }, /columns\[0\] must be a property name/],
    ['limit too big', { limit: 501 }, /limit must be a whole number from 1 to 500/],
    ['limit zero', { limit: 0 }, /limit must be a whole number/],
    ['unknown argument', { where: [] }, /where is not a query_notes argument/],
    ['tag with a space', { tag: 'a b' }, /tag is "a b", which contains a space/],
  ];

  it.each(refusals)('%s', (_label, q, message) => {
    let error: unknown;
    try {
      queryNotes(vault.db, q, { today: TODAY });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(NotedError);
    expect((error as NotedError).code).toBe('validation_error');
    expect((error as NotedError).message).toMatch(message);
  });
});
