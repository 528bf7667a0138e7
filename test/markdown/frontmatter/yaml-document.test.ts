/**
 * YAML parsed with its nesting checked before it is composed (markdown/frontmatter/yaml-document.ts). Regression
 * (issue 10, found by the hostile-files test): frontmatter of 10,000 nested `- - - …` made the yaml
 * composer recurse to the stack limit, and V8 aborted the whole server ("RegExpCompiler Allocation
 * failed - process out of memory", exit 134) on the second read of that note.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Document, isCollection, isPair, parseDocument } from 'yaml';
import { MAX_YAML_NESTING, parseYamlDocument } from '../../../src/markdown/frontmatter/yaml-document.js';

const OPTIONS = {
  version: '1.2',
  schema: 'core',
  uniqueKeys: false,
  merge: false,
  logLevel: 'error',
} as const;

/** How deeply collections nest in a composed document (no recursion). */
function composedDepth(doc: Document): number {
  let max = 0;
  const stack: [unknown, number][] = [[doc.contents, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop() as [unknown, number];
    if (isPair(node)) {
      stack.push([node.key, depth], [node.value, depth]);
    } else if (isCollection(node)) {
      max = Math.max(max, depth + 1);
      for (const item of node.items) stack.push([item, depth + 1]);
    }
  }
  return max;
}

/** The document's data, or what stops it from having any. */
function dataOf(doc: Document): unknown {
  try {
    return doc.toJS({ maxAliasCount: 100 });
  } catch (err) {
    return `threw ${(err as Error).message}`;
  }
}

function parsed(text: string): Document {
  const doc = parseYamlDocument(text, OPTIONS);
  if ('tooDeep' in doc) throw new Error(`too deep at line ${doc.line}`);
  return doc;
}

/** Token soup weighted towards nesting and broken YAML (at most 300 indicator characters). */
const soup = fc
  .array(
    fc.oneof(
      fc.constantFrom(
        '- ',
        '[',
        ']',
        '{',
        '}',
        ': ',
        '? ',
        ', ',
        'a',
        '"q"',
        "'s'",
        '\n',
        ' ',
        '#c\n',
        '|\n',
        '---\n',
        '&x ',
        '*x',
      ),
      fc
        .tuple(fc.constantFrom('- ', '[', '{', 'k: ', '\n '), fc.integer({ min: 2, max: 60 }))
        .map(([s, n]) => (s === '\n ' ? `\n${' '.repeat(n)}` : s.repeat(n))),
    ),
    { maxLength: 50 },
  )
  .map((pieces) => pieces.join(''))
  .filter((text) => (text.match(/[-?:[{]/g) ?? []).length <= 300);

describe('parseYamlDocument', () => {
  it('refuses 10,000 levels in flow and block form before composing, naming the line', () => {
    const cases: [string, number][] = [
      [`a: 1\nb: ${'['.repeat(10_000)}${']'.repeat(10_000)}\n`, 2],
      [`a: 1\nb: ${'{x: '.repeat(10_000)}1${'}'.repeat(10_000)}\n`, 2],
      [`a:\n  b:\n    ${'- '.repeat(10_000)}x\n`, 3],
      [Array.from({ length: 10_000 }, (_, i) => `${' '.repeat(i)}k${i}:\n`).join(''), MAX_YAML_NESTING],
      // Broken YAML nests too: lines of `k: k: k: …` each go deeper than the one before.
      [`${'k: '.repeat(20)}\n`.repeat(1000), 7],
    ];
    for (const [text, line] of cases) {
      const result = parseYamlDocument(text, OPTIONS);
      expect(result, text.slice(0, 40)).toEqual({ tooDeep: true, line: expect.any(Number) });
      expect((result as { line: number }).line, text.slice(0, 40)).toBeLessThanOrEqual(line);
    }
  });

  it('does not count brackets inside quotes, comments and block scalars', () => {
    const hidden = `a: "${'[['.repeat(200)}"\nb: '${'{'.repeat(300)}'\n# ${'['.repeat(300)}\nc: |\n  ${'- '.repeat(300)}\n`;
    expect(composedDepth(parsed(hidden))).toBe(1);
  });

  it('answers exactly as parseDocument: data, errors, their codes and places', () => {
    fc.assert(
      fc.property(soup, (text) => {
        const ours = parseYamlDocument(text, OPTIONS);
        fc.pre(!('tooDeep' in ours));
        const theirs = parseDocument(text, OPTIONS);
        const doc = ours as Document;
        expect(doc.errors.map((e) => [e.code, e.linePos?.[0]])).toEqual(
          theirs.errors.map((e) => [e.code, e.linePos?.[0]]),
        );
        expect(doc.errors.map((e) => e.message)).toEqual(
          theirs.errors.map((e) => e.message.split('\n')[0]?.replace(/ at line \d+, column \d+:?$/, '')),
        );
        expect(dataOf(doc)).toEqual(dataOf(theirs));
      }),
      { seed: 20261201, numRuns: 300 },
    );
  });

  it('whatever it composes nests at most MAX_YAML_NESTING deep', () => {
    fc.assert(
      fc.property(soup, (text) => {
        const doc = parseYamlDocument(text, OPTIONS);
        if (!('tooDeep' in doc)) expect(composedDepth(doc)).toBeLessThanOrEqual(MAX_YAML_NESTING);
      }),
      { seed: 20261202, numRuns: 500 },
    );
  });

  it('parses ordinary frontmatter and policies, and 50 levels of nesting', () => {
    const texts = [
      'title: A note\ntags: [a, b, c]\ndate: 2024-01-01\n',
      'default: read-only\nfolders:\n  private: hidden\n  inbox: read-write\n',
      'nested:\n  list:\n    - a: 1\n      b: [1, {c: 2}]\n    - - x\n      - y\n',
      `flow: ${'['.repeat(50)}1${']'.repeat(50)}\n`,
      `block:\n  ${'- '.repeat(50)}x\n`,
      Array.from({ length: 5000 }, (_, i) => `key${i}: 2024-01-01T10:00:00\n`).join(''),
    ];
    for (const text of texts) expect(parsed(text).toJS()).toEqual(parseDocument(text, OPTIONS).toJS());
  });
});
