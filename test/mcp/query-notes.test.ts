import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AN_ID } from '../helpers/note-ids.js';
import { openTestVault, type Structured, type TestVault } from '../helpers/vault.js';

const NOW = new Date('2026-05-10T12:00:00Z');

const FILES = {
  'projects/alpha.md': [
    '---',
    'status: Active',
    'priority: 2',
    'due: 2026-05-01',
    'tags: [project/alpha, urgent]',
    'owner: Bo Berg',
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
    '---',
    '',
  ].join('\n'),
  'projects/old/gamma.md':
    '---\nstatus: active\npriority: 1\ndue: 2025-12-31\naliases: [G]\n---\n#inline-tag\n',
  'notes/delta.md': 'No frontmatter. [[Nowhere]] [[G]]\n',
  'notes/epsilon.md': '---\nstatus: [a, b]\npriority: high\n---\n',
  'archive/beta.md': 'another note called beta\n',
  'broken.md': '---\nstatus: [active\n---\n',
};

let vault: TestVault;
beforeAll(async () => {
  vault = await openTestVault(FILES, { now: () => NOW });
});
afterAll(async () => {
  await vault.close();
});

async function query(args: Record<string, unknown>): Promise<Structured> {
  const r = await vault.call('query_notes', args);
  expect(r.isError, JSON.stringify(r.structured)).toBe(false);
  return r.structured;
}

async function names(args: Record<string, unknown>): Promise<string[]> {
  return (await query(args)).rows.map((r: Structured) => r.name);
}

const where = (...filters: unknown[]) => names({ filters });

async function refused(args: Record<string, unknown>): Promise<Structured> {
  const r = await vault.call('query_notes', args);
  expect(r.isError, JSON.stringify(args)).toBe(true);
  return r.structured;
}

describe('query_notes answers like a table view (SPEC 2.4)', () => {
  it('with nothing asked, every note by name, with the total and the day "today" stands for', async () => {
    const r = await vault.call('query_notes');
    expect(r.structured).toEqual({
      rows: [
        { name: 'archive/beta.md', $id: AN_ID },
        { name: 'broken.md', $id: AN_ID },
        { name: 'notes/delta.md', $id: AN_ID },
        { name: 'notes/epsilon.md', $id: AN_ID },
        { name: 'projects/alpha.md', $id: AN_ID },
        { name: 'projects/beta.md', $id: AN_ID },
        { name: 'projects/old/gamma.md', $id: AN_ID },
      ],
      total: 7,
      more: false,
      today: '2026-05-10',
    });
    expect(r.text.split('\n').slice(0, 2)).toEqual(['7 notes match:', '- archive/beta.md']);
  });

  it('scopes by folder (sub-folders included) and tag (nested tags included)', async () => {
    expect(await names({ folder: 'Projects' })).toEqual([
      'projects/alpha.md',
      'projects/beta.md',
      'projects/old/gamma.md',
    ]);
    expect(await names({ tag: '#project' })).toEqual(['projects/alpha.md', 'projects/beta.md']);
    expect(await names({ tag: 'inline-tag', folder: 'projects' })).toEqual(['projects/old/gamma.md']);
  });

  it('columns: frontmatter keys case-insensitively and file properties, null when missing; shown as a table', async () => {
    const r = await vault.call('query_notes', {
      folder: 'projects',
      columns: ['STATUS', '$folder', '$tags', 'missing', 'due'],
      limit: 2,
    });
    expect(r.structured.total).toBe(3);
    expect(r.structured.rows).toEqual([
      {
        name: 'projects/alpha.md',
        $id: AN_ID,
        STATUS: 'Active',
        $folder: 'projects',
        $tags: ['project/alpha', 'urgent'],
        missing: null,
        due: '2026-05-01',
      },
      {
        name: 'projects/beta.md',
        $id: AN_ID,
        STATUS: 'done',
        $folder: 'projects',
        $tags: ['project'],
        missing: null,
        due: '2026-06-15T09:30',
      },
    ]);
    expect(r.text).toBe(
      [
        '3 notes match; 2 of them here:',
        '| name | STATUS | $folder | $tags | missing | due |',
        '|---|---|---|---|---|---|',
        '| projects/alpha.md | Active | projects | project/alpha, urgent |  | 2026-05-01 |',
        '| projects/beta.md | done | projects | project |  | 2026-06-15T09:30 |',
        `More rows follow: call again with cursor "${r.structured.nextCursor}".`,
      ].join('\n'),
    );
  });

  it('sorts with empty values last in either direction, ties by name; several keys in order', async () => {
    expect(await names({ sort: [{ property: 'due', direction: 'asc' }] })).toEqual([
      'projects/old/gamma.md',
      'projects/alpha.md',
      'projects/beta.md',
      'archive/beta.md',
      'broken.md',
      'notes/delta.md',
      'notes/epsilon.md',
    ]);
    expect(await names({ sort: [{ property: 'due', direction: 'desc' }] })).toEqual([
      'projects/beta.md',
      'projects/alpha.md',
      'projects/old/gamma.md',
      'archive/beta.md',
      'broken.md',
      'notes/delta.md',
      'notes/epsilon.md',
    ]);
    expect(await names({ folder: 'projects', sort: [{ property: 'priority', direction: 'desc' }] })).toEqual([
      'projects/beta.md',
      'projects/alpha.md',
      'projects/old/gamma.md',
    ]);
    expect(
      await names({
        folder: 'projects',
        sort: [{ property: 'status' }, { property: '$name', direction: 'desc' }],
      }),
    ).toEqual(['projects/old/gamma.md', 'projects/alpha.md', 'projects/beta.md']);
  });
});

describe('query_notes filters', () => {
  it('equals / not_equals: text case-insensitively, numbers loosely, lists whole; not_equals matches notes without it', async () => {
    expect(await where({ property: 'status', op: 'equals', value: 'ACTIVE' })).toEqual([
      'projects/alpha.md',
      'projects/old/gamma.md',
    ]);
    expect(await where({ property: 'priority', op: 'equals', value: '2' })).toEqual(['projects/alpha.md']);
    expect(await where({ property: 'status', op: 'equals', value: ['A', 'b'] })).toEqual([
      'notes/epsilon.md',
    ]);
    expect(await where({ property: 'done', op: 'equals', value: false })).toEqual(['projects/alpha.md']);
    expect(await where({ property: 'status', op: 'not_equals', value: 'active' })).toEqual([
      'archive/beta.md',
      'broken.md',
      'notes/delta.md',
      'notes/epsilon.md',
      'projects/beta.md',
    ]);
  });

  it('contains: list items (nested tags for tags), text substrings; is_empty / is_not_empty', async () => {
    expect(await where({ property: 'tags', op: 'contains', value: 'project' })).toEqual([
      'projects/alpha.md',
      'projects/beta.md',
    ]);
    expect(await where({ property: 'owner', op: 'contains', value: 'berg' })).toEqual(['projects/alpha.md']);
    expect(await where({ property: '$tags', op: 'contains', value: '#inline-tag' })).toEqual([
      'projects/old/gamma.md',
    ]);
    expect(await where({ property: 'empty', op: 'is_not_empty' })).toEqual([]);
    // Unparseable frontmatter has no properties (PROP-20).
    expect(await where({ property: 'status', op: 'is_empty' })).toEqual([
      'archive/beta.md',
      'broken.md',
      'notes/delta.md',
    ]);
  });

  it('gt/lt compare numbers; before/after compare dates; "today" is the clock’s local day', async () => {
    expect(await where({ property: 'priority', op: 'gt', value: 1 })).toEqual([
      'projects/alpha.md',
      'projects/beta.md',
    ]);
    expect(await where({ property: 'due', op: 'before', value: 'today' })).toEqual([
      'projects/alpha.md',
      'projects/old/gamma.md',
    ]);
    expect(await where({ property: 'due', op: 'after', value: '2026-05-01' })).toEqual(['projects/beta.md']);
    expect(await where({ property: 'due', op: 'lte', value: '2026-06-15' })).toHaveLength(3);
  });

  it('has_tag and has_link (frontmatter links and aliases count; an unresolved name finds its linkers)', async () => {
    expect(await where({ op: 'has_tag', value: 'Urgent' })).toEqual(['projects/alpha.md']);
    expect(await where({ op: 'has_link', value: 'projects/alpha' })).toEqual(['projects/beta.md']);
    expect(await where({ op: 'has_link', value: 'gamma' })).toEqual(['notes/delta.md', 'projects/alpha.md']);
    expect(await where({ op: 'has_link', value: 'nowhere' })).toEqual(['notes/delta.md']);
  });

  it('filters combine with AND; {any: […]} is an OR group; groups nest', async () => {
    expect(
      await where(
        { property: 'priority', op: 'gte', value: 1 },
        {
          any: [
            { property: 'status', op: 'equals', value: 'done' },
            { op: 'has_tag', value: 'urgent' },
          ],
        },
      ),
    ).toEqual(['projects/alpha.md', 'projects/beta.md']);
    expect(
      await where({
        any: [
          { any: [{ property: '$folder', op: 'equals', value: 'notes' }] },
          {
            all: [
              { property: 'priority', op: 'gt', value: 1 },
              { property: 'priority', op: 'lt', value: 5 },
            ],
          },
        ],
      }),
    ).toEqual(['notes/delta.md', 'notes/epsilon.md', 'projects/alpha.md']);
  });

  it('a link becomes a has_link match when its target is created', async () => {
    expect(await where({ op: 'has_link', value: 'Nowhere' })).toEqual(['notes/delta.md']);
    await vault.call('create_note', { name: 'later/Nowhere', content: 'here now\n' });
    try {
      expect(await where({ op: 'has_link', value: 'later/Nowhere' })).toEqual(['notes/delta.md']);
    } finally {
      await vault.call('delete_note', { name: 'later/Nowhere' });
    }
  });
});

describe('query_notes refuses what it cannot understand, never answering more widely', () => {
  const cases: [string, Record<string, unknown>, RegExp][] = [
    ['an unknown op', { filters: [{ property: 'a', op: 'like', value: 'x' }] }, /filters\[0\] has op "like"/],
    [
      'a key a filter does not take',
      { filters: [{ property: 'a', op: 'equals', value: 'x', negate: true }] },
      /"negate"/,
    ],
    ['an unknown file property', { filters: [{ property: '$size', op: 'gt', value: 1 }] }, /"\$size"/],
    ['is_empty with a value', { filters: [{ property: 'a', op: 'is_empty', value: 'x' }] }, /takes no value/],
    [
      'has_tag with a property',
      { filters: [{ property: 'tags', op: 'has_tag', value: 'x' }] },
      /no property/,
    ],
    ['gt with text', { filters: [{ property: 'a', op: 'gt', value: 'abc' }] }, /gt needs a number/],
    ['an empty OR group', { filters: [{ any: [] }] }, /filters\[0\]\.any must be a non-empty list/],
    [
      'a nested mistake',
      { filters: [{ any: [{ property: 'a', op: 'equals', value: 'x' }, { op: 'nope' }] }] },
      /filters\[0\]\.any\[1\]/,
    ],
    ['a bad sort direction', { sort: [{ property: 'due', direction: 'up' }] }, /sort\[0\]\.direction/],
    ['the column "name"', { columns: ['name'] }, /columns\[0\] is "name"/],
  ];
  for (const [what, args, message] of cases) {
    it(`refuses ${what} with validation_error naming the place`, async () => {
      const e = await refused(args);
      expect(e.code).toBe('validation_error');
      expect(e.message).toMatch(message);
    });
  }

  it('refuses a misspelt or unknown argument instead of dropping it', async () => {
    const e = await refused({ filter: [{ property: 'status', op: 'equals', value: 'done' }] });
    expect(e.code).toBe('validation_error');
    expect(e.message).toMatch(/filter/);
    expect((await refused({ limit: 501 })).code).toBe('validation_error');
    expect((await refused({ folder: '../x' })).code).toBe('invalid_name');
  });

  it('a has_link name several notes share is ambiguous, with the candidates', async () => {
    const e = await refused({ filters: [{ op: 'has_link', value: 'beta' }] });
    expect(e.code).toBe('ambiguous');
    expect(e.candidates).toEqual(['archive/beta.md', 'projects/beta.md']);
  });
});
