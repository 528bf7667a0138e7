/**
 * @module
 * Diffs of two texts for people: a unified diff (the journal's `show`, a pending change's review) and
 * its hunks, and a word-level diff marked for a terminal, `[-old-]{+new+}` as `git diff --word-diff`
 * prints it. Pure: strings in, strings out.
 */
import { createTwoFilesPatch, diffWordsWithSpace, type StructuredPatchHunk, structuredPatch } from 'diff';

export interface DiffOptions {
  /** The note's name, shown in the diff's file headers (default `note`). */
  readonly name?: string;
  /** Unchanged lines shown around each change (default 3). */
  readonly context?: number;
}

/**
 * A unified diff from `before` to `after`; null stands for "no note" (a creation or a deletion) and
 * is shown as `/dev/null`, like git does. Empty when the texts are equal.
 *
 * @example
 * diffOf('a\nb\n', 'a\nc\n', { name: 'x.md' })
 * // --- a/x.md\n+++ b/x.md\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n
 */
export function diffOf(before: string | null, after: string | null, options: DiffOptions = {}): string {
  if (before === after) return '';
  const name = options.name ?? 'note';
  const patch = createTwoFilesPatch(
    before === null ? '/dev/null' : `a/${name}`,
    after === null ? '/dev/null' : `b/${name}`,
    before ?? '',
    after ?? '',
    undefined,
    undefined,
    { context: options.context ?? 3 },
  );
  // jsdiff starts with an `Index:`/`===` banner when asked for one and otherwise with the headers;
  // keep only what git prints, from the `---` line on.
  const start = patch.indexOf('--- ');
  return start === -1 ? patch : patch.slice(start);
}

/** The changed runs of lines, with context, for a reviewer that accepts or drops each one. */
export function hunksOf(before: string, after: string, context = 3): StructuredPatchHunk[] {
  return structuredPatch('before', 'after', before, after, undefined, undefined, { context }).hunks;
}

export interface WordDiffOptions {
  /** Colour the changes with ANSI escapes (red removed, green added) besides the markers. */
  readonly color?: boolean;
}

/**
 * The changes between two texts word by word: removed words as `[-old-]`, added ones as `{+new+}`,
 * everything else as it was.
 *
 * @example
 * wordDiffOf('the quick fox', 'the slow fox') // 'the [-quick-]{+slow+} fox'
 */
export function wordDiffOf(before: string, after: string, options: WordDiffOptions = {}): string {
  const paint = (code: number, text: string) => (options.color ? `\u001b[${code}m${text}\u001b[0m` : text);
  let out = '';
  for (const part of diffWordsWithSpace(before, after)) {
    if (part.removed) out += paint(31, `[-${part.value}-]`);
    else if (part.added) out += paint(32, `{+${part.value}+}`);
    else out += part.value;
  }
  return out;
}
