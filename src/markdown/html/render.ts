/**
 * @module
 * Markdown to safe HTML, in one place: rendered by a CommonMark library (markdown-it, with GFM tables
 * and strikethrough) and then sanitized (sanitize-html) with the configuration SPEC 11.3 asks of any
 * HTML the server produces or stores: no script, style, event handler, `javascript:`/`data:` URL,
 * iframe, object or form. export_notes uses it for its html format; HTML vaults (SPEC 11) use the same
 * for Markdown written into them. Pure: no I/O.
 *
 * `[[wikilinks]]` are not CommonMark: they are found with the same scanner the index uses (so none in
 * code counts) and become links the caller resolves (`linkHref`), or plain text.
 */
import MarkdownIt from 'markdown-it';
import sanitize from 'sanitize-html';
import { scanBody } from '../scan.js';
import { boundNesting } from './nesting.js';

/** A link in the note, as written: what the caller resolves to an address. */
export interface RenderedLink {
  readonly linkpath: string;
  readonly heading: string | null;
  readonly block: string | null;
  readonly embed: boolean;
}

export interface RenderOptions {
  /**
   * The address a `[[wikilink]]`, or a Markdown link to a vault path, points to in the output; null
   * renders a wikilink as plain text and leaves a Markdown link as written.
   */
  readonly linkHref?: (link: RenderedLink) => string | null;
  /** The id each heading gets (e.g. to be a link's target in a document of several notes). */
  readonly headingId?: (text: string) => string | null;
  /**
   * Leave `[[wikilinks]]` in the text as written (an HTML vault reads them there, SPEC 11.4) instead
   * of turning them into links or plain text; `linkHref` then only sees Markdown links.
   */
  readonly keepWikilinks?: boolean;
  /** The sanitizer configuration (default SANITIZE_OPTIONS; STORED_NOTE_SANITIZE_OPTIONS for notes). */
  readonly sanitize?: sanitize.IOptions;
}

/** The sanitizer configuration: what may remain of any HTML the server renders or stores. */
export const SANITIZE_OPTIONS: sanitize.IOptions = {
  allowedTags: [
    ...sanitize.defaults.allowedTags.filter((t) => t !== 'style'),
    'img',
    'del',
    's',
    'ins',
    'sub',
    'sup',
    'details',
    'summary',
  ],
  allowedAttributes: {
    a: ['href', 'name', 'title', 'class'],
    img: ['src', 'alt', 'title', 'width', 'height'],
    '*': ['id', 'class'],
    th: ['align', 'colspan', 'rowspan'],
    td: ['align', 'colspan', 'rowspan'],
    ol: ['start'],
  },
  // Security: no javascript: or data: URL survives; noted:// names a note of the vault (SPEC 9.2).
  allowedSchemes: ['http', 'https', 'mailto', 'tel', 'noted'],
  allowedSchemesAppliedToAttributes: ['href', 'src', 'cite'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
};

/**
 * What a note stored in an HTML vault may also hold (SPEC 11.3, 11.4): its `<title>`, and task
 * checkboxes (`<input type="checkbox">`, the one kind of input kept, and `<li data-checked>`).
 * Everything SANITIZE_OPTIONS refuses stays refused: no script, style, event handler,
 * `javascript:`/`data:` URL, iframe, object or form.
 */
export const STORED_NOTE_SANITIZE_OPTIONS: sanitize.IOptions = {
  ...SANITIZE_OPTIONS,
  allowedTags: [...(SANITIZE_OPTIONS.allowedTags as string[]), 'title', 'input'],
  allowedAttributes: {
    ...(SANITIZE_OPTIONS.allowedAttributes as Record<string, string[]>),
    input: ['type', 'checked', 'disabled'],
    li: ['data-checked'],
  },
  // Security: only a checkbox survives of every kind of input (no text fields, buttons, files).
  exclusiveFilter: (frame) =>
    frame.tag === 'input' && (frame.attribs.type ?? '').toLowerCase() !== 'checkbox',
};

/** HTML with everything SANITIZE_OPTIONS (or the options given) does not allow removed. */
export function sanitizeHtml(html: string, options: sanitize.IOptions = SANITIZE_OPTIONS): string {
  return sanitize(boundNesting(html), options);
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/**
 * Renders a note body (Markdown, without its frontmatter) to sanitized HTML.
 *
 * @example
 * markdownToHtml('# Hi\n\nSee [[Other]]', { linkHref: (l) => `#${l.linkpath}` })
 * // '<h1>Hi</h1>\n<p>See <a href="#Other" class="internal-link">Other</a></p>\n'
 */
export function markdownToHtml(markdown: string, options: RenderOptions = {}): string {
  const env: RenderEnv = { options };
  const source = options.keepWikilinks === true ? markdown : withWikilinks(markdown, options.linkHref);
  return sanitizeHtml(renderer().render(source, env), options.sanitize);
}

interface RenderEnv {
  readonly options: RenderOptions;
}

let shared: MarkdownIt | null = null;

/**
 * One renderer for every note: building one costs more than rendering a short note. Each call's
 * options reach its rules through markdown-it's `env`.
 */
function renderer(): MarkdownIt {
  if (shared !== null) return shared;
  const md = new MarkdownIt({ html: true, linkify: false, typographer: false });
  const defaultLinkOpen =
    md.renderer.rules.link_open ?? ((tokens, idx, opts, _env, self) => self.renderToken(tokens, idx, opts));
  md.renderer.rules.link_open = (tokens, idx, opts, env: RenderEnv, self) => {
    const token = tokens[idx];
    const href = token?.attrGet('href');
    const linkHref = env.options.linkHref;
    if (token && linkHref && href && !SCHEME.test(href) && !href.startsWith('#')) {
      const resolved = linkHref({ ...decodeDestination(href), embed: false });
      if (resolved !== null) token.attrSet('href', resolved);
    }
    return defaultLinkOpen(tokens, idx, opts, env, self);
  };
  md.core.ruler.push('task_items', (state) => {
    const tokens = state.tokens;
    for (let i = 2; i < tokens.length; i++) {
      const inline = tokens[i];
      if (inline?.type !== 'inline' || tokens[i - 1]?.type !== 'paragraph_open') continue;
      const item = tokens[i - 2];
      if (item?.type !== 'list_item_open') continue;
      const first = inline.children?.[0];
      const box = first?.type === 'text' ? /^\[([^\]\n])\][ \t]/.exec(first.content) : null;
      if (first === undefined || box === null) continue;
      // GFM task list items (OBSIDIAN.md TSK-01): the box becomes a checkbox, the text stays.
      first.content = first.content.slice(box[0].length);
      const input = new state.Token('html_inline', '', 0);
      input.content = `<input type="checkbox" disabled${box[1] === ' ' ? '' : ' checked'}> `;
      inline.children?.unshift(input);
    }
  });
  md.core.ruler.push('heading_ids', (state) => {
    const headingId = (state.env as RenderEnv).options.headingId;
    if (headingId === undefined) return;
    const tokens = state.tokens;
    for (let i = 0; i < tokens.length; i++) {
      const token = tokens[i];
      const inline = tokens[i + 1];
      if (token?.type !== 'heading_open' || inline === undefined) continue;
      const id = headingId(inline.content);
      if (id !== null) token.attrSet('id', id);
    }
  });
  shared = md;
  return md;
}

/**
 * The body with each `[[wikilink]]` and `![[embed]]` replaced by inline HTML: a link where `linkHref`
 * gives an address, else its display text. Offsets come from the index's scanner, so links in code
 * and comments are left as they are.
 */
function withWikilinks(body: string, linkHref: RenderOptions['linkHref']): string {
  const links = scanBody(body).links.filter((l) => l.kind === 'wikilink');
  if (links.length === 0) return body;
  let out = '';
  let at = 0;
  for (const link of links) {
    out += body.slice(at, link.start);
    const shown =
      link.alias ??
      [link.linkpath, link.heading, link.block === null ? null : `^${link.block}`]
        .filter(Boolean)
        .join(' > ');
    const href = linkHref?.(link) ?? null;
    out +=
      href === null
        ? `<span class="unresolved-link">${escapeHtml(shown)}</span>`
        : `<a href="${escapeHtml(href)}" class="internal-link">${escapeHtml(shown)}</a>`;
    at = link.end;
  }
  return out + body.slice(at);
}

/** A Markdown link destination as a vault link: percent-decoded, split at `#`. */
function decodeDestination(href: string): Omit<RenderedLink, 'embed'> {
  let text = href;
  try {
    text = decodeURI(href);
  } catch {
    // Keep it as written: a malformed escape is no link to decode.
  }
  const hash = text.indexOf('#');
  const linkpath = hash === -1 ? text : text.slice(0, hash);
  const sub = hash === -1 ? '' : text.slice(hash + 1);
  if (sub.startsWith('^')) return { linkpath, heading: null, block: sub.slice(1) };
  return { linkpath, heading: sub === '' ? null : sub, block: null };
}
