/**
 * @module
 * Which format a vault stores its notes in (SPEC 11.1), decided once when the vault is opened:
 * `"format"` in `.noted/config.json`, else `html` for a vault whose notes are all `.html` (at least
 * one, no `.md`), else `markdown`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { readVaultConfig } from './config.js';
import { ENDING_OF, type FormatName } from './format-name.js';
import { MAX_FOLDER_DEPTH } from './names.js';

/**
 * The vault's format: the one given (by the entry point, from config.json), else config.json's, else
 * what the files show.
 */
export function chooseFormat(root: string, stateDir: string, given?: FormatName): FormatName {
  return given ?? readVaultConfig(stateDir).format ?? detectFormat(root);
}

/** How many notes of each format a walk found. */
export interface NoteFileCounts {
  readonly markdown: number;
  readonly html: number;
}

/** detectFormat decides on the first this many notes found (a bounded walk, whatever the vault's size). */
export const DETECT_SAMPLE = 1000;

/**
 * `html` when more of the vault's notes (outside hidden folders) are `.html` files than `.md` files,
 * `markdown` otherwise (an empty vault too): an HTML vault stays one when a stray README.md appears.
 * Decided on the first DETECT_SAMPLE notes the walk meets, so a large vault costs a few directory reads.
 */
export function detectFormat(root: string): FormatName {
  const seen = countNoteFiles(root, DETECT_SAMPLE);
  return seen.html > seen.markdown ? 'html' : 'markdown';
}

/**
 * Counts `.md` and `.html` files outside hidden folders (names only, no file is opened or stat'ed),
 * stopping once `limit` notes are found. Linked folders are not followed: what they lead to inside
 * the vault is walked under its own name.
 */
export function countNoteFiles(root: string, limit = Number.POSITIVE_INFINITY): NoteFileCounts {
  let markdown = 0;
  let html = 0;
  const visit = (dir: string, depth: number): void => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (markdown + html >= limit) return;
      const name = entry.name;
      if (name.startsWith('.')) continue;
      if (entry.isDirectory()) {
        if (depth < MAX_FOLDER_DEPTH) visit(path.join(dir, name), depth + 1);
        continue;
      }
      const lower = name.toLowerCase();
      if (lower.length > 3 && lower.endsWith('.md')) markdown++;
      else if (lower.length > 5 && lower.endsWith('.html')) html++;
    }
  };
  visit(root, 0);
  return { markdown, html };
}

/**
 * What to tell the owner of a folder holding notes of both formats (SPEC 17.7): how many of each,
 * which are served, and how to change that. Null when the folder holds one format only. `sampled`: the
 * counts are of a bounded walk (countNoteFiles with a limit), not the whole vault.
 */
export function mixedFormatAdvice(
  counts: NoteFileCounts,
  served: FormatName,
  sampled = false,
): string | null {
  if (counts.markdown === 0 || counts.html === 0) return null;
  const other: FormatName = served === 'html' ? 'markdown' : 'html';
  const kind = (f: FormatName) => (f === 'html' ? 'HTML' : 'Markdown');
  const ending = ENDING_OF[other];
  return `The vault holds ${sampled ? '(among the first notes found) ' : ''}${counts.markdown} Markdown (.md) and ${counts.html} HTML (.html) notes; it is served as ${served === 'html' ? 'an HTML' : 'a Markdown'} vault, so its ${ending} files are attachments, not notes. If they are notes, serve them instead with "format": "${other}" in .noted/config.json, or make every note ${kind(other)} with noted-mcp convert --to ${other}.`;
}
