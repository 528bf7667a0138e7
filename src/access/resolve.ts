/**
 * @module
 * From a name an agent typed to the note it means (SPEC 1.3, 1.4): validate, then an exact path wins,
 * else the wikilink reading picks a single note, and several are an error listing them.
 */
import { isNotedError, NotedError } from '../common/errors.js';
import { nameCandidates } from '../index/queries/notes.js';
import { normalizeNoteName } from '../vault/names.js';
import { baseFileName } from './bases/base-files.js';
import type { AccessContext } from './context.js';
import type { Rules } from './rules/rules.js';

/**
 * The canonical name of an existing note the agent may see, or `not_found` / `ambiguous`. A hidden
 * note is passed over exactly as if it were not there (SPEC 4).
 */
export function resolveExisting(ctx: AccessContext, rules: Rules, input: string): string {
  // The policy first: a name that a link takes into a hidden folder answers as a dangling link does
  // (rules.ts), whether or not the file it leads to exists.
  const seen = (n: string) => rules.accessOf(n) !== 'hidden' && ctx.vault.exists(n, rules.sight);
  // A `.base` file (SPEC 16.3) is named by its exact path.
  const base = baseFileName(input);
  if (base !== null) {
    if (seen(base)) return base;
    throw notFound(base);
  }
  const name = normalizeNoteName(input, ctx.vault.ending);
  if (seen(name)) return name;
  ctx.index.refresh();
  // A candidate found by its bare name that cannot be used is not one (a dangling link is not indexed).
  const usable = (n: string) => {
    try {
      return seen(n);
    } catch (err) {
      if (isNotedError(err) && err.code === 'invalid_name') return false;
      throw err;
    }
  };
  const candidates = nameCandidates(ctx.index.db, name).filter(usable);
  if (candidates.length === 1) return candidates[0] as string;
  if (candidates.length > 1) {
    throw new NotedError(
      'ambiguous',
      `"${input}" matches ${candidates.length} notes: ${candidates.map((c) => `"${c}"`).join(', ')}. Call again with the full path of the one you mean.`,
      { candidates },
    );
  }
  throw notFound(name);
}

export function notFound(name: string): NotedError {
  return new NotedError(
    'not_found',
    `No note named "${name}" exists. Use search_notes or list_notes to find the right name.`,
    { name },
  );
}

/**
 * Validates a name for a new note and refuses one that exists, also in another letter case: on
 * case-insensitive disks (and for Obsidian's links) `Plan.md` and `plan.md` are the same note.
 */
export function requireFree(ctx: AccessContext, rules: Rules, name: string): void {
  const existing = existingCaseVariant(ctx, rules, name);
  if (existing !== null) {
    throw new NotedError(
      'already_exists',
      `A note "${existing}" already exists. Use update_note or edit_note to change it, or choose another name.`,
      { name: existing },
    );
  }
}

/** The existing note whose name equals `name` ignoring case, or null. */
export function existingCaseVariant(ctx: AccessContext, rules: Rules, name: string): string | null {
  if (ctx.vault.exists(name, rules.sight)) return name;
  ctx.index.refresh();
  const lower = name.toLowerCase();
  const match = nameCandidates(ctx.index.db, name).find(
    (c) => c.toLowerCase() === lower && ctx.vault.exists(c, rules.sight),
  );
  return match ?? null;
}
