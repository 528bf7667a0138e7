/**
 * @module
 * The HTML format (SPEC 11): `.html` notes as earlier versions of the app stored them. Read for text,
 * title, links, tags and tasks by `html-read.ts`; written as sanitized HTML (Markdown a client sends
 * is rendered first); no frontmatter, so no properties and no section operations.
 */
import { normalizeNewTags } from '../markdown/frontmatter/edit.js';
import {
  escapeHtml,
  markdownToHtml,
  STORED_NOTE_SANITIZE_OPTIONS,
  sanitizeHtml,
} from '../markdown/html/render.js';
import { looksLikeHtml } from '../markdown/html/to-markdown.js';
import { fileTitle } from '../markdown/title.js';
import { htmlNoteToMarkdown } from './convert-note.js';
import { rewriteHtmlLinks } from './html-links.js';
import { htmlPlainText } from './html-plain-text.js';
import { readHtml } from './html-read.js';
import { unsafeAdditions } from './html-safety.js';
import type { NoteFormat } from './note-format.js';

/** What `update_note` puts between the stored HTML and an appended part (SPEC 11.3). */
export const HTML_APPEND_SEPARATOR = '<hr>\n';

const SECTIONS =
  'section operations need a Markdown vault: this vault stores HTML notes, whose headings do not delimit sections the way Markdown headings do. Use operation "replace" on the stored HTML (read_note shows it), or update_note to rewrite the note';
const PROPERTIES =
  'properties and frontmatter tags need a Markdown vault: HTML notes have no frontmatter. Add #tags to the text with operation "replace", or rewrite the note with update_note';

const PARTS =
  'sections and blocks need a Markdown vault: this vault stores HTML notes, whose headings do not delimit sections the way Markdown headings do. Read the whole note';

const UNSUPPORTED: Readonly<Record<string, string>> = {
  read_part: PARTS,
  replace_section: SECTIONS,
  append_to_section: SECTIONS,
  prepend_to_section: SECTIONS,
  set_properties: PROPERTIES,
  add_tags: PROPERTIES,
  remove_tags: PROPERTIES,
  update_task:
    'update_task needs a Markdown vault: an HTML note\'s task is a checkbox in its HTML. Tick it with edit_note "replace" (add or remove the checked attribute of its <input>)',
  add_block_id:
    'add_block_id needs a Markdown vault: a block id (^id) is Markdown, which an HTML note does not hold',
  prepend:
    'prepend needs a Markdown vault. Use edit_note "replace" on the stored HTML, or update_note to rewrite the note',
};

/** Content a client sent, as an HTML note stores it: HTML sanitized, Markdown rendered then sanitized. */
export function storedHtml(content: string): string {
  if (looksLikeHtml(content)) return sanitizeHtml(content, STORED_NOTE_SANITIZE_OPTIONS);
  return markdownToHtml(content, { keepWikilinks: true, sanitize: STORED_NOTE_SANITIZE_OPTIONS });
}

/** Notes up to this size are read whole for an excerpt; a larger one only around its first match. */
const EXCERPT_WHOLE_CHARS = 64 * 1024;
/** Characters of HTML read on each side of the first match in a large note. */
const EXCERPT_WINDOW_CHARS = 8 * 1024;

/**
 * The text an excerpt is cut from. Search answers with up to 50 excerpts, and a note may hold 5 MB of
 * HTML (half a second to read whole): a large note is read only around the first place one of the
 * terms appears in its HTML, else its beginning (SPEC 3.3a).
 */
function excerptText(text: string, terms: readonly string[]): string {
  if (text.length <= EXCERPT_WHOLE_CHARS) return htmlPlainText(text);
  const lower = text.toLowerCase();
  let at = -1;
  for (const term of terms) {
    const found = term === '' ? -1 : lower.indexOf(term.toLowerCase());
    if (found !== -1 && (at === -1 || found < at)) at = found;
  }
  const from = Math.max(0, at - EXCERPT_WINDOW_CHARS);
  const slice = text.slice(from, from + 2 * EXCERPT_WINDOW_CHARS);
  // A window that starts inside a tag would show the tag's end as text: it starts after it.
  return htmlPlainText(from === 0 ? slice : slice.slice(slice.indexOf('>') + 1));
}

export const htmlFormat: NoteFormat = {
  name: 'html',
  ending: '.html',
  mimeType: 'text/html',
  read(name, text) {
    const read = readHtml(text);
    return {
      title: read.title ?? fileTitle(name, '.html'),
      tags: read.tags,
      links: read.links,
      tasks: read.tasks,
      aliases: [],
      properties: null,
      searchText: read.plainText,
    };
  },
  view: (text) => ({
    frontmatter: null,
    frontmatterRaw: '',
    body: text,
    plainText: htmlPlainText(text),
  }),
  excerptText,
  // Links are kept as written: the rendition is only read.
  scanText: (text) => htmlNoteToMarkdown(text, () => null).text,
  incoming: storedHtml,
  filledTemplate: (text) => sanitizeHtml(text, STORED_NOTE_SANITIZE_OPTIONS),
  appended(stored, addition) {
    if (stored === '') return addition;
    return `${stored}${stored.endsWith('\n') ? '' : '\n'}${HTML_APPEND_SEPARATOR}${addition}`;
  },
  withCreateFields(text, fields) {
    let head = '';
    const title = fields.title?.trim();
    if (title !== undefined && title !== '' && readHtml(text).title !== title) {
      head += `<h1>${escapeHtml(title)}</h1>\n`;
    }
    const tags = normalizeNewTags(fields.tags ?? []);
    if (tags.length > 0) head += `<p>${tags.map((t) => `#${escapeHtml(t)}`).join(' ')}</p>\n`;
    return head + text;
  },
  unsupportedEdit: (operation) => UNSUPPORTED[operation] ?? null,
  unsafeAdditions,
  rewriteLinks: rewriteHtmlLinks,
};
