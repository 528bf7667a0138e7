/**
 * @module
 * A change that is outdated because the owner edited the note after the agent read it is not a dead
 * end (SPEC 9.4): its hunks are merged three ways — base, the text the agent saw; ours, the note now;
 * theirs, the agent's text. A hunk whose lines (or the place it inserts at) do not touch any of the
 * owner's edits applies cleanly onto the note as it is now; a hunk that touches one is a conflict,
 * shown with both texts and never applied. "Touch" includes lines right next to an edit: two edits
 * that meet have no unchanged line between them to say which comes first, so they are left to the owner.
 *
 * @example
 * const plan = mergePlan(base, ours, theirs); // [{index: 1, conflict: false}, {index: 2, conflict: true, …}]
 * mergeHunks(base, ours, theirs, [1]);        // ours with hunk 1 applied
 */
import { NotedError } from '../common/errors.js';
import { type ChangedRange, changedRanges, splitLines, textLines } from './hunks.js';

export interface MergeHunk {
  /** The hunk's number, as `hunksOf(base, theirs)` numbers it. */
  readonly index: number;
  /** True when it touches an edit the owner made after the agent read the note. */
  readonly conflict: boolean;
  /** For a conflict: the owner's lines at that place now (the note's lines from `oursStart`, from 1). */
  readonly ours: { readonly start: number; readonly lines: readonly string[] } | null;
}

/** Whether a theirs range [a, a+n) and an ours range touch (overlap, or meet without a line between). */
function touches(theirs: ChangedRange, ours: ChangedRange): boolean {
  return (
    theirs.baseStart <= ours.baseStart + ours.baseCount &&
    ours.baseStart <= theirs.baseStart + theirs.baseCount
  );
}

/** Each hunk of the agent's change, clean or in conflict with the owner's later edits. */
export function mergePlan(base: string, ours: string, theirs: string): MergeHunk[] {
  const mine = changedRanges(base, ours);
  const oursLines = textLines(ours);
  return changedRanges(base, theirs).map((range, i) => {
    const hit = mine.filter((o) => touches(range, o));
    if (hit.length === 0) return { index: i + 1, conflict: false, ours: null };
    const first = hit[0] as ChangedRange;
    const last = hit[hit.length - 1] as ChangedRange;
    // The lines between the hunk's edge and the first (last) edit it touches are unchanged in ours.
    const start = Math.max(0, first.otherStart - Math.max(0, first.baseStart - range.baseStart));
    const lastEnd = last.baseStart + last.baseCount;
    const end =
      last.otherStart + last.lines.length + Math.max(0, range.baseStart + range.baseCount - lastEnd);
    return { index: i + 1, conflict: true, ours: { start: start + 1, lines: oursLines.slice(start, end) } };
  });
}

/**
 * The note as it is now (`ours`) with the agent's hunks numbered in `keep` applied. Every kept hunk must
 * be clean: a conflicting one is a `validation_error` (never applied silently), as is an unknown number.
 */
export function mergeHunks(base: string, ours: string, theirs: string, keep: readonly number[]): string {
  const plan = mergePlan(base, ours, theirs);
  const unknown = keep.filter((n) => !Number.isInteger(n) || n < 1 || n > plan.length);
  if (unknown.length > 0) {
    throw new NotedError(
      'validation_error',
      `There is no hunk ${unknown.join(', ')}: this change has ${plan.length} hunks. Nothing was written.`,
      { unknown, hunks: plan.length },
    );
  }
  const conflicts = keep.filter((n) => plan[n - 1]?.conflict === true);
  if (conflicts.length > 0) {
    throw new NotedError(
      'validation_error',
      `Hunk ${conflicts.join(', ')} overlaps edits made to the note after the agent read it, so it is not applied. Nothing was written; keep only the hunks that apply cleanly, or reject the change.`,
      { conflicts },
    );
  }
  const ranges = changedRanges(base, theirs);
  const mine = changedRanges(base, ours);
  const out = splitLines(ours);
  const baseLines = splitLines(base);
  // From the last to the first, so that earlier positions stay where they are.
  for (const n of [...new Set(keep)].sort((a, b) => b - a)) {
    const range = ranges[n - 1] as ChangedRange;
    // Where the hunk's base lines are in ours: shifted by the owner's edits wholly before them.
    let shift = 0;
    for (const o of mine)
      if (o.baseStart + o.baseCount <= range.baseStart) shift += o.lines.length - o.baseCount;
    const at = range.baseStart + shift;
    const expected = baseLines.slice(range.baseStart, range.baseStart + range.baseCount);
    if (out.slice(at, at + range.baseCount).join('') !== expected.join('')) {
      throw new Error(`mergeHunks: hunk ${n} is not where the plan put it`); // a bug, never the owner's doing
    }
    out.splice(at, range.baseCount, ...range.lines);
  }
  return out.join('');
}
