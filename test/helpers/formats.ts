/**
 * @module
 * The same test vault in either format (SPEC 11): a suite written with Markdown notes runs on an HTML
 * vault by building its files with `inFormat` (each `.md` note converted as `noted-mcp convert`
 * converts it, links to notes given the `.html` ending) and reading its expectations through
 * `inFormatNames` (every `x.md` name becomes `x.html`).
 */
import { hasEnding, withoutEnding } from '../../src/common/note-ending.js';
import { markdownNoteToHtml } from '../../src/format/convert-note.js';
import type { FormatName } from '../../src/vault/format-choice.js';
import type { VaultFiles } from './vault.js';

export const FORMATS: readonly FormatName[] = ['markdown', 'html'];

/** Markdown notes as they are, or as an HTML vault holds them (with config.json naming the format). */
export function inFormat(format: FormatName, files: VaultFiles): VaultFiles {
  if (format === 'markdown') return files;
  const notes = new Set(Object.keys(files).filter((f) => hasEnding(f, '.md')));
  const out: VaultFiles = { '.noted/config.json': '{"format":"html"}\n' };
  for (const [name, data] of Object.entries(files)) {
    if (!notes.has(name) || typeof data !== 'string') {
      out[name] = data;
      continue;
    }
    const relink = (link: { linkpath: string }) =>
      hasEnding(link.linkpath, '.md') ? `${withoutEnding(link.linkpath, '.md')}.html` : null;
    out[`${withoutEnding(name, '.md')}.html`] = markdownNoteToHtml(data, relink).text;
  }
  return out;
}

/** A value with every note name (`….md`) in its strings given the format's ending. */
export function inFormatNames<T>(format: FormatName, value: T): T {
  if (format === 'markdown') return value;
  return JSON.parse(JSON.stringify(value).replace(/\.md(?=["/#?\s)\]|,]|$)/g, '.html')) as T;
}

/** One note name in the format: `a/b.md` → `a/b.html`. */
export function nameIn(format: FormatName, name: string): string {
  return inFormatNames(format, name);
}
