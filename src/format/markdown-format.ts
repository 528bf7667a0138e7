/**
 * @module
 * The Markdown format: `.md` notes with YAML frontmatter, read by the single-pass scanner
 * (OBSIDIAN.md). Everything here is what the server did before it knew of other formats.
 */

import { withFrontmatterFields } from '../markdown/frontmatter/edit.js';
import { parseFrontmatter, splitFrontmatter } from '../markdown/frontmatter/frontmatter.js';
import { htmlToMarkdown, looksLikeHtml } from '../markdown/html/to-markdown.js';
import { rewriteLinks } from '../markdown/link-rewrite.js';
import { readMarkdown } from './markdown-read.js';
import type { NoteFormat } from './note-format.js';

/** What `update_note` puts between the stored text and an appended part (SPEC 2.6). */
export const MARKDOWN_APPEND_SEPARATOR = '\n\n---\n\n';

export const markdownFormat: NoteFormat = {
  name: 'markdown',
  ending: '.md',
  mimeType: 'text/markdown',
  read: readMarkdown,
  view(text) {
    const fm = parseFrontmatter(text);
    return {
      frontmatter: fm.data,
      frontmatterRaw: fm.raw,
      ...(fm.error === undefined ? {} : { frontmatterError: fm.error }),
      body: fm.body,
    };
  },
  excerptText: (text) => splitFrontmatter(text).body,
  scanText: (text) => text,
  incoming: (content) => (looksLikeHtml(content) ? htmlToMarkdown(content) : content),
  filledTemplate: (text) => text,
  appended: (stored, addition) => (stored === '' ? addition : stored + MARKDOWN_APPEND_SEPARATOR + addition),
  withCreateFields: (text, fields) =>
    withFrontmatterFields(text, {
      ...(fields.title === undefined ? {} : { title: fields.title }),
      ...(fields.tags && fields.tags.length > 0 ? { tags: [...fields.tags] } : {}),
    }),
  unsupportedEdit: () => null,
  unsafeAdditions: () => [],
  rewriteLinks,
};
