/**
 * @module
 * The parts of a note's outline added by SPEC 17.4: its tags with their lines (frontmatter, then
 * inline in document order) and its Markdown tables with their rows as objects by header. Each list
 * stops at a bound, so a hostile note's outline stays a bounded answer: what was cut is said.
 */

import { blocksOf } from './blocks.js';
import { frontmatterTags } from './frontmatter/fields.js';
import type { JsonValue } from './frontmatter/frontmatter.js';
import type { Line } from './lines.js';
import type { ScannedTag } from './scan.js';
import { headerKeys, rowObject, tableCells } from './tables.js';

export interface OutlineTag {
  /** The tag without `#`, as written. */
  readonly tag: string;
  /** 1-based line: in the frontmatter, the line of the list item or of the `tags:` key. */
  readonly line: number;
  readonly source: 'frontmatter' | 'inline';
}

export interface OutlineTable {
  /** 1-based lines of the header row and of the table's last row. */
  readonly line: number;
  readonly to: number;
  /** The keys of each row, one a column: the header cells (an empty one `column N`, a repeated one `x (2)`). */
  readonly headers: string[];
  readonly rows: Record<string, string>[];
  /** Present when the table has more rows than `rows` holds. */
  readonly truncated?: true;
}

/** Tags listed at most; a note holding more says so. */
export const MAX_OUTLINE_TAGS = 1_000;
/** Tables listed at most, and rows of each. */
export const MAX_OUTLINE_TABLES = 100;
export const MAX_TABLE_ROWS = 1_000;

const TAGS_KEY = /^tags\s*:/i;
const TOP_KEY = /^[^\s#-][^:]*:/;
const LIST_ITEM = /^\s*-\s/;

/**
 * The note's tags with their lines, frontmatter first (TAG-22), at most `max`; `cut` when there are more.
 * The YAML keeps no positions, so a frontmatter tag's line is where its text stands under `tags:`.
 */
export function outlineTags(
  raw: string,
  data: Readonly<Record<string, JsonValue>> | null,
  inline: readonly ScannedTag[],
  max = MAX_OUTLINE_TAGS,
): { tags: OutlineTag[]; cut: boolean } {
  const fromYaml = data === null ? [] : frontmatterTags(data);
  const out: OutlineTag[] = [];
  const lines = raw.split('\n');
  const keyAt = lines.findIndex((l) => TAGS_KEY.test(l));
  let searchFrom = keyAt;
  // Bounded before the search for lines: each tag looks on from where the last was found.
  for (const tag of fromYaml.slice(0, max)) {
    let at = keyAt;
    for (let i = searchFrom; keyAt !== -1 && i < lines.length; i++) {
      const text = lines[i] as string;
      if (i > keyAt && TOP_KEY.test(text)) break;
      if (text.includes(tag)) {
        at = i;
        // One tag a list item: the next is looked for below it.
        searchFrom = LIST_ITEM.test(text) ? i + 1 : i;
        break;
      }
    }
    out.push({ tag, line: at + 1, source: 'frontmatter' });
  }
  for (const t of inline) {
    if (out.length >= max) break;
    out.push({ tag: t.tag, line: t.line, source: 'inline' });
  }
  return { tags: out, cut: fromYaml.length + inline.length > max };
}

/**
 * The Markdown tables of a body (splitLines' lines, numbered from `lineOffset` + 1), at most `maxTables`,
 * each with at most `maxRows` rows. Tables in fenced code are none; tables in quotes and lists are
 * not read (their lines belong to the quote or the list).
 */
export function outlineTables(
  lines: readonly Line[],
  lineOffset: number,
  maxTables = MAX_OUTLINE_TABLES,
  maxRows = MAX_TABLE_ROWS,
): { tables: OutlineTable[]; cut: boolean } {
  const tables: OutlineTable[] = [];
  let cut = false;
  for (const block of blocksOf(lines)) {
    if (block.kind !== 'table') continue;
    if (tables.length >= maxTables) {
      cut = true;
      break;
    }
    const headers = headerKeys(tableCells((lines[block.from] as Line).text));
    const rows: Record<string, string>[] = [];
    const last = Math.min(block.to, block.from + 1 + maxRows);
    for (let i = block.from + 2; i <= last; i++) rows.push(rowObject(headers, (lines[i] as Line).text));
    tables.push({
      line: block.from + 1 + lineOffset,
      to: block.to + 1 + lineOffset,
      headers,
      rows,
      ...(block.to > last ? { truncated: true as const } : {}),
    });
  }
  return { tables, cut };
}
