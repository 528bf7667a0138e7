/**
 * @module
 * Moving and renaming notes through the gate, one (`move_note`) or a batch (`move_notes`), keeping
 * every link that pointed at a moved note pointing at it, and every other link where it pointed.
 *
 * Decisions where the spec is silent:
 * - A move into, out of or inside a staged folder is refused with `staged`: a move cannot wait for
 *   review the way a text change can. Links in staged notes elsewhere become pending changes.
 * - A hidden destination is refused like create_note refuses it; a dot-name like an invalid name.
 * - Links in read-only notes are left as they are and the result names those notes.
 * - The move is recorded as a `delete` of the old name and a `create` of the new one, in one group
 *   with every rewrite, so undoing the group puts all of it back or nothing.
 */
import { isNotedError, NotedError } from '../../common/errors.js';
import { isCancelled, unobservedWork, type Work } from '../../common/work.js';
import { newGroupId } from '../../journal/entry.js';
import { underWay } from '../../journal/operations.js';
import { normalizeNoteName } from '../../vault/names.js';
import type { AccessContext, Writer } from '../context.js';
import { resolveExisting } from '../resolve.js';
import { writableAccess } from '../rules/permission.js';
import type { Rules } from '../rules/rules.js';
import {
  applyRewrites,
  type LinkChange,
  linkChanges,
  moveOneNote,
  moveWriter,
  type NotUpdated,
  requireFreeFor,
  uniqueProblems,
} from './apply.js';
import { type LinkProblem, type NowResolved, planMove } from './plan.js';
import { cancelledBeforeWriting, cancelledMove, rollBack } from './rollback.js';

/** Results list at most this many link changes; `changesTotal` counts them all. */
export const MAX_LISTED_CHANGES = 1000;

export interface MoveNoteInput {
  readonly name: string;
  readonly newName: string;
  readonly updateLinks?: boolean;
  readonly dryRun?: boolean;
  readonly expectedEtag?: string;
}

export interface MoveResult {
  readonly name: string;
  readonly newName: string;
  readonly dryRun: boolean;
  /** True when the note was moved (false on a dry run). */
  readonly committed: boolean;
  /** The moved note's etag at its new name. */
  readonly etag?: string;
  /** The journal group of the move and its rewrites: `noted-mcp undo --group ID`. */
  readonly group?: string;
  readonly changes: LinkChange[];
  readonly changesTotal: number;
  /** Notes whose links were rewritten (or, on a dry run, would be). */
  readonly updated: string[];
  readonly staged: { note: string; pendingId: string }[];
  readonly notUpdated: NotUpdated[];
  readonly nowResolved: NowResolved[];
}

export interface MoveOptions {
  /** The journal group to record in (a batch shares one); a new one by default. */
  readonly group?: string;
  /** Progress and cancellation (common/work.ts). */
  readonly work?: Work;
}

/**
 * Moves a note and rewrites the links to it. Cancelled while planning, nothing is changed; cancelled
 * while the links are rewritten, what was done is undone (moves/rollback.ts); either way the answer is
 * a `cancelled` error that says which.
 */
export async function moveNote(
  ctx: AccessContext,
  rules: Rules,
  who: Writer,
  input: MoveNoteInput,
  options: MoveOptions = {},
): Promise<MoveResult> {
  const group = options.group ?? newGroupId(ctx.now());
  const work = options.work ?? unobservedWork();
  const from = resolveExisting(ctx, rules, input.name);
  const to = normalizeNoteName(input.newName, ctx.vault.ending);
  if (to === from) {
    throw new NotedError('validation_error', `"${from}" is already named so; nothing was moved.`, {
      name: from,
      committed: false,
    });
  }
  requireMovable(rules, from, to);
  requireFreeFor(ctx, rules, from, to);
  const what = `The move of "${from}" to "${to}"`;
  const plan = await planMove(ctx, rules, new Map([[from, to]]), input.updateLinks ?? true, work).catch(
    cancelledBeforeWriting(what, group),
  );
  requireWritable(plan.unwritable);
  const own = plan.sources.find((s) => s.name === from);
  if (own === undefined) throw notFoundAfterAll(from);
  const others = plan.sources.filter((s) => s !== own);
  const summary = {
    name: from,
    newName: to,
    changesTotal: plan.sources.reduce((n, s) => n + s.edits.length, 0),
    nowResolved: uniqueProblems(plan.nowResolved),
  };
  if (input.dryRun) {
    return {
      ...summary,
      dryRun: true,
      committed: false,
      changes: linkChanges(plan.sources, MAX_LISTED_CHANGES),
      updated: plan.sources.filter((s) => s.edits.length > 0 && s.stored.lossless).map((s) => s.name),
      staged: [],
      notUpdated: others.flatMap((s): NotUpdated[] =>
        rules.accessOf(s.name) === 'read-only'
          ? [{ name: s.name, reason: 'read_only' as const, message: 'read-only for agents by vault policy' }]
          : s.stored.lossless
            ? []
            : [
                {
                  name: s.name,
                  reason: 'not_supported' as const,
                  message: 'holds bytes that are not valid UTF-8, so it would not be rewritten',
                },
              ],
      ),
    };
  }
  await work.checkpoint().catch(cancelledBeforeWriting(what, group));
  const writer = moveWriter(who, 'move_note', group);
  // A move that rewrites links in other notes changes them one after the other: killed in the middle,
  // it is reported at the next start with its repair (operations.ts).
  // (A move of one note alone is one step, which the start-up journal check already settles.)
  const write = async () => {
    const moved = await moveOneNote(ctx, rules, writer, plan, own, input.expectedEtag);
    try {
      return { moved, outcome: await applyRewrites(ctx, rules, writer, others, work) };
    } catch (err) {
      if (!isCancelled(err)) throw err;
      throw cancelledMove(what, err.message, await rollBack(ctx, rules, writer), group);
    }
  };
  const record = { group, tool: 'move_note', started: ctx.now().toISOString() };
  const { moved, outcome } =
    others.length === 0 ? await write() : await underWay(ctx.vault, record, isNotedError, write);
  ctx.index.touched([from, to, ...outcome.updated]);
  work.report(others.length + 1, others.length + 1, 'moved');
  const written = new Set(outcome.updated);
  const done = plan.sources.filter((s) => written.has(s.name));
  const ownChanges = moved.edits.map((e) => ({ note: from, ...e }));
  return {
    ...summary,
    dryRun: false,
    committed: true,
    etag: moved.etag,
    group,
    changes: [...ownChanges, ...linkChanges(done, MAX_LISTED_CHANGES)].slice(0, MAX_LISTED_CHANGES),
    updated: [...(moved.edits.length > 0 ? [to] : []), ...outcome.updated],
    staged: outcome.staged,
    notUpdated: outcome.notUpdated,
  };
}

/**
 * The policy for a move: the note may change where it is and be created where it goes. Hidden source
 * notes never get here (resolveExisting answers not_found); staged folders refuse moves.
 */
export function requireMovable(rules: Rules, from: string, to: string): void {
  const source = writableAccess(rules, from, 'moved');
  const target = writableAccess(rules, to, 'created');
  if (source === 'staged' || target === 'staged') {
    const where = source === 'staged' ? from : to;
    throw new NotedError(
      'staged',
      `"${where}" is in a folder where agents' changes wait for the owner's review, and a move cannot wait for review. Nothing was moved. Ask the vault's owner to move it, or choose a folder outside.`,
      { name: where, committed: false },
    );
  }
}

/** Refuses the whole move when a link could not be kept pointing at its note. */
export function requireWritable(unwritable: readonly LinkProblem[]): void {
  const first = unwritable[0];
  if (first === undefined) return;
  throw new NotedError(
    'validation_error',
    `The move would leave ${unwritable.length} link(s) unable to find their note (the new name holds a character a link cannot carry, such as #, | or ]], or no link text reaches it), e.g. ${first.raw} in "${first.note}" line ${first.line}. Nothing was moved. Choose a name without such characters, or pass update_links: false.`,
    { committed: false, links: uniqueProblems(unwritable).slice(0, 20) },
  );
}

function notFoundAfterAll(name: string): NotedError {
  return new NotedError('not_found', `The note "${name}" went away before it could be moved.`, {
    name,
    committed: false,
  });
}
