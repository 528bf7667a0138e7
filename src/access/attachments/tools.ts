/**
 * @module
 * list_attachments and read_attachment through the gate (SPEC 13.4). Attachments are listed from the
 * index in path order with keyset cursors, each with the number of notes that embed or link it
 * (through the link index, so `![[photo.png]]`, `[x](img/photo.png)` and `cover: "[[photo.png]]"` all
 * count, resolved as Obsidian resolves them); `unused` keeps those nothing links to. Only notes the
 * agent may see count, and hidden attachments are absent everywhere: a file linked only from a hidden
 * note reads as unused.
 *
 * read_attachment answers by type: an image clients can show (PNG, JPEG, GIF, WebP) as its bytes, a
 * text file (UTF-8) as text in pages, anything else as a link to the resource with its size and type.
 */
import { decodeCursor, encodeCursor, positionOf } from '../../common/cursor.js';
import { NotedError } from '../../common/errors.js';
import { attachmentRows, countAttachments } from '../../index/queries/attachments.js';
import { linkingNoteCounts } from '../../index/queries/links.js';
import { lowerPath } from '../../index/store/store.js';
import { normalizeFolderName } from '../../vault/names.js';
import { isNoteFile } from '../../vault/walk.js';
import { type AccessContext, iso } from '../context.js';
import { type TextPage, textPage } from '../read.js';
import type { Rules } from '../rules/rules.js';
import { visibleOption } from '../rules/scope.js';
import { mimeTypeOf, normalizeAttachmentName, readAttachment } from './attachments.js';

export interface AttachmentInfo {
  readonly path: string;
  readonly sizeBytes: number;
  readonly mimeType: string;
  readonly modified: string;
  /** How many notes (that the agent may see) embed or link the file. */
  readonly embeddedBy: number;
}

export interface AttachmentPage {
  readonly attachments: AttachmentInfo[];
  /** How many attachments match in all (every page of them). */
  readonly total: number;
  /** True when more follow this page; then `nextCursor` reads them. */
  readonly more: boolean;
  readonly nextCursor?: string;
}

export interface AttachmentQuery {
  readonly folder?: string;
  readonly unused?: boolean;
  readonly cursor?: string;
  readonly limit?: number;
}

export const DEFAULT_ATTACHMENT_LIMIT = 100;

/** Attachments read at a time while looking for unused ones. */
const SCAN_CHUNK = 1000;

export function listAttachments(ctx: AccessContext, rules: Rules, query: AttachmentQuery): AttachmentPage {
  const folder = query.folder === undefined ? '' : normalizeFolderName(query.folder);
  // Each listing has its own cursors: a page of all attachments is not a page of the unused ones.
  const list = query.unused ? 'attachments-unused' : 'attachments';
  const after = query.cursor === undefined ? '' : decodeCursor(list, query.cursor, isPosition).p;
  const limit = query.limit ?? DEFAULT_ATTACHMENT_LIMIT;
  ctx.index.refresh();
  const db = ctx.index.db;
  const scope = { folderLower: lowerPath(folder), ...(rules.visible ? { visible: rules.visible } : {}) };
  if (!query.unused) {
    const rows = attachmentRows(db, scope, after, limit + 1);
    const page = rows.slice(0, limit);
    const counts = linkingNoteCounts(db, page, visibleOption(rules));
    const attachments = page.map((r) => info(r, counts.get(r.path) ?? 0));
    return withCursor(list, attachments, countAttachments(db, scope), rows.length > limit);
  }
  // Whether a file is used is known only once its links are resolved, so every attachment in scope is
  // looked at (a chunk at a time) to give the total; the page is the unused ones after the cursor.
  const attachments: AttachmentInfo[] = [];
  let total = 0;
  let more = false;
  for (let from = ''; ; ) {
    const chunk = attachmentRows(db, scope, from, SCAN_CHUNK);
    if (chunk.length === 0) break;
    const counts = linkingNoteCounts(db, chunk, visibleOption(rules));
    for (const r of chunk) {
      if ((counts.get(r.path) ?? 0) > 0) continue;
      total++;
      if (r.path <= after) continue;
      if (attachments.length < limit) attachments.push(info(r, 0));
      else more = true;
    }
    from = chunk[chunk.length - 1]!.path;
  }
  return withCursor(list, attachments, total, more);
}

function info(r: { path: string; size: number; mtime_ms: number }, embeddedBy: number): AttachmentInfo {
  return {
    path: r.path,
    sizeBytes: r.size,
    mimeType: mimeTypeOf(r.path),
    modified: iso(r.mtime_ms),
    embeddedBy,
  };
}

/** A cursor's position: the path of the last attachment given. */
const isPosition = positionOf<{ p: string }>({ p: 'string' });

function withCursor(
  list: string,
  attachments: AttachmentInfo[],
  total: number,
  more: boolean,
): AttachmentPage {
  const last = attachments[attachments.length - 1];
  return more && last
    ? { attachments, total, more: true, nextCursor: encodeCursor(list, { p: last.path }) }
    : { attachments, total, more: false };
}

/** Image types MCP clients show (the ones model APIs take); other images are offered as files. */
const SHOWN_IMAGES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);
const TEXT_TYPES = new Set(['application/json', 'application/yaml', 'application/xml', 'image/svg+xml']);

interface AttachmentMeta {
  readonly path: string;
  readonly mimeType: string;
  readonly sizeBytes: number;
  readonly modified: string;
}

export type AttachmentContent =
  | (AttachmentMeta & { readonly kind: 'image'; readonly bytes: Buffer })
  | (AttachmentMeta & { readonly kind: 'text'; readonly text: string; readonly paging: TextPage['paging'] })
  | (AttachmentMeta & { readonly kind: 'file' });

/**
 * One attachment by its vault-relative path, shaped by its type. Missing and hidden answer the same
 * `not_found`; a note's path is refused (read_note reads notes).
 */
export function readAttachmentContent(
  ctx: AccessContext,
  rules: Rules,
  input: string,
  options: { offset?: number; maxChars?: number } = {},
): AttachmentContent {
  if (isNoteFile(input, ctx.vault.ending)) {
    throw new NotedError(
      'validation_error',
      `"${input}" is a note, not an attachment: read it with read_note.`,
      { name: input },
    );
  }
  const path = normalizeAttachmentName(input);
  const mimeType = mimeTypeOf(path);
  const asText = mimeType.startsWith('text/') || TEXT_TYPES.has(mimeType);
  if (SHOWN_IMAGES.has(mimeType) || asText) {
    const file = readAttachment(ctx, rules, path);
    if (file === null) throw missing(input);
    const meta = { path, mimeType, sizeBytes: file.bytes.length, modified: iso(file.mtimeMs) };
    if (!asText) return { ...meta, kind: 'image', bytes: file.bytes };
    const text = utf8(file.bytes);
    if (text !== null) {
      const page = textPage(text, options, 'file');
      return { ...meta, kind: 'text', text: page.text, paging: page.paging };
    }
    return { ...meta, kind: 'file' };
  }
  const stat = rules.accessOf(path) === 'hidden' ? null : ctx.vault.statFile(path, rules.sight);
  if (stat === null) throw missing(input);
  return { path, mimeType, sizeBytes: stat.size, modified: iso(stat.mtimeMs), kind: 'file' };
}

const utf8Strict = new TextDecoder('utf-8', { fatal: true });

function utf8(bytes: Buffer): string | null {
  try {
    return utf8Strict.decode(bytes);
  } catch {
    return null;
  }
}

function missing(input: string): NotedError {
  return new NotedError(
    'not_found',
    `No attachment "${input}" exists in the vault. Use list_attachments (or get_outgoing_links of the note that embeds it) to find its path.`,
    { name: input },
  );
}
