/**
 * @module
 * A change between two texts as the console's page shows it, in numbered lines like a code review: a
 * new note whole, a deleted note whole, or the hunks of an update (numbered as `approve --keep` numbers
 * them), each with its unchanged lines around it. Inside a changed line the changed words are marked,
 * on the removed line the words taken out and on the added line the words put in, so the two never
 * run into each other. Plain data; the page renders it with `textContent` only.
 */
import { hunksOf, textLines } from '../staging/hunks.js';
import { wordDiff } from '../staging/word-diff.js';

/** A run of a line's text; `changed` marks the words that differ from the other side. */
export interface Piece {
  readonly text: string;
  readonly changed: boolean;
}

export interface DiffLine {
  readonly kind: 'context' | 'removed' | 'added';
  /** The line's number in the text before, or null for an added line. */
  readonly old: number | null;
  /** The line's number in the text after, or null for a removed line. */
  readonly new: number | null;
  readonly pieces: readonly Piece[];
}

export interface HunkView {
  readonly index: number;
  readonly baseStart: number;
  readonly baseCount: number;
  readonly newStart: number;
  readonly newCount: number;
  /** Unchanged lines before, the removed lines, the added lines, unchanged lines after. */
  readonly lines: readonly DiffLine[];
  /** Lines of this hunk left out because it is too long to show (0 when all are there). */
  readonly omitted: number;
}

export type DiffView =
  | { readonly kind: 'create' | 'delete'; readonly lines: readonly DiffLine[]; readonly totalLines: number }
  | {
      readonly kind: 'update';
      readonly hunks: readonly HunkView[];
      /** How many lines the text before has: the page expands unchanged lines up to it. */
      readonly baseLines: number;
    }
  /** A text recorded by hash only (over 5 MB) or missing from the journal. */
  | { readonly kind: 'unavailable'; readonly reason: string };

/** Lines of a new or deleted note sent at first; the page asks for the rest. */
export const FIRST_LINES = 400;
/** Lines of one hunk shown at most; a longer hunk is approved whole or not at all, unseen in part. */
export const MAX_HUNK_LINES = 2000;
/** A line with marks in several places keeps them only when at least this share of it stayed the same. */
const MIN_SAME_SHARE = 0.3;

/** `before` null: a creation; `after` null: a deletion. */
export function diffView(before: string | null, after: string | null): DiffView {
  if (before === null || after === null) {
    const kind = before === null ? 'added' : 'removed';
    const all = textLines((before ?? after) as string);
    const lines = all.slice(0, FIRST_LINES).map((text, i) => plainLine(kind, i + 1, text));
    return { kind: before === null ? 'create' : 'delete', lines, totalLines: all.length };
  }
  return {
    kind: 'update',
    baseLines: textLines(before).length,
    hunks: hunksOf(before, after).map((h) => {
      const { removed, added } = markedLines(h.removed, h.added);
      const lines: DiffLine[] = [
        ...h.before.map((text, i) =>
          contextLine(h.baseStart - h.before.length + i, h.newStart - h.before.length + i, text),
        ),
        ...removed.map((pieces, i) => ({
          kind: 'removed' as const,
          old: h.baseStart + i,
          new: null,
          pieces,
        })),
        ...added.map((pieces, i) => ({ kind: 'added' as const, old: null, new: h.newStart + i, pieces })),
        ...h.after.map((text, i) =>
          contextLine(h.baseStart + h.baseCount + i, h.newStart + h.newCount + i, text),
        ),
      ];
      const shown = lines.length > MAX_HUNK_LINES ? lines.slice(0, MAX_HUNK_LINES) : lines;
      return {
        index: h.index,
        baseStart: h.baseStart,
        baseCount: h.baseCount,
        newStart: h.newStart,
        newCount: h.newCount,
        lines: shown,
        omitted: lines.length - shown.length,
      };
    }),
  };
}

/** How many lines a change adds and removes, for the list of changed notes. */
export function lineCounts(before: string | null, after: string | null): { added: number; removed: number } {
  if (before === null) return { added: textLines(after ?? '').length, removed: 0 };
  if (after === null) return { added: 0, removed: textLines(before).length };
  let added = 0;
  let removed = 0;
  for (const h of hunksOf(before, after)) {
    added += h.newCount;
    removed += h.baseCount;
  }
  return { added, removed };
}

function contextLine(old: number, next: number, text: string): DiffLine {
  return { kind: 'context', old, new: next, pieces: [{ text, changed: false }] };
}

function plainLine(kind: 'added' | 'removed', n: number, text: string): DiffLine {
  return {
    kind,
    old: kind === 'removed' ? n : null,
    new: kind === 'added' ? n : null,
    pieces: [{ text, changed: false }],
  };
}

/**
 * The removed and the added lines of a hunk, each cut into pieces with the changed words marked: the
 * word diff of the two runs, its removed words put on the old side and its added words on the new.
 */
export function markedLines(
  removed: readonly string[],
  added: readonly string[],
): { removed: Piece[][]; added: Piece[][] } {
  const oldSide: Piece[][] = [[]];
  const newSide: Piece[][] = [[]];
  if (removed.length > 0 && added.length > 0) {
    for (const w of wordDiff(removed.join('\n'), added.join('\n'))) {
      if (w.kind !== 'added') appendPieces(oldSide, w.text, w.kind === 'removed');
      if (w.kind !== 'removed') appendPieces(newSide, w.text, w.kind === 'added');
    }
  }
  const side = (lines: readonly string[], marked: Piece[][]): Piece[][] =>
    lines.map((text, i) => readable(marked[i], text));
  return { removed: side(removed, oldSide), added: side(added, newSide) };
}

function appendPieces(lines: Piece[][], text: string, changed: boolean): void {
  text.split('\n').forEach((part, i) => {
    if (i > 0) lines.push([]);
    if (part !== '') (lines[lines.length - 1] as Piece[]).push({ text: part, changed });
  });
}

/**
 * A line's pieces, or the line as one unmarked piece when its marks would not help: nothing on the
 * other side, nothing left the same, or marks in several places of a line that mostly changed (under
 * `MIN_SAME_SHARE` kept) — the whole line is shown as removed or added anyway. One run of changed
 * words is always marked, however long ("A" → "A changed").
 */
function readable(pieces: Piece[] | undefined, text: string): Piece[] {
  if (pieces === undefined || pieces.map((p) => p.text).join('') !== text) return [{ text, changed: false }];
  const runs = merged(pieces);
  let same = 0;
  let all = 0;
  for (const p of runs) {
    const visible = p.text.replace(/\s+/g, '').length;
    all += visible;
    if (!p.changed) same += visible;
  }
  const changedRuns = runs.filter((p) => p.changed).length;
  if (changedRuns === 0 || same === 0 || (changedRuns > 1 && same / all < MIN_SAME_SHARE)) {
    return [{ text, changed: false }];
  }
  return runs;
}

/**
 * Neighbouring pieces of the same kind joined (a word diff cuts at every space), and a space between
 * two changed words counted as changed, so "quick brown" reads as one mark rather than two.
 */
function merged(pieces: Piece[]): Piece[] {
  const out: Piece[] = [];
  for (const [i, piece] of pieces.entries()) {
    const between =
      !piece.changed &&
      /^\s+$/.test(piece.text) &&
      pieces[i - 1]?.changed === true &&
      pieces[i + 1]?.changed === true;
    const p = between ? { text: piece.text, changed: true } : piece;
    const last = out[out.length - 1];
    if (last !== undefined && last.changed === p.changed)
      out[out.length - 1] = { text: last.text + p.text, changed: p.changed };
    else out.push(p);
  }
  return out;
}
