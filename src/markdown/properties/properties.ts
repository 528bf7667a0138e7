/**
 * @module
 * A note's frontmatter as typed properties (OBSIDIAN.md §3.2): the type of each property inferred
 * from its value (PROP-13), or taken from the vault's `.obsidian/types.json` assignment (PROP-11),
 * which the caller reads and passes in. Pure.
 */

import type { JsonValue } from '../frontmatter/frontmatter.js';

/** The property types get_properties reports (SPEC 10). */
export type PropertyType = 'text' | 'list' | 'number' | 'checkbox' | 'date' | 'datetime';

export interface TypedProperties {
  readonly properties: Record<string, JsonValue>;
  readonly types: Record<string, PropertyType>;
}

/**
 * The `types` object of `.obsidian/types.json` (`{"types": {"due": "date"}}`), or the object itself;
 * keys compare case-insensitively (PROP-14).
 */
export type TypeAssignments = Readonly<Record<string, unknown>>;

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?$/;

/** Obsidian's internal type ids (PROP-11) mapped to the six types reported. */
const ASSIGNED: Readonly<Record<string, PropertyType>> = {
  text: 'text',
  multitext: 'list',
  number: 'number',
  checkbox: 'checkbox',
  date: 'date',
  datetime: 'datetime',
  tags: 'list',
  aliases: 'list',
};

/**
 * PROP-13, as OBSIDIAN.md infers it: a list → `list`, a number → `number`, a boolean → `checkbox`,
 * a `YYYY-MM-DD` string → `date`, a `YYYY-MM-DDTHH:mm[:ss]` string → `datetime`, anything else
 * (text, null, an object) → `text`.
 *
 * @example
 * inferPropertyType('2024-05-01') // 'date'
 */
export function inferPropertyType(value: JsonValue): PropertyType {
  if (Array.isArray(value)) return 'list';
  switch (typeof value) {
    case 'number':
      return 'number';
    case 'boolean':
      return 'checkbox';
    case 'string':
      if (DATE.test(value)) return 'date';
      if (DATETIME.test(value)) return 'datetime';
      return 'text';
    default:
      return 'text';
  }
}

/**
 * The properties of parsed frontmatter with a type each. `null` frontmatter (none, or YAML that does
 * not parse, PROP-20) has no properties. An assignment in `assigned` wins over inference when it names
 * a known type id; an unknown id (a plugin's widget) falls back to inference. The type says how the
 * property is meant to be read; the value is reported exactly as the YAML holds it.
 *
 * @example
 * noteProperties({ due: '2024-05-01', n: 3 }, { types: { n: 'text' } })
 * // { properties: { due: '2024-05-01', n: 3 }, types: { due: 'date', n: 'text' } }
 */
export function noteProperties(
  data: Readonly<Record<string, JsonValue>> | null,
  assigned?: TypeAssignments | null,
): TypedProperties {
  const properties: Record<string, JsonValue> = {};
  const types: Record<string, PropertyType> = {};
  if (!data) return { properties, types };
  const table = assignedTypes(assigned);
  for (const [key, value] of Object.entries(data)) {
    setOwn(properties, key, value);
    setOwn(types, key, table.get(key.toLowerCase()) ?? inferPropertyType(value));
  }
  return { properties, types };
}

/** The types the vault assigns (types.json), by lower-cased property name; unknown type ids left out. */
export function assignedTypes(assigned: TypeAssignments | null | undefined): Map<string, PropertyType> {
  const table = new Map<string, PropertyType>();
  if (!assigned) return table;
  // Accept the whole types.json document as well as its `types` member.
  const inner = assigned.types;
  const source =
    inner !== null && typeof inner === 'object' && !Array.isArray(inner)
      ? (inner as Record<string, unknown>)
      : assigned;
  for (const [key, id] of Object.entries(source)) {
    if (typeof id !== 'string') continue;
    const type = Object.hasOwn(ASSIGNED, id) ? ASSIGNED[id] : undefined;
    if (type) table.set(key.toLowerCase(), type);
  }
  return table;
}

/** Security: a `__proto__` key must become an own property, never the object's prototype. */
function setOwn<T>(target: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
}
