/**
 * @module
 * An agent's change to one note as the gate makes it: journaled first (SPEC 6.1), then made. When the
 * making fails (a full disk, an I/O error, a read-only mount, or a typed refusal from the write
 * itself), the note was not replaced, since notes are replaced atomically: the journal is told at
 * once that the recorded change was not made (a `not_applied` entry naming the note as it is found,
 * as the start-up check would add), and the agent gets a typed error that says what happened.
 * Anything else thrown is a bug and propagates.
 */
import { fileSystemFailure, isNotedError, NotedError } from '../common/errors.js';
import type { RecordInput } from '../journal/record-input.js';
import { ANYWHERE } from '../vault/checked-folder.js';
import { etagOf } from '../vault/etag.js';
import type { AccessContext } from './context.js';
import { claimChanges } from './feed/claims.js';

const DONE: Record<string, string> = {
  create: 'created',
  update: 'changed',
  delete: 'moved to the trash',
  restore: 'restored',
};

/**
 * Records `input`, then runs `make` (the write). Call inside the note's lock.
 *
 * @throws NotedError `not_supported` with `committed: false` when `make` failed on the file system and
 *   the note is found as it was before; with `indeterminate: true` and the etag the change would give
 *   when it is not (read the note and compare, SPEC 17.2).
 *   A NotedError from `make` itself propagates as it is, after the entry is voided.
 */
export function recordThenMake<T>(ctx: AccessContext, input: RecordInput, make: () => T): T {
  claimChanges(ctx, [input]);
  const entry = ctx.journal.record(input);
  try {
    return make();
  } catch (err) {
    const failure = fileSystemFailure(err);
    if (failure === null && !isNotedError(err)) throw err;
    const now = currentBytes(ctx, input.note);
    const made = now !== undefined && sameBytes(now, input.after);
    const journaled = now !== undefined && !made && ctx.journal.voidEntries([{ entry, now }]);
    if (failure === null) throw err;
    const what = `${failure.why} (${failure.errno})`;
    const done = DONE[input.kind] ?? 'changed';
    if (now === undefined || !sameBytes(now, input.before)) {
      // SPEC 17.2: the outcome is not known here (the rename may have landed, its sync failed): never
      // committed: false, but indeterminate with the etag the note has if the change was made.
      const etag = input.after === null ? null : etagOf(input.after);
      throw new NotedError(
        'not_supported',
        `The outcome is unknown: the note "${input.note}" may or may not have been ${done} (${what}). Read it and compare its etag with ${etag === null ? 'none (it is gone if the change was made)' : etag}: equal means the change was made. ${failure.fix}`,
        { name: input.note, errno: failure.errno, indeterminate: true, etag },
      );
    }
    const journal = journaled
      ? 'The journal records that this change was not made.'
      : 'The journal will record that this change was not made when the server next starts.';
    throw new NotedError(
      'not_supported',
      `The note "${input.note}" was not ${done}: ${what}. It is exactly as it was. ${journal} ${failure.fix} Then try again.`,
      { name: input.note, errno: failure.errno, committed: false },
    );
  }
}

/** The note's bytes now, null when there is no note, undefined when they cannot be read. */
function currentBytes(ctx: AccessContext, name: string): Buffer | null | undefined {
  try {
    // What the journal notes as the note now: the owner's record, not shown to an agent.
    return ctx.vault.read(name, ANYWHERE)?.bytes ?? null;
  } catch {
    return undefined;
  }
}

function sameBytes(now: Buffer | null, text: string | Uint8Array | null): boolean {
  if (now === null || text === null) return now === text;
  return now.equals(typeof text === 'string' ? Buffer.from(text, 'utf8') : text);
}
