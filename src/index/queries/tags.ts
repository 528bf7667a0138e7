/**
 * @module
 * Tags as Obsidian's Tags view counts them (OBSIDIAN.md TAG-20..22): case-insensitive identity, and a
 * note carrying `#a/b/c` counts once toward `a`, `a/b` and `a/b/c`. Both queries read
 * `note_tag_prefixes`, which holds every note's tags and their parents once per note.
 */

import { decodeCursor, encodeCursor, positionOf } from '../../common/cursor.js';
import { NotedError } from '../../common/errors.js';
import { normalizeTag } from '../../markdown/tag-match.js';
import type { Db } from '../db/database.js';
import {
  hiddenNoteIds,
  hiddenNotesOut,
  rowsFollow,
  type VisibilityOption,
  visibleRows,
} from '../store/visibility.js';

export interface TagCount {
  /** Without `#`, in its display casing. */
  readonly tag: string;
  /** Notes carrying the tag or a tag nested below it. */
  readonly count: number;
}

export interface TaggedNote {
  readonly name: string;
  readonly title: string;
  /** ISO 8601. */
  readonly modified: string;
}

export interface ListTagsOptions extends VisibilityOption {
  /** At most this many tags (the most used); all when absent. */
  readonly limit?: number;
}

export interface NotesByTagOptions extends VisibilityOption {
  readonly limit: number;
}

interface TaggedRow {
  readonly path: string;
  readonly title: string;
  readonly mtime_ms: number;
}

/** One casing of a tag: on how many notes, and the first (lowest id) of them. */
interface Casing {
  readonly tag_lower: string;
  readonly tag: string;
  n: number;
  first: number;
}

/**
 * Every tag with the number of notes carrying it (nested tags count toward their parents), most used
 * first, then by tag. The display casing is the one the most notes use; a tie goes to the casing of
 * the note indexed first (TAG-20, "ties go to the first seen").
 *
 * @example
 * listTags(db, { limit: 2 }) // [{ tag: 'project', count: 12 }, { tag: 'project/alpha', count: 5 }]
 */
export function listTags(db: Db, options: ListTagsOptions = {}): TagCount[] {
  const limit = checkLimit(options.limit, 'limit');
  const out = sortedTagCounts(db, options).map(({ tag, count }) => ({ tag, count }));
  return limit === undefined ? out : out.slice(0, limit);
}

/** A tag's count with the key it is sorted by (its lower-cased form), for page cursors. */
export interface SortedTagCount extends TagCount {
  readonly lower: string;
}

/** Every tag, most used first, then by `lower` in code-unit order: listTags before its limit. */
export function sortedTagCounts(db: Db, options: VisibilityOption = {}): SortedTagCount[] {
  // Where the rows' flags follow the caller's rules, the visible rows are one range of the tag index,
  // and hidden notes' tags are never read (issue 35 finding 5); otherwise they are taken off after.
  const follow = rowsFollow(db, options);
  const casings = db
    .prepare<[], Casing>(
      `SELECT tag_lower, tag, count(*) AS n, min(note_id) AS first FROM note_tag_prefixes
       WHERE visible ${follow ? '= 1' : 'IN (0, 1)'} GROUP BY tag_lower, tag`,
    )
    .all();
  const hidden = follow ? [] : hiddenNoteIds(db, options.visible);
  const first = hidden.length === 0 ? (row: Casing) => row.first : subtractHidden(db, casings, hidden);
  const tags = new Map<string, { best: Casing; count: number }>();
  for (const row of casings) {
    if (row.n === 0) continue;
    const seen = tags.get(row.tag_lower);
    if (!seen) tags.set(row.tag_lower, { best: row, count: row.n });
    else {
      seen.count += row.n;
      if (row.n > seen.best.n || (row.n === seen.best.n && first(row) < first(seen.best))) seen.best = row;
    }
  }
  return [...tags.entries()].map(([lower, t]) => ({ lower, tag: t.best.tag, count: t.count })).sort(tagOrder);
}

/** Most used first, then by the lower-cased tag in code-unit order. */
export function tagOrder(a: SortedTagCount, b: { count: number; lower: string }): number {
  return b.count - a.count || (a.lower < b.lower ? -1 : a.lower > b.lower ? 1 : 0);
}

/**
 * Takes the hidden notes' rows out of the casing counts (cheaper than excluding them from the whole
 * count when, as usual, few notes are hidden). Returns how to find a casing's first visible note,
 * which is looked up only for the rare tie between two casings that hidden notes also use.
 */
function subtractHidden(db: Db, casings: Casing[], hidden: number[]): (row: Casing) => number {
  const ids = JSON.stringify(hidden);
  const minus = db
    .prepare<[string], Casing>(
      `SELECT tag_lower, tag, count(*) AS n, 0 AS first FROM note_tag_prefixes
       WHERE note_id IN (SELECT value FROM json_each(?)) GROUP BY tag_lower, tag`,
    )
    .all(ids);
  const touched = new Set<Casing>();
  const byCasing = new Map(casings.map((c) => [`${c.tag_lower}\u0000${c.tag}`, c]));
  for (const m of minus) {
    const row = byCasing.get(`${m.tag_lower}\u0000${m.tag}`);
    if (!row) continue;
    row.n -= m.n;
    touched.add(row);
  }
  const firstOf = db.prepare<[string, string, string], { first: number }>(
    `SELECT min(note_id) AS first FROM note_tag_prefixes
     WHERE tag_lower = ? AND tag = ? AND note_id NOT IN (SELECT value FROM json_each(?))`,
  );
  return (row) => {
    if (touched.has(row)) {
      row.first = firstOf.get(row.tag_lower, row.tag, ids)?.first ?? row.first;
      touched.delete(row);
    }
    return row.first;
  };
}

/**
 * The notes carrying `tag` or a tag nested below it (case-insensitive, `#` optional), newest first,
 * ties by name.
 *
 * @example
 * notesByTag(db, '#Project', { limit: 10 }) // notes with #project, #project/alpha, …
 */
export function notesByTag(db: Db, tag: string, options: NotesByTagOptions): TaggedNote[] {
  return taggedNotesPage(db, tag, options).notes;
}

export interface TaggedNotesPage {
  readonly notes: TaggedNote[];
  /** True when more notes follow; `nextCursor` reads them. */
  readonly more: boolean;
  readonly nextCursor?: string;
}

interface TaggedPosition {
  readonly m: number;
  readonly p: string;
}

const isTaggedPosition = positionOf<TaggedPosition>({ m: 'number', p: 'string' });

/**
 * One page of notesByTag. The cursor holds the last note's modification time and path (keyset), so
 * a page boundary stays put while other notes change.
 */
export function taggedNotesPage(
  db: Db,
  tag: string,
  options: NotesByTagOptions & { readonly cursor?: string },
): TaggedNotesPage {
  const lower = checkTag(tag, 'tag');
  const limit = checkLimit(options.limit, 'limit') ?? 0;
  const after =
    options.cursor === undefined ? null : decodeCursor('tagged', options.cursor, isTaggedPosition);
  const visible = options.visible;
  const out: TaggedRow[] = [];
  if (limit === 0) return { notes: [], more: false };
  const params: unknown[] = [lower];
  if (after !== null) params.push(after.m, after.m, after.p);
  const rows = db
    .prepare<unknown[], TaggedRow>(taggedNotesSql(db, lower, limit, after !== null, options))
    .iterate(...params);
  let more = false;
  for (const row of rows) {
    if (visible && !visible(row.path)) continue;
    if (out.length === limit) {
      more = true;
      break;
    }
    out.push(row);
  }
  const notes = out.map((row) => ({
    name: row.path,
    title: row.title,
    modified: new Date(row.mtime_ms).toISOString(),
  }));
  const last = out[out.length - 1];
  if (!more || last === undefined) return { notes, more: false };
  return {
    notes,
    more,
    nextCursor: encodeCursor('tagged', { m: last.mtime_ms, p: last.path } satisfies TaggedPosition),
  };
}

/**
 * Two ways to the newest notes of a tag. For a tag on many notes, walking all notes newest first
 * and keeping those with the tag stops after about `limit × notes / tagged` rows; for a rarer tag,
 * collecting its notes and sorting them is cheaper. The tag's note count (one index range) decides.
 * `after`: the statement also takes the cursor's time twice and path, and starts past them. Hidden
 * notes are left out by their flags (visibility.ts) in the count that decides too, so that neither
 * the way nor the time depends on how many hidden notes carry the tag: the count and the collecting
 * read only the visible range of the tag index, the walk only the visible notes' index.
 */
function taggedNotesSql(
  db: Db,
  lower: string,
  limit: number,
  after: boolean,
  options: VisibilityOption,
): string {
  const rows = visibleRows(db, options, 'p');
  const tagged = db
    .prepare<[string], { n: number }>(
      `SELECT count(*) AS n FROM note_tag_prefixes p WHERE ${rows} AND p.tag_lower = ?`,
    )
    .get(lower) as { n: number };
  const notes = (db.prepare('SELECT max(id) AS n FROM notes').get() as { n: number | null }).n ?? 0;
  // Walking reads about limit × notes / tagged rows, collecting reads and sorts `tagged` rows.
  const walkNewest = tagged.n > 0 && limit * notes < tagged.n * tagged.n;
  const past = after ? 'AND (n.mtime_ms < ? OR (n.mtime_ms = ? AND n.path > ?))' : '';
  if (!walkNewest) {
    return `SELECT n.path, n.title, n.mtime_ms FROM note_tag_prefixes p JOIN notes n ON n.id = p.note_id
       WHERE ${rows} AND p.tag_lower = ? ${past} ORDER BY n.mtime_ms DESC, n.path`;
  }
  const hidden = hiddenNotesOut(db, options);
  // With hidden notes out by flag, the walk goes down the visible notes' own index and never passes one.
  const walk =
    hidden === null
      ? 'notes n INDEXED BY notes_mtime WHERE'
      : `notes n INDEXED BY notes_visible_mtime WHERE ${hidden} AND`;
  return `SELECT n.path, n.title, n.mtime_ms FROM ${walk}
       EXISTS (SELECT 1 FROM note_tag_prefixes p WHERE p.note_id = n.id AND p.tag_lower = ?) ${past}
       ORDER BY n.mtime_ms DESC, n.path`;
}

/**
 * A tag argument in the form tags are stored (`normalizeTag`); refuses an empty tag and one with
 * whitespace, which no note can carry (TAG-01).
 */
export function checkTag(tag: unknown, argument: string): string {
  if (typeof tag !== 'string') {
    throw new NotedError(
      'validation_error',
      `${argument} must be a tag as a string, such as "project/alpha".`,
    );
  }
  const lower = normalizeTag(tag.trim());
  if (lower === '') {
    throw new NotedError(
      'validation_error',
      `${argument} is empty. Give a tag such as "project" or "#project/alpha" (the # is optional).`,
    );
  }
  if (/\s/.test(lower)) {
    throw new NotedError(
      'validation_error',
      `${argument} ${JSON.stringify(tag)} contains a space, and tags cannot. Give one tag, such as "project/alpha".`,
    );
  }
  return lower;
}

function checkLimit(limit: number | undefined, argument: string): number | undefined {
  if (limit === undefined) return undefined;
  if (!Number.isInteger(limit) || limit < 0) {
    throw new NotedError(
      'validation_error',
      `${argument} must be a whole number of 0 or more, got ${limit}.`,
    );
  }
  return limit;
}
