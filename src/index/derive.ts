/**
 * @module
 * Turns a note's text into what the index stores: title, tags and the text of each search column.
 * Pure: the same text always gives the same record.
 */

import { parseFrontmatter } from '../markdown/frontmatter.js';
import { frontmatterTags } from '../markdown/frontmatter-fields.js';
import { scanBody } from '../markdown/scan.js';
import { noteTitle } from '../markdown/title.js';
import { segmentCjk } from './cjk.js';

export interface DerivedNote {
  readonly title: string;
  /** Distinct tags (case-insensitive identity, first casing kept), without `#`. */
  readonly tags: string[];
  readonly ftsTitle: string;
  readonly ftsTags: string;
  readonly ftsBody: string;
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
    title,
    tags,
    ftsTitle: segmentCjk(title),
    // `/` separates nesting levels, so `#project/alpha` is found by `project` and by `alpha`.
    ftsTags: segmentCjk(tags.join(' ')),
    ftsBody: segmentCjk(fm.body),
  };
}
