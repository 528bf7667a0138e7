/**
 * @module
 * The html format of export_notes (SPEC 12.2): one standalone document per page, each note an
 * `<article>` rendered and sanitized by markdown/html/render.ts. A link to a note of the same page is
 * an in-page anchor (`#note-…`, to the heading when it names one); a link to another note agents may
 * see is its resource address (`noted://note/<path>`, SPEC 9.2); anything else is plain text.
 */
import { createHash } from 'node:crypto';
import { resolveLinkTarget, resolveLinkTargets } from '../../index/queries/links.js';
import { parseFrontmatter } from '../../markdown/frontmatter/frontmatter.js';
import { escapeHtml, markdownToHtml, type RenderedLink, sanitizeHtml } from '../../markdown/html/render.js';
import { scanBody } from '../../markdown/scan.js';
import { stripHeading } from '../../markdown/sections.js';
import { folderOf } from '../../vault/names.js';
import type { StoredNote } from '../../vault/vault.js';
import { isNoteFile } from '../../vault/walk.js';
import type { AccessContext } from '../context.js';
import type { Rules } from '../rules/rules.js';
import { visibleOption } from '../rules/scope.js';

/** The anchor id of a note in an export document: readable, and unique by a hash of the path. */
export function noteAnchor(name: string): string {
  const slug = name
    .replace(/\.md$/i, '')
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 60)
    .toLowerCase();
  return `note-${slug}-${createHash('sha256').update(name).digest('hex').slice(0, 8)}`;
}

function headingSlug(text: string): string {
  return encodeURIComponent(stripHeading(text).toLowerCase().replace(/\s+/g, '-'));
}

export interface HtmlLinks {
  /** Resolves in one batch the links `source` holds, before they are asked for one by one. */
  prefetch(source: string, linkpaths: Iterable<string>): void;
  /** Resolves the links of notes written in `source`. */
  hrefFor(source: string, link: RenderedLink): string | null;
  /** Notes the page holds: links to them stay in-page anchors. */
  inPage(name: string): void;
  /** Links to notes outside the page become their resource address: in each article once the page is full. */
  finish(html: string): string;
}

export function htmlLinks(ctx: AccessContext, rules: Rules): HtmlLinks {
  const db = ctx.index.db;
  const visible = visibleOption(rules);
  const page = new Set<string>();
  const byAnchor = new Map<string, string>();
  // Resolution depends on the link text and the source's folder (same-folder preference), not more.
  const resolved = new Map<string, string | null>();
  const keyOf = (source: string, linkpath: string) =>
    `${folderOf(source)}\0${linkpath.normalize('NFC').toLowerCase()}`;
  const resolve = (source: string, linkpath: string): string | null => {
    const key = keyOf(source, linkpath);
    let target = resolved.get(key);
    if (target === undefined) {
      target = resolveLinkTarget(db, linkpath, source, visible);
      resolved.set(key, target);
    }
    return target;
  };
  return {
    prefetch(source, linkpaths) {
      const wanted = [...linkpaths].filter((l) => l !== '' && !resolved.has(keyOf(source, l)));
      for (const [linkpath, target] of resolveLinkTargets(db, wanted, source, visible)) {
        resolved.set(keyOf(source, linkpath), target);
      }
    },
    hrefFor(source, link) {
      const target = link.linkpath === '' ? source : resolve(source, link.linkpath);
      if (target === null || !isNoteFile(target, ctx.vault.ending)) return null;
      const anchor = noteAnchor(target);
      byAnchor.set(anchor, target);
      return link.heading === null ? `#${anchor}` : `#${anchor}--${headingSlug(lastPart(link.heading))}`;
    },
    inPage: (name) => page.add(name),
    finish: (html) =>
      html.replace(/href="#(note-[a-z0-9-]*?-[0-9a-f]{8})(?:--[^"]*)?"/g, (whole, anchor: string) => {
        const target = byAnchor.get(anchor);
        if (target === undefined || page.has(target)) return whole;
        return `href="noted://note/${target.split('/').map(encodeURIComponent).join('/')}"`;
      }),
  };
}

function lastPart(heading: string): string {
  const parts = heading.split('#').filter((p) => p !== '');
  return parts[parts.length - 1] ?? heading;
}

/** One note as an article: its name, etag and properties, then its body rendered. */
export function htmlNote(stored: StoredNote, text: string, links: HtmlLinks, storedAsHtml = false): string {
  const fm = parseFrontmatter(storedAsHtml ? '' : text);
  const anchor = noteAnchor(stored.name);
  // A note of an HTML vault is HTML already: sanitized as the export's own, its links as written.
  // A note may hold tens of thousands of links: resolved together, not one query pair each.
  if (!storedAsHtml)
    links.prefetch(
      stored.name,
      scanBody(fm.body).links.map((l) => l.linkpath),
    );
  const body = storedAsHtml
    ? sanitizeHtml(text)
    : markdownToHtml(fm.body, {
        linkHref: (link) => links.hrefFor(stored.name, link),
        headingId: (heading) => `${anchor}--${headingSlug(heading)}`,
      });
  const properties =
    fm.data === null || Object.keys(fm.data).length === 0
      ? ''
      : `<dl class="properties">${Object.entries(fm.data)
          .map(
            ([k, v]) =>
              `<dt>${escapeHtml(k)}</dt><dd>${escapeHtml(typeof v === 'string' ? v : JSON.stringify(v))}</dd>`,
          )
          .join('')}</dl>\n`;
  return `<article id="${anchor}" data-note="${escapeHtml(stored.name)}" data-etag="${escapeHtml(stored.etag)}">\n<header><h1 class="note-name">${escapeHtml(stored.name)}</h1></header>\n${properties}${body}</article>\n`;
}

/** The page's standalone document, of its articles once {@link HtmlLinks.finish} has been through each. */
export function htmlDocument(articles: readonly string[]): string {
  return `<!DOCTYPE html>\n<html>\n<head>\n<meta charset="utf-8">\n<title>Noted export</title>\n</head>\n<body>\n${articles.join('')}</body>\n</html>\n`;
}
