/**
 * @module
 * A frontmatter value as a typed value, as Obsidian's properties type it: a wikilink (`"[[Note]]"`)
 * is a Link resolved from the note it is written in, a date or date-time text is a Date, lists and
 * objects hold typed items.
 */
import { parseDateText } from './dates.js';
import type { BasesHost } from './host.js';
import { LinkValue, ObjectValue, type Value } from './values.js';

const WIKILINK = /^!?\[\[([^\]|]*)(?:\|([^\]]*))?\]\]$/;

export function propertyValue(raw: unknown, from: string, host: BasesHost): Value {
  if (raw === null || raw === undefined) return null;
  if (typeof raw === 'number' || typeof raw === 'boolean') return raw;
  if (typeof raw === 'string') {
    const link = WIKILINK.exec(raw.trim());
    if (link !== null) return linkFromText(link[1] as string, link[2] ?? null, from, host);
    if (/^\d{4}-\d{2}-\d{2}/.test(raw)) return parseDateText(raw) ?? raw;
    return raw;
  }
  if (Array.isArray(raw)) return raw.map((item) => propertyValue(item, from, host));
  if (typeof raw === 'object') {
    return new ObjectValue(
      new Map(
        Object.entries(raw as Record<string, unknown>).map(([k, v]) => [k, propertyValue(v, from, host)]),
      ),
    );
  }
  return String(raw);
}

/** A Link for `target` (a subpath `#…` kept in the text but not in the resolution), written in `from`. */
export function linkFromText(
  target: string,
  display: string | null,
  from: string,
  host: BasesHost,
): LinkValue {
  const path = target.split('#')[0]?.trim() ?? '';
  const resolved = /^[a-z][a-z0-9+.-]*:/i.test(path) ? null : host.resolve(path === '' ? from : path, from);
  return new LinkValue(target.trim(), display, resolved);
}
