/**
 * @module
 * Turns a note's text into what the index stores: title, tags, the text of each search column, and
 * the rows of the link, tag, task, alias and property tables. Pure: the same text always gives the
 * same record. It runs for every note on parser threads during a cold build, so it reuses the one
 * frontmatter parse and the one body scan for everything, and does here what the writing thread,
 * which limits a build, would otherwise do per row (folding names and task texts).
 */

import { isoInstant } from '../../common/iso-time.js';
import type { NoteFormat, NoteReading, ReadLink } from '../../format/note-format.js';
import { foldName, linkKey } from '../../markdown/link-key.js';
import { inferPropertyType, type PropertyType } from '../../markdown/properties/properties.js';
import { normalizeTag, tagWithParents } from '../../markdown/tag-match.js';
import { countWords } from '../../markdown/word-count.js';
import { segmentCjk } from '../words/cjk.js';
import { encodeLayout, layoutOf, layoutWords } from '../words/note-layout.js';

/** One link of a note as written; it is resolved only when asked (queries/links.ts). */
export interface DerivedLink extends ReadLink {
  /** `linkKey(linkpath, ending)`. */
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
  /**
   * Where the body's lines, blocks and sections start in the words of `ftsBody` (note-layout.ts), and
   * how many words that layout counts in all; null for a format whose lines are not the file's (HTML).
   */
  readonly layout: { readonly bytes: Uint8Array; readonly words: number } | null;
  /** Obsidian's word count of the body (the text an HTML note shows). */
  readonly words: number;
  /** The frontmatter `created` when it is an ISO date or time, in ms; else null (the file's birth time is used). */
  readonly createdMs: number | null;
}

/** The index record of a note stored in `format`. */
export function deriveNote(name: string, text: string, format: NoteFormat): DerivedNote {
  const read = format.read(name, text);
  const seen = new Set<string>();
  const tags: string[] = [];
  for (const tag of read.tags) {
    const key = tag.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    tags.push(tag);
  }
  return {
    pathLower: foldName(name),
    title: read.title,
    tags,
    tagPrefixes: tagPrefixes(tags),
    links: read.links.map((link) => ({ ...link, key: linkKey(link.linkpath, format.ending) })),
    tasks: read.tasks.map((t) => ({
      line: t.line,
      status: t.status,
      text: t.text,
      textFold: foldName(t.text),
      due: t.due,
    })),
    aliases: [...new Set(read.aliases.map(foldName))],
    properties: properties(read.properties),
    ftsTitle: segmentCjk(read.title),
    // `/` separates nesting levels, so `#project/alpha` is found by `project` and by `alpha`.
    ftsTags: segmentCjk(tags.join(' ')),
    ftsBody: segmentCjk(read.searchText),
    layout: format.name === 'markdown' ? layoutRecord(text) : null,
    words: countWords(read.searchText),
    createdMs: createdOf(read.properties),
  };
}

/** The `created` property (its key in any case, PROP-14) as an instant, when it is a date or a time. */
function createdOf(data: NoteReading['properties']): number | null {
  if (!data) return null;
  for (const [key, value] of Object.entries(data)) {
    if (key.toLowerCase() === 'created' && typeof value === 'string') return isoInstant(value);
  }
  return null;
}

function layoutRecord(text: string): DerivedNote['layout'] {
  const layout = layoutOf(text);
  return { bytes: encodeLayout(layout), words: layoutWords(layout) };
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

function properties(data: NoteReading['properties']): DerivedProperty[] {
  if (!data) return [];
  return Object.entries(data).map(([key, value]) => ({
    key,
    keyLower: foldName(key),
    valueJson: JSON.stringify(value),
    type: inferPropertyType(value),
  }));
}
