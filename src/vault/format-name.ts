/**
 * @module
 * The names of the formats a vault can store its notes in (SPEC 11.1) and each one's file ending: the
 * vocabulary the vault's configuration and the choice of format (format-choice.ts) both speak.
 */
import type { NoteEnding } from '../common/note-ending.js';

export type FormatName = 'markdown' | 'html';

export const FORMAT_NAMES: readonly FormatName[] = ['markdown', 'html'];

/** The file ending of each format's notes. */
export const ENDING_OF: Readonly<Record<FormatName, NoteEnding>> = { markdown: '.md', html: '.html' };
