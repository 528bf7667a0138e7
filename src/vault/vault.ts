/**
 * @module
 * The vault: a folder of notes (Markdown, or HTML, SPEC 11) and the server's state folder inside it. Reads and writes
 * whole notes by canonical name, confined to the vault, atomically, under a per-note lock shared by
 * every server process. Knows nothing of MCP, policy or the index.
 */
import fs from 'node:fs';
import path from 'node:path';
import { NotedError } from '../common/errors.js';
import type { NoteEnding } from '../common/note-ending.js';
import { ANYWHERE, openFolder, type Sight } from './checked-folder.js';
import { createNoteChecked, moveNoteChecked, removeNoteChecked, writeNotesChecked } from './checked-write.js';
import {
  type CheckedFile,
  existsChecked,
  readChecked,
  realVaultRoot,
  relativeToRoot,
  resolveInside,
  statChecked,
} from './confine.js';
import { etagOf } from './etag.js';
import { chooseFormat } from './format-choice.js';
import { ENDING_OF, type FormatName } from './format-name.js';
import { excludeStateFromGit } from './git-exclude.js';
import { LockDir } from './locks.js';
import { isHiddenPath } from './names.js';

/** The folder, inside the vault, that holds the server's own state. */
export const STATE_DIR_NAME = '.noted';

export interface StoredNote {
  /** Canonical vault-relative name, e.g. `inbox/idea.md`. */
  readonly name: string;
  readonly text: string;
  readonly etag: string;
  readonly size: number;
  readonly mtimeMs: number;
  readonly birthtimeMs: number;
  /** False when the bytes are not valid UTF-8, so `text` does not give them back exactly. */
  readonly lossless: boolean;
  /** The stored bytes, exactly. */
  readonly bytes: Buffer;
}

export interface WrittenNote {
  readonly name: string;
  readonly etag: string;
  readonly mtimeMs: number;
}

// ignoreBOM keeps a leading BOM in the text: without it the decoder drops it, and the text would no
// longer be the stored bytes (SPEC 2.1), nor would a write give them back.
const utf8Strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export class Vault {
  /** The vault folder's real path (symbolic links resolved). */
  readonly root: string;
  /** `<root>/.noted` */
  readonly stateDir: string;
  /** The format the vault's notes are stored in (SPEC 11.1), decided when it was opened. */
  readonly format: FormatName;
  /** The file ending of its notes: `.md`, or `.html` in an HTML vault. */
  readonly ending: NoteEnding;
  private readonly locks: LockDir;

  private constructor(root: string, format: FormatName) {
    this.root = root;
    this.stateDir = path.join(root, STATE_DIR_NAME);
    this.format = format;
    this.ending = ENDING_OF[format];
    this.locks = new LockDir(path.join(this.stateDir, 'locks'));
  }

  /**
   * Opens the vault at `dir`, creating the folder and its state folder when missing. Its format is
   * `options.format` when given, else config.json's `"format"`, else what its files show.
   */
  static open(dir: string, options: { format?: FormatName } = {}): Vault {
    fs.mkdirSync(dir, { recursive: true });
    const root = realVaultRoot(dir);
    if (!fs.statSync(root).isDirectory()) throw new Error(`The vault ${dir} is not a folder.`);
    const stateDir = path.join(root, STATE_DIR_NAME);
    const vault = new Vault(root, chooseFormat(root, stateDir, options.format));
    fs.mkdirSync(vault.stateDir, { recursive: true });
    excludeStateFromGit(root);
    return vault;
  }

  /** Absolute path of a canonical name, confined to the vault (throws `invalid_name` on escape). */
  pathOf(name: string): string {
    const abs = resolveInside(this.root, name);
    const rel = relativeToRoot(this.root, abs);
    // Security: a link inside the vault may point into `.noted/` (the HTTP token) or `.git/`.
    if (rel === null || isHiddenPath(rel)) {
      throw new NotedError(
        'invalid_name',
        `The name "${name}" leads through a symbolic link into a hidden folder of the vault. Nothing was read or written.`,
        { name },
      );
    }
    return abs;
  }

  /**
   * Reads a note, or null when no such file exists, or the file opened is not one `sight` lets the
   * reader see at its real place (the gate passes the policy; the owner's tools pass `ANYWHERE`).
   */
  read(name: string, sight: Sight): StoredNote | null {
    let file: CheckedFile | null;
    try {
      file = this.readFile(name, sight);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EACCES' || code === 'EPERM') {
        throw new NotedError(
          'not_supported',
          `The note "${name}" cannot be read: the server has no permission for it.`,
        );
      }
      throw err;
    }
    if (file === null) return null;
    const { bytes, stat: st } = file;
    let text: string;
    let lossless = true;
    try {
      text = utf8Strict.decode(bytes);
    } catch {
      text = bytes.toString('utf8');
      lossless = false;
    }
    return {
      name,
      text,
      etag: etagOf(bytes),
      size: bytes.length,
      mtimeMs: st.mtimeMs,
      birthtimeMs: st.birthtimeMs,
      lossless,
      bytes,
    };
  }

  /**
   * The bytes and stat of any file in the vault (a note or an attachment), from one checked open
   * ({@link readChecked}); null when there is no file there. `check` sees the stat before the bytes
   * are read.
   */
  readFile(name: string, sight: Sight, check?: (stat: fs.Stats) => void): CheckedFile | null {
    return readChecked(
      this.root,
      name,
      this.pathOf(name),
      check === undefined ? { sight } : { sight, check },
    );
  }

  /**
   * The stat of any file in the vault, from a checked open like {@link readFile}, without reading it;
   * null when `sight` does not let the reader see it at its real place.
   */
  statFile(name: string, sight: Sight): fs.Stats | null {
    return statChecked(this.root, name, this.pathOf(name), sight);
  }

  /** Whether a note `sight` lets the reader see is at `name`, judged on the file opened. */
  exists(name: string, sight: Sight): boolean {
    const abs = this.pathOf(name);
    try {
      return existsChecked(this.root, name, abs, sight);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'EACCES' && code !== 'EPERM') throw err;
      // A note the server may not open is still there: reading it says so (`read`).
      return fs.statSync(abs, { throwIfNoEntry: false })?.isFile() ?? false;
    }
  }

  /**
   * Writes a note atomically and returns its new etag and time.
   *
   * With `ifStill` (an etag), the note is replaced only if the file still holds that version right
   * before the rename. Editors take no lock: one may save the note while the server, holding the
   * note's lock, records the change in the journal (several fsyncs). Without this last look, that
   * save was silently overwritten by a change computed from the version before it (found by the
   * concurrency test: about one save in six, under load). When the file changed, nothing is written
   * and `NotedError('conflict')` with `changedOnDisk: true` is thrown. What remains is the time between
   * this look and the rename, a few microseconds where it used to be the whole journal write.
   */
  write(name: string, text: string, options: { ifStill?: string; allow?: Sight } = {}): WrittenNote {
    const abs = this.pathOf(name);
    const bytes = Buffer.from(text, 'utf8');
    const expected = options.ifStill;
    const skipped = writeNotesChecked(this.root, [
      {
        name,
        abs,
        data: bytes,
        allow: options.allow ?? ANYWHERE,
        ...(expected === undefined ? {} : { still: (at: string) => etagOfFile(at) === expected }),
      },
    ]);
    if (skipped.length > 0) {
      throw new NotedError(
        'conflict',
        `The note "${name}" was changed on disk while this change was being made. Nothing was written.`,
        { name, committed: false, changedOnDisk: true },
      );
    }
    const st = fs.statSync(abs);
    return { name, etag: etagOf(bytes), mtimeMs: st.mtimeMs };
  }

  /**
   * Writes several notes, each atomically, with one batch of syncs (see `writeFilesAtomic`): when it
   * throws, none of them changed. The caller holds every note's lock. A note given `ifStill` whose
   * file no longer holds that version right before its rename is left as it is and named in
   * `changedOnDisk`.
   */
  writeMany(
    notes: readonly { name: string; text: string; ifStill?: string }[],
    allow: Sight = ANYWHERE,
  ): {
    written: WrittenNote[];
    changedOnDisk: string[];
  } {
    const files = notes.map(({ name, text, ifStill }) => ({
      name,
      abs: this.pathOf(name),
      data: Buffer.from(text, 'utf8'),
      allow,
      // The same last look as `write` with `ifStill`: a note saved by an editor meanwhile stays.
      ...(ifStill === undefined ? {} : { still: (at: string) => etagOfFile(at) === ifStill }),
    }));
    const skipped = new Set(writeNotesChecked(this.root, files).map((f) => f.abs));
    const written: WrittenNote[] = [];
    const changedOnDisk: string[] = [];
    for (const { name, abs, data } of files) {
      if (skipped.has(abs)) changedOnDisk.push(name);
      else written.push({ name, etag: etagOf(data), mtimeMs: fs.statSync(abs).mtimeMs });
    }
    return { written, changedOnDisk };
  }

  /**
   * Replaces a note's bytes only if its file still holds the version `etag` names, looked at right
   * before the rename (the last look of `write` with `ifStill`, for exact bytes); false, and nothing
   * written, when it changed or is gone.
   */
  replaceIfStill(name: string, bytes: Uint8Array, etag: string, allow: Sight = ANYWHERE): boolean {
    const abs = this.pathOf(name);
    const still = (at: string) => etagOfFile(at) === etag;
    return writeNotesChecked(this.root, [{ name, abs, data: bytes, still, allow }]).length === 0;
  }

  /**
   * Removes a note only if its file still holds the version `etag` names (the same last look as
   * `write` with `ifStill`); false, and nothing removed, when it changed or is gone.
   */
  removeIfStill(name: string, etag: string, allow: Sight = ANYWHERE): boolean {
    return removeNoteChecked(this.root, this.pathOf(name), name, allow, (at) => etagOfFile(at) === etag);
  }

  /**
   * Creates a new note; returns null when a file already exists at that name. With `allow`, the note
   * is written only where it accepts the real place (else `invalid_name`, reason `changed`).
   */
  create(name: string, text: string | Uint8Array, allow: Sight = ANYWHERE): WrittenNote | null {
    const abs = this.pathOf(name);
    const bytes = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
    if (!createNoteChecked(this.root, abs, name, bytes, allow)) return null;
    const st = fs.statSync(abs);
    return { name, etag: etagOf(bytes), mtimeMs: st.mtimeMs };
  }

  /**
   * Moves a note without replacing anything at `to`; false when `to` is taken. Each end is written
   * only where `allow` accepts its real place.
   */
  move(from: string, to: string, allow: Sight = ANYWHERE): boolean {
    return moveNoteChecked(
      this.root,
      { name: from, abs: this.pathOf(from), allow },
      { name: to, abs: this.pathOf(to), allow },
    );
  }

  /**
   * Makes a folder (and its parents) where `allow` accepts its real place, nothing made elsewhere;
   * false when it was already there.
   */
  makeFolder(folder: string, allow: Sight = ANYWHERE): boolean {
    const abs = this.pathOf(folder);
    const existing = openFolder(this.root, abs, folder, false, allow);
    if (existing !== null) {
      existing.close();
      return false;
    }
    openFolder(this.root, abs, folder, true, allow)?.close();
    return true;
  }

  /**
   * Runs `fn` holding the note's lock. Keys fold case so that two names differing only in case
   * (one file on a case-insensitive disk) share a lock.
   */
  withNoteLock<T>(name: string, fn: () => T): Promise<T> {
    return this.locks.withLock(`note:${name.normalize('NFC').toLowerCase()}`, fn);
  }

  /** Runs `fn` holding a vault-wide named lock (the journal, the trash). */
  withLock<T>(key: string, fn: () => T): Promise<T> {
    return this.locks.withLock(`vault:${key}`, fn);
  }

  /** The same, waiting synchronously: for a short section nested inside a note's lock. */
  withLockSync<T>(key: string, fn: () => T): T {
    return this.locks.withLockSync(`vault:${key}`, fn);
  }

  /** Path of a file or folder inside the state folder. */
  statePath(...parts: string[]): string {
    return path.join(this.stateDir, ...parts);
  }
}

/** The etag of the file's bytes now, or null when there is no file. */
function etagOfFile(abs: string): string | null {
  try {
    return etagOf(fs.readFileSync(abs));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR') return null;
    throw err;
  }
}
