/**
 * @module
 * What query_notes reads from the index, and no more: the answer sets of `has_tag` and `has_link`,
 * the candidate notes (narrowed in SQL to those that can match), and only the properties and tags
 * the request names.
 */

import { NotedError } from '../../common/errors.js';
import { hasEnding } from '../../common/note-ending.js';
import type { JsonValue } from '../../markdown/frontmatter/frontmatter.js';
import { foldName } from '../../markdown/link-key.js';
import type { Db } from '../db/database.js';
import { linkingNoteIds, resolveLinkTarget, unresolvedLinkerIds } from '../queries/links.js';
import { nameCandidates } from '../queries/notes.js';
import { fileCtime } from '../store/file-facts.js';
import { indexEnding } from '../store/index-format.js';
import { type VisibilityOption, type Visible, visibleRows } from '../store/visibility.js';
import type { FilterNode, QueryPlan } from './spec.js';

export interface NoteInfo {
  readonly id: number;
  readonly path: string;
  /** 0 unless the request reads `$modified` or `$created`. */
  readonly mtimeMs: number;
  /** Birth time where the file system keeps one, else the earlier of ctime and mtime; 0 as above. */
  readonly createdMs: number;
}

/** The notes each `has_tag` tag and each `has_link` name stands for. */
export interface AnswerSets {
  readonly tags: Map<string, Set<number>>;
  readonly links: Map<string, Set<number>>;
}

/** Below this many candidate notes, properties are fetched by note; above it, by key. */
const BY_NOTE_LIMIT = 2000;

export function answerSets(db: Db, filter: FilterNode, options: VisibilityOption): AnswerSets {
  const sets: AnswerSets = { tags: new Map(), links: new Map() };
  const walk = (node: FilterNode): void => {
    if (node.type === 'all' || node.type === 'any') node.items.forEach(walk);
    else if (node.type === 'has_tag' && !sets.tags.has(node.tag)) {
      const ids = db
        .prepare<[string], number>(
          `SELECT note_id FROM note_tag_prefixes p WHERE ${visibleRows(db, options, 'p')} AND p.tag_lower = ?`,
        )
        .pluck()
        .all(node.tag);
      sets.tags.set(node.tag, new Set(ids));
    } else if (node.type === 'has_link' && !sets.links.has(node.name)) {
      sets.links.set(node.name, linkingIds(db, node.name, node.at, options));
    }
  };
  walk(filter);
  return sets;
}

/**
 * The notes in scope that can match: scope in SQL, then, when the filters require it, only notes
 * that hold a required frontmatter key or are in a `has_tag`/`has_link` set. Every note a filter
 * could accept is kept; the filters themselves run afterwards.
 */
export function candidateNotes(
  db: Db,
  plan: QueryPlan,
  sets: AnswerSets,
  visible: Visible | undefined,
  withTimes: boolean,
): NoteInfo[] {
  const where: string[] = [];
  const params: unknown[] = [];
  if (plan.folder) {
    where.push('(folder_lower = ? OR substr(folder_lower, 1, ?) = ?)');
    params.push(plan.folder, plan.folder.length + 1, `${plan.folder}/`);
  }
  if (plan.tag) {
    where.push('id IN (SELECT note_id FROM note_tag_prefixes WHERE tag_lower = ?)');
    params.push(plan.tag);
  }
  const required = requiredIds(db, plan.filter, sets, new Map());
  if (required) {
    where.push('id IN (SELECT value FROM json_each(?))');
    params.push(JSON.stringify([...required]));
  }
  // Reading the times costs as much as reading the rest: they are read only when the request uses them.
  const times = withTimes ? 'mtime_ms, ctime_ms, birthtime_ms' : '0, 0, 0';
  const sql = `SELECT id, path, ${times} FROM notes ${where.length ? `WHERE ${where.join(' AND ')}` : ''}`;
  // Raw rows built into plain objects: a third faster than better-sqlite3's row objects at 100k notes.
  const rows = db
    .prepare<unknown[], [number, string, number, number, number]>(sql)
    .raw()
    .all(...params);
  const notes: NoteInfo[] = [];
  for (const [id, path, mtimeMs, ctimeMs, birthtimeMs] of rows) {
    if (visible && !visible(path)) continue;
    notes.push({ id, path, mtimeMs, createdMs: fileCtime(birthtimeMs, ctimeMs, mtimeMs) });
  }
  return notes;
}

/**
 * The ids a filter can only accept from, or null when it may accept any note: a frontmatter
 * comparison, `equals`, `contains` or `is_not_empty` needs the key to be there; `has_tag` and
 * `has_link` need their sets; AND intersects, OR unites (when every branch is bounded).
 */
function requiredIds(
  db: Db,
  node: FilterNode,
  sets: AnswerSets,
  byKey: Map<string, Set<number>>,
): Set<number> | null {
  switch (node.type) {
    case 'all': {
      let out: Set<number> | null = null;
      for (const item of node.items) {
        const ids = requiredIds(db, item, sets, byKey);
        if (ids) out = out ? intersect(out, ids) : ids;
      }
      return out;
    }
    case 'any': {
      const out = new Set<number>();
      for (const item of node.items) {
        const ids = requiredIds(db, item, sets, byKey);
        if (!ids) return null;
        for (const id of ids) out.add(id);
      }
      return out;
    }
    case 'has_tag':
      return sets.tags.get(node.tag) ?? new Set();
    case 'has_link':
      return sets.links.get(node.name) ?? new Set();
    case 'empty':
    case 'equals':
    case 'contains':
    case 'compare': {
      const negated = node.type === 'compare' ? false : node.type === 'empty' ? !node.negate : node.negate;
      if (negated || node.property.kind !== 'frontmatter') return null;
      const key = node.property.key;
      let ids = byKey.get(key);
      if (!ids) {
        ids = new Set(
          db.prepare<[string], number>('SELECT note_id FROM note_props WHERE key_lower = ?').pluck().all(key),
        );
        byKey.set(key, ids);
      }
      return ids;
    }
  }
}

function intersect(a: Set<number>, b: Set<number>): Set<number> {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  const out = new Set<number>();
  for (const id of small) if (large.has(id)) out.add(id);
  return out;
}

/**
 * Frontmatter values by key and note, kept as the stored JSON and parsed when read: most candidates
 * are turned away by their first filter, so most values are never parsed.
 */
export class PropertyValues {
  private readonly byKey = new Map<string, Map<number, string>>();

  /** The value of `key` (folded) in a note, or undefined when the note does not have it. */
  get(key: string, noteId: number): JsonValue | undefined {
    const json = this.byKey.get(key)?.get(noteId);
    return json === undefined ? undefined : parseStored(json);
  }

  /** Of keys differing only in case within a note, the first in the note wins (lowest `ord`). */
  add(key: string, noteId: number, ord: number, json: string, ords: Map<string, Map<number, number>>): void {
    let values = this.byKey.get(key);
    let keyOrds = ords.get(key);
    if (!values || !keyOrds) {
      values = new Map();
      keyOrds = new Map();
      this.byKey.set(key, values);
      ords.set(key, keyOrds);
    }
    const seen = keyOrds.get(noteId);
    if (seen !== undefined && seen < ord) return;
    keyOrds.set(noteId, ord);
    values.set(noteId, json);
  }
}

/** JSON.parse, with the common case (a string without escapes) taken apart by hand. */
function parseStored(json: string): JsonValue {
  if (json.charCodeAt(0) === 0x22 && !json.includes('\\')) return json.slice(1, -1);
  return JSON.parse(json) as JsonValue;
}

/** The named frontmatter properties (folded keys) of the given notes. */
export function loadProperties(db: Db, ids: ReadonlySet<number>, keys: readonly string[]): PropertyValues {
  const out = new PropertyValues();
  if (keys.length === 0 || ids.size === 0) return out;
  const select = 'SELECT note_id, ord, key_lower, value_json FROM note_props';
  const keysParam = JSON.stringify(keys);
  type Row = [number, number, string, string];
  const rows =
    ids.size <= BY_NOTE_LIMIT
      ? db
          .prepare<[string, string], Row>(
            `${select} WHERE note_id IN (SELECT value FROM json_each(?)) AND key_lower IN (SELECT value FROM json_each(?))`,
          )
          .raw()
          .all(JSON.stringify([...ids]), keysParam)
      : db
          .prepare<[string], Row>(
            `${select} WHERE key_lower IN (SELECT value FROM json_each(?)) ORDER BY key_lower, note_id, ord`,
          )
          .raw()
          .all(keysParam);
  const ords = new Map<string, Map<number, number>>();
  for (const [noteId, ord, key, json] of rows) if (ids.has(noteId)) out.add(key, noteId, ord, json, ords);
  return out;
}

/** `$tags`: each given note's distinct tags (frontmatter first, then inline), as first written. */
export function loadTags(db: Db, ids: ReadonlySet<number>): Map<number, string[]> {
  const out = new Map<number, string[]>();
  if (ids.size === 0) return out;
  const rows =
    ids.size <= BY_NOTE_LIMIT
      ? db
          .prepare<[string], [number, string]>(
            'SELECT note_id, tag FROM note_tags WHERE note_id IN (SELECT value FROM json_each(?)) ORDER BY rowid',
          )
          .raw()
          .all(JSON.stringify([...ids]))
      : db.prepare<[], [number, string]>('SELECT note_id, tag FROM note_tags ORDER BY rowid').raw().all();
  for (const [noteId, tag] of rows) {
    if (!ids.has(noteId)) continue;
    const list = out.get(noteId);
    if (list) list.push(tag);
    else out.set(noteId, [tag]);
  }
  return out;
}

/**
 * `has_link`: the value names a note as every name argument does (SPEC 1.3/1.4: the note ending optional, an
 * exact path first, else a bare name or partial path that must match one note); failing that, it is
 * read as a link written at the vault root would be (an attachment by name, an alias); and when it
 * reaches no file at all, the notes whose unresolved links name it.
 */
function linkingIds(db: Db, name: string, at: string, options: VisibilityOption): Set<number> {
  const visible = options.visible;
  const ending = indexEnding(db);
  const withEnding = hasEnding(name, ending) ? name : `${name}${ending}`;
  const notes = nameCandidates(db, foldName(withEnding)).filter((p) => !visible || visible(p));
  if (notes.length > 1) {
    throw new NotedError(
      'ambiguous',
      `query_notes: ${at}.value ${JSON.stringify(name)} matches ${notes.length} notes (${notes.join(', ')}); give the full path of one.`,
      { candidates: notes },
    );
  }
  const target = notes[0] ?? resolveLinkTarget(db, name, '', options);
  if (target === null) return unresolvedLinkerIds(db, name, options);
  return linkingNoteIds(db, target, options) ?? new Set();
}
