/**
 * @module
 * The same test vault in either format (SPEC 11): a suite written with Markdown notes runs on an HTML
 * vault by building its files with `inFormat` (each `.md` note converted as `noted-mcp convert`
 * converts it, links to notes given the `.html` ending) and reading its expectations through
 * `inFormatNames` (every `x.md` name becomes `x.html`).
 */
import fs from 'node:fs';
import path from 'node:path';
import { hasEnding, withoutEnding } from '../../src/common/note-ending.js';
import { markdownNoteToHtml } from '../../src/format/convert-note.js';
import type { FormatName } from '../../src/vault/format-name.js';
import { openTestVault, type TestVault, type VaultFiles } from './vault.js';

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

/** `.html` note names back to `.md` in a result, so a suite's Markdown expectations hold as written. */
function asMarkdownNames<T>(value: T): T {
  return JSON.parse(JSON.stringify(value).replace(/\.html(?=["/#?\s)\]|,:;.]|$)/g, '.md')) as T;
}

/**
 * `openTestVault` in either format, for suites written against a Markdown vault: in an HTML vault the
 * files are converted (`inFormat`), `.md` in a call's arguments reads `.html`, and `.html` in its
 * result reads `.md`, so the suite's calls and expectations are the same in both formats.
 */
export async function openTestVaultIn(
  format: FormatName,
  files: VaultFiles,
  options: Parameters<typeof openTestVault>[1] = {},
): Promise<TestVault> {
  if (format === 'markdown') return openTestVault(files, options);
  // The Markdown vault is made and prepared (file times, links…) as the suite wrote it, then its
  // notes are converted in place, keeping their file times, as noted-mcp convert does.
  const vault = await openTestVault(files, {
    ...options,
    prepare: (dir, base) => {
      options.prepare?.(dir, base);
      convertInPlace(dir);
    },
  });
  const call: TestVault['call'] = async (name, args = {}) => {
    const result = await vault.call(name, inFormatNames(format, args));
    return {
      structured: asMarkdownNames(result.structured),
      text: asMarkdownNames(result.text),
      line: asMarkdownNames(result.line),
      isError: result.isError,
    };
  };
  return { ...vault, call };
}

/** Every `.md` file below `dir` (outside dot folders) as an `.html` note with the same file times. */
function convertInPlace(dir: string): void {
  const relink = (link: { linkpath: string }) =>
    hasEnding(link.linkpath, '.md') ? `${withoutEnding(link.linkpath, '.md')}.html` : null;
  const visit = (folder: string) => {
    for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
      if (entry.name.startsWith('.')) continue;
      const abs = path.join(folder, entry.name);
      if (entry.isDirectory()) visit(abs);
      else if (entry.isFile() && hasEnding(entry.name, '.md')) {
        const stat = fs.statSync(abs);
        const target = `${withoutEnding(abs, '.md')}.html`;
        fs.writeFileSync(target, markdownNoteToHtml(fs.readFileSync(abs, 'utf8'), relink).text);
        fs.utimesSync(target, stat.atime, stat.mtime);
        fs.rmSync(abs);
      }
    }
  };
  visit(dir);
  fs.mkdirSync(path.join(dir, '.noted'), { recursive: true });
  fs.writeFileSync(path.join(dir, '.noted', 'config.json'), '{"format":"html"}\n');
}
