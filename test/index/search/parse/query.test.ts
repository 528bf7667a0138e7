import { describe, expect, it } from 'vitest';
import { NotedError } from '../../../../src/common/errors.js';
import {
  MAX_GROUP_DEPTH,
  MAX_QUERY_CHARS,
  MAX_QUERY_TERMS,
} from '../../../../src/index/search/parse/limits.js';
import { parseSearchQuery } from '../../../../src/index/search/parse/query.js';
import { and, field, not, or, phrase, word } from '../../query-nodes.js';

/** The NotedError a query is refused with. */
function refusal(query: string): NotedError {
  try {
    parseSearchQuery(query);
  } catch (err) {
    if (err instanceof NotedError) return err;
    throw err;
  }
  throw new Error(`expected ${JSON.stringify(query)} to be refused`);
}

describe('parseSearchQuery: constructs', () => {
  it('reads one word as a word', () => {
    expect(parseSearchQuery('budget')).toEqual(word('budget'));
  });

  it('reads words side by side as AND', () => {
    expect(parseSearchQuery('  budget   review ')).toEqual(and(word('budget'), word('review')));
  });

  it('reads "…" as one phrase', () => {
    expect(parseSearchQuery('"budget review" 2026')).toEqual(and(phrase('budget review'), word('2026')));
  });

  it('reads -term, -"phrase" and -(group) as exclusions', () => {
    expect(parseSearchQuery('plan -draft')).toEqual(and(word('plan'), not(word('draft'))));
    expect(parseSearchQuery('plan -"old draft"')).toEqual(and(word('plan'), not(phrase('old draft'))));
    expect(parseSearchQuery('plan -(draft OR old)')).toEqual(
      and(word('plan'), not(or(word('draft'), word('old')))),
    );
  });

  it('keeps a hyphen inside a word as part of the word', () => {
    expect(parseSearchQuery('e-mail follow-up')).toEqual(and(word('e-mail'), word('follow-up')));
  });

  it('reads upper-case OR as OR, with AND binding tighter', () => {
    expect(parseSearchQuery('a OR b')).toEqual(or(word('a'), word('b')));
    expect(parseSearchQuery('a b OR c')).toEqual(or(and(word('a'), word('b')), word('c')));
    expect(parseSearchQuery('a OR b c')).toEqual(or(word('a'), and(word('b'), word('c'))));
    expect(parseSearchQuery('a OR b OR c')).toEqual(or(word('a'), word('b'), word('c')));
  });

  it('reads lower-case or as a word, as Obsidian does', () => {
    expect(parseSearchQuery('this or that')).toEqual(and(word('this'), word('or'), word('that')));
  });

  it('groups with parentheses', () => {
    expect(parseSearchQuery('a (b OR c)')).toEqual(and(word('a'), or(word('b'), word('c'))));
    expect(parseSearchQuery('(a b) OR c')).toEqual(or(and(word('a'), word('b')), word('c')));
    expect(parseSearchQuery('((a))')).toEqual(word('a'));
  });

  it('flattens nested groups of the same operator', () => {
    expect(parseSearchQuery('a (b c)')).toEqual(and(word('a'), word('b'), word('c')));
    expect(parseSearchQuery('a OR (b OR c)')).toEqual(or(word('a'), word('b'), word('c')));
  });

  it('reads tag:, path: and file: as fields, value as typed', () => {
    expect(parseSearchQuery('tag:#Work')).toEqual(field('tag', '#Work'));
    expect(parseSearchQuery('tag:work/x')).toEqual(field('tag', 'work/x'));
    expect(parseSearchQuery('path:Projects/2026')).toEqual(field('path', 'Projects/2026'));
    expect(parseSearchQuery('file:plan')).toEqual(field('file', 'plan'));
  });

  it('accepts a quoted field value with spaces', () => {
    expect(parseSearchQuery('path:"my folder" notes')).toEqual(
      and(field('path', 'my folder'), word('notes')),
    );
  });

  it('accepts field names in any case', () => {
    expect(parseSearchQuery('TAG:work')).toEqual(field('tag', 'work'));
  });

  it('combines fields with text, OR and exclusion', () => {
    expect(parseSearchQuery('budget -tag:archive OR file:plan')).toEqual(
      or(and(word('budget'), not(field('tag', 'archive'))), field('file', 'plan')),
    );
  });

  it('refuses an unknown operator, naming the ones that come close (issue 26)', () => {
    const err = refusal('titel:x');
    expect(err.code).toBe('validation_error');
    expect(err.message).toContain('"titel:" at position 1 (near `titel:x`) is not a search operator');
    expect(err.message).toContain('Did you mean file: or [title]?');
    expect(err.message).toContain('line:, block:, section:');
    expect(refusal('lien:(a b)').message).toContain('Did you mean line:?');
    expect(refusal('taks-todo:x').message).toContain('task-todo:');
    expect(refusal('a foo:bar').details.position).toBe(3);
  });

  it('reads a link, a time and prose with a colon as words, not operators', () => {
    expect(parseSearchQuery('https://example.com/x')).toEqual(word('https://example.com/x'));
    expect(parseSearchQuery('agenda: budget')).toEqual(and(word('agenda:'), word('budget')));
    expect(parseSearchQuery('10:30')).toEqual(word('10:30'));
    expect(parseSearchQuery('"title:x"')).toEqual(phrase('title:x'));
  });

  it('reads FTS5 syntax as plain words', () => {
    expect(parseSearchQuery('NEAR AND NOT budget*')).toEqual(
      and(word('NEAR'), word('AND'), word('NOT'), word('budget*')),
    );
    expect(parseSearchQuery('^start')).toEqual(word('^start'));
  });

  it('keeps a quote inside a word as a literal character', () => {
    expect(parseSearchQuery('don"t 5"')).toEqual(and(word('don"t'), word('5"')));
  });

  it('reads accented and CJK words as words', () => {
    expect(parseSearchQuery('café 東京 서울')).toEqual(and(word('café'), word('東京'), word('서울')));
  });

  it('drops a word or phrase with no letter or digit inside an AND', () => {
    expect(parseSearchQuery('rock & roll')).toEqual(and(word('rock'), word('roll')));
    expect(parseSearchQuery('a - b')).toEqual(and(word('a'), word('b')));
    expect(parseSearchQuery('a "..." 🎉')).toEqual(word('a'));
  });

  it('reads dashes in prose as punctuation, not as exclusions', () => {
    expect(parseSearchQuery('a -- b')).toEqual(and(word('a'), word('b')));
    expect(parseSearchQuery('a -> b -')).toEqual(and(word('a'), word('b')));
    expect(parseSearchQuery('plan -&')).toEqual(word('plan'));
  });
});

describe('parseSearchQuery: malformed queries say what and where', () => {
  it('refuses an empty or blank query', () => {
    for (const q of ['', '   ', '\n\t']) {
      const err = refusal(q);
      expect(err.code).toBe('validation_error');
      expect(err.message).toMatch(/empty/);
    }
  });

  it('refuses an unclosed quote, at the quote', () => {
    const err = refusal('plan "budget review');
    expect(err.code).toBe('validation_error');
    expect(err.details.position).toBe(6);
    expect(err.message).toContain('Unclosed quote at position 6 (near `plan "budget review`)');
  });

  it('refuses an unclosed quote in a field value', () => {
    const err = refusal('path:"my folder');
    expect(err.details.position).toBe(6);
    expect(err.message).toContain('Unclosed quote');
  });

  it('refuses empty quotes', () => {
    const err = refusal('a ""');
    expect(err.details.position).toBe(3);
    expect(err.message).toContain('Empty quotes at position 3');
  });

  it('refuses an unclosed parenthesis, at the parenthesis', () => {
    const err = refusal('a (b OR c');
    expect(err.details.position).toBe(3);
    expect(err.message).toContain('"(" at position 3 (near `a (b OR c`) is never closed');
  });

  it('refuses an unmatched closing parenthesis', () => {
    const err = refusal('a b) c');
    expect(err.details.position).toBe(4);
    expect(err.message).toContain('Unmatched ")" at position 4 (near `a b) c`)');
    expect(refusal(')').details.position).toBe(1);
  });

  it('refuses empty parentheses', () => {
    const err = refusal('a () b');
    expect(err.details.position).toBe(3);
    expect(err.message).toContain('Empty parentheses at position 3');
  });

  it('refuses OR with nothing before it', () => {
    for (const [q, pos] of [
      ['OR a', 1],
      ['a (OR b)', 4],
    ] as const) {
      const err = refusal(q);
      expect(err.details.position).toBe(pos);
      expect(err.message).toContain(`"OR" at position ${pos} (near \`${q}\`) has nothing before it`);
    }
  });

  it('refuses OR with nothing after it', () => {
    for (const [q, pos] of [
      ['a OR', 3],
      ['a OR OR b', 3],
      ['(a OR) b', 4],
    ] as const) {
      const err = refusal(q);
      expect(err.details.position).toBe(pos);
      expect(err.message).toContain(`"OR" at position ${pos} (near \`${q}\`) has nothing after it`);
    }
  });

  it('refuses a field with an empty value', () => {
    for (const q of ['tag:', 'x path:', 'file: plan', 'tag:#']) {
      const err = refusal(q);
      expect(err.code).toBe('validation_error');
      expect(err.message).toMatch(/has no (value|tag name)/);
    }
    expect(refusal('x path:').details.position).toBe(3);
  });

  it('distributes a field over a group: tag:(a OR -b) is tag:a OR -tag:b', () => {
    expect(parseSearchQuery('tag:(a OR -b)')).toEqual(or(field('tag', 'a'), not(field('tag', 'b'))));
    expect(parseSearchQuery('file:(x y)')).toEqual(and(field('file', 'x'), field('file', 'y')));
  });

  it('refuses a minus sign with nothing to exclude after it', () => {
    expect(refusal('a -OR b').message).toContain('"-" at position 3 (near `a -OR b`)');
    expect(refusal('--a').message).toContain('must be followed directly');
    expect(refusal('a -"b" --c').details.position).toBe(8);
  });

  it('refuses a query that only excludes', () => {
    for (const q of ['-draft', '-a -b', '-"x y"', '-(a OR b)', '-a OR -b', '-tag:x']) {
      const err = refusal(q);
      expect(err.code).toBe('validation_error');
      expect(err.message).toContain('needs at least one term to look for');
    }
  });

  it('accepts a query whose only wanted term is a field', () => {
    expect(parseSearchQuery('tag:x -draft')).toEqual(and(field('tag', 'x'), not(word('draft'))));
  });

  it('refuses a query with nothing searchable in it', () => {
    const err = refusal('* & ^');
    expect(err.details.position).toBe(1);
    expect(err.message).toContain('nothing to search for: "*" at position 1');
    expect(err.message).toContain('no letters or digits');
  });

  it('refuses excluding a phrase or group with no letters or digits', () => {
    const err = refusal('plan -"&"');
    expect(err.details.position).toBe(6);
    expect(err.message).toContain('The exclusion at position 6');
    expect(err.message).toContain('no letters or digits');
    expect(refusal('plan -(&)').message).toContain('no letters or digits');
  });

  it('refuses OR when one side has nothing searchable', () => {
    expect(refusal('a OR &').message).toContain('nothing searchable after it: "&" has no letters or digits');
    expect(refusal('(*) OR a').message).toContain('nothing searchable before it');
  });

  it('shortens the quoted context of a long query', () => {
    const err = refusal(`${'word '.repeat(10)}"unclosed ${'more '.repeat(10)}`);
    expect(err.message).toContain('position 51 (near `…d word word "unclosed more mor…`)');
  });

  it('counts positions in characters, not UTF-16 units', () => {
    // The emoji is two UTF-16 units but one character.
    expect(refusal('🎉 a "b').details.position).toBe(5);
  });

  it('refuses a query over the character limit as too_large', () => {
    const err = refusal('a'.repeat(MAX_QUERY_CHARS + 1));
    expect(err.code).toBe('too_large');
    expect(err.message).toContain(String(MAX_QUERY_CHARS));
    expect(() => parseSearchQuery(`${'a'.repeat(MAX_QUERY_CHARS - 1)} `)).not.toThrow();
  });

  it('refuses a query over the term limit as too_large', () => {
    const terms = Array.from({ length: MAX_QUERY_TERMS + 1 }, (_, i) => `w${i}`).join(' ');
    const err = refusal(terms);
    expect(err.code).toBe('too_large');
    expect(err.message).toContain(`${MAX_QUERY_TERMS + 1} different terms`);
    expect(() => parseSearchQuery(terms.slice(0, terms.lastIndexOf(' ')))).not.toThrow();
  });

  it('counts a repeated term once against the term limit (SPEC 3.3a)', () => {
    // 101 copies of one word, as typed, are one term; so are repeats in any case or spelling of it.
    expect(parseSearchQuery(Array.from({ length: 101 }, () => 'lorem').join(' '))).toEqual(word('lorem'));
    expect(
      parseSearchQuery(Array.from({ length: 300 }, (_, i) => (i % 2 ? 'Lorem' : 'lorem')).join(' ')),
    ).toEqual(word('lorem'));
    const distinct = Array.from({ length: 100 }, (_, i) => `w${i}`);
    expect(() => parseSearchQuery([...distinct, ...distinct].join(' '))).not.toThrow();
  });

  it('parses groups nested up to the depth limit', () => {
    const depth = MAX_GROUP_DEPTH;
    expect(parseSearchQuery(`${'('.repeat(depth)}a${')'.repeat(depth)}`)).toEqual(word('a'));
    expect(parseSearchQuery(`a ${'-(b '.repeat(depth)}c${')'.repeat(depth)}`).kind).toBe('and');
  });

  it('refuses groups nested deeper as too_large, at the parenthesis, without overflowing the stack', () => {
    // 1,999 unclosed parentheses overflowed the parser's stack (a RangeError, not an answer).
    for (const query of [
      `${'('.repeat(MAX_GROUP_DEPTH + 1)}a${')'.repeat(MAX_GROUP_DEPTH + 1)}`,
      `${'('.repeat(900)}a${')'.repeat(900)}`,
      `${'('.repeat(MAX_QUERY_CHARS - 1)}a`,
      `a ${'-(b '.repeat(MAX_GROUP_DEPTH + 1)}c${')'.repeat(MAX_GROUP_DEPTH + 1)}`,
    ]) {
      const err = refusal(query);
      expect(err.code).toBe('too_large');
      expect(err.message).toContain(`more than ${MAX_GROUP_DEPTH} deep`);
    }
    expect(
      refusal(`x ${'('.repeat(MAX_GROUP_DEPTH + 1)}a${')'.repeat(MAX_GROUP_DEPTH + 1)}`).details,
    ).toEqual({
      limit: MAX_GROUP_DEPTH,
      position: MAX_GROUP_DEPTH + 3,
    });
  });
});
