/**
 * @module
 * Rewriting where the links of an HTML note point (the HTML counterpart of markdown/link-rewrite.ts):
 * each `<a href>` and `<img src>` into the vault, and each `[[wikilink]]` in the text, is offered to
 * a callback that answers its new linkpath. Only the address (or the wikilink's target) changes; the
 * subpath (`#Heading`), the rest of the tag and every byte around it stay as they were.
 */
import { Parser } from 'htmlparser2';
import { boundNesting } from '../markdown/html/nesting.js';
import {
  type LinkEdit,
  type LinkInNote,
  type LinksRewritten,
  type NewLinkpath,
  rewriteLinks,
} from '../markdown/link-rewrite.js';
import { decodeMarkdownDestination, isExternalDestination } from '../markdown/link-syntax.js';

interface Splice {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

const SKIP = new Set(['script', 'style', 'template', 'code', 'pre', 'kbd', 'samp', 'textarea', 'title']);
const ADDRESS = /(\s(href|src)\s*=\s*)("([^"]*)"|'([^']*)'|([^\s"'=<>`]+))/i;

/**
 * Offers every link of an HTML note to `newLinkpath` and writes the answers in.
 *
 * @example
 * rewriteHtmlLinks('<a href="Old%20Note.html#Part">x</a> [[Old]]', (l) => (l.linkpath.startsWith('Old') ? 'b/New.html' : null))
 * // text '<a href="b/New.html#Part">x</a> [[b/New.html]]'
 */
export function rewriteHtmlLinks(text: string, newLinkpath: NewLinkpath): LinksRewritten {
  const splices: Splice[] = [];
  const edits: LinkEdit[] = [];
  const unwritable: LinksRewritten['unwritable'] = [];
  const lineStarts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lineStarts.push(i + 1);
  const lineOf = (offset: number): number => {
    let lo = 0;
    let hi = lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if ((lineStarts[mid] as number) <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };

  let skipped = 0;
  let runStart = -1;
  let runEnd = -1;
  const flushRun = () => {
    if (runStart === -1) return;
    const run = text.slice(runStart, runEnd);
    const offset = runStart;
    const firstLine = lineOf(offset) - 1;
    runStart = -1;
    // Only wikilinks are links in HTML text; `[x](y)` there is text, so it is never offered.
    const done = rewriteLinks(run, (link) =>
      link.kind === 'wikilink' ? newLinkpath({ ...link, line: link.line + firstLine }) : null,
    );
    for (const u of done.unwritable) unwritable.push({ ...u, line: u.line + firstLine });
    if (done.text !== run) {
      splices.push({ start: offset, end: offset + run.length, text: done.text });
      for (const e of done.edits) edits.push({ ...e, line: e.line + firstLine });
    }
  };

  const parser = new Parser(
    {
      onopentag(name) {
        flushRun();
        if (SKIP.has(name)) skipped++;
        if (name !== 'a' && name !== 'img') return;
        const start = parser.startIndex;
        const tag = text.slice(start, parser.endIndex + 1);
        const m = ADDRESS.exec(tag);
        if (m === null || (m[2]?.toLowerCase() === 'href') !== (name === 'a')) return;
        const value = m[4] ?? m[5] ?? m[6] ?? '';
        const address = decodeAttribute(value).trim();
        if (address === '' || isExternalDestination(address)) return;
        const hash = address.indexOf('#');
        const query = address.indexOf('?');
        const cut = [hash, query].filter((i) => i !== -1).reduce((a, b) => Math.min(a, b), address.length);
        const linkpath = decodeMarkdownDestination(address.slice(0, cut));
        const link: LinkInNote = {
          kind: 'html',
          raw: tag,
          linkpath,
          embed: name === 'img',
          line: lineOf(start),
        };
        const wanted = newLinkpath(link);
        if (wanted === null) return;
        const quote = m[4] !== undefined ? '"' : m[5] !== undefined ? "'" : '"';
        const after = `${encodeAddress(wanted)}${address.slice(cut)}`;
        const valueStart = start + (m.index ?? 0) + (m[1] as string).length;
        const newTag = `${tag.slice(0, valueStart - start)}${quote}${escapeAttribute(after)}${quote}${tag.slice(valueStart - start + (m[3] as string).length)}`;
        if (newTag === tag) return;
        splices.push({ start, end: start + tag.length, text: newTag });
        edits.push({ kind: 'html', line: link.line, before: tag, after: newTag });
      },
      ontext() {
        if (skipped > 0) return;
        if (runStart === -1) runStart = parser.startIndex;
        runEnd = parser.endIndex + 1;
      },
      onclosetag(name) {
        flushRun();
        if (SKIP.has(name)) skipped = Math.max(0, skipped - 1);
      },
      oncomment() {
        flushRun();
      },
    },
    { decodeEntities: true, lowerCaseTags: true },
  );
  // Read with deep nesting bounded (same offsets); what is rewritten is `text` itself.
  parser.write(boundNesting(text));
  parser.end();
  flushRun();
  if (splices.length === 0) return { text, edits, unwritable };
  splices.sort((a, b) => a.start - b.start);
  let out = '';
  let at = 0;
  for (const s of splices) {
    out += text.slice(at, s.start) + s.text;
    at = s.end;
  }
  return { text: out + text.slice(at), edits, unwritable };
}

/** A linkpath as an address: spaces, `%`, `#`, `?` and non-ASCII characters percent-encoded. */
export function encodeAddress(linkpath: string): string {
  return encodeURI(linkpath).replace(/#/g, '%23').replace(/\?/g, '%3F');
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
}

function decodeAttribute(value: string): string {
  return value
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&apos;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}
