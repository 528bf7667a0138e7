/**
 * @module
 * What parsed frontmatter contributes besides plain properties: its tags (OBSIDIAN.md TAG-11), its
 * aliases (PROP-17) and its links (LNK-11). Takes the already-parsed data; `null` (no frontmatter,
 * or YAML that failed to parse, PROP-20) contributes nothing.
 */

import { parseWikilinkInner } from '../link-syntax.js';

/** Parsed frontmatter as the frontmatter parser returns it. */
export type FrontmatterData = Readonly<Record<string, unknown>> | null;

/** A link held by a frontmatter value, with the dotted key path it sits at (`links.0`, `a.b`). */
export interface FrontmatterLink {
  readonly key: string;
  /** The whole value, `[[…]]` included. */
  readonly raw: string;
  readonly linkpath: string;
  readonly heading: string | null;
  readonly block: string | null;
  readonly alias: string | null;
}

const TAGS_KEY = /^tags$/i;
const ALIASES_KEY = /^aliases$/i;
const WHITESPACE = /\s/;

/**
 * TAG-11 (`parseFrontMatterTags`): every key matching `/^tags$/i`; a string is one tag, a list keeps
 * its strings (other elements are dropped); values are trimmed, then empties and values containing
 * whitespace are dropped (`'a, b'` yields nothing, TAG-12); one leading `#` is removed.
 *
 * @example
 * frontmatterTags({ tags: ['#a', ' b ', 'c d', 3] }) // ['a', 'b']
 */
export function frontmatterTags(data: FrontmatterData): string[] {
  const out: string[] = [];
  for (const value of stringsUnder(data, TAGS_KEY)) {
    if (value === '' || WHITESPACE.test(value)) continue;
    const tag = value.startsWith('#') ? value.slice(1) : value;
    if (tag !== '') out.push(tag);
  }
  return out;
}

/**
 * PROP-17 (`parseFrontMatterAliases`): every key matching `/^aliases$/i`; a string is one alias (no
 * comma splitting), a list keeps its strings; trimmed, empties dropped.
 *
 * @example
 * frontmatterAliases({ Aliases: 'AI, ML' }) // ['AI, ML']
 */
export function frontmatterAliases(data: FrontmatterData): string[] {
  return stringsUnder(data, ALIASES_KEY).filter((alias) => alias !== '');
}

function stringsUnder(data: FrontmatterData, key: RegExp): string[] {
  const out: string[] = [];
  if (!data) return out;
  for (const [name, value] of Object.entries(data)) {
    if (!key.test(name)) continue;
    if (typeof value === 'string') out.push(value.trim());
    else if (Array.isArray(value)) {
      for (const item of value) if (typeof item === 'string') out.push(item.trim());
    }
  }
  return out;
}

/**
 * LNK-11 (`extractFrontmatterLinks`): every string value, at any depth of lists and objects, that is
 * one whole wikilink: it starts with `[[`, ends with `]]` and holds no other `[[` or `]]`. Keys are
 * dotted paths in document order. A Markdown link or an embed (`![[…]]`) in a property is no link.
 *
 * @example
 * frontmatterLinks({ up: '[[Home]]', related: ['[[A#Part]]', 'plain'] })
 * // [{ key: 'up', raw: '[[Home]]', linkpath: 'Home', … }, { key: 'related.0', linkpath: 'A', heading: 'Part', … }]
 */
export function frontmatterLinks(data: FrontmatterData): FrontmatterLink[] {
  const out: FrontmatterLink[] = [];
  if (data) walk(data, '', out);
  return out;
}

function walk(value: unknown, key: string, out: FrontmatterLink[]): void {
  if (typeof value === 'string') {
    const link = wholeWikilink(value);
    if (link) {
      out.push({
        key,
        raw: value,
        linkpath: link.linkpath,
        heading: link.heading,
        block: link.block,
        alias: link.alias,
      });
    }
  } else if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) walk(item, join(key, String(index)), out);
  } else if (value !== null && typeof value === 'object' && !(value instanceof Date)) {
    for (const [name, item] of Object.entries(value)) walk(item, join(key, name), out);
  }
}

function join(prefix: string, name: string): string {
  return prefix === '' ? name : `${prefix}.${name}`;
}

function wholeWikilink(value: string): ReturnType<typeof parseWikilinkInner> {
  if (!value.startsWith('[[') || !value.endsWith(']]') || value.length < 5) return null;
  const inner = value.slice(2, -2);
  // `"[[A]] and [[B]]"` also starts and ends with brackets, but it is prose with two links, not one.
  if (inner.includes('[[') || inner.includes(']]')) return null;
  return parseWikilinkInner(inner, false);
}
