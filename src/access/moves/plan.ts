/**
 * @module
 * Planning a move of files (one note, a batch step, or every file of a folder): which links, in
 * which notes, must change so that each link resolves after the move to what it resolved to before
 * — the moved file at its new place, or the very same other file. Both sides are resolved with
 * OBSIDIAN.md §1.2 over the files the links could reach, before and after the move, so a moved note
 * that would "steal" a bare link meant for another note gets that link qualified instead.
 *
 * The one change a move may make to a link's target: a link that resolved to nothing and now finds a
 * file (it names the moved note, or it is a relative link in the moved note that now lands on a file)
 * is left as written and reported (`nowResolved`): no text keeps a link unresolved.
 *
 * Hidden notes are neither sources nor targets here (SPEC 4): they are never read, changed or named.
 */
import { hasEnding, type NoteEnding } from '../../common/note-ending.js';
import type { Work } from '../../common/work.js';
import { formatOf } from '../../format/formats.js';
import { fileNamesForKey, foldName, keysForFile, linkKey } from '../../markdown/link-key.js';
import type { LinkEdit, LinkInNote } from '../../markdown/link-rewrite.js';
import { createLinkResolver, type LinkResolver } from '../../markdown/resolve.js';
import { folderOf } from '../../vault/names.js';
import type { StoredNote } from '../../vault/vault.js';
import type { AccessContext } from '../context.js';
import type { Rules } from '../rules/rules.js';
import { aliasOwners, filesNamed, notesWithLinkKeys } from './move-index.js';

/** The rewrite planned for one note. */
export interface SourcePlan {
  /** The note's name now. */
  readonly name: string;
  /** Where it will be after the move (its own name unless it moves). */
  readonly newName: string;
  readonly stored: StoredNote;
  /** The text with its links rewritten (the stored text when nothing changes). */
  readonly text: string;
  readonly edits: LinkEdit[];
}

/** A link that could not be kept pointing where it did. */
export interface LinkProblem {
  readonly note: string;
  readonly line: number;
  readonly raw: string;
}

/** An unresolved link that the move makes resolve, and to what. */
export interface NowResolved extends LinkProblem {
  readonly target: string;
}

export interface MovePlan {
  /** Every visible note with a link that changes, and every moved note (changed or not). */
  readonly sources: SourcePlan[];
  readonly nowResolved: NowResolved[];
  /** Links whose syntax cannot hold the path that would keep them (a `#` or `|` in a name). */
  readonly unwritable: LinkProblem[];
  /** Rewrites the text of a moved note again, for when it changed after planning. */
  readonly rewrite: (name: string, text: string) => { text: string; edits: LinkEdit[] };
}

/** How the links of one linkpath in one note fare: kept as written, or given a new linkpath. */
type Settled =
  | { readonly keep: true; readonly nowResolved?: string | null }
  | { readonly keep: false; readonly path: string | null };

/**
 * Plans moving the files of `moves` (old path → new path; notes and attachments). Without
 * `updateLinks` only the moved notes are read and nothing is rewritten.
 */
export async function planMove(
  ctx: AccessContext,
  rules: Rules,
  moves: ReadonlyMap<string, string>,
  updateLinks: boolean,
  work: Work,
): Promise<MovePlan> {
  ctx.index.refresh();
  const db = ctx.index.db;
  const visible = rules.visible ?? (() => true);
  const ending = ctx.vault.ending;
  const format = formatOf(ctx.vault);
  const movedNotes = [...moves.keys()].filter((p) => hasEnding(p, ending));
  const movedKeys = new Set<string>();
  for (const [from, to] of moves) {
    for (const p of [from, to]) for (const k of keysForFile(foldName(fileName(p)), ending)) movedKeys.add(k);
  }
  const sourceNames = updateLinks
    ? [...new Set([...movedNotes, ...notesWithLinkKeys(db, [...movedKeys]).filter(visible)])]
    : movedNotes;

  // Read every source once and gather the links that could change target.
  const read: { name: string; stored: StoredNote; links: LinkInNote[] }[] = [];
  for (const [i, name] of sourceNames.entries()) {
    await work.checkpoint();
    if (i % 100 === 0) work.report(i, sourceNames.length, `planning: reading ${sourceNames.length} notes`);
    const stored = ctx.vault.read(name, rules.sight);
    if (stored === null) continue;
    const links: LinkInNote[] = [];
    // A note that is not valid UTF-8 is never rewritten, but its links are planned all the same
    // (from its decoded text), so that the result names it as not updated instead of leaving a
    // link that silently points at the old name.
    if (updateLinks) {
      const moved = moves.has(name);
      format.rewriteLinks(stored.text, (l) => {
        if (l.linkpath !== '' && (moved || movedKeys.has(linkKey(l.linkpath, ending)))) links.push(l);
        return null;
      });
    }
    read.push({ name, stored, links });
  }
  const keys = new Set(movedKeys);
  const texts = new Set<string>();
  for (const r of read) {
    for (const l of r.links) {
      keys.add(linkKey(l.linkpath, ending));
      texts.add(foldName(l.linkpath.trim()));
    }
  }
  const files = filesNamed(
    db,
    [...keys].flatMap((key) => fileNamesForKey(key, ending)),
  ).filter(visible);
  const owners = new Map([...aliasOwners(db, [...texts])].filter(([p]) => visible(p)));
  const before = createLinkResolver([...files, ...owners.keys()], owners, ending);
  const after = createLinkResolver(
    [...files, ...owners.keys()].map((p) => moves.get(p) ?? p),
    new Map([...owners].map(([p, a]) => [moves.get(p) ?? p, a])),
    ending,
  );

  const nowResolved: NowResolved[] = [];
  const unwritable: LinkProblem[] = [];
  /** What a link with this linkpath (an `<a href>` or not) in note `name` must become: the same for every such link. */
  const settle = (name: string, linkpath: string, html: boolean): Settled => {
    const source = moves.get(name) ?? name;
    const was = before.resolve(linkpath, name);
    const want = was === null ? null : (moves.get(was) ?? was);
    const now = after.resolve(linkpath, source);
    if (now === want) return { keep: true };
    if (want === null) return { keep: true, nowResolved: now };
    return { keep: false, path: linkpathFor(want, source, linkpath, after, ending, html) };
  };
  const rewrite = (name: string, text: string) => {
    // Why settled once per linkpath: a note may repeat one link 200,000 times, and each resolution
    // looks at every file of that name (issue 25).
    const settled = new Map<string, Settled>();
    const done = format.rewriteLinks(text, (l) => {
      if (l.linkpath === '' || !(moves.has(name) || movedKeys.has(linkKey(l.linkpath, ending)))) return null;
      const html = l.kind === 'html';
      const key = `${html ? 'h' : 'w'}${l.linkpath}`;
      let s = settled.get(key);
      if (s === undefined) {
        s = settle(name, l.linkpath, html);
        settled.set(key, s);
      }
      if (s.keep) {
        if (s.nowResolved != null)
          nowResolved.push({ note: name, line: l.line, raw: l.raw, target: s.nowResolved });
        return null;
      }
      if (s.path === null) unwritable.push({ note: name, line: l.line, raw: l.raw });
      return s.path;
    });
    for (const u of done.unwritable) unwritable.push({ note: name, line: u.line, raw: u.raw });
    return { text: done.text, edits: done.edits };
  };

  const sources: SourcePlan[] = [];
  for (const r of read) {
    await work.checkpoint();
    const moved = moves.has(r.name);
    const done = r.links.length === 0 ? { text: r.stored.text, edits: [] } : rewrite(r.name, r.stored.text);
    if (!moved && done.edits.length === 0) continue;
    sources.push({
      name: r.name,
      newName: moves.get(r.name) ?? r.name,
      stored: r.stored,
      text: done.text,
      edits: done.edits,
    });
  }
  return {
    sources,
    nowResolved,
    unwritable,
    rewrite: (name, text) => (updateLinks ? rewrite(name, text) : { text, edits: [] }),
  };
}

/**
 * The linkpath to write so that a link in `source` finds `target`, in the style of the old one
 * (`old`): a relative link stays relative, a rooted one rooted; a bare name stays bare when it still
 * finds the target, else it gains the shortest folder path that does (LNK-28, but the shortest
 * suffix rather than the whole path); `.md` is written when the old link had it. Null when no form
 * finds the target.
 *
 * @example
 * linkpathFor('b/Plan.md', 'x.md', 'Plan', createLinkResolver(['b/Plan.md', 'c/Plan.md'], undefined, '.md'), '.md') // 'b/Plan'
 */
export function linkpathFor(
  target: string,
  source: string,
  old: string,
  resolver: LinkResolver,
  ending: NoteEnding,
  relative = false,
): string | null {
  const isNote = hasEnding(target, ending);
  const keepMd = !isNote || hasEnding(old.trim(), ending);
  const finds = (form: string): string | null => {
    const short = isNote && !keepMd ? form.slice(0, -ending.length) : form;
    if (resolver.resolve(short, source) === target) return short;
    // Without its ending a dotted name may find another file first (`My.Note` next to `My.Note.md`).
    if (short !== form && resolver.resolve(form, source) === target) return form;
    return null;
  };
  const trimmed = old.trim();
  const forms: string[] = [];
  // An HTML note's address is read by browsers too, relative to the note's folder (SPEC 11.4).
  if (relative || trimmed.startsWith('./') || trimmed.startsWith('../'))
    forms.push(relativePath(folderOf(source), target));
  if (trimmed.startsWith('/')) forms.push(`/${target}`);
  const segments = target.split('/');
  // A bare name first only when the old link was bare; then ever longer folder suffixes.
  for (let n = trimmed.includes('/') ? 2 : 1; n <= segments.length; n++)
    forms.push(segments.slice(-n).join('/'));
  forms.push(`/${target}`);
  for (const form of forms) {
    const found = finds(form);
    if (found !== null) return found;
  }
  return null;
}

/** `target` relative to `folder`, starting with `./` or `../`. */
function relativePath(folder: string, target: string): string {
  const from = folder === '' ? [] : folder.split('/');
  const to = target.split('/');
  let common = 0;
  while (common < from.length && common < to.length - 1 && from[common] === to[common]) common++;
  const up = from.length - common;
  const rest = to.slice(common).join('/');
  return up === 0 ? `./${rest}` : `${'../'.repeat(up)}${rest}`;
}

function fileName(p: string): string {
  return p.slice(p.lastIndexOf('/') + 1);
}
