import { Buffer } from 'node:buffer';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isNotedError } from '../../src/common/errors.js';
import {
  baseNameOf,
  folderOf,
  isHiddenPath,
  MAX_FOLDER_DEPTH,
  MAX_SEGMENT_BYTES,
  normalizeFolderName,
  normalizeNoteName,
  quoteName,
} from '../../src/vault/names.js';

/** Runs `fn` and returns the NotedError it throws; fails the test when it does not throw one. */
function refusal(fn: () => unknown): { code: string; message: string } {
  try {
    fn();
  } catch (error) {
    if (isNotedError(error)) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error('expected a NotedError, but nothing was thrown');
}

function refusedNote(input: string): string {
  const { code, message } = refusal(() => normalizeNoteName(input, '.md'));
  expect(code).toBe('invalid_name');
  return message;
}

describe('normalizeNoteName: canonical names', () => {
  it('adds .md when the name does not end in it, and keeps any case of .md', () => {
    expect(normalizeNoteName('inbox/idea', '.md')).toBe('inbox/idea.md');
    expect(normalizeNoteName('inbox/idea.md', '.md')).toBe('inbox/idea.md');
    expect(normalizeNoteName('Note.MD', '.md')).toBe('Note.MD');
    expect(normalizeNoteName('v1.2 notes', '.md')).toBe('v1.2 notes.md');
    expect(normalizeNoteName('x.txt', '.md')).toBe('x.txt.md');
  });

  it('reads \\ as /', () => {
    expect(normalizeNoteName('a\\b', '.md')).toBe('a/b.md');
    expect(normalizeNoteName('projects\\2024\\plan.md', '.md')).toBe('projects/2024/plan.md');
  });

  it('keeps the name as given: no trimming, no Unicode normalization', () => {
    const nfd = 'Cafe\u0301';
    expect(normalizeNoteName(nfd, '.md')).toBe(`${nfd}.md`);
    expect(normalizeNoteName(nfd, '.md')).not.toBe(normalizeNoteName(nfd.normalize('NFC'), '.md'));
    expect(normalizeNoteName(' idea ', '.md')).toBe(' idea .md');
  });

  it('keeps trailing dots and spaces on a segment, as Linux does', () => {
    expect(normalizeNoteName('draft.', '.md')).toBe('draft..md');
    expect(normalizeNoteName('folder /note', '.md')).toBe('folder /note.md');
  });

  it('is idempotent', () => {
    for (const name of ['a/b', 'Note.MD', 'x.txt', 'a\\b', '%2e%2e/x']) {
      const once = normalizeNoteName(name, '.md');
      expect(normalizeNoteName(once, '.md')).toBe(once);
    }
  });
});

describe('normalizeNoteName: rules that refuse a name', () => {
  it('refuses a value that is not a string, an empty name and a whitespace-only name', () => {
    expect(refusal(() => normalizeNoteName(42 as unknown as string, '.md')).message).toMatch(
      /expected a string/,
    );
    expect(refusedNote('')).toMatch(/empty/);
    expect(refusedNote('   ')).toMatch(/only whitespace/);
  });

  it.each(['../x', 'a/../b', 'a/..', '..', 'a/../../x', '..\\x', 'a\\..\\b'])(
    'refuses ".." in any position: %j',
    (input) => {
      expect(refusedNote(input)).toContain('".." segments are not allowed');
    },
  );

  it('names the rule, quotes the input and says what to do next', () => {
    expect(refusedNote('a/../b')).toBe(
      'Invalid note name "a/../b": ".." segments are not allowed; name notes by their path inside the vault, like "projects/plan.md".',
    );
  });

  it.each(['.', './x', 'a/./b', 'a/.'])('refuses "." segments: %j', (input) => {
    expect(refusedNote(input)).toContain('"." segments are not allowed');
  });

  it.each(['a//b', 'a/', '//a', 'a\\\\b'])('refuses empty segments: %j', (input) => {
    expect(refusedNote(input)).toMatch(/empty path segments|ends with "\/"|UNC/);
  });

  it('refuses a segment that is only whitespace', () => {
    expect(refusedNote('a/ /b')).toMatch(/only of whitespace/);
  });

  it('refuses absolute paths, Windows drives and UNC paths: names are vault-relative', () => {
    expect(refusedNote('/etc/passwd')).toMatch(
      /absolute paths are not allowed; names are relative to the vault/,
    );
    expect(refusedNote('C:\\x')).toMatch(/Windows drive paths/);
    expect(refusedNote('c:x')).toMatch(/Windows drive paths/);
    expect(refusedNote('\\\\server\\share')).toMatch(/UNC/);
    expect(refusedNote('\\x')).toMatch(/absolute paths/);
  });

  it('treats a colon after the first letter as an ordinary character', () => {
    expect(normalizeNoteName('notes/Re: plan', '.md')).toBe('notes/Re: plan.md');
  });

  it.each([
    ['\u0000', 'U+0000'],
    ['\n', 'U+000A'],
    ['\t', 'U+0009'],
    ['\u007f', 'U+007F'],
    ['\u0085', 'U+0085'],
  ])('refuses NUL and control characters: %j', (char, code) => {
    const message = refusedNote(`a${char}b`);
    expect(message).toContain(code);
    expect(message).toMatch(/control characters are not allowed/);
    // The quoted input shows the character escaped, never raw.
    expect(message).not.toContain(char);
  });

  it('refuses an unpaired surrogate, which could not be written to disk under the same name', () => {
    expect(refusedNote('a\ud800b')).toMatch(/unpaired UTF-16 surrogate/);
    expect(normalizeNoteName('smile \ud83d\ude00', '.md')).toBe('smile \ud83d\ude00.md');
  });

  it.each(['.obsidian/x', 'a/.git/x', '.noted/index', '.trash/old', 'a/.hidden', '.md', '...'])(
    'refuses a segment starting with "." (hidden): %j',
    (input) => {
      expect(refusedNote(input)).toMatch(/starts with "\."; hidden files and folders/);
    },
  );

  it(`accepts exactly ${MAX_FOLDER_DEPTH} folders and refuses ${MAX_FOLDER_DEPTH + 1}`, () => {
    const folders = (n: number) => Array.from({ length: n }, (_, i) => `f${i}`).join('/');
    expect(normalizeNoteName(`${folders(16)}/note`, '.md')).toBe(`${folders(16)}/note.md`);
    expect(refusedNote(`${folders(17)}/note`)).toMatch(/17 folders deep; notes may be nested at most 16/);
  });

  it(`refuses a segment over ${MAX_SEGMENT_BYTES} UTF-8 bytes, counting multi-byte characters and .md`, () => {
    // "é" is two bytes in UTF-8: 127 × 2 + "x" = 255 bytes is a valid folder name.
    const folder255 = `${'é'.repeat(127)}x`;
    expect(normalizeNoteName(`${folder255}/n`, '.md')).toBe(`${folder255}/n.md`);
    expect(refusedNote(`${folder255}é/n`)).toMatch(/is 257 bytes in UTF-8, more than the 255 bytes/);
    // A file name of 252 bytes becomes 255 with ".md"; 253 becomes 256 and is refused.
    const file252 = '€'.repeat(84); // "€" is three bytes
    expect(normalizeNoteName(file252, '.md')).toBe(`${file252}.md`);
    expect(refusedNote(`${file252}x`)).toMatch(/is 256 bytes in UTF-8.*the "\.md" ending counts/);
  });

  it('takes percent signs literally: encoded separators and dots are ordinary characters', () => {
    expect(normalizeNoteName('%2e%2e/x', '.md')).toBe('%2e%2e/x.md');
    expect(normalizeNoteName('x%2F..%2F..%2Fetc', '.md')).toBe('x%2F..%2F..%2Fetc.md');
    expect(normalizeNoteName('a%2F..%2Fb', '.md')).toBe('a%2F..%2Fb.md');
    expect(normalizeNoteName('%5C..%5Cx', '.md')).toBe('%5C..%5Cx.md');
    // Still validated as written: "..%2Fx" is one segment starting with ".", so it is hidden.
    expect(refusedNote('..%2Fx')).toMatch(/the segment "\.\.%2Fx" starts with "\."/);
    expect(refusedNote('%2e%2e/../x')).toContain('".." segments');
    expect(refusedNote('%2e%2e/../x')).toContain('".." segments');
  });
});

describe('normalizeFolderName', () => {
  it('gives "" for the vault root', () => {
    expect(normalizeFolderName('')).toBe('');
    expect(normalizeFolderName('/')).toBe('');
    expect(normalizeFolderName('.')).toBe('');
  });

  it('returns the path without a trailing separator and never adds .md', () => {
    expect(normalizeFolderName('projects/2024/')).toBe('projects/2024');
    expect(normalizeFolderName('projects\\2024\\')).toBe('projects/2024');
    expect(normalizeFolderName('archive.md')).toBe('archive.md');
  });

  it('applies the same segment rules as note names', () => {
    for (const input of ['/projects', '../x', 'a/./b', 'a//b', '.obsidian', 'a/.git', 'a\u0000b', 'C:\\x']) {
      const { code, message } = refusal(() => normalizeFolderName(input));
      expect(code).toBe('invalid_name');
      expect(message).toMatch(/^Invalid folder name /);
    }
  });

  it(`allows ${MAX_FOLDER_DEPTH} folders and refuses ${MAX_FOLDER_DEPTH + 1}`, () => {
    const folders = (n: number) => Array.from({ length: n }, (_, i) => `f${i}`).join('/');
    expect(normalizeFolderName(folders(16))).toBe(folders(16));
    expect(refusal(() => normalizeFolderName(folders(17))).message).toMatch(/17 folders deep/);
  });
});

describe('small helpers', () => {
  it('isHiddenPath is true when any segment starts with "."', () => {
    expect(isHiddenPath('.obsidian/app.json')).toBe(true);
    expect(isHiddenPath('a/.git/config')).toBe(true);
    expect(isHiddenPath('a/b/.hidden.md')).toBe(true);
    expect(isHiddenPath('a\\.noted\\x')).toBe(true);
    expect(isHiddenPath('a/b.c/d.md')).toBe(false);
    expect(isHiddenPath('')).toBe(false);
  });

  it('folderOf and baseNameOf split a canonical name', () => {
    expect(folderOf('a/b/c.md')).toBe('a/b');
    expect(folderOf('c.md')).toBe('');
    expect(baseNameOf('a/b/Plan.MD', '.md')).toBe('Plan');
    expect(baseNameOf('v1.2 notes.md', '.md')).toBe('v1.2 notes');
    expect(baseNameOf('x.txt.md', '.md')).toBe('x.txt');
  });

  it('quoteName makes control characters visible and cuts long names', () => {
    expect(quoteName('a\u0000\u007f\u0085b')).toBe('"a\\u0000\\u007f\\u0085b"');
    expect(quoteName('x'.repeat(500))).toBe(`"${'x'.repeat(200)}"…`);
  });
});

describe('normalizeNoteName property', () => {
  // Pieces that make dangerous names likely, mixed with arbitrary code points and lone surrogates.
  const piece = fc.oneof(
    {
      weight: 20,
      arbitrary: fc.constantFrom(
        '/',
        '\\',
        '.',
        '..',
        '%2e',
        '%2F',
        '%5C',
        ':',
        'C',
        ' ',
        '.md',
        '.MD',
        'é',
        '€',
      ),
    },
    { weight: 20, arbitrary: fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 6 }) },
    { weight: 4, arbitrary: fc.string({ unit: 'binary', maxLength: 3 }) },
    { weight: 1, arbitrary: fc.constantFrom('\u0000', '\n', '\u007f', '\u0085', '\u2028') },
    { weight: 1, arbitrary: fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c)) },
  );
  const name = fc.array(piece, { maxLength: 30 }).map((parts) => parts.join(''));

  it('either refuses with invalid_name or returns a safe canonical name', () => {
    fc.assert(
      fc.property(name, (input) => {
        let out: string;
        try {
          out = normalizeNoteName(input, '.md');
        } catch (error) {
          return isNotedError(error) && error.code === 'invalid_name';
        }
        const segments = out.split('/');
        return (
          /\.md$/i.test(out) &&
          !out.startsWith('/') &&
          !out.includes('\\') &&
          !/[\u0000-\u001f\u007f-\u009f]/.test(out) &&
          segments.every((s) => s !== '' && s !== '.' && s !== '..' && !s.startsWith('.')) &&
          segments.length - 1 <= MAX_FOLDER_DEPTH &&
          segments.every((s) => Buffer.byteLength(s, 'utf8') <= MAX_SEGMENT_BYTES) &&
          normalizeNoteName(out, '.md') === out
        );
      }),
      { numRuns: 2000 },
    );
  });
});
