/**
 * @module
 * Writes to the index: one note's rows in every table, replaced together.
 */
import { foldName } from '../../markdown/link-key.js';
import type { FileEntry } from '../../vault/walk.js';
import type { Db } from '../db/database.js';
import { FeedRecorder } from '../feed/recorder.js';
import type { DerivedNote } from './derive.js';
import { birthTime, foldedParts } from './file-facts.js';
import { FtsAddedLog } from './fts-added.js';
import { FtsTotals, readVarints } from './fts-totals.js';
import { EVERYTHING_VISIBLE, markVisibilityStale } from './visibility.js';

/**
 * One change the index applied to a note or attachment (SPEC 14.3). `echo`: a path the watcher
 * reported that the index already held as it is on disk (another process indexed it first);
 * NoteIndex tells those from its own changes coming back.
 */
export interface IndexChange {
  readonly path: string;
  readonly kind: 'added' | 'changed' | 'removed';
  /** The note's etag after the change (null when removed, or for an attachment). */
  readonly etag: string | null;
  readonly echo?: true;
}

export type ChangeListener = (change: IndexChange) => void;

export interface IndexedFile {
  readonly id: number;
  readonly path: string;
  readonly size: number;
  readonly mtime_ms: number;
  readonly ino: number;
  /** 1 when the note has its full-text row (agents may see it), else 0. */
  readonly visible: number;
}

// The `_lower` columns hold NFC, lower-cased text: link resolution compares names that way
// (OBSIDIAN.md LNK-20), and a name typed in NFC then finds a file stored in NFD too.

export function lowerPath(name: string): string {
  return foldName(name);
}

/** The tables holding one row set per note, all keyed by `note_id`. */
const NOTE_TABLES = [
  'note_tags',
  'note_tag_prefixes',
  'note_links',
  'note_tasks',
  'note_aliases',
  'note_props',
  'note_layout',
];

/** The tables whose rows carry their note's `visible` flag (schema.ts), changed with the note's. */
const FLAGGED_TABLES = ['note_tag_prefixes', 'note_links', 'note_tasks', 'note_aliases'];

/**
 * Prepared statements for writing one note, reused across a whole sync. `visibilityKey` names the rules
 * by which its caller decides which notes are visible (visibility.ts): a note written by other rules
 * than the index says it follows makes the index say it follows none, so the next request sorts it out.
 */
export class IndexWriter {
  private readonly selectId;
  private readonly insertNote;
  private readonly updateNote;
  private readonly deleteNoteRow;
  private readonly deleteRows;
  private readonly insertTag;
  private readonly insertTagPrefix;
  private readonly insertLink;
  private readonly insertTask;
  private readonly insertAlias;
  private readonly insertProp;
  private readonly insertLayout;
  private readonly selectDocSize;
  private readonly deleteFts;
  private readonly insertFts;
  private readonly ftsAdded;
  private readonly upsertAttachment;
  private readonly deleteAttachment;
  private readonly hideNote;
  private readonly hideRows;
  private readonly totals;
  /** Whether the open transaction decided any note's visibility. */
  private decided = false;
  /** The change feed's recorder (feed.ts): every put and removal is reported to it. */
  private readonly feed;
  private readonly selectById;

  private readonly selectAttachment;

  /** `onChange` hears every note or attachment added, changed (in content) or removed. */
  constructor(
    private readonly db: Db,
    private readonly visibilityKey: string = EVERYTHING_VISIBLE.key,
    private readonly onChange: ChangeListener = () => undefined,
  ) {
    this.totals = new FtsTotals(db);
    this.ftsAdded = new FtsAddedLog(db);
    this.feed = new FeedRecorder(db);
    this.selectId = db.prepare<[string], { id: number; etag: string }>(
      'SELECT id, etag FROM notes WHERE path = ?',
    );
    this.selectById = db.prepare<[number], { path: string; etag: string; ino: number; uid: number }>(
      'SELECT path, etag, ino, coalesce(uid, id) AS uid FROM notes WHERE id = ?',
    );
    this.selectAttachment = db.prepare<[string], { size: number; mtime_ms: number; ino: number }>(
      'SELECT size, mtime_ms, ino FROM attachments WHERE path = ?',
    );
    this.insertNote = db.prepare(
      `INSERT INTO notes(path, path_lower, folder_lower, file_lower, title, size, mtime_ms, ctime_ms, birthtime_ms, ino, etag, words, created_ms, visible)
       VALUES (@path, @path_lower, @folder_lower, @file_lower, @title, @size, @mtime_ms, @ctime_ms, @birthtime_ms, @ino, @etag, @words, @created_ms, @visible)`,
    );
    this.updateNote = db.prepare(
      `UPDATE notes SET title = @title, size = @size, mtime_ms = @mtime_ms, ctime_ms = @ctime_ms,
       birthtime_ms = @birthtime_ms, ino = @ino, etag = @etag, words = @words, created_ms = @created_ms,
       visible = @visible WHERE id = @id`,
    );
    this.hideNote = db.prepare('UPDATE notes SET visible = 0 WHERE id = ?');
    // By note_id alone: with `AND visible = 1` SQLite took the flag's index, a range of every visible
    // row, for each note hidden (hiding 1,100 notes of a 10k vault took 2–3 s instead of 0.1–0.2).
    this.hideRows = FLAGGED_TABLES.map((table) =>
      db.prepare(`UPDATE ${table} SET visible = 0 WHERE note_id = ?`),
    );
    this.deleteNoteRow = db.prepare('DELETE FROM notes WHERE id = ?');
    this.deleteRows = NOTE_TABLES.map((table) => db.prepare(`DELETE FROM ${table} WHERE note_id = ?`));
    this.insertTag = db.prepare('INSERT INTO note_tags(note_id, tag, tag_lower) VALUES (?, ?, ?)');
    this.insertTagPrefix = db.prepare(
      'INSERT INTO note_tag_prefixes(note_id, tag_lower, tag, visible) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING',
    );
    this.insertLink = db.prepare(
      `INSERT INTO note_links(note_id, ord, kind, raw, linkpath, heading, block, alias, embed, line, property, key_lower, visible)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.insertTask = db.prepare(
      'INSERT INTO note_tasks(note_id, line, status, text, text_fold, due, done, ord, visible) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING',
    );
    this.insertAlias = db.prepare(
      'INSERT INTO note_aliases(note_id, alias_lower, visible) VALUES (?, ?, ?) ON CONFLICT DO NOTHING',
    );
    this.insertProp = db.prepare(
      'INSERT INTO note_props(note_id, ord, key, key_lower, value_json, type) VALUES (?, ?, ?, ?, ?, ?)',
    );
    this.insertLayout = db.prepare('INSERT INTO note_layout(note_id, data) VALUES (?, ?)');
    this.selectDocSize = db.prepare<[number], { sz: Buffer }>(
      'SELECT sz FROM notes_fts_docsize WHERE id = ?',
    );
    this.deleteFts = db.prepare('DELETE FROM notes_fts WHERE rowid = ?');
    this.insertFts = db.prepare('INSERT INTO notes_fts(rowid, title, tags, body) VALUES (?, ?, ?, ?)');
    this.upsertAttachment = db.prepare(
      `INSERT INTO attachments(path, path_lower, file_lower, size, mtime_ms, ino) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT(path) DO UPDATE SET size = excluded.size, mtime_ms = excluded.mtime_ms, ino = excluded.ino`,
    );
    this.deleteAttachment = db.prepare('DELETE FROM attachments WHERE path = ?');
  }

  /**
   * Runs `fn` (which calls the methods below) in one IMMEDIATE transaction, which also corrects the
   * BM25 totals for the full-text rows it deleted (see fts-totals.ts).
   */
  write(fn: () => void): void {
    // A write inside another (a folder synced within a watcher's batch) leaves the feed to the outer one.
    const outer = !this.db.inTransaction;
    try {
      this.db
        .transaction(() => {
          fn();
          this.totals.settle();
          this.settleVisibility();
          if (outer) this.feed.flush(Date.now());
        })
        .immediate();
    } catch (err) {
      this.decided = false;
      this.totals.discard();
      if (outer) this.feed.discard();
      throw err;
    }
  }

  private settleVisibility(): void {
    if (this.decided) markVisibilityStale(this.db, this.visibilityKey);
    this.decided = false;
  }

  /**
   * Opens an IMMEDIATE transaction that stays open across awaits, so a build can write each parsed
   * batch as it arrives and still commit thousands of notes at once. Until `commit` or `rollback`,
   * nothing else may use this connection: the cold build runs before the server answers anything.
   */
  begin(): void {
    this.db.prepare('BEGIN IMMEDIATE').run();
  }

  commit(): void {
    this.totals.settle();
    this.settleVisibility();
    this.feed.flush(Date.now());
    this.db.prepare('COMMIT').run();
  }

  /** Ends a transaction opened by `begin` without keeping its writes; harmless when none is open. */
  rollback(): void {
    if (this.db.inTransaction) this.db.prepare('ROLLBACK').run();
    this.decided = false;
    this.totals.discard();
    this.feed.discard();
  }

  /**
   * Inserts or replaces a note's rows; its full-text row only when `visible` (agents may see it). Call
   * inside `write`, or between `begin` and `commit`.
   */
  putNote(file: FileEntry, etag: string, derived: DerivedNote, visible = true): void {
    const row = {
      title: derived.title,
      size: file.size,
      mtime_ms: file.mtimeMs,
      ctime_ms: file.ctimeMs,
      birthtime_ms: file.birthtimeMs,
      ino: file.ino,
      etag,
      words: derived.words,
      created_ms: derived.createdMs ?? birthTime(file),
      visible: visible ? 1 : 0,
    };
    this.decided = true;
    // The etag the index held: for the feed, and to tell a change of text from a touched file.
    const existing = this.selectId.get(file.name);
    if (this.feed.active) {
      const before = existing?.etag ?? null;
      // An indexed note with this inode and text whose file is gone was renamed here (feed.ts).
      const movedFrom = before === null ? this.feed.renamedFrom(file.name, file.ino, etag) : null;
      this.feed.put({
        path: file.name,
        ino: file.ino,
        etag,
        before,
        ...(movedFrom === null ? {} : { movedFrom }),
      });
      // The old path's rows go with the move: left, they would describe a note no longer there, and a
      // note renamed back later would look unchanged to the sync and never be recorded. A new file at
      // the old path is indexed as new when its own path is synced.
      if (movedFrom !== null) this.removeNoteByPath(movedFrom);
    }
    let id: number;
    if (existing) {
      id = existing.id;
      this.updateNote.run({ ...row, id });
      this.deleteNoteRows(id);
      this.deleteFtsRow(id);
      // A file touched but not changed (same text) is no change to anyone reading it.
      if (existing.etag !== etag) this.onChange({ path: file.name, kind: 'changed', etag });
    } else {
      const parts = foldedParts(derived.pathLower);
      const info = this.insertNote.run({
        ...row,
        path: file.name,
        path_lower: derived.pathLower,
        folder_lower: parts.folder,
        file_lower: parts.file,
      });
      id = Number(info.lastInsertRowid);
      this.onChange({ path: file.name, kind: 'added', etag });
    }
    for (const tag of derived.tags) this.insertTag.run(id, tag, tag.toLowerCase());
    if (visible) {
      this.insertFts.run(id, derived.ftsTitle, derived.ftsTags, derived.ftsBody);
      this.ftsAdded.added(id);
    }
    this.putDerivedRows(id, derived, row.visible);
    if (derived.layout && (!visible || this.bodyWords(id) === derived.layout.words)) {
      this.insertLayout.run(id, derived.layout.bytes);
    }
  }

  /**
   * The words FTS5 counted in a note's body. The layout's own count must be the same, or its offsets
   * would place matches on the wrong lines: a note where they differ keeps no layout, and its scopes
   * are checked in its text. A hidden note has no full-text row: its layout is kept unchecked, and
   * checked when the note is written again as visible.
   */
  private bodyWords(id: number): number {
    const row = this.selectDocSize.get(id);
    return row === undefined ? -1 : (readVarints(row.sz)[2] ?? -1);
  }

  /**
   * Takes a note's full-text row out, as for a note agents may no longer see; its other rows stay,
   * flagged hidden with it. The caller records the rules it judged by (see visibility.ts).
   */
  hide(id: number): void {
    this.deleteFtsRow(id);
    this.hideNote.run(id);
    for (const statement of this.hideRows) statement.run(id);
  }

  /**
   * A hidden note has no full-text row; deleting one anyway would leave a tombstone in FTS5's index
   * for every later search to skip.
   */
  private deleteFtsRow(id: number): void {
    if (this.totals.removing(id)) this.deleteFts.run(id);
  }

  /** `visible`: the note's flag (0 or 1), copied onto each row. */
  private putDerivedRows(id: number, derived: DerivedNote, visible: number): void {
    for (const p of derived.tagPrefixes) this.insertTagPrefix.run(id, p.lower, p.tag, visible);
    derived.links.forEach((l, ord) => {
      this.insertLink.run(
        id,
        ord,
        l.kind,
        l.raw,
        l.linkpath,
        l.heading,
        l.block,
        l.alias,
        l.embed ? 1 : 0,
        l.line,
        l.property,
        l.key,
        visible,
      );
    });
    // TSK-02: any status but a space is done.
    for (const [ord, t] of derived.tasks.entries()) {
      this.insertTask.run(
        id,
        t.line,
        t.status,
        t.text,
        t.textFold,
        t.due,
        t.status === ' ' ? 0 : 1,
        ord,
        visible,
      );
    }
    for (const alias of derived.aliases) this.insertAlias.run(id, alias, visible);
    derived.properties.forEach((p, ord) => {
      this.insertProp.run(id, ord, p.key, p.keyLower, p.valueJson, p.type);
    });
  }

  private deleteNoteRows(id: number): void {
    for (const statement of this.deleteRows) statement.run(id);
  }

  removeNote(id: number): void {
    const row = this.selectById.get(id);
    if (row !== undefined) {
      if (this.feed.active) this.feed.removed(row);
      this.onChange({ path: row.path, kind: 'removed', etag: null });
    }
    this.deleteNoteRows(id);
    this.deleteFtsRow(id);
    this.deleteNoteRow.run(id);
  }

  removeNoteByPath(path: string): boolean {
    const row = this.selectId.get(path);
    if (!row) return false;
    this.removeNote(row.id);
    return true;
  }

  putAttachment(file: FileEntry): void {
    const before = this.selectAttachment.get(file.name);
    if (before?.size === file.size && before.mtime_ms === file.mtimeMs && before.ino === file.ino) return;
    this.onChange({ path: file.name, kind: before === undefined ? 'added' : 'changed', etag: null });
    const lower = lowerPath(file.name);
    this.upsertAttachment.run(file.name, lower, foldedParts(lower).file, file.size, file.mtimeMs, file.ino);
  }

  removeAttachment(path: string): void {
    if (this.deleteAttachment.run(path).changes > 0) this.onChange({ path, kind: 'removed', etag: null });
  }
}
