/**
 * @module
 * Which format a vault stores its notes in (SPEC 11.1), decided once when the vault is opened:
 * `"format"` in `.noted/config.json`, else `html` for a vault whose notes are all `.html` (at least
 * one, no `.md`), else `markdown`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { readVaultConfig } from './config.js';
import type { FormatName } from './format-name.js';
import { MAX_FOLDER_DEPTH } from './names.js';

/**
 * The vault's format: the one given (by the entry point, from config.json), else config.json's, else
 * what the files show.
 */
export function chooseFormat(root: string, stateDir: string, given?: FormatName): FormatName {
  return given ?? readVaultConfig(stateDir).format ?? detectFormat(root);
}

/**
 * `html` when the vault holds at least one `.html` file and no `.md` file outside hidden folders;
 * `markdown` otherwise (an empty vault too). Stops at the first `.md`, so a Markdown vault costs a
 * few directory reads; an HTML vault is read to the end (names only, no file is opened or stat'ed).
 * Linked folders are not followed: what they lead to inside the vault is walked under its own name.
 */
export function detectFormat(root: string): FormatName {
  let html = 0;
  const visit = (dir: string, depth: number): boolean => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return false;
    }
    for (const entry of entries) {
      const name = entry.name;
      if (name.startsWith('.')) continue;
      if (entry.isDirectory()) {
        if (depth < MAX_FOLDER_DEPTH && visit(path.join(dir, name), depth + 1)) return true;
        continue;
      }
      const lower = name.toLowerCase();
      if (lower.length > 3 && lower.endsWith('.md')) return true;
      if (lower.length > 5 && lower.endsWith('.html')) html++;
    }
    return false;
  };
  const sawMarkdown = visit(root, 0);
  return !sawMarkdown && html > 0 ? 'html' : 'markdown';
}
