/**
 * @module
 * The index's tables. Everything here is derived from the Markdown files and can be rebuilt at any
 * time; bump SCHEMA_VERSION on any change and old indexes are rebuilt on start.
 */

export const SCHEMA_VERSION = 1;

/** `PRAGMA application_id` marks the file as ours ('NOTD'), so a foreign SQLite file is never reused. */
export const APPLICATION_ID = 0x4e4f5444;

export const SCHEMA_SQL = `
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE notes(
  id INTEGER PRIMARY KEY,
  path TEXT NOT NULL UNIQUE,
  path_lower TEXT NOT NULL,
  folder_lower TEXT NOT NULL,
  file_lower TEXT NOT NULL,
  title TEXT NOT NULL,
  size INTEGER NOT NULL,
  mtime_ms REAL NOT NULL,
  ctime_ms REAL NOT NULL,
  birthtime_ms REAL NOT NULL,
  ino INTEGER NOT NULL,
  etag TEXT NOT NULL
);
CREATE INDEX notes_mtime ON notes(mtime_ms DESC, path);
CREATE INDEX notes_file ON notes(file_lower);
CREATE INDEX notes_path_lower ON notes(path_lower);
CREATE INDEX notes_folder ON notes(folder_lower);
CREATE TABLE note_tags(note_id INTEGER NOT NULL, tag TEXT NOT NULL, tag_lower TEXT NOT NULL);
CREATE INDEX note_tags_note ON note_tags(note_id);
CREATE INDEX note_tags_tag ON note_tags(tag_lower);
CREATE TABLE attachments(
  path TEXT PRIMARY KEY,
  path_lower TEXT NOT NULL,
  file_lower TEXT NOT NULL,
  size INTEGER NOT NULL,
  mtime_ms REAL NOT NULL,
  ino INTEGER NOT NULL
);
CREATE INDEX attachments_file ON attachments(file_lower);
CREATE VIRTUAL TABLE notes_fts USING fts5(
  title, tags, body,
  content='', contentless_delete=1,
  tokenize='unicode61 remove_diacritics 2'
);
INSERT INTO notes_fts(notes_fts, rank) VALUES('rank', 'bm25(3.0, 2.0, 1.0)');
`;
