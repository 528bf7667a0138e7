/**
 * @module
 * A note's embeds and attachment links for its outline (SPEC 17.4): every `![[…]]` or `![](…)`, and
 * every other link that resolves to a file that is not a note — or, resolving to nothing, names one by
 * its extension (`[[report.pdf]]`). Resolved as get_outgoing_links resolves (queries/links.ts), a
 * bounded number of the note's links read: a note of 800,000 links is not walked whole.
 */
import { withoutEnding } from '../../common/note-ending.js';
import type { Db } from '../db/database.js';
import { indexEnding } from '../store/index-format.js';
import type { VisibilityOption } from '../store/visibility.js';
import { resolveLinkTargets } from './links.js';

export interface EmbedLink {
  /** The link's target as written, without `#heading` or `#^block`. */
  readonly target: string;
  readonly line: number;
  readonly embed: boolean;
  /** The vault path it resolves to now, or null. */
  readonly resolved: string | null;
}

/** Links of a note read for its embeds at most: the same bound as get_outgoing_links answers with. */
const EMBED_CANDIDATES = 20_000;

/** An extension that names a file: letters in it, so `[[v1.2]]` is a note's name, not a file's. */
const FILE_EXTENSION = /\.[A-Za-z0-9]*[A-Za-z][A-Za-z0-9]{0,9}$/;

/**
 * The note's embeds and attachment links in document order (frontmatter links first), at most `max`;
 * `cut` when there were more, or when the links read for them ran out first. Null when the note is
 * not indexed or not visible.
 */
export function embedLinks(
  db: Db,
  notePath: string,
  max: number,
  options: VisibilityOption = {},
): { links: EmbedLink[]; cut: boolean } | null {
  const note = db.prepare<[string], { id: number }>('SELECT id FROM notes WHERE path = ?').get(notePath);
  if (!note || (options.visible && !options.visible(notePath))) return null;
  // A link to a note carries no dot unless the note's name has one: those with neither are never read.
  const rows = db
    .prepare<[number, number], { linkpath: string; line: number; embed: number }>(
      `SELECT linkpath, line, embed FROM note_links
       WHERE note_id = ? AND (embed = 1 OR instr(linkpath, '.') > 0) ORDER BY ord LIMIT ?`,
    )
    .all(note.id, EMBED_CANDIDATES + 1);
  const read = rows.slice(0, EMBED_CANDIDATES);
  const ending = indexEnding(db);
  const targets = resolveLinkTargets(
    db,
    read.map((r) => r.linkpath),
    notePath,
    options,
  );
  const links: EmbedLink[] = [];
  let cut = rows.length > EMBED_CANDIDATES;
  for (const r of read) {
    const resolved = targets.get(r.linkpath) ?? null;
    const attachment =
      resolved === null
        ? FILE_EXTENSION.test(r.linkpath) && withoutEnding(r.linkpath, ending) === r.linkpath
        : withoutEnding(resolved, ending) === resolved;
    if (r.embed !== 1 && !attachment) continue;
    if (links.length === max) {
      cut = true;
      break;
    }
    links.push({ target: r.linkpath, line: r.line, embed: r.embed === 1, resolved });
  }
  return { links, cut };
}
