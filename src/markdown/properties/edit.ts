/**
 * @module
 * edit_note `set_properties` (SPEC 13.1): set, change or remove frontmatter properties, every other
 * byte of the note kept. A property is found by its name as written, else by the same name in
 * another letter case (whose spelling is then kept); a new one goes at the end of the block, which
 * is created when the note has none. Values are written in the type Obsidian reads the property as
 * (properties/values.ts).
 */

import { NotedError } from '../../common/errors.js';
import type { JsonValue } from '../frontmatter/frontmatter.js';
import {
  finishFrontmatter,
  isFlowMapping,
  keyOf,
  MAX_KEY_CHARS,
  newPairsText,
  openFrontmatter,
  type PropertyValue,
  pairsNamed,
  removePairSplice,
  reprintFlowFrontmatter,
  type Splice,
  setValueSplices,
} from '../frontmatter/splice.js';
import { assignedTypes, type TypeAssignments } from './properties.js';
import { propertyValue } from './values.js';

/** The changes of one call: a value to set, or null to remove the property. */
export type PropertyChanges = Readonly<Record<string, PropertyValue | null>>;

/**
 * The note with `changes` applied to its frontmatter. `assigned` is the vault's types.json.
 *
 * @example
 * setProperties('---\nstatus: draft # keep\n---\nBody\n', { status: 'done', due: '2026-05-01' })
 * // '---\nstatus: done # keep\ndue: 2026-05-01\n---\nBody\n'
 * @throws NotedError `validation_error` for an unusable name or value, a block that does not parse,
 *   or a change that would not read back as asked; `ambiguous` when a name matches several
 *   properties that differ only in letter case.
 */
export function setProperties(
  text: string,
  changes: PropertyChanges,
  assigned: TypeAssignments | null = null,
): string {
  const keys = checkKeys(changes);
  const fm = openFrontmatter(text, 'set_properties');
  const types = assignedTypes(assigned);
  const expected: Record<string, JsonValue> = { ...fm.data };
  const splices: Splice[] = [];
  const added: [string, PropertyValue][] = [];
  const planned: {
    pair: ReturnType<typeof pairsNamed>[number] | null;
    key: string;
    value: PropertyValue | null;
  }[] = [];
  for (const key of keys) {
    const raw = changes[key]!;
    const value = raw === null ? null : propertyValue(key, raw, types.get(key.toLowerCase()));
    const pairs = pairsNamed(fm.map, key);
    if (pairs.length > 1) {
      const names = pairs.map(keyOf);
      throw new NotedError(
        'ambiguous',
        `The note has ${pairs.length} properties named ${JSON.stringify(key)} in different letter case (${names.map((n) => JSON.stringify(n)).join(', ')}). Name the one you mean exactly as written.`,
        { candidates: names },
      );
    }
    const pair = pairs[0] ?? null;
    planned.push({ pair, key, value });
    if (pair === null) {
      if (value === null) continue;
      added.push([key, value]);
      setOwn(expected, key, value);
    } else if (value === null) {
      splices.push(removePairSplice(fm, pair));
      delete expected[keyOf(pair)];
    } else {
      splices.push(...setValueSplices(fm, pair, value));
      setOwn(expected, keyOf(pair), value);
    }
  }
  if (isFlowMapping(fm)) return reprintFlowFrontmatter(fm, planned, expected, 'set_properties');
  return finishFrontmatter(fm, splices, newPairsText(fm, added), expected, 'set_properties');
}

/** The names to change, in the order given; refused when unusable or repeated in another case. */
function checkKeys(changes: PropertyChanges): string[] {
  const keys = Object.keys(changes);
  if (keys.length === 0) {
    throw new NotedError(
      'validation_error',
      'properties is empty: give at least one property to set (or null to remove it), e.g. {"status": "done"}.',
    );
  }
  const seen = new Map<string, string>();
  for (const key of keys) {
    let problem: string | null = null;
    if (key.trim() === '') problem = 'is empty';
    else if (key !== key.trim()) problem = 'starts or ends with a space';
    else if (/[\u0000-\u001f\u007f]/.test(key)) problem = 'contains a line break or control character';
    else if (key.length > MAX_KEY_CHARS) problem = `is longer than ${MAX_KEY_CHARS} characters`;
    if (problem !== null) {
      throw new NotedError(
        'validation_error',
        `The property name ${JSON.stringify(key.slice(0, 100))} ${problem}. Nothing was written.`,
        { property: key.slice(0, 100) },
      );
    }
    const lower = key.toLowerCase();
    const other = seen.get(lower);
    if (other !== undefined) {
      throw new NotedError(
        'validation_error',
        `properties names ${JSON.stringify(other)} and ${JSON.stringify(key)}, which Obsidian reads as one property (names ignore letter case). Give it once. Nothing was written.`,
      );
    }
    seen.set(lower, key);
  }
  return keys;
}

/** Security: a `__proto__` key must become an own property, never the object's prototype. */
function setOwn(target: Record<string, JsonValue>, key: string, value: JsonValue): void {
  Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
}
