/**
 * @module
 * The vault's format: every layer above the vault asks here, never at a file ending.
 */
import type { FormatName } from '../vault/format-name.js';
import type { Vault } from '../vault/vault.js';
import { htmlFormat } from './html-format.js';
import { markdownFormat } from './markdown-format.js';
import type { NoteFormat } from './note-format.js';

const FORMATS: Readonly<Record<FormatName, NoteFormat>> = { markdown: markdownFormat, html: htmlFormat };

/** The format a format name stands for (parser threads receive the name). */
export function formatNamed(name: FormatName): NoteFormat {
  return FORMATS[name];
}

/** The format of the vault's notes, decided when it was opened (SPEC 11.1). */
export function formatOf(vault: Pick<Vault, 'format'>): NoteFormat {
  return FORMATS[vault.format];
}
