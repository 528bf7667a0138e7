/**
 * @module
 * What the index keeps of a Markdown note: the one frontmatter parse and the one body scan, reused
 * for everything (title, tags, links, tasks, aliases, properties, search text).
 */

import { frontmatterAliases, frontmatterLinks, frontmatterTags } from '../markdown/frontmatter/fields.js';
import { parseFrontmatter } from '../markdown/frontmatter/frontmatter.js';
import { type ScannedLink, scanBody } from '../markdown/scan.js';
import { noteTitle } from '../markdown/title.js';
import type { NoteReading, ReadLink } from './note-format.js';

export function readMarkdown(name: string, text: string): NoteReading {
  const fm = parseFrontmatter(text);
  const lineOffset = fm.raw === '' ? 0 : fm.raw.split('\n').length - 1;
  const scan = scanBody(fm.body, { lineOffset });
  const links: ReadLink[] = frontmatterLinkRows(fm.raw, fm.data);
  for (const link of scan.links) links.push(readLinkOf(link));
  return {
    title: noteTitle(name, fm.data, text, '.md'),
    tags: [...frontmatterTags(fm.data), ...scan.tags.map((t) => t.tag)],
    links,
    tasks: scan.tasks.map((t) => ({ line: t.line, status: t.status, text: t.text, due: t.due })),
    aliases: frontmatterAliases(fm.data),
    properties: fm.data,
    searchText: fm.body,
  };
}

/** A link the body scanner found, as the index keeps it. */
export function readLinkOf(link: ScannedLink): ReadLink {
  return {
    kind: link.kind,
    raw: link.raw,
    linkpath: link.linkpath,
    heading: link.heading,
    block: link.block,
    alias: link.alias,
    embed: link.embed,
    line: link.line,
    property: null,
  };
}

type Frontmatter = ReturnType<typeof parseFrontmatter>;

function frontmatterLinkRows(raw: string, data: Frontmatter['data']): ReadLink[] {
  const out: ReadLink[] = [];
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
    });
  }
  return out;
}
