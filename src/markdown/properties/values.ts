/**
 * @module
 * A value set_properties writes, in the type Obsidian would read the property as (OBSIDIAN.md §3.2):
 * the type the vault assigns in `.obsidian/types.json` (PROP-11), else a default property's (`tags`,
 * `aliases`, `cssclasses` are lists, PROP-12), else the value's own. A value that cannot be that type
 * is refused, saying which type the vault expects, rather than written as a mismatch Obsidian would
 * flag. Tags are checked as Obsidian reads a `#tag` (TAG-01, TAG-02).
 */

import { NotedError } from '../../common/errors.js';
import type { PropertyValue } from '../frontmatter/splice.js';
import { normalizeTag } from '../tag-match.js';
import { isCalendarDate } from '../task-syntax.js';
import type { PropertyType } from './properties.js';

/** The properties Obsidian always reads as lists (PROP-12, TAG-10, PROP-17). */
const LIST_BY_DEFAULT = /^(?:tags|aliases|cssclasses)$/i;
const TAGS_KEY = /^tags$/i;

const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?$/i;
const DATETIME = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,3})?)?$/;
/** What ends an inline tag (TAG-02): the characters after `#` that Obsidian would not take into it. */
const NOT_IN_TAG = /[\u2000-\u206F\u2E00-\u2E7F'!"#$%&()*+,.:;<=>?@^`{|}~[\]\\\s]/u;

const TYPE_NAMES: Readonly<Record<PropertyType, string>> = {
  text: 'Text',
  list: 'List',
  number: 'Number',
  checkbox: 'Checkbox',
  date: 'Date',
  datetime: 'Date & time',
};

/**
 * `value` in the type property `key` has in this vault: `assigned` is the type types.json gives it,
 * if any.
 *
 * @example
 * propertyValue('due', '2024-05-01', 'date') // '2024-05-01'
 * propertyValue('priority', '3', 'number') // 3
 * propertyValue('tags', '#work', undefined) // ['work']
 */
export function propertyValue(
  key: string,
  value: PropertyValue,
  assigned: PropertyType | undefined,
): PropertyValue {
  if (TAGS_KEY.test(key)) return cleanTags(asList(key, value));
  const type = assigned ?? (LIST_BY_DEFAULT.test(key) ? 'list' : undefined);
  switch (type) {
    case undefined:
      return value;
    case 'list':
      return asList(key, value).map((item) => (typeof item === 'string' ? item : String(item)));
    case 'text':
      if (Array.isArray(value)) throw mismatch(key, type, value, 'one text value');
      return typeof value === 'string' ? value : String(value);
    case 'number':
      if (typeof value === 'number') return value;
      if (typeof value === 'string' && NUMBER.test(value.trim())) return Number(value.trim());
      throw mismatch(key, type, value, 'a number such as 3 or 2.5');
    case 'checkbox':
      if (typeof value === 'boolean') return value;
      if (typeof value === 'string' && /^(?:true|false)$/i.test(value.trim()))
        return value.trim().toLowerCase() === 'true';
      throw mismatch(key, type, value, 'true or false');
    case 'date':
      if (typeof value === 'string' && isCalendarDate(value.trim())) return value.trim();
      throw mismatch(key, type, value, 'a date written YYYY-MM-DD, such as "2026-05-01"');
    case 'datetime':
      if (typeof value === 'string') {
        const written = dateTime(value.trim());
        if (written !== null) return written;
      }
      throw mismatch(
        key,
        type,
        value,
        'a local date and time written YYYY-MM-DDTHH:mm (seconds optional, no time zone), such as "2026-05-01T14:30"',
      );
  }
}

/**
 * A tag as a frontmatter `tags` item: trimmed, leading `#`s removed, and refused when Obsidian would
 * not read it as one tag.
 *
 * @example
 * cleanTag(' #project/alpha ') // 'project/alpha'
 */
export function cleanTag(tag: string): string {
  const clean = tag.trim().replace(/^#+/, '');
  const bad = NOT_IN_TAG.exec(clean);
  let problem: string | null = null;
  if (clean === '') problem = 'is empty';
  else if (/^\d+$/.test(clean)) problem = 'is all digits, which Obsidian does not read as a tag';
  else if (bad)
    problem = /\s/.test(bad[0])
      ? 'contains a space, and tags cannot'
      : `contains ${JSON.stringify(bad[0])}, which ends a tag in Obsidian`;
  if (problem !== null) {
    throw new NotedError(
      'validation_error',
      `The tag ${JSON.stringify(tag)} ${problem}. Tags are letters, digits, _, - and / (for nesting), with at least one non-digit, e.g. "project" or "area/work"; a leading # is optional. Nothing was written.`,
      { tag },
    );
  }
  return clean;
}

function cleanTags(values: readonly PropertyValue[]): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const value of values) {
    const tag = cleanTag(String(value));
    const key = normalizeTag(tag);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(tag);
  }
  return out;
}

function asList(key: string, value: PropertyValue): PropertyValue[] {
  if (!Array.isArray(value)) return [value];
  for (const item of value) {
    if (Array.isArray(item)) {
      throw new NotedError(
        'validation_error',
        `The property ${JSON.stringify(key)} is a list of single values; a list inside it cannot be written. Nothing was written.`,
        { property: key },
      );
    }
  }
  return value;
}

/** `YYYY-MM-DDTHH:mm[:ss[.SSS]]` (a space for the T is accepted), written with the T; else null. */
function dateTime(value: string): string | null {
  const m = DATETIME.exec(value);
  if (!m) return null;
  const [, day, hh, mm, ss] = m;
  if (!isCalendarDate(day!) || Number(hh) > 23 || Number(mm) > 59 || (ss !== undefined && Number(ss) > 59))
    return null;
  return value.replace(' ', 'T');
}

function mismatch(key: string, type: PropertyType, value: PropertyValue, wanted: string): NotedError {
  return new NotedError(
    'validation_error',
    `The property ${JSON.stringify(key)} is a ${TYPE_NAMES[type]} property in this vault (its type in Obsidian, .obsidian/types.json), and ${JSON.stringify(value)} is not one: give ${wanted}. Nothing was written.`,
    { property: key, type },
  );
}
