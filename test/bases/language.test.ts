/**
 * The Bases expression language against a small vault, case by case. Expected values are the
 * Functions and Bases syntax pages' own examples where they give one (obsidianmd/obsidian-help,
 * en/Bases/); the rest pin the choices docs/bases.md records. "Today" is 2025-05-27 15:30 local.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { toJson } from '../../src/bases/compare.js';
import { Evaluator } from '../../src/bases/evaluate.js';
import type { BasesHost, FileFacts } from '../../src/bases/host.js';
import { BasesEvalError } from '../../src/bases/limits.js';
import { parseExpression } from '../../src/bases/parser.js';
import { memoryHost } from './memory-host.js';

let host: BasesHost & { all: FileFacts[] };

beforeAll(async () => {
  host = await memoryHost([
    {
      path: 'Books/Dune.md',
      props: {
        price: 3,
        age: 2,
        status: 'reading',
        author: '[[Frank]]',
        authors: ['[[Frank]]', '[[Brian]]'],
        started: '2024-12-01',
        nested: { subprop: 'deep', 'a b': 1 },
        'my prop': 'spaced',
        list: ['x', 'y'],
        done: false,
      },
      tags: ['book', 'scifi/classic'],
      links: ['Frank', '!cover.png', 'Missing note'],
      size: 1234,
    },
    { path: 'Frank.md', props: { role: 'author' }, tags: ['person'], links: ['Books/Dune'] },
    { path: 'Brian.md', props: {}, links: [] },
    { path: 'cover.png', size: 5000 },
  ]);
});

function dune(): FileFacts {
  return host.file('Books/Dune.md') as FileFacts;
}

/** The value of `source` on Dune's row, with `this` the file Frank.md, as a result would show it. */
function value(source: string, thisPath: string | null = 'Frank.md'): unknown {
  const ev = new Evaluator(host, new Map(), thisPath);
  const v = ev.tryEvaluate(parseExpression(source), ev.row(dune()));
  return v instanceof BasesEvalError ? { error: v.message } : toJson(v);
}

// [expression, expected] — from the Functions page unless marked.
const FUNCTIONS: [string, unknown][] = [
  // Global
  ['escapeHTML("<b>Tom & \'Jerry\'</b>")', '&lt;b&gt;Tom &amp; &#39;Jerry&#39;&lt;/b&gt;'],
  ['date("2025-01-01 12:00:00")', '2025-01-01T12:00:00'],
  ['date("2025-05-27")', '2025-05-27'],
  ['now() + (duration("1d") * 2) - now()', 2 * 86_400_000],
  ['duration("5h") * 2 == duration("10h")', true],
  ['file("Frank.md").name', 'Frank.md'],
  ['file(link("[[Frank]]")).path', 'Frank.md'],
  ['html("<i>x</i>")', '<i>x</i>'],
  ['if(price, price.toFixed(2) + " dollars")', '3.00 dollars'],
  ['if(missing, "yes")', null],
  ['if(done, "Modified", "Unmodified")', 'Unmodified'],
  [
    'image("https://obsidian.md/images/obsidian-logo-gradient.svg")',
    'https://obsidian.md/images/obsidian-logo-gradient.svg',
  ],
  ['icon("arrow-right")', 'arrow-right'],
  ['link("Frank")', '[[Frank.md]]'],
  ['link("Frank", "display")', '[[Frank.md|display]]'],
  ['link("https://obsidian.md")', 'https://obsidian.md'],
  ['list("value")', ['value']],
  ['list([1, 2])', [1, 2]],
  ['max(1, 5, 3)', 5],
  ['min(4, 2, 8)', 2],
  ['now()', '2025-05-27T15:30:00'],
  ['number("3.4")', 3.4],
  ['number(true)', 1],
  ['number(date("2025-01-01")) == date("2025-01-01") - date("1970-01-01T00:00:00Z")', true],
  ['number("abc")', { error: 'number(): "abc" is not a number.' }],
  ['today()', '2025-05-27'],
  ['random() >= 0 && random() < 1', true],
  // Any
  ['1.isTruthy()', true],
  ['"example".isType("string")', true],
  ['true.isType("boolean")', true],
  ['123.toString()', '123'],
  // Date
  ['date("2025-05-27 10:11:12").year', 2025],
  ['date("2025-05-27 10:11:12").month', 5],
  ['date("2025-05-27 10:11:12").day', 27],
  ['date("2025-05-27 10:11:12").hour', 10],
  ['date("2025-05-27 10:11:12").minute', 11],
  ['date("2025-05-27 10:11:12").second', 12],
  ['date("2025-05-27 10:11:12.345").millisecond', 345],
  ['now().date().format("YYYY-MM-DD HH:mm:ss")', '2025-05-27 00:00:00'],
  ['date("2025-05-27").format("YYYY-MM-DD")', '2025-05-27'],
  ['now().time()', '15:30:00'],
  ['file.mtime.relative()', 'a day ago'],
  ['(now() - "3 days").relative()', '3 days ago'],
  ['now().isEmpty()', false],
  // String
  ['"hello".length', 5],
  ['"hello".contains("ell")', true],
  ['"hello".containsAll("h", "e")', true],
  ['"hello".containsAny("x", "y", "e")', true],
  ['"hello".endsWith("lo")', true],
  ['"Hello world".isEmpty()', false],
  ['"".isEmpty()', true],
  ['missing.isEmpty()', true],
  ['"HeLLo".lower()', 'hello'],
  ['"a:b:c:d".replace(/:/, "-")', 'a-b:c:d'],
  ['"a:b:c:d".replace(/:/g, "-")', 'a-b-c-d'],
  ['"a:b:c:d".replace(":", "-")', 'a-b-c-d'],
  ['"John Smith".replace(/(\\w+) (\\w+)/, "$2, $1")', 'Smith, John'],
  ['"123".repeat(2)', '123123'],
  ['"hello".reverse()', 'olleh'],
  ['"hello".slice(1, 4)', 'ell'],
  ['"hello".slice(1)', 'ello'],
  ['"a,b,c,d".split(",", 3)', ['a', 'b', 'c']],
  ['"a,b,c,d".split(/,/, 3)', ['a', 'b', 'c']],
  ['"hello".startsWith("he")', true],
  ['"hello world".title()', 'Hello World'],
  ['"  hi  ".trim()', 'hi'],
  // Number
  ['(-5).abs()', 5],
  ['(2.1).ceil()', 3],
  ['(2.9).floor()', 2],
  ['5.isEmpty()', false],
  ['(2.5).round()', 3],
  ['(2.3333).round(2)', 2.33],
  ['(3.14159).toFixed(2)', '3.14'],
  // List
  ['[1,2,3].length', 3],
  ['[1,2,3].contains(2)', true],
  ['[1,2,3].containsAll(2,3)', true],
  ['[1,2,3].containsAny(3,4)', true],
  ['[1,2,3,4].filter(value > 2)', [3, 4]],
  ['[10,20,30].filter(index > 0)', [20, 30]],
  ['[1,[2,3]].flat()', [1, 2, 3]],
  ['[1,2,3].isEmpty()', false],
  ['[1,2,3].join(",")', '1,2,3'],
  ['[1,2,3,4].map(value + 1)', [2, 3, 4, 5]],
  ['[1,2,3].reduce(acc + value, 0)', 6],
  ['[3,"a",9,4].filter(value.isType("number")).reduce(if(acc == null || value > acc, value, acc), null)', 9],
  ['[].reduce(if(acc == null || value > acc, value, acc), null)', null],
  ['[1,2,3].reverse()', [3, 2, 1]],
  ['[1,2,3,4].slice(1,3)', [2, 3]],
  ['[3, 1, 2].sort()', [1, 2, 3]],
  ['["c", "a", "b"].sort()', ['a', 'b', 'c']],
  ['[1,2,2,3].unique()', [1, 2, 3]],
  // Link
  ['link("[[Frank]]").asFile().path', 'Frank.md'],
  ['link("Frank").linksTo(file("Books/Dune.md"))', true],
  ['link("Brian").linksTo(file("Books/Dune.md"))', false],
  // File
  ['file.name', 'Dune.md'],
  ['file.basename', 'Dune'],
  ['file.path', 'Books/Dune.md'],
  ['file.folder', 'Books'],
  ['file.ext', 'md'],
  ['file.size', 1234],
  ['file.properties.status', 'reading'],
  ['file.tags', ['#book', '#scifi/classic']],
  ['file.links', ['[[Frank.md]]', '[[Missing note]]']],
  ['file.embeds', ['[[cover.png]]']],
  ['file.backlinks', ['[[Frank.md]]']],
  ['file.ctime', '2025-05-17T15:30:00'],
  ['file.mtime', '2025-05-26T15:30:00'],
  ['file.file.path', 'Books/Dune.md'],
  ['file.asLink()', '[[Books/Dune.md]]'],
  ['file.asLink("Dune")', '[[Books/Dune.md|Dune]]'],
  ['file.hasLink(file("Frank.md"))', true],
  ['file.hasLink("Frank")', true],
  ['file.hasLink(link("Missing note"))', true],
  ['file.hasLink("Brian")', false],
  ['file.hasLink(this.file)', true],
  ['file.hasProperty("status")', true],
  ['file.hasProperty("nope")', false],
  ['file.hasTag("book")', true],
  ['file.hasTag("tag1", "scifi")', true],
  ['file.hasTag("classic")', false],
  ['file.inFolder("Books")', true],
  ['file.inFolder("Boo")', false],
  // Object
  ['{}.isEmpty()', true],
  ['{"a": 1, "b": 2}.keys()', ['a', 'b']],
  ['{"a": 1, "b": 2}.values()', [1, 2]],
  // RegExp
  ['/abc/.matches("abcde")', true],
  ['/ABC/i.matches("xabc")', true],
  ['/^b/.matches("abc")', false],
];

// [expression, expected] — from the Bases syntax page unless marked.
const SYNTAX: [string, unknown][] = [
  ['price * (2 * 3.14)', 18.84],
  ['7 + 3', 10],
  ['7 - 3', 4],
  ['7 * 3', 21],
  ['7 / 2', 3.5],
  ['7 % 3', 1],
  ['(1 + 2) * 3', 9],
  ['1 + 2 * 3', 7],
  ['-price + 1', -2],
  ['date("2024-12-01") + "1M" + "4h" + "3m"', '2025-01-01T04:03:00'],
  ['(now() + "1d") - now()', 86_400_000],
  ['now() + "1 day"', '2025-05-28T15:30:00'],
  ['today() + "7d"', '2025-06-03'],
  ['now() - "2h"', '2025-05-27T13:30:00'],
  ['date("2025-01-31") + "1 month"', '2025-02-28'],
  ['today() + "1y" + "2w"', '2026-06-10'],
  ['file.mtime > now() - "1 week"', true],
  ['now() - file.ctime', 10 * 86_400_000],
  ['now().hour', 15],
  ['started + "2w"', '2024-12-15'],
  ['started < date("2025-01-01")', true],
  ['started == "2024-12-01"', true],
  ['price == 3', true],
  ['price != 3', false],
  ['price > 2', true],
  ['price < 2', false],
  ['price >= 3', true],
  ['price <= 2.9', false],
  ['"a" == "a"', true],
  ['[1, 2] == [1, 2]', true],
  ['!done', true],
  ['price > 0 && age > 0', true],
  ['done || price', 3],
  ['!(price > 2) || false', false],
  ['(2.5)', 2.5],
  ['true', true],
  ['"message"', 'message'],
  ["'single'", 'single'],
  // Property access in every form
  ['note.price', 3],
  ['note["price"]', 3],
  ['price', 3],
  ['note["my prop"]', 'spaced'],
  ['list[0]', 'x'],
  ['list[5]', null],
  ['nested.subprop', 'deep'],
  ['nested["subprop"]', 'deep'],
  ['nested["a b"]', 1],
  ['missing', null],
  ['missing + 1', null],
  ['file.ext == "md"', true],
  ['this.file.name', 'Frank.md'],
  ['this.role', 'author'],
  ['this.note.role', 'author'],
  // Links in frontmatter
  ['author', '[[Frank.md]]'],
  ['author == this', true],
  ['author == link("Frank")', true],
  ['author == link("Frank.md", "other display")', true],
  ['author == file("Frank.md")', true],
  ['author == link("Brian")', false],
  ['link("Nowhere") == link("Nowhere")', true],
  ['link("Nowhere") == link("Elsewhere")', false],
  ['authors.contains(this)', true],
  ['authors.contains(link("Brian"))', true],
  ['author.asFile().path', 'Frank.md'],
  ['link(file.ctime.date().toString())', '[[2025-05-17]]'],
  // Formulas page examples
  ['file.name + " - " + status', 'Dune.md - reading'],
  ['if(price, "$" + price.toFixed(2), "")', '$3.00'],
  ['list.contains("x")', true],
  ['started.format("YYYY-MM-DD")', '2024-12-01'],
  ['if(started < now() && status != "Done", "Overdue", "")', 'Overdue'],
  ['(price / age).toFixed(2)', '1.50'],
];

describe('Bases functions (the Functions page)', () => {
  it.each(FUNCTIONS)('%s', (source, expected) => {
    expect(value(source)).toEqual(expected);
  });
});

describe('Bases syntax (operators, dates, types, property access)', () => {
  it.each(SYNTAX)('%s', (source, expected) => {
    expect(value(source)).toEqual(expected);
  });
});

describe('bad input and bounds', () => {
  it('a method of another type names the type and suggests one of its own', () => {
    expect(value('price.lower()')).toEqual({
      error: '"lower" is not a method of a number. Did you mean "floor"?',
    });
    expect(value('"x".containz("y")')).toEqual({
      error: 'Unknown function "containz". Did you mean "contains"?',
    });
  });

  it('repeat beyond the text bound is an error in the cell, not a stall', () => {
    expect(value('"abc".repeat(10000000)')).toEqual({
      error: 'repeat(10000000) would build 30000000 characters; at most 1000000 are allowed.',
    });
  });

  it('a list past the bound is an error', () => {
    const v = value('"x".repeat(200000).split("")') as { error: string };
    expect(v.error).toMatch(/longer than the 100000 allowed/);
  });

  it('work past the step bound on one row is stopped', () => {
    const v = value('"x".repeat(90000).split("").map([1,2,3,4,5,6,7,8,9,10].map(value * 2)).length') as {
      error: string;
    };
    expect(v.error).toMatch(/more than 2000000 steps/);
  });

  it('a catastrophic pattern runs in linear time (RE2)', () => {
    expect(value(`/(a|aa)*b/.matches("${'a'.repeat(5000)}")`)).toBe(false);
  });

  it('this is null where nothing stands for it', () => {
    expect(value('this', null)).toBe(null);
  });
});
