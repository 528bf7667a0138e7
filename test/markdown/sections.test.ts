import { describe, expect, it } from 'vitest';
import { NotedError } from '../../src/common/errors.js';
import { findHeadings } from '../../src/markdown/headings.js';
import {
  findSection,
  formatHeading,
  parseHeadingSelector,
  sectionsOf,
  stripHeading,
} from '../../src/markdown/sections.js';

function caught(fn: () => unknown): NotedError {
  try {
    fn();
  } catch (err) {
    if (err instanceof NotedError) return err;
    throw err;
  }
  throw new Error('expected a NotedError');
}

const NOTE = [
  '# Project',
  'intro',
  '## Risks',
  'r',
  '### Detail',
  'd',
  '## Plan',
  'p',
  '# Other',
  'o',
  '',
].join('\n');

describe('parseHeadingSelector', () => {
  it('a bare name matches any level; # marks a level', () => {
    expect(parseHeadingSelector('Risks')).toEqual({ level: null, text: 'Risks' });
    expect(parseHeadingSelector('  ## Risks  ')).toEqual({ level: 2, text: 'Risks' });
    expect(parseHeadingSelector('### Risks ###')).toEqual({ level: 3, text: 'Risks' });
  });

  it('#Risks without a space is text, not a level', () => {
    expect(parseHeadingSelector('#Risks')).toEqual({ level: null, text: '#Risks' });
  });
});

describe('stripHeading (LNK-40)', () => {
  it('turns punctuation into spaces, collapses whitespace and trims', () => {
    expect(stripHeading('  My: Heading!! (v2) ')).toBe('My Heading v2');
    expect(stripHeading('a/b\\c[d]e|f')).toBe('a b c d e f');
  });

  it('keeps letters, digits, - and _ and non-ASCII text', () => {
    expect(stripHeading('Ünïcode-name_1 日本')).toBe('Ünïcode-name_1 日本');
  });
});

describe('sectionsOf (HDG-05 #1)', () => {
  it('a section ends at the next heading of the same or a higher level; own text ends at the first sub-heading', () => {
    const sections = sectionsOf(findHeadings(NOTE), NOTE.length);
    const at = (s: string) => NOTE.indexOf(s);
    expect(sections.map((s) => [s.heading.text, s.ownEnd, s.end])).toEqual([
      ['Project', at('## Risks'), at('# Other')],
      ['Risks', at('### Detail'), at('## Plan')],
      ['Detail', at('## Plan'), at('## Plan')],
      ['Plan', at('# Other'), at('# Other')],
      ['Other', NOTE.length, NOTE.length],
    ]);
  });
});

describe('findSection', () => {
  it('finds a heading by text at any level, or by level', () => {
    expect(findSection(NOTE, 'Detail').heading.level).toBe(3);
    expect(findSection(NOTE, '## Plan').heading.text).toBe('Plan');
  });

  it('a level that does not fit is not found', () => {
    const err = caught(() => findSection(NOTE, '### Plan'));
    expect(err.code).toBe('validation_error');
    expect(err.details.headings).toEqual(['# Project', '## Risks', '### Detail', '## Plan', '# Other']);
    expect(err.message).toContain('No heading matches "### Plan"');
  });

  it('an exact match wins over a looser one', () => {
    const text = '## risks!\na\n## Risks\nb\n';
    expect(findSection(text, 'Risks').heading.line).toBe(2);
  });

  it('without an exact match, compares case-insensitively after stripHeading (HDG-06)', () => {
    const text = '## My Heading!\nx\n';
    expect(findSection(text, 'my heading').heading.text).toBe('My Heading!');
    expect(findSection(text, '## MY: heading').heading.text).toBe('My Heading!');
  });

  it('several matches without occurrence are ambiguous, with 1-based candidate lines', () => {
    const text = '# A\n## Notes\nx\n# B\n### Notes\ny\n';
    const err = caught(() => findSection(text, 'Notes'));
    expect(err.code).toBe('ambiguous');
    expect(err.details.candidates).toEqual([
      { heading: '## Notes', level: 2, line: 2 },
      { heading: '### Notes', level: 3, line: 5 },
    ]);
    expect(err.message).toContain('2 headings match "Notes"');
    expect(err.message).toContain('occurrence');
  });

  it('occurrence picks among equal headings, 1-based', () => {
    const text = '## Notes\nx\n## Notes\ny\n';
    expect(findSection(text, 'Notes', 2).heading.line).toBe(2);
    expect(findSection(text, 'Notes', 1).heading.line).toBe(0);
  });

  it.each([0, -1, 3, 1.5, Number.NaN])('occurrence %s out of range is a validation error', (occurrence) => {
    const err = caught(() => findSection('## Notes\n## Notes\n', 'Notes', occurrence));
    expect(err.code).toBe('validation_error');
    expect(err.message).toContain('from 1 to 2');
    expect(err.details.matches).toBe(2);
  });

  it('occurrence 1 is fine for a single match, 2 is out of range', () => {
    expect(findSection(NOTE, 'Plan', 1).heading.text).toBe('Plan');
    expect(caught(() => findSection(NOTE, 'Plan', 2)).code).toBe('validation_error');
  });

  it('an empty selector is a validation error', () => {
    expect(caught(() => findSection(NOTE, '  ')).code).toBe('validation_error');
    expect(caught(() => findSection(NOTE, '## ')).code).toBe('validation_error');
  });

  it('a note without headings says so', () => {
    const err = caught(() => findSection('plain text', 'X'));
    expect(err.details.headings).toEqual([]);
    expect(err.message).toContain('has no headings');
  });

  it('headings in code fences are never targets', () => {
    const err = caught(() => findSection('```\n## Hidden\n```\n', 'Hidden'));
    expect(err.code).toBe('validation_error');
  });

  it('formatHeading shows a heading as a model would type it', () => {
    expect(formatHeading({ level: 3, text: 'Risks' })).toBe('### Risks');
  });
});
