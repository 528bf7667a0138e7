/**
 * @module
 * The link resolver of OBSIDIAN.md §1.2 (`getLinkpathDest`) as a pure index over vault paths, plus
 * Noted's one difference: when no file matches, a unique alias does. Also the inverse, the
 * shortest link text that finds a file again (LNK-28), used when links are rewritten on a move.
 * `ending` is the vault's note ending: `.md`, or `.html` in an HTML vault (SPEC 11.1).
 */
import { hasEnding, type NoteEnding } from '../common/note-ending.js';

/** Answers which file a linkpath (subpath already removed) points to, from a given source note. */
export interface LinkResolver {
  /** The target's vault path, or null when the link is unresolved. */
  resolve(linkpath: string, sourcePath: string): string | null;
  /** Files whose full name (extension included) is `fileName`, case-insensitively, sorted by path. */
  filesNamed(fileName: string): readonly string[];
  /** Adds a file (no-op if present); `aliases`, when given, replace the file's aliases. */
  add(path: string, aliases?: readonly string[]): void;
  /** Removes a file and its aliases (no-op if absent). */
  remove(path: string): void;
  /** Replaces the aliases of a file already known to the resolver. */
  setAliases(path: string, aliases: readonly string[]): void;
}

interface Entry {
  readonly path: string;
  /** NFC, lower-cased path: what every comparison uses. */
  readonly lower: string;
}

/**
 * Builds a resolver over every file of the vault (notes and attachments, vault-relative, `/`
 * separated). Build once, then update with `add`/`remove`/`setAliases`: each update costs a binary
 * search in one file-name bucket, and each `resolve` looks only at files sharing the link's name.
 *
 * The rules, first match wins (§1.2):
 * 1. empty linkpath → the source itself;
 * 2. candidates by lower-cased file name: with a `.` in the name as written, else (or when nothing
 *    matches) with the note ending (`.md`) appended; none → unresolved;
 * 3. a bare name (no `/`) with exactly one candidate → it;
 * 4. `./…` or `../…` → the candidate at that path relative to the source's folder, else unresolved;
 * 5. one leading `/` stripped, a candidate whose whole path equals the linkpath → it (a bare name
 *    so finds the vault-root file first);
 * 6. a leading `/` and no exact match → unresolved;
 * 7. candidates whose path ends with the linkpath on a whole segment; those under the source's
 *    folder (prefix test on `folder + '/'`, sub-folders included) first, then the shortest path
 *    (in characters), ties in path order.
 *
 * Then Noted's fallback: when no file matched, the one file whose aliases hold the linkpath
 * (case-insensitive, NFC) is the target; two or more such files leave the link unresolved.
 *
 * @example
 * const r = createLinkResolver(['a/Note.md', 'Note.md', 'img/Photo.png'], undefined, '.md');
 * r.resolve('note', 'a/x.md') // 'Note.md' (rule 5: the vault root wins)
 * r.resolve('Photo', 'x.md') // null (rule 2: attachments need their extension)
 */
export function createLinkResolver(
  files: readonly string[],
  aliases: ReadonlyMap<string, readonly string[]> | undefined,
  ending: NoteEnding,
): LinkResolver {
  const byName = new Map<string, Entry[]>();
  const known = new Set<string>();
  const aliasesOf = new Map<string, string[]>();
  const byAlias = new Map<string, string[]>();

  const insert = (path: string): void => {
    const lower = fold(path);
    const name = lower.slice(lower.lastIndexOf('/') + 1);
    let bucket = byName.get(name);
    if (!bucket) {
      bucket = [];
      byName.set(name, bucket);
    }
    bucket.splice(insertionPoint(bucket, path), 0, { path, lower });
    known.add(path);
  };

  const dropAliases = (path: string): void => {
    for (const alias of aliasesOf.get(path) ?? []) {
      const owners = byAlias.get(alias)?.filter((p) => p !== path) ?? [];
      if (owners.length === 0) byAlias.delete(alias);
      else byAlias.set(alias, owners);
    }
    aliasesOf.delete(path);
  };

  const setAliases = (path: string, list: readonly string[]): void => {
    if (!known.has(path)) return;
    dropAliases(path);
    const folded = [...new Set(list.map((a) => fold(a.trim())).filter((a) => a !== ''))];
    if (folded.length === 0) return;
    aliasesOf.set(path, folded);
    for (const alias of folded) byAlias.set(alias, [...(byAlias.get(alias) ?? []), path]);
  };

  const byAliasFallback = (linkpath: string): string | null => {
    const owners = byAlias.get(fold(linkpath));
    return owners?.length === 1 ? (owners[0] ?? null) : null;
  };

  for (const path of [...new Set(files)].sort(comparePaths)) insert(path);
  for (const [path, list] of aliases ?? []) setAliases(path, list);

  return {
    resolve(linkpath, sourcePath) {
      if (linkpath === '') return sourcePath;
      return resolveByName(byName, linkpath, sourcePath, ending) ?? byAliasFallback(linkpath);
    },
    filesNamed(fileName) {
      return (byName.get(fold(fileName)) ?? []).map((e) => e.path);
    },
    add(path, list) {
      if (!known.has(path)) insert(path);
      if (list) setAliases(path, list);
    },
    remove(path) {
      if (!known.has(path)) return;
      dropAliases(path);
      const lower = fold(path);
      const name = lower.slice(lower.lastIndexOf('/') + 1);
      const bucket = byName.get(name) ?? [];
      const at = bucket.findIndex((e) => e.path === path);
      if (at !== -1) bucket.splice(at, 1);
      if (bucket.length === 0) byName.delete(name);
      known.delete(path);
    },
    setAliases,
  };
}

/** Rules 2–7 of §1.2. */
function resolveByName(
  byName: ReadonlyMap<string, Entry[]>,
  linkpath: string,
  sourcePath: string,
  ending: NoteEnding,
): string | null {
  let lower = fold(linkpath);
  let name = lower.slice(lower.lastIndexOf('/') + 1);
  let candidates = name.includes('.') ? byName.get(name) : undefined;
  if (!candidates) {
    name += ending;
    lower += ending;
    candidates = byName.get(name);
  }
  if (!candidates || candidates.length === 0) return null;
  if (!lower.includes('/') && candidates.length === 1) return candidates[0]?.path ?? null;

  const sourceLower = fold(sourcePath);
  const sourceFolder = sourceLower.slice(0, Math.max(0, sourceLower.lastIndexOf('/')));
  if (lower.startsWith('./') || lower.startsWith('../')) {
    const target = joinRelative(sourceFolder, lower);
    return candidates.find((c) => c.lower === target)?.path ?? null;
  }

  const rooted = lower.startsWith('/');
  if (rooted) lower = lower.slice(1);
  const exact = candidates.find((c) => c.lower === lower);
  if (exact) return exact.path;
  if (rooted) return null;

  // Why a trailing `/`: without it, a source in `proj/` would prefer files in `project/`.
  const samePrefix = sourceFolder === '' ? null : `${sourceFolder}/`;
  const suffix = `/${lower}`;
  let best: Entry | undefined;
  let bestSame = false;
  for (const c of candidates) {
    if (!c.lower.endsWith(suffix)) continue;
    const same = samePrefix !== null && c.lower.startsWith(samePrefix);
    // Candidates come in path order, so a strict `<` keeps the first of equal lengths.
    if (!best || (same && !bestSame) || (same === bestSame && c.path.length < best.path.length)) {
      best = c;
      bestSame = same;
    }
  }
  return best?.path ?? null;
}

/** Resolves `./` and `../` segments against a folder; null when the path climbs above the root. */
function joinRelative(folder: string, relative: string): string | null {
  const parts = folder === '' ? [] : folder.split('/');
  for (const segment of relative.split('/')) {
    if (segment === '.' || segment === '') continue;
    if (segment === '..') {
      if (parts.length === 0) return null;
      parts.pop();
    } else parts.push(segment);
  }
  return parts.join('/');
}

/** NFC and lower case; ASCII text skips the normalisation, which is the costly half. */
function fold(text: string): string {
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) > 0x7f) return text.normalize('NFC').toLowerCase();
  }
  return text.toLowerCase();
}

function comparePaths(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function insertionPoint(bucket: readonly Entry[], path: string): number {
  let lo = 0;
  let hi = bucket.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((bucket[mid]?.path ?? '') < path) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * LNK-28 "shortest path when possible": the text of a link that finds `targetPath` again from any
 * note. The bare name (notes without `.md`) when no other file has that name; otherwise the whole
 * vault path (notes without `.md`). `.md` stays when dropping it would find another file first
 * (`My.Note.md` next to a file called `My.Note`).
 *
 * @example
 * linkTextFor('a/Plans.md', createLinkResolver(['a/Plans.md', 'b/Plans.md'], undefined, '.md'), '.md') // 'a/Plans'
 */
export function linkTextFor(targetPath: string, resolver: LinkResolver, ending: NoteEnding): string {
  const fileName = targetPath.slice(targetPath.lastIndexOf('/') + 1);
  const cut = hasEnding(fileName, ending) ? ending.length : 0;
  const unique = resolver.filesNamed(fileName).length === 1;
  const forms = unique ? [fileName, targetPath] : [targetPath];
  for (const form of forms) {
    const short = form.slice(0, form.length - cut);
    if (resolver.resolve(short, targetPath) === targetPath) return short;
    if (short !== form && resolver.resolve(form, targetPath) === targetPath) return form;
  }
  return targetPath.slice(0, targetPath.length - cut);
}
