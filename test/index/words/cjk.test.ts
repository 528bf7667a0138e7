import { describe, expect, it } from 'vitest';
import { hasCjk, segmentCjk } from '../../../src/index/words/cjk.js';

describe('segmentCjk', () => {
  it('returns text without CJK untouched', () => {
    const text = 'Plain text, with café and naïve résumé.';
    expect(segmentCjk(text)).toBe(text);
    expect(segmentCjk('')).toBe('');
  });

  it('spaces out every Han ideograph so each is a token', () => {
    expect(segmentCjk('東京都')).toBe(' 東  京  都 ');
    expect(segmentCjk('東京都').trim().split(/\s+/)).toEqual(['東', '京', '都']);
  });

  it('spaces out Hiragana, Katakana and the prolonged sound mark', () => {
    expect(segmentCjk('ひらがな').trim().split(/\s+/)).toEqual(['ひ', 'ら', 'が', 'な']);
    expect(segmentCjk('コーヒー').trim().split(/\s+/)).toEqual(['コ', 'ー', 'ヒ', 'ー']);
  });

  it('spaces out Hangul syllables', () => {
    expect(segmentCjk('서울에서').trim().split(/\s+/)).toEqual(['서', '울', '에', '서']);
  });

  it('keeps Latin words whole next to CJK', () => {
    expect(segmentCjk('Tokyo東京 trip').split(/\s+/).filter(Boolean)).toEqual(['Tokyo', '東', '京', 'trip']);
  });

  it('never splits an ideograph outside the Basic Multilingual Plane', () => {
    // U+20BB7 is a surrogate pair in UTF-16.
    expect(segmentCjk('𠮷野家').trim().split(/\s+/)).toEqual(['𠮷', '野', '家']);
  });
});

describe('hasCjk', () => {
  it('is true for Chinese, Japanese and Korean text', () => {
    expect(hasCjk('会议')).toBe(true);
    expect(hasCjk('カタカナ')).toBe(true);
    expect(hasCjk('한국어')).toBe(true);
    expect(hasCjk('mixed 東 text')).toBe(true);
  });

  it('is false for Latin, accented, Cyrillic and emoji text', () => {
    expect(hasCjk('café naïve')).toBe(false);
    expect(hasCjk('Привет')).toBe(false);
    expect(hasCjk('🎉 party')).toBe(false);
    expect(hasCjk('')).toBe(false);
  });
});

describe('hasCjk quick range test', () => {
  it('lets through Han from outside the BMP and refuses emoji, accents and dashes', () => {
    expect(hasCjk('𠀀 rare Han')).toBe(true);
    expect(hasCjk('ｰ halfwidth prolonged mark')).toBe(true);
    for (const s of ['📅 2026-01-01', 'café', 'a — b', '🙂']) expect(hasCjk(s)).toBe(false);
  });
});
