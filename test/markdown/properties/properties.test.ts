import { describe, expect, it } from 'vitest';
import { parseFrontmatter } from '../../../src/markdown/frontmatter/frontmatter.js';
import { inferPropertyType, noteProperties } from '../../../src/markdown/properties/properties.js';

describe('property types (PROP-10..13)', () => {
  it('infers list, number, checkbox, date, datetime and text from the value', () => {
    const { data } = parseFrontmatter(
      [
        '---',
        'tags: [a, b]',
        'count: 3',
        'ratio: 0.5',
        'done: true',
        'answer: yes',
        'due: 2024-05-01',
        'at: 2024-05-01T10:30',
        'atSeconds: 2024-05-01T10:30:15',
        'day: 2024-5-1',
        'empty:',
        'nested: {a: 1}',
        '---',
        '',
      ].join('\n'),
    );
    expect(noteProperties(data).types).toEqual({
      tags: 'list',
      count: 'number',
      ratio: 'number',
      done: 'checkbox',
      answer: 'text',
      due: 'date',
      at: 'datetime',
      atSeconds: 'datetime',
      day: 'text',
      empty: 'text',
      nested: 'text',
    });
    expect(noteProperties(data).properties.due).toBe('2024-05-01');
    expect(noteProperties(data).properties.empty).toBeNull();
  });

  it('a types.json assignment wins (case-insensitive key), mapped to the six reported types', () => {
    const data = {
      Due: '2024-05-01',
      n: 3,
      cssclasses: ['wide'],
      tags: 'x',
      published: '2024-05-01',
      odd: 1,
    };
    const assigned = {
      types: {
        due: 'text',
        n: 'text',
        cssclasses: 'multitext',
        tags: 'tags',
        published: 'datetime',
        odd: 'widget',
      },
    };
    expect(noteProperties(data, assigned).types).toEqual({
      Due: 'text',
      n: 'text',
      cssclasses: 'list',
      tags: 'list',
      published: 'datetime',
      odd: 'number',
    });
    // The bare `types` member works too.
    expect(noteProperties({ a: 'x' }, { a: 'checkbox' }).types).toEqual({ a: 'checkbox' });
  });

  it('no frontmatter or invalid YAML has no properties (PROP-20)', () => {
    expect(noteProperties(null)).toEqual({ properties: {}, types: {} });
    expect(noteProperties(parseFrontmatter('---\na: [1\n---\n').data)).toEqual({ properties: {}, types: {} });
  });

  it('keeps a __proto__ key as a plain property', () => {
    const data = JSON.parse('{"__proto__": "x"}') as Record<string, string>;
    const typed = noteProperties(data);
    expect(Object.keys(typed.properties)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(typed.properties)).toBe(Object.prototype);
  });

  it('inferPropertyType treats null as text', () => {
    expect(inferPropertyType(null)).toBe('text');
  });
});
