/**
 * @module
 * Tells the change feed, before an agent's change is made, what it will be (index/feed/feed.ts): the note
 * and its etag after, who makes it, and for a move where the note comes from. Called where the change
 * is journaled, right before the journal entry: every agent write goes through one of those places.
 */
import type { RecordInput } from '../../journal/record-input.js';
import { etagOf } from '../../vault/etag.js';
import type { AccessContext } from '../context.js';

/**
 * Claims the changes of journal entries about to be written. A `delete` followed by a `create` in one
 * call is a move (moves/apply.ts records a move so).
 */
export function claimChanges(ctx: AccessContext, inputs: readonly RecordInput[]): void {
  const claims = inputs.map((input, i) => {
    const previous = inputs[i - 1];
    const movedFrom =
      input.kind === 'create' && previous?.kind === 'delete' && previous.group !== undefined
        ? previous.note
        : undefined;
    return {
      path: input.note,
      etag: input.after === null ? null : etagOf(input.after),
      ...(movedFrom === undefined ? {} : { from: movedFrom }),
      session: input.session,
      client: input.client,
    };
  });
  ctx.index.claim(claims);
}
