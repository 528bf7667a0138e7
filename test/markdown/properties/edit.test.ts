import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JsonValue } from '../../../src/markdown/frontmatter/frontmatter.js';
import { parseFrontmatter } from '../../../src/markdown/frontmatter/frontmatter.js';
import type { PropertyValue } from '../../../src/markdown/frontmatter/splice.js';
import { type PropertyChanges, setProperties } from '../../../src/markdown/properties/edit.js';
import { noteProperties } from '../../../src/markdown/properties/properties.js';
import { refusal } from '../../helpers/refusal.js';

/** The properties get_properties would report for a note's text. */
function propertiesOf(text: string): Record<string, JsonValue> {
  const fm = parseFrontmatter(text);
  expect(fm.error, 'the frontmatter still parses').toBeUndefined();
  return noteProperties(fm.data).properties;
}

const NOTE = [
  '---',
  'status: draft   # keep this comment',
  'owner:  "Ann"',
  '',
  "title: 'Weekly'",
  'tags:',
  '  - a   # first',
  '  - "b"',
  '# about the next one',
  'list: [1, 2]  # flow',
  'empty:',
  'text: |',
  '  two',
  '  lines',
  'last: z',
  '---',
  '# Body',
  '',
  'status: not a property',
  '',
].join('\n');

describe('set_properties keeps every byte it does not change (SPEC 13.1)', () => {
  it('changes a value in place, keeping the trailing comment and the quoting style', () => {
    const out = setProperties(NOTE, { status: 'done', owner: 'Bob', title: 'Monthly' });
    expect(out).toBe(
      NOTE.replace('status: draft ', 'status: done ')
        .replace('owner:  "Ann"', 'owner:  "Bob"')
        .replace("title: 'Weekly'", "title: 'Monthly'"),
    );
  });

  it('removes a property with its lines and nothing else', () => {
    expect(setProperties(NOTE, { list: null })).toBe(NOTE.replace('list: [1, 2]  # flow\n', ''));
    expect(setProperties(NOTE, { text: null })).toBe(NOTE.replace('text: |\n  two\n  lines\n', ''));
    expect(setProperties(NOTE, { last: null })).toBe(NOTE.replace('last: z\n', ''));
  });

  it('adds new properties at the end of the block, lists as YAML lists in the block’s own indentation', () => {
    const out = setProperties(NOTE, { due: '2026-05-01', people: ['Ann', 'Bo'], count: 3, done: false });
    expect(out).toBe(
      NOTE.replace(
        'last: z\n---',
        'last: z\ndue: 2026-05-01\npeople:\n  - Ann\n  - Bo\ncount: 3\ndone: false\n---',
      ),
    );
    const zeroIndent = '---\nlist:\n- x\n---\n';
    expect(setProperties(zeroIndent, { more: ['y'] })).toBe('---\nlist:\n- x\nmore:\n- y\n---\n');
  });

  it('rewrites a list in its own layout: block items at their indent, a flow list as a flow list', () => {
    expect(setProperties(NOTE, { tags: ['a', 'c'] })).toBe(
      NOTE.replace('  - a   # first\n  - "b"\n', '  - a\n  - c\n'),
    );
    expect(setProperties(NOTE, { list: ['x', 'y z'] })).toBe(NOTE.replace('[1, 2]', '[x, y z]'));
    expect(setProperties(NOTE, { empty: ['e'] })).toBe(NOTE.replace('empty:\n', 'empty:\n  - e\n'));
    expect(setProperties(NOTE, { status: ['p', 'q'] })).toBe(
      NOTE.replace('status: draft   # keep', 'status:\n  - p\n  - q   # keep'),
    );
    expect(setProperties(NOTE, { tags: 'solo' })).toBe(
      NOTE.replace('  - a   # first\n  - "b"\n', '  - solo\n'),
    );
  });

  it('writes each value so that it reads back as given: quoting strings that would read as another type', () => {
    const values = {
      a: '5',
      b: 'true',
      c: 'key: value',
      d: '#not-a-comment',
      e: 'two\nlines',
      f: '',
      g: 2.5,
      h: '2026-05-01',
    };
    const out = setProperties('---\na: 1\n---\n', values);
    expect(propertiesOf(out)).toEqual(values);
    expect(out).toContain('h: 2026-05-01\n');
  });

  it('creates the block when the note has none, and keeps CRLF line breaks and a BOM', () => {
    expect(setProperties('# Title\n', { status: 'new' })).toBe('---\nstatus: new\n---\n# Title\n');
    expect(setProperties('\uFEFF# T\r\nx\r\n', { a: ['b'] })).toBe(
      '\uFEFF---\r\na:\r\n  - b\r\n---\r\n# T\r\nx\r\n',
    );
    expect(setProperties('---\r\na: 1\r\n---\r\nB\r\n', { a: 2, n: 'x' })).toBe(
      '---\r\na: 2\r\nn: x\r\n---\r\nB\r\n',
    );
    expect(setProperties('---\n---\nB\n', { a: 1 })).toBe('---\na: 1\n---\nB\n');
  });

  it('finds a property in another letter case and keeps its spelling; two such spellings are ambiguous', () => {
    expect(setProperties('---\nStatus: a\n---\n', { status: 'b' })).toBe('---\nStatus: b\n---\n');
    const both = refusal(() => setProperties('---\nStatus: a\nSTATUS: b\n---\n', { status: 'c' }));
    expect(both.code).toBe('ambiguous');
    expect(setProperties('---\nStatus: a\nstatus: b\n---\n', { status: 'c' })).toBe(
      '---\nStatus: a\nstatus: c\n---\n',
    );
  });

  it('JSON frontmatter is re-printed as YAML keeps it (a flow mapping has no lines to splice)', () => {
    const out = setProperties('---\n{"tags": ["j"], "publish": false}\n---\nB\n', { publish: true, x: 'y' });
    expect(propertiesOf(out)).toEqual({ tags: ['j'], publish: true, x: 'y' });
    expect(out.endsWith('---\nB\n')).toBe(true);
  });

  it('refuses, writing nothing, a block that does not parse and a change that would not read back', () => {
    const broken = refusal(() => setProperties('---\na: [unclosed\n---\n', { b: 1 }));
    expect(broken.code).toBe('validation_error');
    expect(broken.message).toMatch(/does not parse/);
    // `b` is an alias of `a`: changing `a` would change `b` too.
    const aliased = refusal(() => setProperties('---\na: &x 1\nb: *x\n---\n', { a: 2 }));
    expect(aliased.code).toBe('validation_error');
    expect(aliased.message).toMatch(/without changing other properties/);
  });

  it('refuses unusable names: empty, padded, with a line break, repeated in another case', () => {
    for (const changes of [{ '': 1 }, { ' a': 1 }, { 'a\nb': 1 }, { a: 1, A: 2 }, {}] as PropertyChanges[]) {
      expect(refusal(() => setProperties('x\n', changes)).code, JSON.stringify(changes)).toBe(
        'validation_error',
      );
    }
  });

  it('refuses as too_large a block over 128 KB, before or after the change: finding its properties would take seconds', () => {
    const big = `---\nbig: ${'x'.repeat(130 * 1024)}\n---\n`;
    expect(refusal(() => setProperties(big, { a: 1 })).code).toBe('too_large');
    expect(refusal(() => setProperties('x\n', { long: 'y'.repeat(130 * 1024) })).code).toBe('too_large');
    expect(setProperties('x\n', { long: 'y'.repeat(100 * 1024) })).toContain('long: yyy');
  });

  it('a __proto__ property is an ordinary property', () => {
    const out = setProperties('---\na: 1\n---\n', { ['__proto__']: 'p' } as PropertyChanges);
    expect(Object.keys(propertiesOf(out))).toEqual(['a', '__proto__']);
  });
});

describe('set_properties writes the type Obsidian reads the property as (OBSIDIAN.md §3.2)', () => {
  const types = {
    types: { due: 'date', at: 'datetime', n: 'number', ok: 'checkbox', who: 'multitext', t: 'text' },
  };

  it('follows .obsidian/types.json, converting what converts', () => {
    const out = setProperties(
      'x\n',
      { due: '2026-05-01', at: '2026-05-01 14:30', n: '3', ok: 'TRUE', who: 'Ann', t: 42 },
      types,
    );
    expect(propertiesOf(out)).toEqual({
      due: '2026-05-01',
      at: '2026-05-01T14:30',
      n: 3,
      ok: true,
      who: ['Ann'],
      t: '42',
    });
  });

  it('refuses a value that is not of the assigned type, naming the type', () => {
    for (const [key, value] of [
      ['due', '1 May'],
      ['due', '2026-02-30'],
      ['at', '2026-05-01T14:30Z'],
      ['n', 'three'],
      ['ok', 'yes'],
      ['t', ['a']],
    ] as [string, PropertyValue][]) {
      const err = refusal(() => setProperties('x\n', { [key]: value }, types));
      expect(err.code, key).toBe('validation_error');
      expect(err.message, key).toMatch(/property in this vault/);
    }
  });

  it('tags, aliases and cssclasses are lists; tags lose their # and must be tags Obsidian reads', () => {
    const out = setProperties('x\n', { tags: '#work', aliases: 'Plan', cssclasses: ['wide'] });
    expect(propertiesOf(out)).toEqual({ tags: ['work'], aliases: ['Plan'], cssclasses: ['wide'] });
    expect(refusal(() => setProperties('x\n', { tags: ['two words'] })).code).toBe('validation_error');
    expect(refusal(() => setProperties('x\n', { tags: ['1984'] })).code).toBe('validation_error');
  });
});

// ---- property test over generated frontmatter -------------------------------------------------

const KEYS = ['status', 'owner', 'Title', 'due', 'priority', 'x_y', 'my key', 'rating'];
const NEW_KEYS = ['fresh', 'New Key', 'n3'];
const word = fc.constantFrom('draft', '2024-05-01', '42', 'true', 'a b c', 'x-y', 'ünï', '0.5');
const safe = fc.constantFrom('plain text', 'with: colon', 'hash # inside', "it's", 'say "hi"', '');

/** One existing property as YAML lines, in one of the layouts notes use. */
const layout = fc.oneof(
  word.map((w) => ({ value: ` ${w}`, inline: true })),
  safe.map((s) => ({ value: ` "${s.replace(/"/g, '\\"')}"`, inline: true })),
  safe.map((s) => ({ value: ` '${s.replace(/'/g, "''")}'`, inline: true })),
  fc.constant({ value: '', inline: true }),
  fc.array(word, { maxLength: 3 }).map((items) => ({ value: ` [${items.join(', ')}]`, inline: true })),
  fc
    .tuple(fc.array(word, { minLength: 1, maxLength: 3 }), fc.constantFrom(0, 2, 4))
    .map(([items, indent]) => ({
      value: items.map((i) => `\n${' '.repeat(indent)}- ${i}`).join(''),
      inline: false,
    })),
  fc.constant({ value: ' |\n  block\n  text', inline: false }),
);

const entry = fc.record({
  before: fc.array(fc.constantFrom('', '# a comment'), { maxLength: 2 }),
  layout,
  comment: fc.boolean(),
});

const newValue: fc.Arbitrary<PropertyValue> = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 12 }),
  safe,
  word,
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.array(fc.oneof(fc.string({ unit: 'grapheme', maxLength: 8 }), word), { maxLength: 4 }),
);

const change = fc.oneof(
  { weight: 3, arbitrary: fc.constant<'keep'>('keep') },
  { weight: 1, arbitrary: fc.constant<'remove'>('remove') },
  { weight: 3, arbitrary: fc.record({ value: newValue, otherCase: fc.boolean() }) },
);

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

describe('set_properties over generated frontmatter (property test)', () => {
  it('get_properties then reads exactly the old properties with the change applied, and every untouched byte stays', () => {
    fc.assert(
      fc.property(
        fc.shuffledSubarray(KEYS, { minLength: 0, maxLength: 6 }),
        fc.array(entry, { minLength: 6, maxLength: 6 }),
        fc.array(change, { minLength: 6, maxLength: 6 }),
        fc.array(fc.tuple(fc.constantFrom(...NEW_KEYS), newValue), { maxLength: 2 }),
        fc.constantFrom('\n', '\r\n'),
        (keys, entries, changes, added, eol) => {
          const segments = keys.map((key, i) => {
            const e = entries[i]!;
            const before = e.before.map((line) => line + eol).join('');
            const comment = e.comment && e.layout.inline ? '  # note' : '';
            const lines = `${key}:${e.layout.value}${comment}`.replace(/\n/g, eol) + eol;
            return { key, before, lines };
          });
          const yaml = segments.map((s) => s.before + s.lines).join('');
          const body = `# Body${eol}${eol}text${eol}`;
          const text = `---${eol}${yaml}---${eol}${body}`;
          const old = parseFrontmatter(text);
          fc.pre(old.error === undefined);

          const changes_: Record<string, PropertyValue | null> = {};
          const expected: Record<string, JsonValue> = { ...old.data };
          const touched = new Set<string>();
          keys.forEach((key, i) => {
            const c = changes[i]!;
            if (c === 'keep') return;
            touched.add(key);
            if (c === 'remove') {
              changes_[key] = null;
              delete expected[key];
              return;
            }
            const flipped = key === key.toLowerCase() ? key.toUpperCase() : key.toLowerCase();
            const asked = c.otherCase && !keys.includes(flipped) ? flipped : key;
            changes_[asked] = c.value;
            expected[key] = c.value as JsonValue;
          });
          for (const [key, value] of added) {
            if (Object.keys(changes_).some((k) => k.toLowerCase() === key.toLowerCase())) continue;
            changes_[key] = value;
            expected[key] = value as JsonValue;
          }
          fc.pre(Object.keys(changes_).length > 0);

          const out = setProperties(text, changes_);
          const now = propertiesOf(out);
          expect(now).toEqual(expected);
          expect(Object.keys(now)).toEqual(Object.keys(expected));

          // Every byte outside the changed properties is where it was: the lines before each property,
          // each untouched property, the delimiters and the body.
          const pattern = segments
            .map((s) => escapeRegExp(s.before) + (touched.has(s.key) ? '[\\s\\S]*?' : escapeRegExp(s.lines)))
            .join('');
          const shape = new RegExp(
            `^${escapeRegExp(`---${eol}`)}${pattern}[\\s\\S]*${escapeRegExp(`---${eol}${body}`)}$`,
          );
          expect(out).toMatch(shape);
        },
      ),
      { numRuns: 1000 },
    );
  });
});
