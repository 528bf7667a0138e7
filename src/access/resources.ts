/**
 * @module
 * The vault as a list of readable files (SPEC 9.2): every note and attachment agents may see, in
 * path order with keyset cursors (stable while files change: a page starts after the last path of
 * the previous one), name completion, and reading one file by its exact path. Hidden files are left
 * out of lists and completions and read as missing.
 */

import { decodeCursor, encodeCursor } from '../common/cursor.js';
import { NotedError } from '../common/errors.js';
import { jsonFits, MESSAGE_LIMIT } from '../common/json-size.js';
import { formatOf } from '../format/formats.js';
import { escapeLike } from '../index/db/like.js';
import { visibleSql } from '../index/queries/notes.js';
import { lowerPath } from '../index/store/store.js';
import { normalizeNoteName } from '../vault/names.js';
import { isNoteFile } from '../vault/walk.js';
import {
  MAX_ATTACHMENT_BYTES,
  mimeTypeOf,
  normalizeAttachmentName,
  readAttachment,
  tooLarge,
} from './attachments/attachments.js';
import { type AccessContext, iso } from './context.js';
import type { Rules } from './rules/rules.js';

/** Files in one resources/list page unless asked for fewer. */
export const RESOURCE_PAGE_SIZE = 2000;

export interface VaultFile {
  /** Vault-relative path, e.g. `inbox/idea.md` or `img/photo.png`. */
  readonly path: string;
  readonly kind: 'note' | 'attachment';
  /** A note's title; null for an attachment. */
  readonly title: string | null;
  /** `text/markdown` for a note (`text/html` in an HTML vault); an attachment's by its extension, as reading it gives it. */
  readonly mimeType: string;
  readonly sizeBytes: number;
  readonly modified: string;
}

export interface VaultFilePage {
  readonly files: VaultFile[];
  readonly nextCursor?: string;
}

interface FileRow {
  readonly path: string;
  readonly title: string | null;
  readonly size: number;
  readonly mtime_ms: number;
  readonly attachment: number;
}

/** Notes and attachments agents may see, by path, `limit` at a time. */
export function listVaultFiles(
  ctx: AccessContext,
  rules: Rules,
  options: { cursor?: string; limit?: number } = {},
): VaultFilePage {
  const after = options.cursor === undefined ? '' : decodeCursorAfter(options.cursor);
  const limit = options.limit ?? RESOURCE_PAGE_SIZE;
  ctx.index.refresh();
  const db = ctx.index.db;
  const hidden = visibleSql(db, rules.visible);
  const where = `n.path > @after${hidden === null ? '' : ` AND ${hidden}`}`;
  // A compound ORDER BY over the two path indexes: SQLite merges them and stops at the limit.
  const rows = db
    .prepare<{ after: string; limit: number }, FileRow>(
      `SELECT n.path, n.title, n.size, n.mtime_ms, 0 AS attachment FROM notes n WHERE ${where}
       UNION ALL
       SELECT n.path, NULL, n.size, n.mtime_ms, 1 FROM attachments n WHERE ${where}
       ORDER BY 1 LIMIT @limit`,
    )
    .all({ after, limit: limit + 1 });
  const more = rows.length > limit;
  const page = more ? rows.slice(0, limit) : rows;
  const files = page.map(
    (r): VaultFile => ({
      path: r.path,
      kind: r.attachment ? 'attachment' : 'note',
      title: r.attachment ? null : r.title,
      mimeType: r.attachment ? mimeTypeOf(r.path) : formatOf(ctx.vault).mimeType,
      sizeBytes: r.size,
      modified: iso(r.mtime_ms),
    }),
  );
  const last = page[page.length - 1];
  return more && last ? { files, nextCursor: encodeCursorAfter(last.path) } : { files };
}

/** Most paths one completion answers (the MCP limit for completion values). */
export const MAX_COMPLETIONS = 100;

/**
 * Paths agents may see that start with `prefix` (case-insensitively), in path order; with no `/` in
 * the prefix, also those whose file name starts with it. Notes only, unless `attachments`.
 */
export function completePaths(
  ctx: AccessContext,
  rules: Rules,
  prefix: string,
  options: { attachments: boolean },
): { values: string[]; hasMore: boolean } {
  ctx.index.refresh();
  const db = ctx.index.db;
  const hidden = visibleSql(db, rules.visible);
  const lower = lowerPath(prefix.replaceAll('\\', '/'));
  const like = `${escapeLike(lower)}%`;
  const byFile = lower.includes('/') ? '' : ` OR n.file_lower LIKE @like ESCAPE '\\'`;
  const where = `(n.path_lower LIKE @like ESCAPE '\\'${byFile})${hidden === null ? '' : ` AND ${hidden}`}`;
  const sql = options.attachments
    ? `SELECT n.path FROM notes n WHERE ${where} UNION ALL SELECT n.path FROM attachments n WHERE ${where} ORDER BY 1 LIMIT @limit`
    : `SELECT n.path FROM notes n WHERE ${where} ORDER BY 1 LIMIT @limit`;
  const rows = db
    .prepare<{ like: string; limit: number }, { path: string }>(sql)
    .all({ like, limit: MAX_COMPLETIONS + 1 });
  const values = rows.slice(0, MAX_COMPLETIONS).map((r) => r.path);
  return { values, hasMore: rows.length > MAX_COMPLETIONS };
}

export type VaultFileContent =
  | { readonly kind: 'note'; readonly path: string; readonly mimeType: string; readonly text: string }
  | { readonly kind: 'attachment'; readonly path: string; readonly mimeType: string; readonly bytes: Buffer };

/**
 * One file by its exact vault-relative path: a note (`.md`, `.html` in an HTML vault) as text,
 * anything else as bytes. A path without the note ending that names no attachment is tried as a note
 * (`inbox/idea` = `inbox/idea.md`, as in
 * every argument). Missing and hidden answer the same `not_found`.
 */
export function readVaultFile(ctx: AccessContext, rules: Rules, input: string): VaultFileContent {
  if (!isNoteFile(input, ctx.vault.ending)) {
    const attachment = readAttachment(ctx, rules, normalizeAttachmentName(input));
    if (attachment !== null) return { kind: 'attachment', path: attachment.name, ...attachment };
  }
  const name = normalizeNoteName(input, ctx.vault.ending);
  if (rules.accessOf(name) !== 'hidden') {
    const stored = ctx.vault.read(name, rules.sight);
    if (stored !== null) {
      if (stored.size > MAX_ATTACHMENT_BYTES) throw tooLarge(name, stored.size);
      // The size on disk is not the size of the message: a control character travels as six bytes.
      if (!jsonFits(stored.text, MESSAGE_LIMIT - MESSAGE_MARGIN)) throw tooLargeToSend(name, stored.size);
      return { kind: 'note', path: name, mimeType: formatOf(ctx.vault).mimeType, text: stored.text };
    }
  }
  throw new NotedError(
    'not_found',
    `Nothing named "${input}" exists in the vault. List the resources, or use search_notes or list_notes, to find the right path.`,
    { name: input },
  );
}

function encodeCursorAfter(path: string): string {
  return encodeCursor('resources', { after: path });
}

function decodeCursorAfter(cursor: string): string {
  return decodeCursor(
    'resources',
    cursor,
    (d): d is { after: string } => typeof (d as { after?: unknown } | null)?.after === 'string',
  ).after;
}

/** Room in one message for what surrounds a note's text (its uri, its type, the envelope). */
const MESSAGE_MARGIN = 64 * 1024;

function tooLargeToSend(name: string, size: number): NotedError {
  return new NotedError(
    'too_large',
    `"${name}" is ${(size / 1048576).toFixed(1)} MB on disk but over 8 MB as sent (it holds many control characters, which travel escaped): too large for one message. Read it in pages with read_note (offset, max_chars).`,
    { name, sizeBytes: size },
  );
}
