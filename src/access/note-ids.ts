/**
 * @module
 * Notes named by id (SPEC 17.3): a tool's `name` or `id` becomes the note's current path here, once,
 * and the call then goes on exactly as if that path had been typed, so the policy, the scope guards
 * and staging apply unchanged. Results carry the id of each note they name (`idOf`).
 */
import { isNotedError, NotedError } from '../common/errors.js';
import { NOTE_ID_PATTERN, noteIdAt, pathOfNoteId } from '../index/store/note-ids.js';
import type { AccessContext } from './context.js';
import type { Rules } from './rules/rules.js';

/** How a tool names an existing note: by `name` or by `id`, exactly one. */
export interface NoteRef {
  readonly name?: string | undefined;
  readonly id?: string | undefined;
}

/** The name to go on with: the `name` as given, or the current path of the note `id` names. */
export function nameOfRef(ctx: AccessContext, rulesOf: () => Rules, ref: NoteRef, what = 'the note'): string {
  const { name, id } = ref;
  if (name !== undefined && id !== undefined) {
    throw new NotedError(
      'validation_error',
      `Give ${what} by name or by id, not both (name "${name}", id "${id}"). Pass only one.`,
    );
  }
  if (name !== undefined) return name;
  if (id === undefined) {
    throw new NotedError(
      'validation_error',
      `Say which note: pass name (its path, e.g. "inbox/idea") or id (as a result gave it, e.g. "n1f3k2a").`,
    );
  }
  if (!NOTE_ID_PATTERN.test(id)) {
    const shown = id.length > 40 ? `${id.slice(0, 40)}…` : id;
    throw new NotedError(
      'validation_error',
      `"${shown}" is not a note id: an id is "n" and 5 to 15 lower-case letters or digits, exactly as a result gave it (e.g. "n1f3k2a"). Or pass the note's name instead.`,
    );
  }
  const rules = rulesOf();
  ctx.index.refresh();
  const path = pathOfNoteId(ctx.index.db, id);
  // A note the policy hides answers exactly as an id no note has (SPEC 4), and so does one reached
  // through a link into a hidden folder, which the vault refuses as a dangling link (invalid_name,
  // naming its path): a link whose target was deleted is not indexed, so its id is unknown.
  if (
    path === null ||
    !usable(() => rules.accessOf(path) !== 'hidden' && ctx.vault.exists(path, rules.sight))
  ) {
    throw unknownId(id);
  }
  return path;
}

function usable(seen: () => boolean): boolean {
  try {
    return seen();
  } catch (err) {
    if (isNotedError(err) && err.code === 'invalid_name') return false;
    throw err;
  }
}

function unknownId(id: string): NotedError {
  return new NotedError(
    'not_found',
    `No note has the id "${id}": the note was deleted, or the id is from before the index was rebuilt (ids are reset then). Find the note by name with search_notes or list_notes, and use the id they give now.`,
    { id },
  );
}

/** The id of the note at `path` (a path the caller may see), or undefined when it is not indexed. */
export function idOf(ctx: AccessContext, path: string): string | undefined {
  return noteIdAt(ctx.index.db, path);
}

/** `{ id }` for spreading into a result that names the note at `path`; `{}` when it has none. */
export function idField(ctx: AccessContext, path: string): { id?: string } {
  const id = idOf(ctx, path);
  return id === undefined ? {} : { id };
}
