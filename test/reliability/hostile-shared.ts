/**
 * @module
 * Shared by the hostile-input property tests (hostile-*.test.ts): the fast-check settings from
 * limits.ts, a per-call deadline, and arbitraries that mix realistic values with nasty ones.
 */
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import type { CallResult, Connection } from '../helpers/vault.js';
import { HOSTILE } from './limits.js';

/** Every property runs with the suite's seed and run count. */
export const PROPERTY_OPTIONS = { seed: HOSTILE.seed, numRuns: HOSTILE.runs } as const;

/** A value as a short one-line string for failure messages. */
export function show(value: unknown, max = 300): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > max ? `${text.slice(0, max)}… (${text.length} chars)` : text;
}

/**
 * Calls a tool through the real client (which checks SPEC 3.1/3.2 on the answer) within
 * `HOSTILE.callLimitMs`, failing with the input that hung. A call that blocks the event loop cannot
 * be cut short in-process, so the time it took is checked after it returns as well.
 */
export async function timedCall(
  conn: Connection,
  tool: string,
  args: Record<string, unknown>,
): Promise<CallResult> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`${tool} gave no answer within ${HOSTILE.callLimitMs} ms for ${show(args)}`)),
      HOSTILE.callLimitMs,
    );
  });
  try {
    const result = await Promise.race([conn.call(tool, args), deadline]);
    const took = performance.now() - started;
    if (took > HOSTILE.callLimitMs) {
      throw new Error(`${tool} took ${Math.round(took)} ms (limit ${HOSTILE.callLimitMs}) for ${show(args)}`);
    }
    return result;
  } finally {
    clearTimeout(timer);
  }
}

/** Characters and fragments that break naive handling of names, paths, YAML, regexes and FTS5. */
const NASTY_PIECES = [
  // Paths
  '..',
  '.',
  '/',
  '\\',
  '//',
  '%2e',
  '%2e%2e',
  '%2F',
  '%5C',
  '%00',
  '~',
  'C:',
  '.md',
  '.MD',
  '.txt',
  '.noted',
  '.obsidian',
  '.git',
  'CON',
  'nul',
  // Control and odd Unicode
  '\u0000',
  '\n',
  '\r\n',
  '\t',
  '\u007f',
  '\u0085',
  '\u2028',
  '\u202e',
  '\ufeff',
  '\u200b',
  '\ud800',
  '\udfff',
  '😀',
  'é',
  'e\u0301',
  'İ',
  'ß',
  '東京',
  '서울',
  // Markdown, YAML
  '#',
  '[[',
  ']]',
  '|',
  '^',
  '---',
  ': ',
  '- ',
  '&a',
  '*a',
  '!!str',
  '? ',
  '{',
  '}',
  '[',
  ']',
  "'",
  '`',
  // Regex
  '.*',
  '(?:',
  '\\d',
  '[^',
  '$',
  '+?',
  '{2,}',
  '(',
  ')',
  // FTS5 and SQL
  '"',
  '*',
  'NEAR(',
  'AND',
  'OR',
  'NOT',
  'title:',
  'body:',
  '{title body}:',
  '-',
  '+',
  "'; DROP TABLE notes; --",
  '%',
  '_',
  ' ',
];

/** Ordinary words, so that some inputs are realistic and name things that exist. */
export const WORDS = ['idea', 'Plan', 'inbox', 'notes', 'alpha', 'zeppelin', 'a', 'x', 'draft', 'Idea'];

/** Arbitrary text built from nasty pieces, ordinary words and arbitrary code points. */
export function nastyText(maxPieces = 12): fc.Arbitrary<string> {
  const piece = fc.oneof(
    { weight: 10, arbitrary: fc.constantFrom(...NASTY_PIECES) },
    { weight: 8, arbitrary: fc.constantFrom(...WORDS) },
    { weight: 4, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 4 }) },
    { weight: 2, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 3 }) },
    {
      weight: 1,
      arbitrary: fc.constantFrom('x'.repeat(300), 'é'.repeat(200), 'a/'.repeat(17), '😀'.repeat(70)),
    },
  );
  return fc.array(piece, { maxLength: maxPieces }).map((parts) => parts.join(''));
}

/** Every file and link below `dir`, following no link; `skip` names top-level entries to leave out. */
export function treeOf(dir: string, skip: readonly string[] = []): Map<string, string> {
  const out = new Map<string, string>();
  const visit = (abs: string, rel: string) => {
    for (const entry of fs.readdirSync(abs, { withFileTypes: true })) {
      if (rel === '' && skip.includes(entry.name)) continue;
      const childRel = rel === '' ? entry.name : `${rel}/${entry.name}`;
      const childAbs = path.join(abs, entry.name);
      if (entry.isSymbolicLink()) out.set(childRel, `link -> ${fs.readlinkSync(childAbs)}`);
      else if (entry.isDirectory()) {
        out.set(`${childRel}/`, 'dir');
        visit(childAbs, childRel);
      } else out.set(childRel, fs.readFileSync(childAbs).toString('base64'));
    }
  };
  visit(dir, '');
  return out;
}
