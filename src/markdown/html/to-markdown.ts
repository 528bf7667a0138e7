/**
 * @module
 * HTML sent to create_note or update_note (SPEC 2.7): recognised conservatively, sanitized and turned
 * into Markdown with turndown. Sanitizing happens during conversion: turndown only ever emits Markdown
 * (no rule here keeps raw HTML), so attributes such as `onclick` cannot survive; dangerous elements are
 * dropped with their content, dangerous URLs are dropped, and text that would read as an HTML tag in
 * Markdown is escaped.
 */

import TurndownService from 'turndown';
import { balanceHtml } from './balance.js';
import { boundNesting } from './nesting.js';

/** Elements dropped together with everything inside them. */
const DROPPED_ELEMENTS = [
  'script',
  'style',
  'iframe',
  'frame',
  'frameset',
  'object',
  'embed',
  'applet',
  'noscript',
  'noembed',
  'noframes',
  'template',
  'form',
  'input',
  'button',
  'select',
  'textarea',
  'canvas',
  'svg',
  'math',
  'link',
  'meta',
  'base',
  'head',
  'title',
  'dialog',
];

/** Element names whose opening tag at the very start marks content as HTML. */
// biome-ignore format: a word list reads best packed
const HTML_START_TAGS = new Set([
  'html', 'head', 'body', 'div', 'p', 'span', 'section', 'article', 'main', 'header', 'footer', 'nav', 'aside',
  'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'ul', 'ol', 'li', 'dl', 'dt', 'dd', 'table', 'thead', 'tbody', 'tr', 'td',
  'th', 'blockquote', 'pre', 'code', 'figure', 'figcaption', 'a', 'img', 'b', 'i', 'em', 'strong', 'u', 's',
  'br', 'hr', 'meta', 'title', 'style', 'script', 'link', 'form', 'iframe', 'font', 'center', 'details',
  'summary', 'small', 'sub', 'sup', 'mark', 'abbr', 'cite', 'q', 'del', 'ins', 'kbd', 'label', 'picture',
  'video', 'audio', 'svg', 'template', 'noscript',
]);

/** Lines that only Markdown would write; such a line outside raw-text elements means "not HTML". */
const MARKDOWN_BLOCK_LINE =
  /^ {0,3}(?:#{1,6}(?:[ \t]|$)|```|~~~|[-*+][ \t]+\S|\d{1,9}[.)][ \t]+\S|>[ \t]?\S)/;

/**
 * True when `content` is an HTML document or fragment rather than Markdown. The rule, conservative so
 * that Markdown with some inline HTML is never rewritten:
 * - it does not start with a frontmatter block (`---` line), and
 * - after leading whitespace and HTML comments it starts with `<!DOCTYPE html`, or with the opening tag
 *   of a common HTML element (`<p>`, `<div class="x">`, `<h1>`, …), and
 * - for a fragment (no doctype or `<html>`), it ends with `>` and none of its lines outside
 *   `<pre>`/`<code>`/`<script>`/`<style>`/`<textarea>` looks like a Markdown block (`# `, a fence, a
 *   list item, a `>` quote).
 *
 * @example
 * looksLikeHtml('<p>Hello <b>you</b></p>') // true
 * looksLikeHtml('Hello <b>you</b>') // false
 */
export function looksLikeHtml(content: string): boolean {
  let s = content.replace(/^\uFEFF/, '').trimStart();
  if (/^---\r?\n/.test(s)) return false;
  while (s.startsWith('<!--')) {
    const close = s.indexOf('-->', 4);
    if (close === -1) return false;
    s = s.slice(close + 3).trimStart();
  }
  if (/^<!doctype\s+html[\s>]/i.test(s) || /^<html[\s>]/i.test(s)) return true;
  const tag = /^<([a-z][a-z0-9]*)[\s/>]/i.exec(s);
  if (!tag || !HTML_START_TAGS.has(tag[1]!.toLowerCase())) return false;
  if (!s.trimEnd().endsWith('>')) return false;
  return !withoutRawText(s)
    .split(/\r?\n/)
    .some((line) => MARKDOWN_BLOCK_LINE.test(line));
}

/** Removes elements whose text is not markup; linear, even with unclosed tags. */
function withoutRawText(html: string): string {
  const open = /<(pre|code|script|style|textarea)[\s>]/gi;
  let out = '';
  let from = 0;
  for (let m = open.exec(html); m !== null; m = open.exec(html)) {
    out += html.slice(from, m.index);
    const closing = new RegExp(`</${m[1]}`, 'gi');
    closing.lastIndex = m.index;
    const close = closing.exec(html);
    if (!close) return out;
    from = close.index;
    open.lastIndex = close.index;
  }
  return out + html.slice(from);
}

/**
 * Sanitizes HTML and converts it to Markdown: ATX headings, fenced code, `-` bullets. Scripts, styles,
 * frames, embedded objects, forms and similar elements disappear with their content; links to
 * `javascript:`, `vbscript:` or `data:` URLs keep only their text; images with such URLs are dropped.
 * The result ends with exactly one line break (or is `""` when nothing is left).
 *
 * @example
 * htmlToMarkdown('<h1>Hi</h1><p onclick="x()">see <a href="javascript:x()">this</a></p>') // '# Hi\n\nsee this\n'
 */
export function htmlToMarkdown(html: string, options: ConvertOptions = {}): string {
  const markdown = createConverter(options)
    .turndown(balanceHtml(boundNesting(html)))
    .trim();
  return markdown === '' ? '' : `${markdown}\n`;
}

/** The part of turndown's DOM (domino) that the rules below read. */
interface DomElement {
  readonly nodeName: string;
  readonly parentNode: DomElement | null;
  readonly children: ArrayLike<unknown>;
  readonly nextSibling: unknown;
  getAttribute(name: string): string | null;
}

/** `[[wikilinks]]` and `#tags` in text: links and tags in both formats, so never escaped. */
const KEPT_AS_WRITTEN = /!?\[\[[^\]\n]*\]\]|(?<![\p{L}\p{N}_&])#[\p{L}\p{N}_/-]*[\p{L}_/-][\p{L}\p{N}_/-]*/gu;

/** The checkbox of a task list item (SPEC 11.4): `<input type="checkbox">` in it, or `data-checked`. */
function taskBox(item: DomElement): string | null {
  const state = item.getAttribute('data-checked');
  if (state === 'true') return '[x] ';
  if (state === 'false') return '[ ] ';
  for (const child of Array.from(item.children) as DomElement[]) {
    if (child.nodeName === 'INPUT' && (child.getAttribute('type') ?? '').toLowerCase() === 'checkbox') {
      return child.getAttribute('checked') === null ? '[ ] ' : '[x] ';
    }
    // A checkbox wrapped in the item's first paragraph or label (`<li><p><input …> text</p></li>`).
    if (child.nodeName === 'P' || child.nodeName === 'LABEL') {
      const first = child.children[0] as DomElement | undefined;
      if (first?.nodeName === 'INPUT' && (first.getAttribute('type') ?? '').toLowerCase() === 'checkbox') {
        return first.getAttribute('checked') === null ? '[ ] ' : '[x] ';
      }
    }
  }
  return null;
}

/** A table cell's text on one line: a `|` inside would end the cell. */
function cellText(content: string): string {
  return content.replace(/\n+/g, ' ').replace(/\|/g, '\\|').trim();
}

function isHeaderRow(row: DomElement): boolean {
  const parent = row.parentNode;
  if (parent?.nodeName === 'THEAD') return true;
  const cells = Array.from(row.children) as DomElement[];
  const table = parent?.nodeName === 'TABLE' ? parent : parent?.parentNode;
  const firstRow =
    (table?.children[0] as DomElement | undefined)?.nodeName === 'TR'
      ? (table?.children[0] as DomElement)
      : ((table?.children[0] as DomElement | undefined)?.children[0] as DomElement | undefined);
  return firstRow === row && cells.length > 0 && cells.every((c) => c.nodeName === 'TH');
}

export interface ConvertOptions {
  /**
   * Keep `[[wikilinks]]` and `#tags` in the text as written instead of escaping them: an HTML vault's
   * notes hold them as text (SPEC 11.4), and converting such a vault must keep them links and tags.
   */
  readonly keepWikilinksAndTags?: boolean;
}

function createConverter(options: ConvertOptions): TurndownService {
  const service = new TurndownService({
    headingStyle: 'atx',
    codeBlockStyle: 'fenced',
    bulletListMarker: '-',
    emDelimiter: '*',
    strongDelimiter: '**',
    // `***` rather than `---`: a leading `---` pair would read back as frontmatter.
    hr: '***',
  });
  service.remove(DROPPED_ELEMENTS);

  // Security: `&lt;script&gt;` in the HTML is text, but written out as `<script>` it would become a
  // tag when the Markdown is rendered; a backslash keeps it text.
  const escapeText = service.escape.bind(service);
  const escapePart = (text: string) => escapeText(text).replace(/<(?=[A-Za-z/!?])/g, '\\<');
  const escapeKeeping = (text: string) => {
    if (options.keepWikilinksAndTags !== true) return escapePart(text);
    let out = '';
    let at = 0;
    for (const m of text.matchAll(KEPT_AS_WRITTEN)) {
      out += escapePart(text.slice(at, m.index)) + m[0];
      at = (m.index ?? 0) + m[0].length;
    }
    return out + escapePart(text.slice(at));
  };
  const plainEscape = escapeText;
  service.escape = escapeKeeping;

  service.addRule('safeLink', {
    filter: (node) => node.nodeName === 'A' && node.getAttribute('href') !== null,
    replacement: (content, node) => {
      const href = (node as DomElement).getAttribute('href') ?? '';
      if (href.trim() === '' || isUnsafeUrl(href) || content.trim() === '') return content;
      return `[${content}](${linkDestination(href)}${linkTitle(node as DomElement)})`;
    },
  });
  service.addRule('safeImage', {
    filter: 'img',
    replacement: (_content, node) => {
      const img = node as DomElement;
      const src = img.getAttribute('src') ?? '';
      if (src.trim() === '' || isUnsafeUrl(src)) return '';
      const alt = plainEscape((img.getAttribute('alt') ?? '').replace(/\s+/g, ' ').trim());
      return `![${alt}](${linkDestination(src)}${linkTitle(img)})`;
    },
  });
  service.addRule('listItem', {
    filter: 'li',
    replacement: (content, node) => {
      const item = node as DomElement;
      const parent = item.parentNode;
      let prefix = '- ';
      if (parent?.nodeName === 'OL') {
        const start = Number.parseInt(parent.getAttribute('start') ?? '1', 10);
        const index = Array.prototype.indexOf.call(parent.children, item);
        prefix = `${(Number.isFinite(start) ? start : 1) + index}. `;
      }
      const box = taskBox(item) ?? '';
      const body = (box === '' ? content : box + content.replace(/^\s+/, ''))
        .replace(/^\n+/, '')
        .replace(/\n+$/, '\n')
        .replace(/\n(?!$)/g, `\n${' '.repeat(prefix.length)}`);
      return prefix + body + (item.nextSibling && !body.endsWith('\n') ? '\n' : '');
    },
  });
  service.addRule('strikethrough', {
    filter: ['del', 's'],
    replacement: (content) => (content.trim() === '' ? content : `~~${content}~~`),
  });
  // GFM tables (OBSIDIAN.md): one line per row, a separator after the header row.
  service.addRule('tableCell', {
    filter: ['th', 'td'],
    replacement: (content) => ` ${cellText(content)} |`,
  });
  service.addRule('tableRow', {
    filter: 'tr',
    replacement: (content, node) => {
      const row = node as unknown as DomElement;
      const line = `|${content}\n`;
      if (!isHeaderRow(row)) return line;
      return `${line}|${' --- |'.repeat(row.children.length)}\n`;
    },
  });
  service.addRule('tableSection', {
    filter: ['thead', 'tbody', 'tfoot'],
    replacement: (content) => content,
  });
  service.addRule('table', {
    filter: 'table',
    replacement: (content) => {
      const rows = content.replace(/\n+$/, '').split('\n');
      // A table without a header row gets an empty one: GFM needs it.
      const hasHeader = rows.length > 1 && /^\|( --- \|)+$/.test(rows[1] ?? '');
      if (!hasHeader && rows[0] !== undefined) {
        const cells = (rows[0].match(/(?<!\\)\|/g)?.length ?? 1) - 1;
        rows.unshift(`|${'  |'.repeat(cells)}`, `|${' --- |'.repeat(cells)}`);
      }
      return `\n\n${rows.join('\n')}\n\n`;
    },
  });
  return service;
}

// Security: browsers ignore whitespace and control characters inside a scheme, and Markdown decodes
// backslash escapes and character references in destinations, so all of them are undone first.
function isUnsafeUrl(url: string): boolean {
  const decoded = url
    .replace(/\\/g, '')
    .replace(/&#x([0-9a-f]+);?/gi, (_m, hex: string) => safeFromCodePoint(Number.parseInt(hex, 16)))
    .replace(/&#(\d+);?/g, (_m, dec: string) => safeFromCodePoint(Number.parseInt(dec, 10)))
    .replace(/&colon;/gi, ':')
    .replace(/&(?:tab|newline);/gi, '')
    .replace(/[\u0000-\u0020\u007f-\u00a0\u1680\u2000-\u200f\u2028-\u202f\u205f-\u206f\u3000\ufeff]/g, '')
    .toLowerCase();
  return /^(?:javascript|vbscript|data):/.test(decoded);
}

function safeFromCodePoint(cp: number): string {
  return Number.isInteger(cp) && cp >= 0 && cp <= 0x10ffff ? String.fromCodePoint(cp) : '';
}

/** A destination Markdown reads back unchanged: no spaces, brackets or character references. */
function linkDestination(url: string): string {
  return url
    .trim()
    .replace(/\\/g, '\\\\')
    .replace(/[\s<>]/g, (c) => encodeURIComponent(c))
    .replace(/[()]/g, '\\$&')
    .replace(/&(?=#?[a-z0-9]+;)/gi, '\\&');
}

function linkTitle(node: DomElement): string {
  const title = node.getAttribute('title')?.replace(/\s+/g, ' ').trim();
  return title ? ` "${title.replace(/["\\]/g, '\\$&')}"` : '';
}
