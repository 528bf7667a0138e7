import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { isNotedError } from '../../../src/common/errors.js';
import { withFrontmatterFields } from '../../../src/markdown/frontmatter/edit.js';
import { parseFrontmatter, splitFrontmatter } from '../../../src/markdown/frontmatter/frontmatter.js';

describe('splitFrontmatter (PROP-01)', () => {
  it('cuts the block with its delimiters and the line break after the closing ---', () => {
    expect(splitFrontmatter('---\na: 1\n---\nBody\n')).toEqual({
      raw: '---\na: 1\n---\n',
      body: 'Body\n',
      yaml: 'a: 1\n',
    });
  });

  it('keeps CRLF line breaks inside raw, byte for byte', () => {
    const text = '---\r\na: 1\r\n---\r\nBody\r\n';
    expect(splitFrontmatter(text)).toEqual({
      raw: '---\r\na: 1\r\n---\r\n',
      body: 'Body\r\n',
      yaml: 'a: 1\r\n',
    });
  });

  it('allows a leading BOM, which stays in raw', () => {
    const split = splitFrontmatter('\uFEFF---\na: 1\n---\nBody');
    expect(split.raw).toBe('\uFEFF---\na: 1\n---\n');
    expect(split.yaml).toBe('a: 1\n');
    expect(split.body).toBe('Body');
  });

  it('tolerates spaces and tabs after the closing --- (RN 1.3)', () => {
    expect(splitFrontmatter('---\na: 1\n--- \t\nBody').raw).toBe('---\na: 1\n--- \t\n');
  });

  it('closes at end of text: the closing --- needs no line break', () => {
    expect(splitFrontmatter('---\na: 1\n---')).toEqual({ raw: '---\na: 1\n---', body: '', yaml: 'a: 1\n' });
  });

  it('an empty block is a block with empty yaml', () => {
    expect(splitFrontmatter('---\n---\nBody')).toEqual({ raw: '---\n---\n', body: 'Body', yaml: '' });
  });

  it.each([
    ['a blank line before ---', '\n---\na: 1\n---\n'],
    ['a space before ---', ' ---\na: 1\n---\n'],
    ['text before ---', 'Title\n---\na: 1\n---\n'],
    ['a heading first', '# H\n\n---\na: 1\n---\n'],
  ])('--- not at the very start is no frontmatter (%s)', (_label, text) => {
    expect(splitFrontmatter(text)).toEqual({ raw: '', body: text, yaml: null });
  });

  it.each([
    ['no closing line', '---\na: 1\nb: 2\n'],
    ['only the opening line', '---\n'],
    ['just three dashes', '---'],
    ['---- is not a delimiter', '---\na: 1\n----\n'],
    ['--- with text after it does not close', '---\na: 1\n--- x\n'],
    ['opening --- followed by text', '--- x\na: 1\n---\n'],
    ['opening with trailing space', '--- \na: 1\n---\n'],
    ['an indented closing line', '---\na: 1\n ---\n'],
  ])('an unclosed or malformed block is no frontmatter: the whole text is body (%s)', (_label, text) => {
    expect(splitFrontmatter(text)).toEqual({ raw: '', body: text, yaml: null });
  });

  it('the first closing line wins; a later --- is body (a thematic break)', () => {
    const split = splitFrontmatter('---\na: 1\n---\ntext\n---\nmore\n');
    expect(split.raw).toBe('---\na: 1\n---\n');
    expect(split.body).toBe('text\n---\nmore\n');
  });

  it('raw + body is the text, byte for byte, for any text', () => {
    const piece = fc.constantFrom(
      '---',
      '\n',
      '\r\n',
      '\r',
      ' ',
      '\t',
      'a: 1',
      '\uFEFF',
      '#',
      'x',
      '--- ',
      '-',
    );
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 20 }).map((parts) => parts.join('')),
        (text) => {
          const { raw, body, yaml } = splitFrontmatter(text);
          expect(raw + body).toBe(text);
          expect(yaml === null).toBe(raw === '');
          if (yaml !== null) expect(raw.includes(yaml)).toBe(true);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('raw + body is the text for arbitrary strings', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 60 }), (tail) => {
        for (const text of [
          tail,
          `---\n${tail}`,
          `---\n${tail}\n---\n${tail}`,
          `\uFEFF---\r\n${tail}\r\n---`,
        ]) {
          const { raw, body } = splitFrontmatter(text);
          expect(raw + body).toBe(text);
        }
      }),
    );
  });
});

describe('parseFrontmatter (PROP-03, PROP-20, PROP-21)', () => {
  it('no block: data null, no error', () => {
    const parsed = parseFrontmatter('# Just a note\n');
    expect(parsed.data).toBeNull();
    expect(parsed.error).toBeUndefined();
    expect(parsed.raw).toBe('');
  });

  it('an empty block, or one holding only comments, is {}', () => {
    expect(parseFrontmatter('---\n---\n').data).toEqual({});
    expect(parseFrontmatter('---\n\n   \n---\n').data).toEqual({});
    expect(parseFrontmatter('---\n# a comment\n---\nbody').data).toEqual({});
  });

  it('YAML 1.2 core: yes/no/on/off and dates stay strings; true/false/null/numbers are typed', () => {
    const text =
      '---\na: yes\nb: no\nc: on\nd: 2020-08-21\ne: 2020-08-21T10:30:00\nf: true\ng: ~\nh:\ni: 1.5\nj: 0x10\n---\n';
    expect(parseFrontmatter(text).data).toEqual({
      a: 'yes',
      b: 'no',
      c: 'on',
      d: '2020-08-21',
      e: '2020-08-21T10:30:00',
      f: true,
      g: null,
      h: null,
      i: 1.5,
      j: 16,
    });
  });

  it('reads CRLF frontmatter and JSON frontmatter (PROP-02)', () => {
    expect(parseFrontmatter('---\r\ntags:\r\n  - a\r\n---\r\nx').data).toEqual({ tags: ['a'] });
    expect(parseFrontmatter('---\n{ "tags": ["journal"], "publish": false }\n---\n').data).toEqual({
      tags: ['journal'],
      publish: false,
    });
  });

  it('reads a BOM-prefixed note', () => {
    expect(parseFrontmatter('\uFEFF---\ntitle: Hi\n---\n').data).toEqual({ title: 'Hi' });
  });

  it('invalid YAML: data null and a one-line error with the line inside the note', () => {
    const parsed = parseFrontmatter('---\na: 1\nb: [\nc: 2\n---\nbody');
    expect(parsed.data).toBeNull();
    expect(parsed.error).toMatch(/^frontmatter YAML is invalid at line \d+: /);
    expect(parsed.error).not.toContain('\n');
    expect(parsed.body).toBe('body');
  });

  it('the error line counts the opening --- as line 1', () => {
    expect(parseFrontmatter('---\na: 1\nb: "open\n---\n').error).toMatch(/at line 4: Missing closing "quote/);
    expect(parseFrontmatter('---\ngood: 1\nbad: x: y\n---\n').error).toMatch(
      /^frontmatter YAML is invalid at line 3: /,
    );
  });

  it('duplicate keys are an error (PROP-21)', () => {
    const parsed = parseFrontmatter('---\ntitle: a\nstatus: x\ntitle: b\n---\n');
    expect(parsed.data).toBeNull();
    expect(parsed.error).toBe('frontmatter YAML is invalid at line 4: Map keys must be unique');
  });

  it('duplicate keys are found as the yaml package finds them, in one pass (issue 10)', () => {
    // The package's own check compared every key with every earlier one: 52,000 keys (2 MB) took
    // about 26 s per parse. Keys are compared the same way: scalars by value (1 and "1" differ),
    // in nested and flow mappings too; the first repeated key gives the line.
    const key = fc.constantFrom('a', 'b', '1', '"1"', "'a'", 'null', '~', 'true', '0x1');
    const entry = fc.oneof(
      fc.tuple(key, fc.constantFrom('x', '[1, 2]')).map(([k, v]) => `${k}: ${v}`),
      fc
        .tuple(key, fc.array(key, { maxLength: 3 }))
        .map(([k, ks]) => `${k}: {${ks.map((x) => `${x}: 1`).join(', ')}}`),
      fc
        .tuple(key, fc.array(key, { maxLength: 3 }))
        .map(([k, ks]) => `${k}:\n${ks.map((x) => `  ${x}: 1`).join('\n')}`),
    );
    fc.assert(
      fc.property(fc.array(entry, { minLength: 1, maxLength: 6 }), (entries) => {
        const yaml = `${entries.join('\n')}\n`;
        const strict = parseDocument(yaml, {
          version: '1.2',
          schema: 'core',
          uniqueKeys: true,
          merge: false,
        });
        const duplicate = strict.errors.find((e) => e.code === 'DUPLICATE_KEY');
        const parsed = parseFrontmatter(`---\n${yaml}---\n`);
        if (duplicate === undefined || strict.errors[0] !== duplicate) {
          expect(parsed.error ?? '').not.toContain('Map keys must be unique');
        } else {
          expect(parsed.error).toBe(
            `frontmatter YAML is invalid at line ${(duplicate.linePos?.[0].line ?? 0) + 1}: Map keys must be unique`,
          );
        }
      }),
      { seed: 20261201, numRuns: 300 },
    );
  });

  it('a list as root is an error (PROP-20)', () => {
    const parsed = parseFrontmatter('---\n- a\n- b\n---\n');
    expect(parsed.data).toBeNull();
    expect(parsed.error).toBe(
      'frontmatter YAML is invalid at line 2: the top level must be "name: value" properties, but it is a list',
    );
  });

  it('a single value as root is an error', () => {
    const parsed = parseFrontmatter('---\n\njust some text\n---\n');
    expect(parsed.data).toBeNull();
    expect(parsed.error).toContain('at line 3');
    expect(parsed.error).toContain('a single value');
  });

  it('a second YAML document inside the block is an error', () => {
    expect(parseFrontmatter('---\na: 1\n--- b\nc: 2\n---\n').error).toMatch(
      /at line 3: .*multiple documents/,
    );
  });

  it('an alias bomb (billion laughs) is refused quickly', () => {
    let yaml = 'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n';
    let previous = 'a';
    for (const name of 'bcdefghi') {
      yaml += `${name}: &${name} [${Array(9).fill(`*${previous}`).join(',')}]\n`;
      previous = name;
    }
    const started = Date.now();
    const parsed = parseFrontmatter(`---\n${yaml}---\n`);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(parsed.data).toBeNull();
    expect(parsed.error).toMatch(/^frontmatter YAML is invalid: aliases/);
  });

  it('a few aliases are fine', () => {
    expect(parseFrontmatter('---\nbase: &b x\ncopy: *b\n---\n').data).toEqual({ base: 'x', copy: 'x' });
  });

  it('1000 levels of nested YAML do not crash', () => {
    const flow = `---\nk: ${'['.repeat(1000)}${']'.repeat(1000)}\n---\n`;
    const flowResult = parseFrontmatter(flow);
    expect(flowResult.data === null ? flowResult.error : 'parsed').toMatch(/nested too deeply|parsed/);
    let block = '---\n';
    for (let i = 0; i < 1000; i++) block += `${'  '.repeat(i)}k${i}:\n`;
    const blockResult = parseFrontmatter(`${block}---\n`);
    if (blockResult.data === null) expect(blockResult.error).toMatch(/^frontmatter YAML is invalid/);
    else expect(Object.keys(blockResult.data)).toEqual(['k0']);
    expect(() => JSON.stringify(blockResult)).not.toThrow();
  });

  it('values are JSON-safe: .inf/.nan become strings, complex keys become strings, explicit tags resolve', () => {
    const text = [
      '---',
      'i: .inf',
      'n: -.inf',
      'z: .nan',
      '? [a, b]',
      ': pair',
      '1: one',
      'set: !!set {x, y}',
      'when: !!timestamp 2020-01-02',
      'bin: !!binary aGk=',
      'custom: !thing value',
      '---',
    ].join('\n');
    const { data } = parseFrontmatter(text);
    expect(data).toEqual({
      i: '.inf',
      n: '-.inf',
      z: '.nan',
      '[ a, b ]': 'pair',
      '1': 'one',
      set: ['x', 'y'],
      when: '2020-01-02T00:00:00.000Z',
      bin: 'aGk=',
      custom: 'value',
    });
    expect(JSON.parse(JSON.stringify(data))).toEqual(data);
  });

  it('a __proto__ key is an own property and never changes the prototype', () => {
    const { data } = parseFrontmatter('---\n__proto__:\n  polluted: true\n---\n');
    expect(Object.getPrototypeOf(data)).toBe(Object.prototype);
    expect(Object.hasOwn(data ?? {}, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('withFrontmatterFields (create_note)', () => {
  it('creates a block at the top when there is none', () => {
    expect(withFrontmatterFields('# Idea\n', { title: 'My idea', tags: ['a', '#b'] })).toBe(
      '---\ntitle: My idea\ntags:\n  - a\n  - b\n---\n# Idea\n',
    );
  });

  it("creates the block after a BOM, with the note's CRLF line breaks", () => {
    expect(withFrontmatterFields('\uFEFFline\r\n', { tags: ['x'] })).toBe(
      '\uFEFF---\r\ntags:\r\n  - x\r\n---\r\nline\r\n',
    );
  });

  it('quotes a title that YAML would misread', () => {
    const text = withFrontmatterFields('', { title: 'Q3: plan # draft' });
    expect(parseFrontmatter(text).data).toEqual({ title: 'Q3: plan # draft' });
  });

  it('with no fields to add returns the text unchanged', () => {
    const text = '---\nbad: [\n---\nbody';
    expect(withFrontmatterFields(text, {})).toBe(text);
    expect(withFrontmatterFields(text, { title: '  ', tags: [] })).toBe(text);
  });

  it('keeps an existing title', () => {
    const text = '---\ntitle: Mine\n---\nbody';
    expect(withFrontmatterFields(text, { title: 'Other' })).toBe(text);
    expect(withFrontmatterFields('---\nTitle: Mine\n---\n', { title: 'Other' })).toBe(
      '---\nTitle: Mine\n---\n',
    );
  });

  it('fills an empty title in place', () => {
    expect(withFrontmatterFields('---\ntitle:\nstatus: x\n---\n', { title: 'New' })).toBe(
      '---\ntitle: New\nstatus: x\n---\n',
    );
  });

  it('appends new keys as text, keeping every byte of the existing YAML', () => {
    const text = '---\n# why\nstatus:   draft   # inline\nnum: 0x1F\nlist: [a,b]\n---\nbody\n';
    expect(withFrontmatterFields(text, { title: 'T', tags: ['x'] })).toBe(
      '---\n# why\nstatus:   draft   # inline\nnum: 0x1F\nlist: [a,b]\ntitle: T\ntags:\n  - x\n---\nbody\n',
    );
  });

  it('merges into an existing list: keeps order and comments, dedupes case-insensitively, strips #', () => {
    const text = '---\n# top\ntags:\n  - Alpha # first\n  - "#beta"\nz: 1\n---\nbody';
    const result = withFrontmatterFields(text, { tags: ['alpha', '#Beta', 'gamma', 'GAMMA', '#delta'] });
    expect(result).toBe(
      '---\n# top\ntags:\n  - Alpha # first\n  - "#beta"\n  - gamma\n  - delta\nz: 1\n---\nbody',
    );
  });

  it('matches the Tags key case-insensitively, as Obsidian does (TAG-11)', () => {
    const result = withFrontmatterFields('---\nTags: [a]\n---\n', { tags: ['b'] });
    expect(parseFrontmatter(result).data).toEqual({ Tags: ['a', 'b'] });
  });

  it('a string tags value becomes a list that starts with it', () => {
    const result = withFrontmatterFields('---\ntags: one\nother: 2\n---\n', { tags: ['two'] });
    expect(result).toBe('---\ntags:\n  - one\n  - two\nother: 2\n---\n');
  });

  it('an empty tags value takes the new list', () => {
    expect(parseFrontmatter(withFrontmatterFields('---\ntags:\n---\n', { tags: ['a'] })).data).toEqual({
      tags: ['a'],
    });
  });

  it('all tags already present: unchanged', () => {
    const text = '---\ntags: [a, B]\n---\n';
    expect(withFrontmatterFields(text, { tags: ['#A', 'b'] })).toBe(text);
  });

  it('keeps CRLF inside an existing block', () => {
    const result = withFrontmatterFields('---\r\na: 1\r\n---\r\nbody\r\n', { title: 'T' });
    expect(result).toBe('---\r\na: 1\r\ntitle: T\r\n---\r\nbody\r\n');
  });

  it('an empty or comment-only block gets the keys', () => {
    expect(withFrontmatterFields('---\n---\nx', { title: 'T' })).toBe('---\ntitle: T\n---\nx');
    expect(withFrontmatterFields('---\n# c\n---\nx', { title: 'T' })).toBe('---\n# c\ntitle: T\n---\nx');
  });

  it('a flow-mapping (JSON) block is re-printed through the Document API and stays valid', () => {
    const result = withFrontmatterFields('---\n{ "a": 1 }\n---\nx', { title: 'T' });
    expect(parseFrontmatter(result).data).toEqual({ a: 1, title: 'T' });
    expect(result.endsWith('---\nx')).toBe(true);
  });

  it('an unclosed --- block is body: a new block goes in front of it', () => {
    const result = withFrontmatterFields('---\nnot closed', { title: 'T' });
    expect(result).toBe('---\ntitle: T\n---\n---\nnot closed');
    expect(splitFrontmatter(result).body).toBe('---\nnot closed');
  });

  it.each([
    ['invalid YAML', '---\na: [\n---\n'],
    ['duplicate keys', '---\na: 1\na: 2\n---\n'],
    ['a list as root', '---\n- a\n---\n'],
  ])('refuses frontmatter that does not parse (%s)', (_label, text) => {
    try {
      withFrontmatterFields(text, { title: 'T' });
      expect.unreachable();
    } catch (err) {
      expect(isNotedError(err) && err.code).toBe('validation_error');
      expect((err as Error).message).toContain('frontmatter YAML is invalid at line');
    }
  });

  it('refuses a tags mapping it cannot merge into', () => {
    expect(() => withFrontmatterFields('---\ntags:\n  a: 1\n---\n', { tags: ['b'] })).toThrow(/not a list/);
  });

  it.each([['#'], [''], ['my tag']])('refuses an unusable tag %j', (tag) => {
    try {
      withFrontmatterFields('', { tags: [tag] });
      expect.unreachable();
    } catch (err) {
      expect(isNotedError(err) && err.code).toBe('validation_error');
      expect(isNotedError(err) && err.details).toEqual({ tag });
    }
  });
});
