import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildExcerpt } from '../../../../src/index/search/check/excerpt.js';

/** The visible text of an excerpt: without highlight markers and ellipses. */
const visible = (excerpt: string): string => excerpt.replaceAll('**', '').replace(/^…|…$/g, '');
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const filler = (n: number, word = 'lorem'): string => Array.from({ length: n }, () => word).join(' ');

describe('buildExcerpt: matching', () => {
  it('wraps each match in ** regardless of case', () => {
    expect(buildExcerpt('The Budget and the BUDGET.', ['budget'])).toBe('The **Budget** and the **BUDGET**.');
  });

  it('ignores accents both ways but shows the text as written', () => {
    expect(buildExcerpt('Met at the Café.', ['cafe'])).toBe('Met at the **Café**.');
    expect(buildExcerpt('A cafe nearby.', ['café'])).toBe('A **cafe** nearby.');
    // A decomposed é (e + U+0301) is highlighted whole.
    expect(buildExcerpt('Le cafe\u0301 noir', ['café'])).toBe('Le **cafe\u0301** noir');
  });

  it('matches whole words, as the index does', () => {
    expect(buildExcerpt('The category of cat.', ['cat'])).toBe('The category of **cat**.');
  });

  it('matches a phrase across any punctuation and line breaks', () => {
    expect(buildExcerpt('Our budget,\n\n  review is due.', ['budget review'])).toBe(
      'Our **budget, review** is due.',
    );
  });

  it('prefers the longer term where two start at the same place', () => {
    expect(buildExcerpt('the budget review', ['budget', 'budget review'])).toBe('the **budget review**');
  });

  it('finds a CJK word inside a longer run of characters', () => {
    expect(buildExcerpt('東京都の渋谷に行きました。', ['東京'])).toBe('**東京**都の渋谷に行きました。');
    expect(buildExcerpt('서울에서 맛있는 음식을 먹었어요.', ['음식'])).toBe(
      '서울에서 맛있는 **음식**을 먹었어요.',
    );
    expect(buildExcerpt('Tokyo東京 trip', ['tokyo'])).toBe('**Tokyo**東京 trip');
  });

  it('keeps voiced kana distinct, as the index does', () => {
    expect(buildExcerpt('かがみ', ['か'])).toBe('**か**がみ');
  });

  it('folds letters that grow when lower-cased without losing its place', () => {
    expect(buildExcerpt('İstanbul and Izmir', ['istanbul', 'izmir'])).toBe('**İstanbul** and **Izmir**');
  });

  it('ignores terms with no letters or digits', () => {
    expect(buildExcerpt('a & b', ['&', '', '...'])).toBe('a & b');
  });
});

describe('buildExcerpt: the window', () => {
  it('collapses whitespace runs to one space', () => {
    expect(buildExcerpt('one\n\n\ttwo   three', [])).toBe('one two three');
  });

  it('returns the start of the text, cut at a word, when nothing matches', () => {
    const text = `${filler(100)} end`;
    const excerpt = buildExcerpt(text, ['absent'], 50);
    expect(excerpt.endsWith('…')).toBe(true);
    expect(excerpt.startsWith('lorem')).toBe(true);
    expect(visible(excerpt)).toMatch(/^(lorem )*lorem$/);
    expect(visible(excerpt).length).toBeLessThanOrEqual(50);
  });

  it('centres on a match deep in the text, with … at both cuts and whole words', () => {
    const text = `${filler(200, 'alpha')} needle ${filler(200, 'omega')}`;
    const excerpt = buildExcerpt(text, ['needle'], 60);
    expect(excerpt).toMatch(/^…(alpha )+\*\*needle\*\*( omega)+…$/);
    expect(visible(excerpt).length).toBeLessThanOrEqual(60);
  });

  it('picks the cluster with the most distinct terms over an earlier lone match', () => {
    const text = `budget ${filler(100)} budget review ${filler(100)}`;
    const excerpt = buildExcerpt(text, ['budget', 'review'], 80);
    expect(excerpt).toContain('**budget** **review**');
    expect(excerpt.startsWith('…')).toBe(true);
  });

  it('shows the first match when several are equally dense', () => {
    const text = `first ${filler(100)} second ${filler(100)}`;
    expect(buildExcerpt(text, ['first', 'second'], 40).startsWith('**first**')).toBe(true);
  });

  it('never cuts a surrogate pair in two', () => {
    const text = '😀'.repeat(300);
    for (const max of [10, 11, 57, 240]) {
      const excerpt = buildExcerpt(text, [], max);
      expect(excerpt).not.toMatch(LONE_SURROGATE);
    }
    const around = `${'😀'.repeat(100)} key ${'😀'.repeat(100)}`;
    const excerpt = buildExcerpt(around, ['key'], 41);
    expect(excerpt).toContain('**key**');
    expect(excerpt).not.toMatch(LONE_SURROGATE);
  });

  it('never cuts a letter off from its combining accent', () => {
    const text = `${'x'.repeat(50)}e\u0301${'y'.repeat(50)}`;
    expect(buildExcerpt(text, [], 51)).toBe(`${'x'.repeat(50)}…`);
  });

  it('shows a short text whole, without ellipses', () => {
    expect(buildExcerpt('Short note about the budget.', ['budget'], 240)).toBe(
      'Short note about the **budget**.',
    );
  });

  it('returns an empty string for an empty text', () => {
    expect(buildExcerpt('', ['a'])).toBe('');
  });

  it('handles a 5 MB body with the match near the end', () => {
    const ascii = `${'lorem ipsum dolor sit amet '.repeat(200_000)}the needle here`;
    expect(ascii.length).toBeGreaterThan(5_000_000);
    expect(buildExcerpt(ascii, ['needle'])).toContain('**needle** here');

    const accented = `${'déjà vu, ça va très bien. '.repeat(200_000)}the Nèedle here`;
    expect(buildExcerpt(accented, ['needle'])).toContain('**Nèedle** here');

    const cjk = `${'東京都の渋谷に行きました。'.repeat(400_000)}大阪`;
    expect(buildExcerpt(cjk, ['大阪'])).toMatch(/\*\*大阪\*\*$/);
  });
});

describe('buildExcerpt: properties', () => {
  const pieces = ['a', 'b', 'é', 'e\u0301', 'É', '東', '京', '서', ' ', '\n', '😀', '.', 'budget', 'İ'];
  const textArb = fc.array(fc.constantFrom(...pieces), { maxLength: 400 }).map((xs) => xs.join(''));
  const termsArb = fc.array(fc.constantFrom('a', 'e', 'budget', '東京', 'b a', '서', '😀'), { maxLength: 3 });

  it('stays within maxChars, keeps surrogate pairs whole and shows only text from the note', () => {
    fc.assert(
      fc.property(textArb, termsArb, fc.integer({ min: 1, max: 120 }), (text, terms, max) => {
        const excerpt = buildExcerpt(text, terms, max);
        const shown = visible(excerpt);
        expect(shown.length).toBeLessThanOrEqual(max);
        expect(excerpt).not.toMatch(LONE_SURROGATE);
        expect(text.replace(/\s+/g, ' ')).toContain(shown);
      }),
      { numRuns: 500 },
    );
  });

  it('highlights the same whether the text folds in place or a combining mark makes it shorter', () => {
    // Without combining marks every fold keeps the length and takes the in-place way; a mark added at
    // the end (dropped when folded) sends the same text the general way.
    const inPlace = [
      'a',
      'b',
      'é',
      'É',
      'Ä',
      'ß',
      'Ω',
      '東',
      '京',
      'か',
      'が',
      '서',
      ' ',
      '\n',
      '😀',
      '.',
      'budget',
      'İ',
      'ﬁ',
    ];
    const inPlaceText = fc.array(fc.constantFrom(...inPlace), { maxLength: 300 }).map((xs) => xs.join(''));
    const terms = fc.array(
      fc.constantFrom('a', 'e', 'budget', 'ea', 'i', 'ω', '東京', 'が', '서', 'b a', 'ss'),
      {
        minLength: 1,
        maxLength: 3,
      },
    );
    const tail = ' x\u0301';
    let highlighted = 0;
    fc.assert(
      fc.property(inPlaceText, terms, (text, ts) => {
        const direct = buildExcerpt(text, ts, 10_000);
        const general = buildExcerpt(text + tail, ts, 10_000);
        expect(general.endsWith(tail.trim())).toBe(true);
        expect(general.slice(0, -tail.length).trimEnd()).toBe(direct);
        if (direct.includes('**')) highlighted++;
      }),
      { numRuns: 500 },
    );
    expect(highlighted).toBeGreaterThan(50);
  });
});
