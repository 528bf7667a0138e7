import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AN_ID } from '../helpers/note-ids.js';
import { openTestVault, type TestVault } from '../helpers/vault.js';

let vault: TestVault | undefined;
afterEach(async () => {
  await vault?.close();
  vault = undefined;
});

async function open(files: Record<string, string>): Promise<TestVault> {
  vault = await openTestVault(files);
  return vault;
}

const TYPED = [
  '---',
  'tags: [a, b]',
  'count: 3',
  'ratio: 0.5',
  'done: true',
  'answer: yes',
  'off: no',
  'due: 2024-05-01',
  'at: 2024-05-01T10:30',
  'day: 2024-5-1',
  'empty:',
  'nested: {a: 1}',
  'link: "[[Other]]"',
  '---',
  '# Body',
  '',
].join('\n');

describe('get_properties types each property as Obsidian does (OBSIDIAN.md §3)', () => {
  it('infers list, number, checkbox, date, datetime and text; yes/no stay text (YAML 1.2, PROP-03)', async () => {
    const v = await open({ 'typed.md': TYPED });
    const r = await v.call('get_properties', { name: 'typed' });
    expect(r.isError).toBe(false);
    expect(r.structured).toEqual({
      name: 'typed.md',
      id: AN_ID,
      properties: {
        tags: ['a', 'b'],
        count: 3,
        ratio: 0.5,
        done: true,
        answer: 'yes',
        off: 'no',
        due: '2024-05-01',
        at: '2024-05-01T10:30',
        day: '2024-5-1',
        empty: null,
        nested: { a: 1 },
        link: '[[Other]]',
      },
      types: {
        tags: 'list',
        count: 'number',
        ratio: 'number',
        done: 'checkbox',
        answer: 'text',
        off: 'text',
        due: 'date',
        at: 'datetime',
        day: 'text',
        empty: 'text',
        nested: 'text',
        link: 'text',
      },
    });
    // Keys keep the order of the note.
    expect(Object.keys(r.structured.properties)).toEqual(Object.keys(r.structured.types));
    expect(r.text).toContain('- answer (text): "yes"');
    expect(r.text).toContain('- due (date): "2024-05-01"');
    expect(r.text).toContain('- tags (list): ["a","b"]');
  });

  it('a type assigned in .obsidian/types.json wins, by property name case-insensitively (PROP-11, PROP-14)', async () => {
    const v = await open({
      'n.md': '---\nDue: 2024-05-01\ncount: 3\npublished: 2024-05-01\naliases: [x]\nodd: 1\n---\n',
      '.obsidian/types.json': JSON.stringify({
        types: { due: 'text', count: 'text', published: 'datetime', aliases: 'aliases', odd: 'some-widget' },
      }),
    });
    const r = await v.call('get_properties', { name: 'n' });
    expect(r.structured.types).toEqual({
      Due: 'text',
      count: 'text',
      published: 'datetime',
      aliases: 'list',
      odd: 'number',
    });
    // The values are reported as the YAML holds them, whatever the type says.
    expect(r.structured.properties).toEqual({
      Due: '2024-05-01',
      count: 3,
      published: '2024-05-01',
      aliases: ['x'],
      odd: 1,
    });
  });

  it('a broken, odd or missing types.json is ignored: types are inferred', async () => {
    const v = await open({
      'n.md': '---\ncount: 3\n---\n',
      '.obsidian/types.json': '{"types": {"count": "te',
    });
    const inferred = { name: 'n.md', id: AN_ID, properties: { count: 3 }, types: { count: 'number' } };
    expect((await v.call('get_properties', { name: 'n' })).structured).toEqual(inferred);
    fs.writeFileSync(path.join(v.dir, '.obsidian', 'types.json'), '["count"]');
    expect((await v.call('get_properties', { name: 'n' })).structured).toEqual(inferred);
    fs.rmSync(path.join(v.dir, '.obsidian'), { recursive: true });
    expect((await v.call('get_properties', { name: 'n' })).structured).toEqual(inferred);
    // Read on every call: a fixed file applies at once.
    fs.mkdirSync(path.join(v.dir, '.obsidian'));
    fs.writeFileSync(path.join(v.dir, '.obsidian', 'types.json'), '{"types": {"count": "text"}}');
    expect((await v.call('get_properties', { name: 'n' })).structured.types).toEqual({ count: 'text' });
  });

  it('a types.json reached through a link out of the vault is not read', async () => {
    const v = await openTestVault(
      { 'n.md': '---\ncount: 3\n---\n' },
      {
        prepare: (dir, base) => {
          fs.writeFileSync(path.join(base, 'types.json'), '{"types": {"count": "text"}}');
          fs.mkdirSync(path.join(dir, '.obsidian'));
          fs.symlinkSync(path.join(base, 'types.json'), path.join(dir, '.obsidian', 'types.json'));
        },
      },
    );
    vault = v;
    expect((await v.call('get_properties', { name: 'n' })).structured.types).toEqual({ count: 'number' });
  });

  it('unparseable frontmatter gives no properties and says why (PROP-20, PROP-21)', async () => {
    const v = await open({
      'bad.md': '---\nstatus: [active\n---\nbody\n',
      'twice.md': '---\na: 1\na: 2\n---\n',
      'list.md': '---\n- a\n- b\n---\n',
    });
    for (const name of ['bad', 'twice', 'list']) {
      const r = await v.call('get_properties', { name });
      expect(r.isError, name).toBe(false);
      expect(r.structured.properties, name).toEqual({});
      expect(r.structured.types, name).toEqual({});
      expect(r.structured.frontmatterError, name).toEqual(expect.any(String));
      expect(r.text, name).toMatch(/does not parse/);
    }
    const bad = await v.call('get_properties', { name: 'bad' });
    expect(bad.structured.frontmatterError).toMatch(/line/);
  });

  it('a note without frontmatter, or with an empty block, has no properties and no error', async () => {
    const v = await open({
      'plain.md': 'no block\n',
      'empty.md': '---\n---\nbody\n',
      'late.md': '\n---\na: 1\n---\n',
    });
    for (const name of ['plain', 'empty', 'late']) {
      const r = await v.call('get_properties', { name });
      expect(r.structured, name).toEqual({ name: `${name}.md`, id: AN_ID, properties: {}, types: {} });
      expect(r.text).toBe(`# ${name}.md\nNo properties.`);
    }
  });

  it('a __proto__ key stays a plain property', async () => {
    const v = await open({ 'p.md': '---\n__proto__: {polluted: true}\n---\n' });
    const r = await v.call('get_properties', { name: 'p' });
    expect(Object.keys(r.structured.properties)).toEqual(['__proto__']);
    expect(r.line.types).toEqual(JSON.parse('{"__proto__": "text"}'));
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('reads the file as it is now, and names the note like every read', async () => {
    const v = await open({ 'a/Plan.md': '---\ns: 1\n---\n', 'b/Plan.md': 'x' });
    fs.writeFileSync(path.join(v.dir, 'a', 'Plan.md'), '---\ns: 2\n---\n');
    expect((await v.call('get_properties', { name: 'a/plan' })).structured.properties).toEqual({ s: 2 });
    expect((await v.call('get_properties', { name: 'Plan' })).structured.code).toBe('ambiguous');
    expect((await v.call('get_properties', { name: 'Nope' })).structured.code).toBe('not_found');
  });
});
