import { describe, expect, it } from 'vitest';
import { APP_MARKS } from '../../src/console/assets/app-marks.js';
import { HIDDEN_CHAR, hiddenCharsIn } from '../../src/console/hidden-chars.js';

describe('hidden characters (issue 30.4)', () => {
  it('finds bidi controls, zero-width and other format characters, each once, in order', () => {
    expect(hiddenCharsIn(['drafts/Invoice \u202Efdp.md', 'status: \u202Eenon\u202C\u200B', 'plain'])).toEqual(
      ['U+202E', 'U+202C', 'U+200B'],
    );
    expect(hiddenCharsIn(['\u2066a\u2069 \uFEFF \u00AD \u200D \u2028'])).toEqual([
      'U+2066',
      'U+2069',
      'U+FEFF',
      'U+00AD',
      'U+200D',
      'U+2028',
    ]);
    expect(hiddenCharsIn(['café — naïve 日本'])).toEqual([]);
  });

  it('the page marks exactly what the server warns of: one pattern', () => {
    expect(APP_MARKS).toContain(`var HIDDEN_CHAR = /${HIDDEN_CHAR.source}/${HIDDEN_CHAR.flags};`);
  });
});
