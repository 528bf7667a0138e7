/**
 * @module
 * One note from one format into the other (SPEC 11.5), pure. Markdown becomes HTML through the
 * CommonMark renderer and the stored-note sanitizer, HTML becomes Markdown through turndown; links,
 * tags, tasks and their state, headings, lists, emphasis, code and tables carry over. What cannot is
 * named in `losses`, for `convert --dry-run`.
 *
 * A Markdown note's frontmatter has no place in HTML: it is kept, exactly, in a leading comment
 * (`<!--noted:frontmatter …-->`) that converting back restores, with its title as `<title>` and its
 * tags as a `#tag` line so that the HTML vault still finds them.
 */

import { withFrontmatterFields } from '../markdown/frontmatter/edit.js';
import { frontmatterTags } from '../markdown/frontmatter/fields.js';
import { type ParsedFrontmatter, parseFrontmatter } from '../markdown/frontmatter/frontmatter.js';
import { escapeHtml, markdownToHtml, STORED_NOTE_SANITIZE_OPTIONS } from '../markdown/html/render.js';
import { htmlToMarkdown } from '../markdown/html/to-markdown.js';
import { type NewLinkpath, rewriteLinks } from '../markdown/link-rewrite.js';
import { scanBody } from '../markdown/scan.js';
import { rewriteHtmlLinks } from './html-links.js';
import { unsafeParts } from './html-safety.js';

export interface ConvertedNote {
  readonly text: string;
  /** What the other format cannot hold, in words (empty when nothing is lost). */
  readonly losses: string[];
}

const FRONTMATTER_OPEN = '<!--noted:frontmatter\n';
const FRONTMATTER_CLOSE = '-->\n';
const TAGS_LINE = /^<p class="noted-tags">[^\n]*<\/p>\n/;
const TITLE_LINE = /^<title>[^\n]*<\/title>\n/;

/**
 * A Markdown note as an HTML note. `relink` gives a link's new linkpath (a note's new ending) or null.
 *
 * @example
 * markdownNoteToHtml('# Plan\n\n- [x] ship [[Goals]]\n', () => null).text
 * // '<h1>Plan</h1>\n<ul>\n<li><input type="checkbox" disabled checked /> ship [[Goals]]</li>\n</ul>\n'
 */
export function markdownNoteToHtml(markdown: string, relink: NewLinkpath): ConvertedNote {
  const relinked = rewriteLinks(markdown, relink).text;
  const fm = parseFrontmatter(relinked);
  const losses: string[] = [];
  const scan = scanBody(fm.body);
  for (const task of scan.tasks) {
    if (task.status !== ' ' && task.status.toLowerCase() !== 'x') {
      losses.push(`line ${task.line}: the task status "${task.status}" becomes a ticked checkbox`);
    }
  }
  for (const part of new Set(unsafeParts(fm.body))) losses.push(`${part} (removed by the sanitizer)`);
  if (/%%/.test(fm.body)) losses.push('%%comments%% become visible text (HTML has no Obsidian comments)');
  const html = markdownToHtml(fm.body, { keepWikilinks: true, sanitize: STORED_NOTE_SANITIZE_OPTIONS });
  return { text: frontmatterHead(fm, losses) + html, losses };
}

/** The frontmatter kept in a comment, then its title and tags where an HTML note shows them. */
function frontmatterHead(fm: ParsedFrontmatter, losses: string[]): string {
  if (fm.raw === '') return '';
  let head = '';
  if (/--!?>/.test(fm.raw)) {
    losses.push('the frontmatter holds "-->", which an HTML comment cannot keep: its properties are lost');
  } else {
    // The blank lines between the block and the body come back with it.
    const kept = fm.raw + (/^(?:\r?\n)*/.exec(fm.body)?.[0] ?? '');
    head += `${FRONTMATTER_OPEN}${kept}${kept.endsWith('\n') ? '' : '\n'}${FRONTMATTER_CLOSE}`;
    if (fm.data !== null && Object.keys(fm.data).length > 0) {
      losses.push(
        'frontmatter properties are kept in a comment: an HTML vault does not read them (get_properties, query_notes) until it is converted back',
      );
    }
  }
  const title = fm.data?.title;
  if (typeof title === 'string' && title.trim() !== '')
    head += `<title>${escapeHtml(title.trim())}</title>\n`;
  const tags = frontmatterTags(fm.data);
  if (tags.length > 0) {
    head += `<p class="noted-tags">${tags.map((t) => `#${escapeHtml(t)}`).join(' ')}</p>\n`;
  }
  return head;
}

/**
 * An HTML note as a Markdown note: a frontmatter kept by an earlier conversion comes back exactly
 * (and the title and tag lines made from it go); otherwise a `<title>` becomes the `title` property.
 */
export function htmlNoteToMarkdown(html: string, relink: NewLinkpath): ConvertedNote {
  const relinked = rewriteHtmlLinks(html, relink).text;
  const losses: string[] = [];
  let rest = relinked.replace(/^\uFEFF/, '');
  let frontmatter = '';
  if (rest.startsWith(FRONTMATTER_OPEN)) {
    const close = rest.indexOf(FRONTMATTER_CLOSE, FRONTMATTER_OPEN.length);
    if (close !== -1) {
      frontmatter = rest.slice(FRONTMATTER_OPEN.length, close);
      rest = rest
        .slice(close + FRONTMATTER_CLOSE.length)
        .replace(TITLE_LINE, '')
        .replace(TAGS_LINE, '');
    }
  }
  const dropped = unsafeParts(rest).filter(
    (p) => p !== '<title>' && !p.startsWith('class on') && !p.startsWith('id on'),
  );
  for (const part of new Set(dropped)) losses.push(`${part} (Markdown cannot hold it; dropped)`);
  const title = frontmatter === '' ? /<title[^>]*>([\s\S]*?)<\/title>/i.exec(rest) : null;
  let markdown = htmlToMarkdown(rest, { keepWikilinksAndTags: true });
  if (frontmatter !== '') markdown = frontmatter + markdown;
  else if (title !== null) {
    const text = decodeText(title[1] ?? '')
      .replace(/\s+/g, ' ')
      .trim();
    if (text !== '') markdown = withFrontmatterFields(markdown, { title: text });
  }
  return { text: markdown, losses };
}

function decodeText(html: string): string {
  return html
    .replace(/<[^>]*>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#(\d+);/g, (_m, code: string) => String.fromCodePoint(Number(code)))
    .replace(/&amp;/g, '&');
}
