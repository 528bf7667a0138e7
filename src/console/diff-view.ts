/**
 * @module
 * A change between two texts as the console's page shows it, in numbered lines like a code review: a
 * new note whole, a deleted note whole, or the hunks of an update (numbered as `approve --keep` numbers
 * them), each with its unchanged lines around it. Inside a changed line the changed words are marked,
 * on the removed line the words taken out and on the added line the words put in, so the two never
 * run into each other. Plain data; the page renders it with `textContent` only.
 */
import { type Hunk, hunksOf, textLines } from '../staging/hunks.js';
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
  /** The first and last line of the text before that the hunk's lines cover, context included. */
  readonly baseFrom: number;
  readonly baseTo: number;
  /** How many lines the hunk has in all: unchanged lines around it, removed lines, added lines. */
  readonly totalLines: number;
  /**
   * The hunk's first lines, in order (unchanged lines before, removed, added, unchanged after); the
   * rest (`totalLines - lines.length`) is asked for with `hunkLines`, never drawn from anything else.
   */
  readonly lines: readonly DiffLine[];
}

export type DiffView =
  | { readonly kind: 'create' | 'delete'; readonly lines: readonly DiffLine[]; readonly totalLines: number }
  | {
      readonly kind: 'update';
      /** The first hunks (all of them when `hunkCount` is their number); the rest on request. */
      readonly hunks: readonly HunkView[];
      /** How many hunks the change has. */
      readonly hunkCount: number;
      /** How many lines the text before has: the page expands unchanged lines up to it. */
      readonly baseLines: number;
    }
  /** A text recorded by hash only (over 5 MB) or missing from the journal. */
  | { readonly kind: 'unavailable'; readonly reason: string };

/** Lines of a new or deleted note sent at first; the page asks for the rest. */
export const FIRST_LINES = 400;
/**
 * Lines of an update's hunks sent at first, over all its hunks (a hunk longer than what is left is sent
 * in part, with how many lines it has); the page asks for the rest of a hunk, or for more hunks.
 */
export const FIRST_HUNK_LINES = 400;
/** A hunk with more changed lines than this is drawn in blocks of both sides (see `fullHunks`). */
export const LONG_HUNK = 400;
const SIDE_BLOCK = 100;
/** Hunks sent at first at most, however short. */
export const FIRST_HUNKS = 40;
/** A line with marks in several places keeps them only when at least this share of it stayed the same. */
const MIN_SAME_SHARE = 0.3;

/** Paging of an update's hunks: which hunks, and how many of their lines at most. */
export interface HunkPage {
  /** The first hunk to send (from 1). */
  readonly from: number;
  /** Hunks to send at most. */
  readonly count: number;
  /** Lines to send at most over all of them (the first hunk always gets at least one line). */
  readonly lines: number;
}

/** Everything at once (the activity page, which has no way to ask for more). */
const WHOLE: HunkPage = { from: 1, count: Number.POSITIVE_INFINITY, lines: Number.POSITIVE_INFINITY };
/** What the Pending page gets at first. */
export const FIRST_PAGE: HunkPage = { from: 1, count: FIRST_HUNKS, lines: FIRST_HUNK_LINES };

/**
 * `before` null: a creation; `after` null: a deletion. `hunks`: the hunks of the two texts when they
 * were computed already (a long rewrite's take a while).
 */
export function diffView(
  before: string | null,
  after: string | null,
  page: HunkPage = WHOLE,
  hunks?: readonly Hunk[],
): DiffView {
  if (before === null || after === null) {
    const kind = before === null ? 'added' : 'removed';
    const all = textLines((before ?? after) as string);
    const limit = page === WHOLE ? all.length : FIRST_LINES;
    const lines = all.slice(0, limit).map((text, i) => plainLine(kind, i + 1, text));
    return { kind: before === null ? 'create' : 'delete', lines, totalLines: all.length };
  }
  const all = fullHunks(hunks ?? hunksOf(before, after));
  return {
    kind: 'update',
    baseLines: textLines(before).length,
    hunkCount: all.length,
    hunks: pageOf(all, page),
  };
}

/**
 * Lines `from` (1 = the hunk's first) to `from + count - 1` of hunk `index` of the change, as the diff
 * draws them; `total` is how many lines the hunk has. Null when the change has no such hunk.
 */
export function hunkLines(
  before: string,
  after: string,
  index: number,
  from: number,
  count: number,
  hunks?: readonly Hunk[],
): { lines: DiffLine[]; total: number } | null {
  const hunk = fullHunks(hunks ?? hunksOf(before, after))[index - 1];
  if (hunk === undefined) return null;
  return { lines: hunk.slice(from - 1, count), total: hunk.total };
}

/** A hunk whose lines are made when asked for: a long hunk's word marks cost more than the rest. */
interface FullHunk extends Omit<HunkView, 'lines' | 'totalLines'> {
  readonly total: number;
  /** `count` lines from the 0-based `start`. */
  slice(start: number, count: number): DiffLine[];
}

/** A run of a hunk's lines, made on demand. */
interface Segment {
  readonly length: number;
  readonly make: () => DiffLine[];
}

/**
 * Each hunk with its lines in the order they are drawn: unchanged lines before, the removed lines then
 * the added ones (or, in a long hunk, blocks of `SIDE_BLOCK` removed lines each followed by the added
 * lines beside them, so that the first lines sent show both sides; each side stays in order, every line
 * marked), unchanged lines after. A long hunk's blocks get their word marks only when drawn.
 */
function fullHunks(hunks: readonly Hunk[]): FullHunk[] {
  return hunks.map((h) => {
    const removedLine = (pieces: Piece[], i: number): DiffLine => ({
      kind: 'removed',
      old: h.baseStart + i,
      new: null,
      pieces,
    });
    const addedLine = (pieces: Piece[], i: number): DiffLine => ({
      kind: 'added',
      old: null,
      new: h.newStart + i,
      pieces,
    });
    const marked = (from: number, to: number): DiffLine[] => {
      const { removed, added } = markedLines(h.removed.slice(from, to), h.added.slice(from, to));
      return [
        ...removed.map((pieces, i) => removedLine(pieces, from + i)),
        ...added.map((pieces, i) => addedLine(pieces, from + i)),
      ];
    };
    const long = h.removed.length + h.added.length > LONG_HUNK && h.removed.length > 0 && h.added.length > 0;
    const changed: Segment[] = [];
    if (!long) {
      const { removed, added } = markedLines(h.removed, h.added);
      const lines = [...removed.map(removedLine), ...added.map(addedLine)];
      changed.push({ length: lines.length, make: () => lines });
    } else {
      for (let i = 0; i < Math.max(h.removed.length, h.added.length); i += SIDE_BLOCK) {
        const end = i + SIDE_BLOCK;
        const length =
          Math.max(0, Math.min(end, h.removed.length) - i) + Math.max(0, Math.min(end, h.added.length) - i);
        changed.push({ length, make: () => marked(i, end) });
      }
    }
    const around = (lines: DiffLine[]): Segment => ({ length: lines.length, make: () => lines });
    const segments = [
      around(
        h.before.map((text, i) =>
          contextLine(h.baseStart - h.before.length + i, h.newStart - h.before.length + i, text),
        ),
      ),
      ...changed,
      around(
        h.after.map((text, i) =>
          contextLine(h.baseStart + h.baseCount + i, h.newStart + h.newCount + i, text),
        ),
      ),
    ];
    const total = segments.reduce((n, seg) => n + seg.length, 0);
    return {
      index: h.index,
      baseStart: h.baseStart,
      baseCount: h.baseCount,
      newStart: h.newStart,
      newCount: h.newCount,
      baseFrom: h.baseStart - h.before.length,
      baseTo: h.baseStart + h.baseCount + h.after.length - 1,
      total,
      slice: (start, count) => {
        const out: DiffLine[] = [];
        let at = 0;
        for (const seg of segments) {
          const end = at + seg.length;
          if (end > start && at < start + count) {
            const lines = seg.make();
            out.push(...lines.slice(Math.max(0, start - at), Math.min(seg.length, start + count - at)));
          }
          at = end;
          if (at >= start + count) break;
        }
        return out;
      },
    };
  });
}

/** The hunks of one page, each cut to the lines left of the page's budget (never to none for the first). */
function pageOf(all: readonly FullHunk[], page: HunkPage): HunkView[] {
  const out: HunkView[] = [];
  let budget = page.lines;
  for (const h of all.slice(page.from - 1)) {
    if (out.length >= page.count || (budget <= 0 && out.length > 0)) break;
    const take = Math.max(1, Math.min(h.total, budget));
    const { slice, total, ...facts } = h;
    out.push({ ...facts, totalLines: total, lines: slice(0, take) });
    budget -= take;
  }
  return out;
}

/** How many lines a change adds and removes, for the list of changed notes. */
export function lineCounts(
  before: string | null,
  after: string | null,
  hunks?: readonly Hunk[],
): { added: number; removed: number } {
  if (before === null) return { added: textLines(after ?? '').length, removed: 0 };
  if (after === null) return { added: 0, removed: textLines(before).length };
  let added = 0;
  let removed = 0;
  for (const h of hunks ?? hunksOf(before, after)) {
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
