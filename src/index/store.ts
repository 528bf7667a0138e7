/**
 * @module
 * Writes to the index: one note's rows in every table, replaced together.
 */
import type { FileEntry } from '../vault/walk.js';
import type { Db } from './database.js';
import type { DerivedNote } from './derive.js';

export interface IndexedFile {
  readonly id: number;
  readonly path: string;
  readonly size: number;
  readonly mtime_ms: number;
  readonly ino: number;
}

export function lowerFolder(name: string): string {
  const slash = name.lastIndexOf('/');
  return slash === -1 ? '' : name.slice(0, slash).toLowerCase();
}

export function lowerFile(name: string): string {
  return name.slice(name.lastIndexOf('/') + 1).toLowerCase();
}

/** Prepared statements for writing one note, reused across a whole sync. */
export class IndexWriter {
  private readonly selectId;
  private readonly insertNote;
  private readonly updateNote;
  private readonly deleteNoteRow;
  private readonly deleteTags;
  private readonly insertTag;
  private readonly deleteFts;
  private readonly insertFts;
  private readonly upsertAttachment;
  private readonly deleteAttachment;

  constructor(db: Db) {
    this.selectId = db.prepare<[string], { id: number }>('SELECT id FROM notes WHERE path = ?');
    this.insertNote = db.prepare(
      `INSERT INTO notes(path, path_lower, folder_lower, file_lower, title, size, mtime_ms, ctime_ms, birthtime_ms, ino, etag)
       VALUES (@path, @path_lower, @folder_lower, @file_lower, @title, @size, @mtime_ms, @ctime_ms, @birthtime_ms, @ino, @etag)`,
    );
    this.updateNote = db.prepare(
      `UPDATE notes SET title = @title, size = @size, mtime_ms = @mtime_ms, ctime_ms = @ctime_ms,
       birthtime_ms = @birthtime_ms, ino = @ino, etag = @etag WHERE id = @id`,
    );
    this.deleteNoteRow = db.prepare('DELETE FROM notes WHERE id = ?');
    this.deleteTags = db.prepare('DELETE FROM note_tags WHERE note_id = ?');
    this.insertTag = db.prepare('INSERT INTO note_tags(note_id, tag, tag_lower) VALUES (?, ?, ?)');
    this.deleteFts = db.prepare('DELETE FROM notes_fts WHERE rowid = ?');
    this.insertFts = db.prepare('INSERT INTO notes_fts(rowid, title, tags, body) VALUES (?, ?, ?, ?)');
    this.upsertAttachment = db.prepare(
      `INSERT INTO attachments(path, path_lower, file_lower, size, mtime_ms, ino) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT(path) DO UPDATE SET size = excluded.size, mtime_ms = excluded.mtime_ms, ino = excluded.ino`,
    );
    this.deleteAttachment = db.prepare('DELETE FROM attachments WHERE path = ?');
  }

  /** Inserts or replaces a note's rows. Call inside a transaction. */
  putNote(file: FileEntry, etag: string, derived: DerivedNote): void {
    const row = {
      title: derived.title,
      size: file.size,
      mtime_ms: file.mtimeMs,
      ctime_ms: file.ctimeMs,
      birthtime_ms: file.birthtimeMs,
      ino: file.ino,
      etag,
    };
    const existing = this.selectId.get(file.name);
    let id: number;
    if (existing) {
      id = existing.id;
      this.updateNote.run({ ...row, id });
      this.deleteTags.run(id);
      this.deleteFts.run(id);
    } else {
      const info = this.insertNote.run({
        ...row,
        path: file.name,
        path_lower: file.name.toLowerCase(),
        folder_lower: lowerFolder(file.name),
        file_lower: lowerFile(file.name),
      });
      id = Number(info.lastInsertRowid);
    }
    for (const tag of derived.tags) this.insertTag.run(id, tag, tag.toLowerCase());
    this.insertFts.run(id, derived.ftsTitle, derived.ftsTags, derived.ftsBody);
  }

  removeNote(id: number): void {
    this.deleteTags.run(id);
    this.deleteFts.run(id);
    this.deleteNoteRow.run(id);
  }

  removeNoteByPath(path: string): boolean {
    const row = this.selectId.get(path);
    if (!row) return false;
    this.removeNote(row.id);
    return true;
  }

  putAttachment(file: FileEntry): void {
    this.upsertAttachment.run(
      file.name,
      file.name.toLowerCase(),
      lowerFile(file.name),
      file.size,
      file.mtimeMs,
      file.ino,
    );
  }

  removeAttachment(path: string): void {
    this.deleteAttachment.run(path);
  }
}
