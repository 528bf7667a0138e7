/**
 * @module
 * Attachments (SPEC 1.1: images, PDFs and every other file that is not a note) as agents may read
 * them: named like notes, confined to the vault, judged by the policy at their real location, and
 * refused above a size limit before a byte is read.
 */
import { isNotedError, NotedError } from '../../common/errors.js';
import { normalizeFolderName, quoteName } from '../../vault/names.js';
import type { AccessContext } from '../context.js';
import type { Rules } from '../rules/rules.js';

/** The most an attachment (or a note) read as a resource may weigh: 5 MB, about 6.7 MB in base64. */
export const MAX_ATTACHMENT_BYTES = 5 * 1024 * 1024;

/** MIME types by lower-cased extension; anything else is `application/octet-stream`. */
const MIME_TYPES: Readonly<Record<string, string>> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  svg: 'image/svg+xml',
  bmp: 'image/bmp',
  avif: 'image/avif',
  ico: 'image/x-icon',
  tif: 'image/tiff',
  tiff: 'image/tiff',
  heic: 'image/heic',
  pdf: 'application/pdf',
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  m4a: 'audio/mp4',
  ogg: 'audio/ogg',
  flac: 'audio/flac',
  mp4: 'video/mp4',
  webm: 'video/webm',
  mov: 'video/quicktime',
  txt: 'text/plain',
  log: 'text/plain',
  csv: 'text/csv',
  tsv: 'text/tab-separated-values',
  html: 'text/html',
  htm: 'text/html',
  css: 'text/css',
  xml: 'application/xml',
  json: 'application/json',
  canvas: 'application/json',
  yaml: 'application/yaml',
  yml: 'application/yaml',
  base: 'application/yaml',
  zip: 'application/zip',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  epub: 'application/epub+zip',
};

/** The MIME type of a file name, from its extension. */
export function mimeTypeOf(name: string): string {
  const file = name.slice(name.lastIndexOf('/') + 1);
  const dot = file.lastIndexOf('.');
  if (dot <= 0) return 'application/octet-stream';
  return MIME_TYPES[file.slice(dot + 1).toLowerCase()] ?? 'application/octet-stream';
}

/**
 * The canonical path of an attachment: the segment rules of note names (no `..`, `.` or empty
 * segment, nothing starting with `.`, no control characters, `\` read as `/`, no absolute path),
 * without adding `.md`.
 */
export function normalizeAttachmentName(input: string): string {
  if (input === '' || input.endsWith('/') || input.endsWith('\\')) {
    throw new NotedError(
      'invalid_name',
      `Invalid attachment path ${quoteName(input)}: ${input === '' ? 'the path is empty' : 'it ends with "/", which names a folder'}.`,
      { name: input },
    );
  }
  try {
    return normalizeFolderName(input);
  } catch (err) {
    if (!isNotedError(err) || err.code !== 'invalid_name') throw err;
    // The folder rules are the attachment rules; only the wording of the message is the folder's.
    const rule = err.message
      .replace(/^Invalid folder name/, 'Invalid attachment path')
      .replace(/; name folders by.*$/s, '.');
    throw new NotedError('invalid_name', rule, err.details);
  }
}

export interface StoredAttachment {
  readonly name: string;
  readonly mimeType: string;
  readonly bytes: Buffer;
  readonly mtimeMs: number;
}

/**
 * An attachment agents may see, or null when there is none at that name (a hidden one included, so
 * both answer alike). Over the size limit: `too_large`, before reading it.
 */
export function readAttachment(ctx: AccessContext, rules: Rules, name: string): StoredAttachment | null {
  // Security: the policy judges the real location (a link into a hidden folder is hidden), and
  // pathOf refuses a link that leads out of the vault or into a dot-folder.
  if (rules.accessOf(name) === 'hidden') return null;
  let bytes: Buffer;
  let mtimeMs: number;
  try {
    const file = ctx.vault.readFile(name, rules.sight, (stat) => {
      if (stat.size > MAX_ATTACHMENT_BYTES) throw tooLarge(name, stat.size);
    });
    if (file === null) return null;
    bytes = file.bytes;
    mtimeMs = file.stat.mtimeMs;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EACCES' || code === 'EPERM') {
      throw new NotedError(
        'not_supported',
        `The file "${name}" cannot be read: the server has no permission for it.`,
      );
    }
    throw err;
  }
  // It may have grown between the stat and the read.
  if (bytes.length > MAX_ATTACHMENT_BYTES) throw tooLarge(name, bytes.length);
  return { name, mimeType: mimeTypeOf(name), bytes, mtimeMs };
}

export function tooLarge(name: string, size: number): NotedError {
  return new NotedError(
    'too_large',
    `"${name}" is ${(size / 1048576).toFixed(1)} MB; files are offered as resources up to 5 MB. Open it in the vault directly${name.toLowerCase().endsWith('.md') ? ', or read it in pages with read_note (offset, max_chars)' : ''}.`,
    { name, sizeBytes: size, maxBytes: MAX_ATTACHMENT_BYTES },
  );
}
