/**
 * @module
 * Links answered as Obsidian sees the vault (OBSIDIAN.md §1.2 plus Noted's alias fallback). Links are
 * stored as written and resolved here, at query time, against the files indexed now: a link becomes
 * resolved the moment its target appears and unresolved the moment it goes, with no re-resolution
 * bookkeeping. Each resolution looks only at the few files that share the link's key
 * (`markdown/link-key.ts`), plus the notes whose aliases hold the link text.
 *
 * Self-links (`[[#Heading]]`, or a note naming itself) appear among a note's outgoing links but never
 * among its backlinks, nor in `linkingNoteIds`.
 */

import { withoutEnding } from '../../common/note-ending.js';
import type { LinkKind } from '../../format/note-format.js';
import { fileNamesForKey, foldName, keysForFile, linkKey } from '../../markdown/link-key.js';
import { createLinkResolver, type LinkResolver } from '../../markdown/resolve.js';
import type { Db } from '../db/database.js';
import { indexEnding } from '../store/index-format.js';
import { type VisibilityOption, visibleRows } from '../store/visibility.js';

/** One link of a note (SPEC 10, get_outgoing_links), with where it points now. */
export interface OutgoingLink {
  readonly raw: string;
  /** Vault path of the file the link resolves to (a note or an attachment), or null. */
  readonly target: string | null;
  readonly heading: string | null;
  readonly block: string | null;
  readonly alias: string | null;
  readonly embed: boolean;
  readonly kind: LinkKind;
  readonly line: number;
  /** The frontmatter key a frontmatter link sits at (`related.0`), else null. */
  readonly property: string | null;
}

export interface Backlink {
  readonly name: string;
  /** Links (embeds and frontmatter links included) from that note resolving to the target. */
  readonly count: number;
}

interface StoredLink {
  readonly kind: OutgoingLink['kind'];
  readonly raw: string;
  readonly linkpath: string;
  readonly heading: string | null;
  readonly block: string | null;
  readonly alias: string | null;
  readonly embed: number;
  readonly line: number;
  readonly property: string | null;
  readonly key_lower: string;
}

/** The links of one note written alike (same linkpath), resolved once for them all. */
interface IncomingLink {
  readonly note_id: number;
  readonly source: string;
  readonly linkpath: string;
  readonly key_lower: string;
  /** How many links of the note are written so. */
  readonly n: number;
}

/** How many links a note holds (frontmatter links included); null when it is not indexed or not visible. */
export function outgoingLinkCount(db: Db, notePath: string, options: VisibilityOption = {}): number | null {
  const note = db.prepare<[string], { id: number }>('SELECT id FROM notes WHERE path = ?').get(notePath);
  if (!note || (options.visible && !options.visible(notePath))) return null;
  return db
    .prepare<[number], { n: number }>('SELECT count(*) AS n FROM note_links WHERE note_id = ?')
    .get(note.id)!.n;
}

/**
 * Every link of a note in document order (frontmatter links first, in key order), each with the
 * file it resolves to now. Null when the note is not indexed or not visible.
 *
 * @example
 * outgoingLinks(db, 'a/Plan.md') // [{ raw: '[[Goals#Q3]]', target: 'Goals.md', heading: 'Q3', … }]
 */
export function outgoingLinks(
  db: Db,
  notePath: string,
  options: VisibilityOption = {},
): OutgoingLink[] | null {
  const visible = options.visible;
  const note = db.prepare<[string], { id: number }>('SELECT id FROM notes WHERE path = ?').get(notePath);
  if (!note || (visible && !visible(notePath))) return null;
  const rows = db
    .prepare<[number], StoredLink>(
      `SELECT kind, raw, linkpath, heading, block, alias, embed, line, property, key_lower
       FROM note_links WHERE note_id = ? ORDER BY ord`,
    )
    .all(note.id);
  const targets = new LinkTargets(db, options);
  targets.prepare(rows.map((r) => ({ key: r.key_lower, linkpath: r.linkpath })));
  return rows.map((r) => ({
    raw: r.raw,
    target: targets.resolve(r.key_lower, r.linkpath, notePath),
    heading: r.heading,
    block: r.block,
    alias: r.alias,
    embed: r.embed === 1,
    kind: r.kind,
    line: r.line,
    property: r.property,
  }));
}

/**
 * The notes with at least one link resolving to `targetPath` (a note or an attachment), with how many
 * such links each holds; most links first, then by name. The note itself is never listed. Null when
 * the target is not indexed or not visible.
 *
 * Only links filed under a key that could reach the target are read: its file name, its name without
 * `.md` when that holds a dot, and the keys of its aliases. Each key's candidates are fetched once.
 */
export function backlinks(db: Db, targetPath: string, options: VisibilityOption = {}): Backlink[] | null {
  const counts = incomingCounts(db, targetPath, options);
  if (counts === null) return null;
  return [...counts]
    .map(([name, count]) => ({ name, count }))
    .sort((a, b) => b.count - a.count || compareText(a.name, b.name));
}

/**
 * Ids of the notes with a link resolving to `targetPath`, the note itself excluded; null when the
 * target is not indexed or not visible. What query_notes' `has_link` tests.
 */
export function linkingNoteIds(
  db: Db,
  targetPath: string,
  options: VisibilityOption = {},
): Set<number> | null {
  const found = incomingLinks(db, targetPath, options);
  if (found === null) return null;
  return new Set(found.map((l) => l.note_id));
}

/**
 * Ids of the notes holding a link that resolves to nothing and names `linkText` (case-insensitive,
 * NFC, a trailing note ending ignored, as Obsidian keys unresolved links, LNK-24). Lets `has_link` ask
 * which notes point at a note that does not exist yet.
 */
export function unresolvedLinkerIds(db: Db, linkText: string, options: VisibilityOption = {}): Set<number> {
  const visible = options.visible;
  const ending = indexEnding(db);
  const wanted = withoutEnding(foldName(linkText.trim()), ending);
  const key = linkKey(linkText.trim(), ending);
  const rows = db
    .prepare<[string], IncomingLink>(
      `SELECT l.note_id, n.path AS source, l.linkpath, l.key_lower, count(*) AS n
       FROM note_links l JOIN notes n ON n.id = l.note_id WHERE ${visibleRows(db, options, 'l')} AND l.key_lower = ?
       GROUP BY l.note_id, l.linkpath`,
    )
    .all(key)
    .filter((r) => withoutEnding(foldName(r.linkpath), ending) === wanted && (!visible || visible(r.source)));
  const targets = new LinkTargets(db, options);
  targets.prepare(rows.map((r) => ({ key: r.key_lower, linkpath: r.linkpath })));
  const ids = new Set<number>();
  for (const r of rows) if (targets.resolve(r.key_lower, r.linkpath, r.source) === null) ids.add(r.note_id);
  return ids;
}

/**
 * The file a linkpath (subpath already removed) written in `sourcePath` resolves to now, or null.
 * An empty linkpath is the source itself.
 *
 * @example
 * resolveLinkTarget(db, 'Goals', 'a/Plan.md') // 'Goals.md'
 */
export function resolveLinkTarget(
  db: Db,
  linkpath: string,
  sourcePath: string,
  options: VisibilityOption = {},
): string | null {
  return resolveLinkTargets(db, [linkpath], sourcePath, options).get(linkpath) ?? null;
}

/**
 * What each linkpath written in `sourcePath` resolves to now (null where nothing), as one batch: two
 * queries for them all rather than two for each (a note may hold tens of thousands of links).
 */
export function resolveLinkTargets(
  db: Db,
  linkpaths: Iterable<string>,
  sourcePath: string,
  options: VisibilityOption = {},
): Map<string, string | null> {
  const ending = indexEnding(db);
  const links = [...new Set(linkpaths)].map((linkpath) => ({ key: linkKey(linkpath, ending), linkpath }));
  const targets = new LinkTargets(db, options);
  targets.prepare(links);
  return new Map(links.map(({ key, linkpath }) => [linkpath, targets.resolve(key, linkpath, sourcePath)]));
}

/**
 * For each target (a file's path and its folded file name), how many notes hold at least one link
 * resolving to it (embeds and frontmatter links included; the target itself never counts). One query
 * for the links of every target's keys, each key resolved once: what list_attachments' `embeddedBy`
 * and `unused` read, a page of attachments at a time.
 */
export function linkingNoteCounts(
  db: Db,
  targets: readonly { path: string; file_lower: string }[],
  options: VisibilityOption = {},
): Map<string, number> {
  const sources = new Map<string, Set<string>>(targets.map((t) => [t.path, new Set<string>()]));
  const ending = indexEnding(db);
  const keys = new Set(targets.flatMap((t) => keysForFile(t.file_lower, ending)));
  if (keys.size === 0) return new Map();
  const rows = linksFiledUnder(db, keys, options);
  const resolved = new LinkTargets(db, options);
  resolved.prepare(rows.map((r) => ({ key: r.key_lower, linkpath: r.linkpath })));
  for (const r of rows) {
    const target = resolved.resolve(r.key_lower, r.linkpath, r.source);
    if (target !== null && target !== r.source) sources.get(target)?.add(r.source);
  }
  return new Map([...sources].map(([path, from]) => [path, from.size]));
}

function incomingCounts(db: Db, targetPath: string, options: VisibilityOption): Map<string, number> | null {
  const found = incomingLinks(db, targetPath, options);
  if (found === null) return null;
  const counts = new Map<string, number>();
  for (const link of found) counts.set(link.source, (counts.get(link.source) ?? 0) + link.n);
  return counts;
}

/** Every link (self-links excluded) resolving to the target; null when the target is absent. */
function incomingLinks(db: Db, targetPath: string, options: VisibilityOption): IncomingLink[] | null {
  const visible = options.visible;
  if (visible && !visible(targetPath)) return null;
  const note = db
    .prepare<[string], { id: number; file_lower: string }>('SELECT id, file_lower FROM notes WHERE path = ?')
    .get(targetPath);
  const file =
    note ??
    db
      .prepare<[string], { file_lower: string }>('SELECT file_lower FROM attachments WHERE path = ?')
      .get(targetPath);
  if (!file) return null;
  const ending = indexEnding(db);
  const keys = new Set(keysForFile(file.file_lower, ending));
  if (note) {
    const aliases = db
      .prepare<[number], { alias_lower: string }>('SELECT alias_lower FROM note_aliases WHERE note_id = ?')
      .all(note.id);
    for (const a of aliases) keys.add(linkKey(a.alias_lower, ending));
  }
  const rows = linksFiledUnder(db, keys, options).filter((r) => r.source !== targetPath);
  const targets = new LinkTargets(db, options);
  targets.prepare(rows.map((r) => ({ key: r.key_lower, linkpath: r.linkpath })));
  return rows.filter((r) => targets.resolve(r.key_lower, r.linkpath, r.source) === targetPath);
}

/**
 * The links, in notes the caller may see, filed under any of `keys` (markdown/link-key.ts), one row per
 * note and linkpath with how many links it stands for: a note holding `[[t]]` 800,000 times is one row
 * to resolve, not 800,000 (issue 35).
 */
function linksFiledUnder(db: Db, keys: ReadonlySet<string>, options: VisibilityOption): IncomingLink[] {
  const visible = options.visible;
  // Hidden notes' links left out of the index range itself: the time does not tell what they hold (issue 35).
  return db
    .prepare<[string], IncomingLink>(
      `SELECT l.note_id, n.path AS source, l.linkpath, l.key_lower, count(*) AS n
       FROM note_links l JOIN notes n ON n.id = l.note_id
       WHERE ${visibleRows(db, options, 'l')} AND l.key_lower IN (SELECT value FROM json_each(?))
       GROUP BY l.note_id, l.linkpath`,
    )
    .all(JSON.stringify([...keys]))
    .filter((r) => !visible || visible(r.source));
}

/**
 * Resolvers over just the candidates of the keys at hand: the files whose folded name the key can
 * reach (notes and attachments), and the notes whose aliases hold one of the links' texts. Built once
 * per key for a whole batch of links.
 */
export class LinkTargets {
  private readonly resolvers = new Map<string, LinkResolver>();

  constructor(
    private readonly db: Db,
    private readonly options: VisibilityOption,
  ) {}

  /** Fetches the candidates for every key among `links` in two queries. */
  prepare(links: readonly { key: string; linkpath: string }[]): void {
    const byKey = new Map<string, Set<string>>();
    for (const { key, linkpath } of links) {
      if (key === '' || this.resolvers.has(key)) continue;
      let texts = byKey.get(key);
      if (!texts) {
        texts = new Set();
        byKey.set(key, texts);
      }
      texts.add(foldName(linkpath.trim()));
    }
    if (byKey.size === 0) return;
    const ending = indexEnding(this.db);
    const names = [...byKey.keys()].flatMap((key) => fileNamesForKey(key, ending));
    const files = this.db
      .prepare<[string, string], { path: string; file_lower: string }>(
        `SELECT path, file_lower FROM notes WHERE file_lower IN (SELECT value FROM json_each(?))
         UNION ALL
         SELECT path, file_lower FROM attachments WHERE file_lower IN (SELECT value FROM json_each(?))`,
      )
      .all(JSON.stringify(names), JSON.stringify(names));
    const aliasTexts = [...new Set([...byKey.values()].flatMap((s) => [...s]))];
    const owners = this.db
      .prepare<[string], { path: string; alias_lower: string }>(
        `SELECT n.path, a.alias_lower FROM note_aliases a JOIN notes n ON n.id = a.note_id
         WHERE ${visibleRows(this.db, this.options, 'a')} AND a.alias_lower IN (SELECT value FROM json_each(?))`,
      )
      .all(JSON.stringify(aliasTexts));
    const visible = this.options.visible;
    const filesByName = groupBy(visible ? files.filter((f) => visible(f.path)) : files, (f) => f.file_lower);
    const ownersByAlias = groupBy(
      visible ? owners.filter((o) => visible(o.path)) : owners,
      (o) => o.alias_lower,
    );
    for (const [key, texts] of byKey) {
      const paths = fileNamesForKey(key, ending).flatMap((name) =>
        (filesByName.get(name) ?? []).map((f) => f.path),
      );
      const aliases = new Map<string, string[]>();
      for (const text of texts) {
        for (const owner of ownersByAlias.get(text) ?? []) {
          aliases.set(owner.path, [...(aliases.get(owner.path) ?? []), text]);
        }
      }
      // An alias owner must be among the resolver's files for its aliases to count; it sits in its own
      // name bucket, so it cannot change how the link resolves by name.
      this.resolvers.set(key, createLinkResolver([...paths, ...aliases.keys()], aliases, ending));
    }
  }

  /** The target of one link whose key was prepared; an empty linkpath is the source itself. */
  resolve(key: string, linkpath: string, sourcePath: string): string | null {
    if (linkpath === '') return sourcePath;
    const resolver = this.resolvers.get(key);
    return resolver ? resolver.resolve(linkpath, sourcePath) : null;
  }
}

function groupBy<T>(items: readonly T[], keyOf: (item: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const list = out.get(key);
    if (list) list.push(item);
    else out.set(key, [item]);
  }
  return out;
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
