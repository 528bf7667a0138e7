/**
 * @module
 * Vault-wide links (SPEC 17.5): every link that resolves to nothing, and every note nothing links to.
 * Links are resolved as get_outgoing_links resolves them (Obsidian's rules, aliases included), over
 * the notes `visible` lets through: a hidden note is neither a source nor a target, so a link to one
 * is unresolved, as in SPEC 4.
 */
import type { Db } from '../db/database.js';
import type { Visible } from '../store/visibility.js';
import { LinkTargets } from './links.js';

export interface UnresolvedLink {
  /** The note holding the link. */
  readonly source: string;
  /** Its line in that note (1-based). */
  readonly line: number;
  /** What the link names (its linkpath, without heading or block). */
  readonly target: string;
  /** The link as written. */
  readonly raw: string;
  readonly embed: boolean;
}

interface LinkRow {
  readonly source: string;
  readonly line: number;
  readonly raw: string;
  readonly linkpath: string;
  readonly key_lower: string;
  readonly embed: number;
}

/**
 * Every link of the visible notes, resolved once: those that resolve to nothing (in source, line
 * order), and the set of files some other note links to.
 */
export function vaultLinks(db: Db, visible?: Visible): { unresolved: UnresolvedLink[]; linked: Set<string> } {
  const rows = db
    .prepare<[], LinkRow>(
      `SELECT n.path AS source, l.line, l.raw, l.linkpath, l.key_lower, l.embed
       FROM note_links l JOIN notes n ON n.id = l.note_id ORDER BY n.path, l.ord`,
    )
    .all()
    .filter((r) => !visible || visible(r.source));
  const targets = new LinkTargets(db, visible);
  targets.prepare(rows.map((r) => ({ key: r.key_lower, linkpath: r.linkpath })));
  const unresolved: UnresolvedLink[] = [];
  const linked = new Set<string>();
  for (const r of rows) {
    // An empty linkpath ([[#Heading]]) is the note itself.
    if (r.linkpath.trim() === '') continue;
    const target = targets.resolve(r.key_lower, r.linkpath, r.source);
    if (target === null) {
      unresolved.push({
        source: r.source,
        line: r.line,
        target: r.linkpath,
        raw: r.raw,
        embed: r.embed === 1,
      });
    } else if (target !== r.source) linked.add(target);
  }
  return { unresolved, linked };
}

/** The visible notes none of the other visible notes links to, in path order. */
export function orphanNotes(db: Db, linked: ReadonlySet<string>, visible?: Visible): string[] {
  return db
    .prepare<[], { path: string }>('SELECT path FROM notes ORDER BY path')
    .all()
    .map((r) => r.path)
    .filter((p) => (!visible || visible(p)) && !linked.has(p));
}
