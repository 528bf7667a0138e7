/**
 * @module
 * A change to an existing note split into hunks: runs of changed lines, numbered from 1 (SPEC 5.2).
 * The owner may keep some hunks and drop the rest; `applyHunks` builds the text with only the kept
 * ones. Lines keep their line breaks internally, so keeping every hunk gives the new text and keeping
 * none gives the base text, byte for byte (CRLF, a missing final newline and all).
 *
 * Hunks are never merged across unchanged lines, however close: the finer the runs, the more freely
 * the owner can choose. A diff too large to compute in reasonable time (more than `MAX_EDITS` changed
 * lines after the common start and end are set aside) falls back to one hunk for the whole middle.
 */
import { diffArrays } from 'diff';
import { NotedError } from '../common/errors.js';

/** Unchanged lines shown around a hunk. */
export const CONTEXT_LINES = 3;
/**
 * Above this many line edits (a changed line is two) the diff gives up and one hunk covers the changed
 * middle. The cost grows with the square of it: 2,000 stays under half a second on a 5 MB note. A
 * count, never a time limit: `show` and `approve --keep` must split a change into the same hunks.
 */
export const MAX_EDITS = 2_000;

export interface Hunk {
  /** The hunk's number, from 1, in text order. */
  readonly index: number;
  /** Line number in the base text (from 1) of the first removed line, or where lines are inserted. */
  readonly baseStart: number;
  readonly baseCount: number;
  /** Line number in the new text (from 1) of the first added line, or where lines are removed. */
  readonly newStart: number;
  readonly newCount: number;
  /** The removed lines, without their line breaks. */
  readonly removed: readonly string[];
  /** The added lines, without their line breaks. */
  readonly added: readonly string[];
  /** Up to `CONTEXT_LINES` unchanged lines before and after. */
  readonly before: readonly string[];
  readonly after: readonly string[];
  /** Whether the last removed / added line is the end of its text with no line break after it. */
  readonly noNewlineAtEnd: { readonly removed: boolean; readonly added: boolean };
}

/** An unchanged run, or a changed one (a hunk): lines with their line breaks. */
interface Run {
  readonly changed: boolean;
  readonly base: string[];
  readonly next: string[];
}

/**
 * The hunks that turn `baseText` into `newText`; none when they are equal.
 *
 * @example
 * hunksOf('a\nb\nc\n', 'a\nB\nc\n') // one hunk: baseStart 2, removed ['b'], added ['B'], before ['a'], after ['c']
 */
export function hunksOf(baseText: string, newText: string): Hunk[] {
  const runs = runsOf(baseText, newText);
  const hunks: Hunk[] = [];
  let baseLine = 1;
  let newLine = 1;
  runs.forEach((run, i) => {
    if (run.changed) {
      const previous = runs[i - 1];
      const following = runs[i + 1];
      hunks.push({
        index: hunks.length + 1,
        baseStart: baseLine,
        baseCount: run.base.length,
        newStart: newLine,
        newCount: run.next.length,
        removed: run.base.map(bare),
        added: run.next.map(bare),
        before: previous ? previous.base.slice(-CONTEXT_LINES).map(bare) : [],
        after: following ? following.base.slice(0, CONTEXT_LINES).map(bare) : [],
        noNewlineAtEnd: {
          removed: run.base.length > 0 && !run.base[run.base.length - 1]!.endsWith('\n'),
          added: run.next.length > 0 && !run.next[run.next.length - 1]!.endsWith('\n'),
        },
      });
    }
    baseLine += run.base.length;
    newLine += run.next.length;
  });
  return hunks;
}

/**
 * `baseText` with only the hunks numbered in `keep` applied (numbers as `hunksOf` gives them;
 * order and repeats do not matter). An unknown number is a `validation_error`.
 *
 * @example
 * applyHunks(base, next, []) === base
 * applyHunks(base, next, hunksOf(base, next).map((h) => h.index)) === next
 */
export function applyHunks(baseText: string, newText: string, keep: readonly number[]): string {
  const runs = runsOf(baseText, newText);
  const total = runs.filter((r) => r.changed).length;
  const unknown = keep.filter((n) => !Number.isInteger(n) || n < 1 || n > total);
  if (unknown.length > 0) {
    throw new NotedError(
      'validation_error',
      `There is no hunk ${unknown.join(', ')}: this change has ${total === 0 ? 'no hunks' : total === 1 ? 'one hunk (1)' : `${total} hunks (1–${total})`}. Nothing was written.`,
      { unknown, hunks: total },
    );
  }
  const kept = new Set(keep);
  let index = 0;
  let out = '';
  for (const run of runs) {
    if (!run.changed) out += run.base.join('');
    else out += (kept.has(++index) ? run.next : run.base).join('');
  }
  return out;
}

/** A changed run of a diff, located in the base text: what `hunksOf` numbers, with line breaks kept. */
export interface ChangedRange {
  /** The first base line it replaces (from 0), or where it inserts. */
  readonly baseStart: number;
  readonly baseCount: number;
  /** Where it starts in the other text (from 0). */
  readonly otherStart: number;
  /** Its lines in the other text, with their line breaks. */
  readonly lines: readonly string[];
}

/**
 * The changed runs that turn `baseText` into `otherText`, in order: the hunks `hunksOf` would number
 * (the i-th is hunk i + 1), as positions in both texts with the lines as they are written.
 */
export function changedRanges(baseText: string, otherText: string): ChangedRange[] {
  const out: ChangedRange[] = [];
  let baseLine = 0;
  let otherLine = 0;
  for (const run of runsOf(baseText, otherText)) {
    if (run.changed) {
      out.push({ baseStart: baseLine, baseCount: run.base.length, otherStart: otherLine, lines: run.next });
    }
    baseLine += run.base.length;
    otherLine += run.next.length;
  }
  return out;
}

/** The texts as alternating unchanged and changed runs covering both completely. */
function runsOf(baseText: string, newText: string): Run[] {
  const base = splitLines(baseText);
  const next = splitLines(newText);
  // Setting the common start and end aside keeps the diff small for the usual local edit.
  let start = 0;
  while (start < base.length && start < next.length && base[start] === next[start]) start++;
  let end = 0;
  while (
    end < base.length - start &&
    end < next.length - start &&
    base[base.length - 1 - end] === next[next.length - 1 - end]
  ) {
    end++;
  }
  const runs: Run[] = [];
  const push = (changed: boolean, b: string[], n: string[]) => {
    if (b.length === 0 && n.length === 0) return;
    const last = runs[runs.length - 1];
    if (last && last.changed === changed) {
      last.base.push(...b);
      last.next.push(...n);
    } else runs.push({ changed, base: [...b], next: [...n] });
  };
  push(false, base.slice(0, start), next.slice(0, start));
  const baseMiddle = base.slice(start, base.length - end);
  const nextMiddle = next.slice(start, next.length - end);
  const changes =
    baseMiddle.length > 0 && nextMiddle.length > 0
      ? diffArrays(baseMiddle, nextMiddle, { maxEditLength: MAX_EDITS })
      : undefined;
  if (changes === undefined) {
    push(true, baseMiddle, nextMiddle);
  } else {
    for (const change of changes) {
      if (change.added) push(true, [], change.value);
      else if (change.removed) push(true, change.value, []);
      else push(false, change.value, change.value);
    }
  }
  push(false, base.slice(base.length - end), next.slice(next.length - end));
  return runs;
}

/** Lines with their line breaks; the last one may have none. `''` has no lines. */
export function splitLines(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

/**
 * The text's lines without their line breaks, numbered as hunks number them (from 1, at index 0).
 *
 * @example
 * textLines('a\r\nb') // ['a', 'b']
 */
export function textLines(text: string): string[] {
  return splitLines(text).map(bare);
}

function bare(line: string): string {
  return line.endsWith('\r\n') ? line.slice(0, -2) : line.endsWith('\n') ? line.slice(0, -1) : line;
}
