/**
 * @module
 * Note and folder names (SPEC 1.3): the pure half of path confinement. A name is checked and made
 * canonical here before any file-system call; `confine.ts` then resolves it through symbolic links.
 *
 * Decisions where the spec is silent:
 * - Names are kept exactly as given: no trimming, no Unicode normalization (a macOS vault may hold
 *   NFD names on disk and they must stay reachable), no percent-decoding (`%2F` is three characters).
 * - Trailing spaces and dots on a segment are kept (`a.` → `a..md`): Linux allows them and a file
 *   with such a name may already exist. A segment made only of whitespace is refused, as is an
 *   unpaired UTF-16 surrogate (it could not be written to disk under the same name).
 * - Only a leading single letter and colon counts as a Windows drive (`C:x`); a colon elsewhere is an
 *   ordinary character on the disks this server runs on.
 */

import { Buffer } from 'node:buffer';
import { NotedError } from '../common/errors.js';
import { hasEnding, type NoteEnding, withoutEnding } from '../common/note-ending.js';

/** Notes may be nested at most this many folders deep (SPEC 1.1). */
export const MAX_FOLDER_DEPTH = 16;
/** Longest file or folder name, in UTF-8 bytes (the common file-system limit). */
export const MAX_SEGMENT_BYTES = 255;

type Kind = 'note' | 'folder';

const noteHint = (ending: NoteEnding) =>
  `name notes by their path inside the vault, like "projects/plan${ending}".`;
const FOLDER_HINT =
  'name folders by their path inside the vault, like "projects/2024", or "" for the vault root.';

// C0 controls (NUL included), DEL and C1 controls.
const CONTROL_CHAR = /[\u0000-\u001f\u007f-\u009f]/;
// With the `u` flag a well-formed surrogate pair is one code point, so this only finds lone halves.
const LONE_SURROGATE = /\p{Cs}/u;
const WINDOWS_DRIVE = /^[A-Za-z]:/;
const QUOTE_LIMIT = 200;

/**
 * The canonical vault-relative name of a note: `/` separators, ending in the vault's note ending
 * (`.md`, or `.html` in an HTML vault). Throws `NotedError('invalid_name')` naming the broken rule;
 * nothing touches the file system.
 *
 * @example
 * normalizeNoteName('inbox\\idea', '.md') // 'inbox/idea.md'
 * normalizeNoteName('v1.2 notes', '.md') // 'v1.2 notes.md'
 * normalizeNoteName('Note.MD', '.md') // 'Note.MD'
 * normalizeNoteName('Note.md', '.html') // 'Note.md.html'
 * normalizeNoteName('a/../b', '.md') // throws invalid_name: ".." segments are not allowed
 */
export function normalizeNoteName(input: string, ending: NoteEnding): string {
  const raw = checkText('note', input, ending);
  const segments = splitSegments('note', input, raw, ending);
  const last = segments.length - 1;
  if (!hasEnding(segments[last]!, ending)) segments[last] = `${segments[last]}${ending}`;
  checkLimits('note', input, segments, last, ending);
  return segments.join('/');
}

/**
 * The canonical vault-relative path of a folder, without leading or trailing `/`; `""` is the vault
 * root (given as `""`, `"/"` or `"."`). One trailing `/` is accepted (`projects/` → `projects`).
 *
 * @example
 * normalizeFolderName('projects\\2024\\') // 'projects/2024'
 * normalizeFolderName('/') // ''
 */
export function normalizeFolderName(input: string): string {
  if (input === '' || input === '/' || input === '.' || input === '\\') return '';
  const raw = checkText('folder', input, '.md');
  const trimmed = raw.endsWith('/') ? raw.slice(0, -1) : raw;
  const segments = splitSegments('folder', input, trimmed, '.md');
  checkLimits('folder', input, segments, segments.length, '.md');
  return segments.join('/');
}

/**
 * True when any segment of a vault-relative path starts with `.` (`.obsidian/x`, `a/.git/b`), the
 * paths SPEC 1.1 hides from agents. `\` counts as a separator too, which can only hide more.
 */
export function isHiddenPath(rel: string): boolean {
  return rel.split(/[/\\]/).some((segment) => segment.startsWith('.'));
}

/** The folder part of a canonical name: `folderOf('a/b/c.md')` is `'a/b'`, `folderOf('c.md')` is `''`. */
export function folderOf(name: string): string {
  const slash = name.lastIndexOf('/');
  return slash < 0 ? '' : name.slice(0, slash);
}

/** The file name without its note ending: `baseNameOf('a/b/Plan.MD', '.md')` is `'Plan'`. */
export function baseNameOf(name: string, ending: NoteEnding): string {
  return withoutEnding(name.slice(name.lastIndexOf('/') + 1), ending);
}

/** Checks the whole text and returns it with `\` read as `/`; refuses absolute paths. */
function checkText(kind: Kind, input: unknown, ending: NoteEnding): string {
  const fail = (k: Kind, i: string, rule: string) => failWith(k, i, rule, ending);
  if (typeof input !== 'string') {
    const got = input === null ? 'null' : Array.isArray(input) ? 'an array' : typeof input;
    throw new NotedError(
      'invalid_name',
      `Invalid ${kind} name: expected a string but got ${got}; ${hint(kind, ending)}`,
    );
  }
  if (input === '') fail(kind, input, 'the name is empty');
  const control = CONTROL_CHAR.exec(input);
  if (control) {
    const code = control[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0');
    fail(
      kind,
      input,
      `it contains the control character U+${code}; NUL and control characters are not allowed`,
    );
  }
  const surrogate = LONE_SURROGATE.exec(input);
  if (surrogate) {
    const code = surrogate[0].charCodeAt(0).toString(16).toUpperCase();
    fail(
      kind,
      input,
      `it contains an unpaired UTF-16 surrogate (U+${code}); names must be valid Unicode text`,
    );
  }
  if (input.trim() === '') fail(kind, input, 'the name is only whitespace');
  const text = input.replaceAll('\\', '/');
  // Security: every form of absolute path is refused outright, never re-rooted into the vault, so
  // a caller who meant /etc/passwd is told rather than silently given <vault>/etc/passwd.md.
  if (text.startsWith('//')) {
    fail(kind, input, 'network (UNC) paths are not allowed; names are relative to the vault');
  }
  if (text.startsWith('/')) {
    fail(
      kind,
      input,
      'absolute paths are not allowed; names are relative to the vault (drop the leading "/")',
    );
  }
  if (WINDOWS_DRIVE.test(text)) {
    fail(kind, input, 'Windows drive paths ("C:") are not allowed; names are relative to the vault');
  }
  return text;
}

/** Splits on `/` and applies the per-segment rules that do not depend on the note ending. */
function splitSegments(kind: Kind, input: string, text: string, ending: NoteEnding): string[] {
  const fail = (k: Kind, i: string, rule: string) => failWith(k, i, rule, ending);
  const segments = text.split('/');
  segments.forEach((segment, i) => {
    if (segment === '') {
      const trailing = i === segments.length - 1 && kind === 'note';
      fail(
        kind,
        input,
        trailing
          ? 'it ends with "/", which names a folder, not a note'
          : 'empty path segments ("//") are not allowed',
      );
    }
    if (segment.trim() === '') fail(kind, input, 'a path segment made only of whitespace is not allowed');
    // Security: ".." would climb out of the vault; "." is refused too so every note has one spelling.
    if (segment === '..') fail(kind, input, '".." segments are not allowed');
    if (segment === '.') fail(kind, input, '"." segments are not allowed');
    if (segment.startsWith('.')) {
      fail(
        kind,
        input,
        `the segment ${quoteName(segment)} starts with "."; hidden files and folders (.obsidian, .git, .noted, .trash, …) are not available to agents, so no folder or file name may start with "."`,
      );
    }
  });
  return segments;
}

/** Byte length of every segment (after the note ending was added) and the folder depth. */
function checkLimits(
  kind: Kind,
  input: string,
  segments: readonly string[],
  depth: number,
  ending: NoteEnding,
): void {
  const fail = (k: Kind, i: string, rule: string) => failWith(k, i, rule, ending);
  for (const segment of segments) {
    const bytes = Buffer.byteLength(segment, 'utf8');
    if (bytes > MAX_SEGMENT_BYTES) {
      fail(
        kind,
        input,
        `the segment ${quoteName(segment)} is ${bytes} bytes in UTF-8, more than the ${MAX_SEGMENT_BYTES} bytes a file or folder name may have${kind === 'note' ? ` (the "${ending}" ending counts)` : ''}; shorten it`,
      );
    }
  }
  if (depth > MAX_FOLDER_DEPTH) {
    fail(
      kind,
      input,
      `it is ${depth} folders deep; notes may be nested at most ${MAX_FOLDER_DEPTH} folders deep, so use a shorter path`,
    );
  }
}

function hint(kind: Kind, ending: NoteEnding): string {
  return kind === 'note' ? noteHint(ending) : FOLDER_HINT;
}

function failWith(kind: Kind, input: string, rule: string, ending: NoteEnding): never {
  throw new NotedError(
    'invalid_name',
    `Invalid ${kind} name ${quoteName(input)}: ${rule}; ${hint(kind, ending)}`,
    { name: input },
  );
}

/**
 * JSON-quotes a name so control characters are visible. JSON.stringify leaves DEL, C1 controls and
 * the line separators raw, so those are escaped by hand. Long names are cut to keep messages short.
 */
export function quoteName(text: string): string {
  const points = Array.from(text);
  const cut = points.length > QUOTE_LIMIT ? points.slice(0, QUOTE_LIMIT).join('') : text;
  const json = JSON.stringify(cut).replace(
    /[\u007f-\u009f\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  return cut === text ? json : `${json}…`;
}
