/**
 * @module
 * Turns a note's text into what the index stores: title, tags, the text of each search column, and
 * the rows of the link, tag, task, alias and property tables. Pure: the same text always gives the
 * same record. It runs for every note on parser threads during a cold build, so it reuses the one
 * frontmatter parse and the one body scan for everything, and does here what the writing thread,
 * which limits a build, would otherwise do per row (folding names and task texts).
 */

import { parseFrontmatter } from '../markdown/frontmatter.js';
import { frontmatterAliases, frontmatterLinks, frontmatterTags } from '../markdown/frontmatter-fields.js';
import { foldName, linkKey } from '../markdown/link-key.js';
import { inferPropertyType, type PropertyType } from '../markdown/properties.js';
import { scanBody } from '../markdown/scan.js';
import { normalizeTag, tagWithParents } from '../markdown/tag-match.js';
import { noteTitle } from '../markdown/title.js';
import { segmentCjk } from './cjk.js';

/** One link of a note as written; it is resolved only when asked (links-query.ts). */
export interface DerivedLink {
  readonly kind: 'wikilink' | 'markdown' | 'frontmatter';
  readonly raw: string;
  readonly linkpath: string;
  readonly heading: string | null;
  readonly block: string | null;
  readonly alias: string | null;
  readonly embed: boolean;
  /** 1-based line in the note; for a frontmatter link, the line its value is on. */
  readonly line: number;
  /** The dotted frontmatter key of a frontmatter link (`related.0`), else null. */
  readonly property: string | null;
  /** `linkKey(linkpath)`. */
  readonly key: string;
}

export interface DerivedTask {
  readonly line: number;
  readonly status: string;
  readonly text: string;
  /** `foldName(text)`: what the list_tasks text filter searches. */
  readonly textFold: string;
  readonly due: string | null;
}

export interface DerivedProperty {
  readonly key: string;
  readonly keyLower: string;
  readonly valueJson: string;
  readonly type: PropertyType;
}

/** A tag or a parent of one (TAG-22), in the casing this note first used. */
export interface DerivedTagPrefix {
  readonly tag: string;
  readonly lower: string;
}

export interface DerivedNote {
  /** `foldName(name)`: link resolution compares names so (store.ts). */
  readonly pathLower: string;
  readonly title: string;
  /** Distinct tags (case-insensitive identity, first casing kept), without `#`. */
  readonly tags: string[];
  /** The tags and their parents, each once (`a/b/c` gives `a`, `a/b`, `a/b/c`). */
  readonly tagPrefixes: DerivedTagPrefix[];
  /** Frontmatter links first (in key order), then body links in document order. */
  readonly links: DerivedLink[];
  readonly tasks: DerivedTask[];
  /** Folded (NFC, lower-case), distinct. */
  readonly aliases: string[];
  /** Top-level frontmatter properties in document order; none when the YAML does not parse. */
  readonly properties: DerivedProperty[];
  readonly ftsTitle: string;
  readonly ftsTags: string;
  /**
   * Text, or its UTF-8 bytes when it crossed from a parser thread (see parser-pool.ts); SQLite reads
   * either as the same text.
   */
  readonly ftsBody: string | Uint8Array;
}

export function deriveNote(name: string, text: string): DerivedNote {
  const fm = parseFrontmatter(text);
  const lineOffset = fm.raw === '' ? 0 : fm.raw.split('\n').length - 1;
  const scan = scanBody(fm.body, { lineOffset });
  const seen = new Set<string>();
  const tags: string[] = [];
  for (const tag of [...frontmatterTags(fm.data), ...scan.tags.map((t) => t.tag)]) {
    const key = tag.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    tags.push(tag);
  }
  const title = noteTitle(name, fm.data, text);
  return {
    pathLower: foldName(name),
    title,
    tags,
    tagPrefixes: tagPrefixes(tags),
    links: links(fm.raw, fm.data, scan.links),
    tasks: scan.tasks.map((t) => ({
      line: t.line,
      status: t.status,
      text: t.text,
      textFold: foldName(t.text),
      due: t.due,
    })),
    aliases: [...new Set(frontmatterAliases(fm.data).map(foldName))],
    properties: properties(fm.data),
    ftsTitle: segmentCjk(title),
    // `/` separates nesting levels, so `#project/alpha` is found by `project` and by `alpha`.
    ftsTags: segmentCjk(tags.join(' ')),
    ftsBody: segmentCjk(fm.body),
  };
}

function tagPrefixes(tags: readonly string[]): DerivedTagPrefix[] {
  const out: DerivedTagPrefix[] = [];
  const seen = new Set<string>();
  for (const tag of tags) {
    for (const prefix of tagWithParents(tag)) {
      const lower = normalizeTag(prefix);
      if (lower === '' || seen.has(lower)) continue;
      seen.add(lower);
      out.push({ tag: prefix, lower });
    }
  }
  return out;
}

type ScannedLinks = ReturnType<typeof scanBody>['links'];
type Frontmatter = ReturnType<typeof parseFrontmatter>;

function links(raw: string, data: Frontmatter['data'], body: ScannedLinks): DerivedLink[] {
  const out: DerivedLink[] = [];
  // The YAML parser keeps no positions in the plain data, so the line of a frontmatter link is found
  // by looking for its text in the block, in key order; a value written with escapes that cannot be
  // found that way gets line 1 (the opening `---`).
  let from = 0;
  let line = 1;
  let lineAt = 0;
  for (const link of frontmatterLinks(data)) {
    let at = raw.indexOf(link.raw, from);
    if (at === -1) at = raw.indexOf(link.raw);
    let linkLine = 1;
    if (at !== -1) {
      if (at < lineAt) {
        line = 1;
        lineAt = 0;
      }
      for (let i = raw.indexOf('\n', lineAt); i !== -1 && i < at; i = raw.indexOf('\n', i + 1)) line++;
      lineAt = at;
      linkLine = line;
      from = at + link.raw.length;
    }
    out.push({
      kind: 'frontmatter',
      raw: link.raw,
      linkpath: link.linkpath,
      heading: link.heading,
      block: link.block,
      alias: link.alias,
      embed: false,
      line: linkLine,
      property: link.key,
      key: linkKey(link.linkpath),
    });
  }
  for (const link of body) {
    out.push({
      kind: link.kind,
      raw: link.raw,
      linkpath: link.linkpath,
      heading: link.heading,
      block: link.block,
      alias: link.alias,
      embed: link.embed,
      line: link.line,
      property: null,
      key: linkKey(link.linkpath),
    });
  }
  return out;
}

function properties(data: Frontmatter['data']): DerivedProperty[] {
  if (!data) return [];
  return Object.entries(data).map(([key, value]) => ({
    key,
    keyLower: foldName(key),
    valueJson: JSON.stringify(value),
    type: inferPropertyType(value),
  }));
}
