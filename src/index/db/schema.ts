/**
 * @module
 * The index's tables. Everything here is derived from the Markdown files and can be rebuilt at any
 * time; bump SCHEMA_VERSION on any change and old indexes are rebuilt on start.
 */

// 7: the columns of issue 32 (words, created_ms, uid), issue 35's visible flags on the derived rows and
// issue 34's log of full-text rows, which were each a schema 6 of their own while built.
export const SCHEMA_VERSION = 7;

/** `PRAGMA application_id` marks the file as ours ('NOTD'), so a foreign SQLite file is never reused. */
export const APPLICATION_ID = 0x4e4f5444;

/**
 * Bytes per database page, four times SQLite's default; FTS5's leaves (its 'pgsz' below) are sized to
 * fit one. The full-text index is most of the file and is written and read in long runs: building it
 * from 100k notes took 16.8–16.9 s with these against 20.4–20.9 s with the defaults (its final merge
 * 3.4–3.5 s against 5.5–5.7 s), and the server's whole cold build 32.0–41.4 s against 37.2–51.3 s in
 * alternating runs, with the same search latency.
 */
export const PAGE_SIZE = 16384;

/**
 * How the full-text index splits text into words: letters, digits and private-use characters, lower
 * case, accents folded. search/parse/terms.ts splits query terms with the very same settings.
 */
export const FTS_TOKENIZER = 'unicode61 remove_diacritics 2';

export const SCHEMA_SQL = `
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
-- AUTOINCREMENT: a row id is never given twice, so a note's id (below) never names another note later.
CREATE TABLE notes(
  id INTEGER PRIMARY KEY AUTOINCREMENT,
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
  etag TEXT NOT NULL,
  -- Obsidian's word count of the body (markdown/word-count.ts), and when the note was created: its
  -- frontmatter \`created\` when that is a date, else the file's birth time (SPEC 17.4).
  words INTEGER NOT NULL DEFAULT 0,
  created_ms REAL NOT NULL DEFAULT 0,
  -- 1 when agents may see the note under the policy named by meta 'visibility' (visibility.ts): then,
  -- and only then, it has a row in notes_fts, so every full-text statistic is that of the visible vault.
  visible INTEGER NOT NULL,
  -- The note's stable key (its id for agents, store/note-ids.ts): NULL means the row's own id, which a
  -- new note keeps; a move the feed pairs gives the new row the key of the old one (feed/recorder.ts).
  uid INTEGER
);
CREATE INDEX notes_uid ON notes(uid) WHERE uid IS NOT NULL;
CREATE INDEX notes_mtime ON notes(mtime_ms DESC, path);
-- Searches without words walk the visible notes alone, newest first: their cost never counts hidden ones.
CREATE INDEX notes_visible_mtime ON notes(mtime_ms DESC, path) WHERE visible = 1;
CREATE INDEX notes_file ON notes(file_lower);
CREATE INDEX notes_path_lower ON notes(path_lower);
CREATE INDEX notes_folder ON notes(folder_lower);
-- An outside rename keeps the inode: a new path whose inode and etag an indexed note had is a move (feed.ts).
CREATE INDEX notes_ino ON notes(ino);
-- visible, on the rows of note_links, note_tag_prefixes, note_tasks and note_aliases: their note's flag,
-- leading the index each tool looks them up by, so that a visible caller's lookup reads no hidden
-- note's row at all (visibility.ts, issue 35 finding 5).
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
-- Links are stored as written and resolved when asked (queries/links.ts), so creating, renaming or
-- deleting a file needs no bookkeeping here. key_lower narrows the candidates (markdown/link-key.ts);
-- the index also holds linkpath, so finding the backlinks of a note reads the index alone, not the table
-- (8,751 links to one note at 100k notes: 55 → 28 ms).
CREATE TABLE note_links(
  note_id INTEGER NOT NULL,
  ord INTEGER NOT NULL,
  kind TEXT NOT NULL,
  raw TEXT NOT NULL,
  linkpath TEXT NOT NULL,
  heading TEXT,
  block TEXT,
  alias TEXT,
  embed INTEGER NOT NULL,
  line INTEGER NOT NULL,
  property TEXT,
  key_lower TEXT NOT NULL,
  visible INTEGER NOT NULL,
  PRIMARY KEY(note_id, ord)
) WITHOUT ROWID;
CREATE INDEX note_links_key ON note_links(visible, key_lower, linkpath);
-- Each tag of a note and each of its parents, once per note (TAG-22): a nested query is one lookup.
CREATE TABLE note_tag_prefixes(
  note_id INTEGER NOT NULL,
  tag_lower TEXT NOT NULL,
  tag TEXT NOT NULL,
  visible INTEGER NOT NULL,
  PRIMARY KEY(note_id, tag_lower)
) WITHOUT ROWID;
CREATE INDEX note_tag_prefixes_tag ON note_tag_prefixes(visible, tag_lower, tag);
CREATE TABLE note_tasks(
  note_id INTEGER NOT NULL,
  line INTEGER NOT NULL,
  status TEXT NOT NULL,
  text TEXT NOT NULL,
  -- NFC, lower-cased text: the list_tasks text filter is a substring test on it.
  text_fold TEXT NOT NULL,
  due TEXT,
  done INTEGER NOT NULL,
  -- The task's place among the note's tasks: an HTML note may hold several on one line.
  ord INTEGER NOT NULL,
  visible INTEGER NOT NULL,
  PRIMARY KEY(note_id, line, ord)
) WITHOUT ROWID;
CREATE INDEX note_tasks_due ON note_tasks(visible, done, due);
CREATE TABLE note_aliases(
  note_id INTEGER NOT NULL,
  alias_lower TEXT NOT NULL,
  visible INTEGER NOT NULL,
  PRIMARY KEY(note_id, alias_lower)
) WITHOUT ROWID;
CREATE INDEX note_aliases_alias ON note_aliases(visible, alias_lower);
-- Clustered by key: query_notes reads one key across many notes in one range, without a lookup
-- per row; the note_id index serves the per-note delete and small scopes.
CREATE TABLE note_props(
  note_id INTEGER NOT NULL,
  ord INTEGER NOT NULL,
  key TEXT NOT NULL,
  key_lower TEXT NOT NULL,
  value_json TEXT NOT NULL,
  type TEXT NOT NULL,
  PRIMARY KEY(key_lower, note_id, ord)
) WITHOUT ROWID;
CREATE INDEX note_props_note ON note_props(note_id);
-- Where a note's lines, blocks and sections start, in the words of its full-text row (note-layout.ts):
-- with the positions FTS5 keeps (notes_positions), line:, block: and section: are answered without
-- reading the note (search/check/positions.ts). Kept only where the layout's word count is the row's.
CREATE TABLE note_layout(note_id INTEGER PRIMARY KEY, data BLOB NOT NULL);
-- The change feed (SPEC 12.1, index/feed/feed.ts): one row per change of a note, written in the transaction
-- that changes the note's rows, numbered in order. real: where a note reached through a symbolic link
-- really is, so the policy judges it there when the feed is read.
CREATE TABLE changes(
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  at_ms REAL NOT NULL,
  path TEXT NOT NULL,
  kind TEXT NOT NULL,
  from_path TEXT,
  etag TEXT,
  session TEXT,
  client TEXT,
  real TEXT
);
CREATE INDEX changes_at ON changes(at_ms);
CREATE INDEX changes_path ON changes(path, seq);
CREATE INDEX changes_from ON changes(from_path, seq);
-- What an agent is about to change (written by the gate before the file), so that whichever process
-- indexes the change attributes it to the agent, and knows a move as a move (feed.ts).
CREATE TABLE change_claims(
  path TEXT NOT NULL,
  etag TEXT,
  from_path TEXT,
  session TEXT NOT NULL,
  client TEXT,
  at_ms REAL NOT NULL
);
CREATE INDEX change_claims_path ON change_claims(path);
-- The notes whose full-text rows were written last, in order (store/fts-added.ts): a ranking kept
-- from before (search/run/top-rows.ts) scores them again, knowing every other row is as it was.
CREATE TABLE fts_added(seq INTEGER PRIMARY KEY AUTOINCREMENT, note_id INTEGER NOT NULL);
CREATE VIRTUAL TABLE notes_fts USING fts5(
  title, tags, body,
  content='', contentless_delete=1,
  tokenize='${FTS_TOKENIZER}'
);
-- Each word's notes and occurrences (over the visible notes), to bound a search's work before it runs.
CREATE VIRTUAL TABLE notes_vocab USING fts5vocab(notes_fts, 'row');
-- Each occurrence of each word: the note, the column and the word's offset in it.
CREATE VIRTUAL TABLE notes_positions USING fts5vocab(notes_fts, 'instance');
INSERT INTO notes_fts(notes_fts, rank) VALUES('rank', 'bm25(3.0, 2.0, 1.0)');
INSERT INTO notes_fts(notes_fts, rank) VALUES('pgsz', 16000);
`;
