/**
 * @module
 * The names the language knows (global functions, methods, file fields), so that an unknown one is
 * refused naming itself and the closest known name.
 */

export const GLOBAL_FUNCTIONS = [
  'escapeHTML',
  'date',
  'duration',
  'file',
  'html',
  'if',
  'image',
  'icon',
  'link',
  'list',
  'max',
  'min',
  'now',
  'number',
  'today',
  'random',
] as const;

export const FILE_FIELDS = [
  'name',
  'basename',
  'path',
  'folder',
  'ext',
  'size',
  'properties',
  'tags',
  'links',
  'embeds',
  'backlinks',
  'ctime',
  'mtime',
  'file',
] as const;

export const METHODS: Readonly<Record<string, readonly string[]>> = {
  any: ['isTruthy', 'isType', 'toString'],
  date: ['date', 'format', 'time', 'relative', 'isEmpty'],
  string: [
    'contains',
    'containsAll',
    'containsAny',
    'endsWith',
    'isEmpty',
    'lower',
    'replace',
    'repeat',
    'reverse',
    'slice',
    'split',
    'startsWith',
    'title',
    'trim',
  ],
  number: ['abs', 'ceil', 'floor', 'isEmpty', 'round', 'toFixed'],
  list: [
    'contains',
    'containsAll',
    'containsAny',
    'filter',
    'flat',
    'isEmpty',
    'join',
    'map',
    'reduce',
    'reverse',
    'slice',
    'sort',
    'unique',
    'mean',
    'sum',
  ],
  link: ['asFile', 'linksTo'],
  file: ['asLink', 'hasLink', 'hasProperty', 'hasTag', 'inFolder'],
  object: ['isEmpty', 'keys', 'values'],
  regexp: ['matches'],
};

export const ALL_METHODS: ReadonlySet<string> = new Set(Object.values(METHODS).flat());

/** The known name closest to `name` (edit distance at most 3, or a case-insensitive match), if any. */
export function suggest(name: string, known: Iterable<string>): string | null {
  let best: string | null = null;
  let bestDistance = 4;
  for (const k of known) {
    if (k.toLowerCase() === name.toLowerCase()) return k;
    const d = distance(name.toLowerCase(), k.toLowerCase());
    if (d < bestDistance) {
      best = k;
      bestDistance = d;
    }
  }
  return best;
}

/** ` Did you mean "x"?` or nothing. */
export function didYouMean(name: string, known: Iterable<string>): string {
  const s = suggest(name, known);
  return s === null ? '' : ` Did you mean "${s}"?`;
}

function distance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 3) return 4;
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(
        (prev[j] as number) + 1,
        (cur[j - 1] as number) + 1,
        (prev[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    prev = cur;
  }
  return prev[b.length] as number;
}
