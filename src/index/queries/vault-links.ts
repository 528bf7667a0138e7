/**
 * @module
 * Vault-wide links (SPEC 17.5): every link that resolves to nothing, and every note nothing links to.
 * Links are resolved as get_outgoing_links resolves them (Obsidian's rules, aliases included), over
 * the notes `visible` lets through: a hidden note is neither a source nor a target, so a link to one
 * is unresolved, as in SPEC 4.
 */

import type { Work } from '../../common/work.js';
import type { Db } from '../db/database.js';
import { hiddenNotesOut, type VisibilityOption } from '../store/visibility.js';
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

/** Notes read, with their links, between two safe points. */
const NOTES_A_PAGE = 500;

/**
 * Every link of the visible notes, resolved once: those that resolve to nothing (in source, line
 * order), the set of files some other note links to, and the visible notes in path order (for the
 * orphans). The notes are read in pages of {@link NOTES_A_PAGE}, in path order, with a safe point
 * after each, so a vault of millions of links holds no other request up and a cancel stops it. Hidden
 * notes are left out in SQL where the index follows the caller's rules (issue 35 finding 5), so the
 * time taken does not grow with what they hold.
 */
export async function vaultLinks(
  db: Db,
  options: VisibilityOption,
  work: Work,
): Promise<{ unresolved: UnresolvedLink[]; linked: Set<string>; notes: string[] }> {
  const out = hiddenNotesOut(db, options);
  const visible = options.visible;
  const notesPage = db.prepare<[string, number], { id: number; path: string }>(
    `SELECT n.id, n.path FROM notes n WHERE n.path > ?${out ? ` AND ${out}` : ''} ORDER BY n.path LIMIT ?`,
  );
  const linksOf = db.prepare<[string], Omit<LinkRow, 'source'> & { note_id: number }>(
    `SELECT l.note_id, l.line, l.raw, l.linkpath, l.key_lower, l.embed FROM note_links l
     WHERE l.note_id IN (SELECT value FROM json_each(?)) ORDER BY l.note_id, l.ord`,
  );
  const targets = new LinkTargets(db, options);
  const unresolved: UnresolvedLink[] = [];
  const linked = new Set<string>();
  const notes: string[] = [];
  for (let after = ''; ; ) {
    const page = notesPage.all(after, NOTES_A_PAGE);
    if (page.length === 0) break;
    after = (page.at(-1) as { path: string }).path;
    const seen = page.filter((n) => !visible || visible(n.path));
    const pathOf = new Map(seen.map((n) => [n.id, n.path]));
    notes.push(...seen.map((n) => n.path));
    const byNote = new Map<number, LinkRow[]>();
    for (const r of linksOf.all(JSON.stringify([...pathOf.keys()]))) {
      const list = byNote.get(r.note_id) ?? [];
      list.push({ ...r, source: pathOf.get(r.note_id) as string });
      byNote.set(r.note_id, list);
    }
    const rows = seen.flatMap((n) => byNote.get(n.id) ?? []);
    targets.prepare(rows.map((r) => ({ key: r.key_lower, linkpath: r.linkpath })));
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
    work.report(notes.length);
    await work.checkpoint();
  }
  return { unresolved, linked, notes };
}
