/**
 * @module
 * The owner's decisions in the console beyond approve (SPEC 9.4): rejected changes are kept 30 days and
 * listed here with their diffs, and one action puts one back to pending; several pending changes to one
 * note are grouped, in order, each saying which of the others approving it would outdate; an outdated
 * update shows which of its hunks still apply onto the owner's later edits (a three-way merge) and
 * which overlap them (conflicts, with both texts). Every rejection and put-back is journaled through the
 * same hook as `noted-mcp review`.
 */
import type { OnDecision } from '../staging/approve.js';
import { putBack } from '../staging/reject.js';
import { mergePlan } from '../staging/three-way.js';
import type { PendingChange, PendingSummary } from '../staging/types.js';
import { ANYWHERE } from '../vault/checked-folder.js';
import type { ApiContext, Route } from './context.js';
import { diffView } from './diff-view.js';

/** The journal hook for rejections and put-backs, when the entry point gave one. */
export function decisionHook(ctx: ApiContext): { onDecision?: OnDecision } {
  const make = ctx.deps.recordDecision;
  return make === undefined ? {} : { onDecision: make(ctx.vault) };
}

export interface NoteGroup {
  /** This change's place among the pending changes to its note (from 1), oldest first. */
  readonly position: number;
  readonly count: number;
  /** The other changes to the note that approving this one would make outdated. */
  readonly outdates: readonly string[];
}

/**
 * The list ordered so that the changes to one note stand together, oldest first, at the place of the
 * note's oldest change; each with its group. Approving a change writes its note, so every other change
 * to that note not outdated already becomes outdated (a creation: the name is taken).
 */
export function groupedByNote<C extends PendingSummary & { outdated: string | null }>(
  changes: readonly C[],
): (C & { group: NoteGroup })[] {
  const byNote = new Map<string, C[]>();
  for (const c of changes) {
    const key = c.note.toLowerCase();
    const list = byNote.get(key);
    if (list === undefined) byNote.set(key, [c]);
    else list.push(c);
  }
  const out: (C & { group: NoteGroup })[] = [];
  for (const list of byNote.values()) {
    list.forEach((c, i) => {
      const outdates = list.filter((o) => o !== c && o.outdated === null).map((o) => o.id);
      out.push({ ...c, group: { position: i + 1, count: list.length, outdates } });
    });
  }
  return out;
}

export interface MergeView {
  /** The etag of the note the merge was computed on: approving sends it back (`onto`). */
  readonly onto: string;
  readonly hunks: readonly {
    readonly index: number;
    readonly conflict: boolean;
    /** For a conflict: the owner's lines at that place now, from line `start`. */
    readonly ours: { readonly start: number; readonly lines: readonly string[] } | null;
  }[];
}

/** For an update outdated by the owner's later edits: which hunks apply cleanly onto the note now. */
export function mergeViewOf(ctx: ApiContext, change: PendingChange): MergeView | null {
  if (change.kind !== 'update') return null;
  const current = ctx.vault.read(change.note, ANYWHERE);
  if (current === null || current.etag === change.baseEtag || !current.lossless) return null;
  return {
    onto: current.etag,
    hunks: mergePlan(change.baseText as string, current.text, change.newText as string),
  };
}

export const DECISION_ROUTES: readonly Route[] = [
  {
    method: 'GET',
    path: 'rejected',
    handle: (ctx) => ({ changes: ctx.rejected.list() }),
  },
  {
    method: 'GET',
    path: 'rejected/:id',
    handle: (ctx, { params }) => {
      const { baseText, newText, ...change } = ctx.rejected.get(params.id as string);
      return { change, diff: diffView(baseText, newText) };
    },
  },
  {
    method: 'POST',
    path: 'rejected/:id/put-back',
    handle: (ctx, { params }) => ({
      result: putBack(ctx.store, ctx.rejected, params.id as string, decisionHook(ctx)),
    }),
  },
];
