import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NotedError } from '../../src/common/errors.js';
import { applyEdit, type EditOperation } from '../../src/markdown/edit.js';
import { findSection } from '../../src/markdown/sections.js';

function caught(fn: () => unknown): NotedError {
  try {
    fn();
  } catch (err) {
    if (err instanceof NotedError) return err;
    throw err;
  }
  throw new Error('expected a NotedError');
}

const lines = (...parts: string[]) => parts.join('\n');

const NOTE = lines(
  '---',
  'title: Plan',
  '---',
  '# Project',
  '',
  'Intro.',
  '',
  '## Risks',
  '',
  '- budget',
  '',
  '### Detail',
  '',
  'Deep.',
  '',
  '## Plan',
  '',
  'Steps.',
  '',
);

describe('replace', () => {
  it('replaces the one exact match and keeps every other byte', () => {
    expect(applyEdit(NOTE, { kind: 'replace', oldText: 'Deep.', newText: 'Deeper.' })).toBe(
      NOTE.replace('Deep.', 'Deeper.'),
    );
  });

  it('empty newText deletes', () => {
    expect(applyEdit('a b c', { kind: 'replace', oldText: ' b', newText: '' })).toBe('a c');
  });

  it('replaceAll replaces every match', () => {
    expect(applyEdit('x-x-x', { kind: 'replace', oldText: 'x', newText: 'yy', replaceAll: true })).toBe(
      'yy-yy-yy',
    );
  });

  it('counts non-overlapping matches left to right', () => {
    expect(applyEdit('aaa', { kind: 'replace', oldText: 'aa', newText: 'b' })).toBe('ba');
    const err = caught(() => applyEdit('aaaa', { kind: 'replace', oldText: 'aa', newText: 'b' }));
    expect(err.details.matches).toBe(2);
  });

  it('several matches without replaceAll are ambiguous, saying how many', () => {
    const err = caught(() => applyEdit('one two one', { kind: 'replace', oldText: 'one', newText: 'x' }));
    expect(err.code).toBe('ambiguous');
    expect(err.details).toEqual({ matches: 2 });
    expect(err.message).toContain('matches 2 places');
    expect(err.message).toContain('replace_all');
    expect(err.message).toContain('surrounding text');
  });

  it('text found nowhere is a validation error that asks for an exact match', () => {
    const err = caught(() => applyEdit(NOTE, { kind: 'replace', oldText: 'deep.', newText: 'x' }));
    expect(err.code).toBe('validation_error');
    expect(err.message).toContain('must match exactly, including case, spaces and line breaks');
    expect(err.message).toContain('Read the note again');
  });

  it('empty oldText is a validation error', () => {
    const err = caught(() => applyEdit(NOTE, { kind: 'replace', oldText: '', newText: 'x' }));
    expect(err.code).toBe('validation_error');
    expect(err.message).toContain('old_text is empty');
  });

  it('a CRLF note: \\n line breaks do not match, and the error says why', () => {
    const text = 'a\r\nb\r\n';
    const err = caught(() => applyEdit(text, { kind: 'replace', oldText: 'a\nb', newText: 'x' }));
    expect(err.code).toBe('validation_error');
    expect(err.message).toContain('Windows line breaks');
  });

  it('a CRLF note: inserted line breaks become \\r\\n', () => {
    expect(applyEdit('a\r\nb\r\n', { kind: 'replace', oldText: 'b', newText: 'b1\nb2' })).toBe(
      'a\r\nb1\r\nb2\r\n',
    );
  });

  it('may change the frontmatter as long as it still parses', () => {
    const next = applyEdit(NOTE, {
      kind: 'replace',
      oldText: 'title: Plan',
      newText: 'title: Plan B\nstatus: draft',
    });
    expect(next.startsWith('---\ntitle: Plan B\nstatus: draft\n---\n# Project')).toBe(true);
  });
});

describe('refusing edits that break the frontmatter', () => {
  it('an edit that makes valid frontmatter unparseable is refused, naming the YAML error', () => {
    const err = caught(() =>
      applyEdit(NOTE, { kind: 'replace', oldText: 'title: Plan', newText: 'title: [' }),
    );
    expect(err.code).toBe('validation_error');
    expect(err.message).toContain('frontmatter YAML is invalid at line');
    expect(err.message).toContain('nothing was written');
    expect(err.details.frontmatterError).toMatch(/^frontmatter YAML is invalid/);
  });

  it('an edit that creates a broken block where there was none is refused', () => {
    const text = '---\nnot frontmatter yet\n';
    const err = caught(() => applyEdit(text, { kind: 'replace', oldText: 'yet\n', newText: 'a: [\n---\n' }));
    expect(err.code).toBe('validation_error');
  });

  it('a duplicate key added by an edit is refused', () => {
    const err = caught(() =>
      applyEdit(NOTE, { kind: 'replace', oldText: 'title: Plan', newText: 'title: A\ntitle: B' }),
    );
    expect(err.message).toContain('Map keys must be unique');
  });

  it('frontmatter that was already broken does not block other edits', () => {
    const text = '---\na: [\n---\nbody\n';
    expect(applyEdit(text, { kind: 'replace', oldText: 'body', newText: 'new body' })).toBe(
      '---\na: [\n---\nnew body\n',
    );
  });
});

describe('replace_section', () => {
  it('replaces the own text and keeps sub-sections and the heading line', () => {
    const next = applyEdit(NOTE, { kind: 'replace_section', heading: 'Risks', content: '- time' });
    expect(next).toBe(NOTE.replace('- budget', '- time'));
  });

  it('whole: true replaces the sub-sections too, up to the next heading of the same level', () => {
    const next = applyEdit(NOTE, {
      kind: 'replace_section',
      heading: '## Risks',
      content: '- time',
      whole: true,
    });
    expect(next).toBe(NOTE.replace('- budget\n\n### Detail\n\nDeep.\n', '- time\n'));
  });

  it('a level-1 section ends at the next level-1 heading only', () => {
    const text = lines('# A', 'a', '## A1', 'x', '# B', 'b');
    expect(applyEdit(text, { kind: 'replace_section', heading: 'A', content: 'new', whole: true })).toBe(
      lines('# A', 'new', '', '# B', 'b'),
    );
  });

  it('keeps the blank lines between heading and old text, one blank line before the next heading', () => {
    const text = lines('## A', '', '', 'old', '', '', '', '## B', '');
    expect(applyEdit(text, { kind: 'replace_section', heading: 'A', content: '\n\nnew\n\n\n' })).toBe(
      lines('## A', '', '', 'new', '', '## B', ''),
    );
  });

  it('no blank line before the old text: none before the new text', () => {
    expect(applyEdit('## A\nold\n## B\n', { kind: 'replace_section', heading: 'A', content: 'new' })).toBe(
      '## A\nnew\n\n## B\n',
    );
  });

  it('at the end of the note the new text ends with one line break', () => {
    expect(applyEdit('# A\n\nold\n\n\n', { kind: 'replace_section', heading: 'A', content: 'new' })).toBe(
      '# A\n\nnew\n',
    );
  });

  it('empty content clears the own text', () => {
    expect(applyEdit(NOTE, { kind: 'replace_section', heading: 'Risks', content: '' })).toBe(
      NOTE.replace('\n- budget\n\n### Detail', '\n### Detail'),
    );
    expect(applyEdit('# A\nold\n', { kind: 'replace_section', heading: 'A', content: '  \n' })).toBe('# A\n');
  });

  it('a heading on the last line without a line break gets one', () => {
    expect(applyEdit('# A', { kind: 'replace_section', heading: 'A', content: 'x' })).toBe('# A\n\nx\n');
  });

  it('keeps the indentation of the first content line', () => {
    expect(applyEdit('# A\nold\n', { kind: 'replace_section', heading: 'A', content: '    code\n' })).toBe(
      '# A\n    code\n',
    );
  });

  it('a setext heading keeps its underline', () => {
    expect(
      applyEdit('Title\n=====\nold\n', { kind: 'replace_section', heading: 'Title', content: 'new' }),
    ).toBe('Title\n=====\nnew\n');
  });

  it('occurrence picks the second of two equal headings', () => {
    const text = lines('## Log', 'one', '', '## Log', 'two', '');
    expect(applyEdit(text, { kind: 'replace_section', heading: 'Log', content: 'TWO', occurrence: 2 })).toBe(
      lines('## Log', 'one', '', '## Log', 'TWO', ''),
    );
  });

  it('CRLF notes keep \\r\\n, in the new content too', () => {
    const text = '# A\r\n\r\nold\r\n\r\n# B\r\nb\r\n';
    expect(applyEdit(text, { kind: 'replace_section', heading: 'A', content: 'new\nlines' })).toBe(
      '# A\r\n\r\nnew\r\nlines\r\n\r\n# B\r\nb\r\n',
    );
  });
});

describe('append_to_section', () => {
  it('adds content at the end of the own text, before the first sub-section, after a blank line', () => {
    const next = applyEdit(NOTE, { kind: 'append_to_section', heading: 'Risks', content: '- time' });
    expect(next).toBe(NOTE.replace('- budget\n\n### Detail', '- budget\n\n- time\n\n### Detail'));
  });

  it('whole: true adds after the sub-sections', () => {
    const next = applyEdit(NOTE, {
      kind: 'append_to_section',
      heading: 'Risks',
      content: '- time',
      whole: true,
    });
    expect(next).toBe(NOTE.replace('Deep.\n\n## Plan', 'Deep.\n\n- time\n\n## Plan'));
  });

  it('repeated appends stay tidy: one blank line between parts, one before the next heading', () => {
    let text = lines('## Log', '', '## Next', '');
    for (const entry of ['first', 'second', 'third']) {
      text = applyEdit(text, { kind: 'append_to_section', heading: 'Log', content: `${entry}\n` });
    }
    expect(text).toBe(lines('## Log', '', 'first', '', 'second', '', 'third', '', '## Next', ''));
  });

  it('repeated appends at the end of the note', () => {
    let text = NOTE;
    text = applyEdit(text, { kind: 'append_to_section', heading: 'Plan', content: 'a' });
    text = applyEdit(text, { kind: 'append_to_section', heading: 'Plan', content: 'b' });
    expect(text).toBe(`${NOTE}\na\n\nb\n`);
  });

  it('trailing blank lines of the section collapse to the one separating blank line', () => {
    expect(applyEdit('# A\ntext\n\n\n\n', { kind: 'append_to_section', heading: 'A', content: 'more' })).toBe(
      '# A\ntext\n\nmore\n',
    );
  });

  it('an empty section gets a blank line after its heading', () => {
    expect(applyEdit('## A\n## B\n', { kind: 'append_to_section', heading: 'A', content: 'x' })).toBe(
      '## A\n\nx\n\n## B\n',
    );
  });

  it('a last line without a line break gets one', () => {
    expect(applyEdit('# A\ntext', { kind: 'append_to_section', heading: 'A', content: 'x' })).toBe(
      '# A\ntext\n\nx\n',
    );
    expect(applyEdit('# A', { kind: 'append_to_section', heading: 'A', content: 'x' })).toBe('# A\n\nx\n');
  });

  it('CRLF notes keep \\r\\n', () => {
    const text = '# A\r\ntext\r\n# B\r\n';
    expect(applyEdit(text, { kind: 'append_to_section', heading: 'A', content: 'one\ntwo' })).toBe(
      '# A\r\ntext\r\n\r\none\r\ntwo\r\n\r\n# B\r\n',
    );
  });

  it('empty content is a validation error', () => {
    const err = caught(() =>
      applyEdit(NOTE, { kind: 'append_to_section', heading: 'Risks', content: ' \n ' }),
    );
    expect(err.code).toBe('validation_error');
  });

  it('does not touch a heading inside a code fence in the section', () => {
    const text = lines('## A', '```', '## B', '```', 'end', '');
    expect(applyEdit(text, { kind: 'append_to_section', heading: 'A', content: 'x' })).toBe(
      lines('## A', '```', '## B', '```', 'end', '', 'x', ''),
    );
  });
});

describe('section errors', () => {
  const ops = (heading: string, occurrence?: number): EditOperation[] => [
    { kind: 'replace_section', heading, content: 'x', occurrence },
    { kind: 'append_to_section', heading, content: 'x', occurrence },
  ];

  it.each(ops('Missing'))("a missing heading lists the note's headings ($kind)", (op) => {
    const err = caught(() => applyEdit(NOTE, op));
    expect(err.code).toBe('validation_error');
    expect(err.details.headings).toEqual(['# Project', '## Risks', '### Detail', '## Plan']);
  });

  it.each(ops('Log'))('several matching headings without occurrence are ambiguous ($kind)', (op) => {
    const err = caught(() => applyEdit('## Log\na\n## Log\nb\n', op));
    expect(err.code).toBe('ambiguous');
    expect(err.details.candidates).toEqual([
      { heading: '## Log', level: 2, line: 1 },
      { heading: '## Log', level: 2, line: 3 },
    ]);
  });

  it.each(ops('Log', 3))('an occurrence out of range is a validation error ($kind)', (op) => {
    expect(caught(() => applyEdit('## Log\na\n## Log\nb\n', op)).code).toBe('validation_error');
  });
});

describe('bytes outside the changed span', () => {
  const noteArb = fc
    .array(fc.constantFrom('# A', '## B', '### C', 'text', '', '```', '- item', 'Para', '---', '\r'), {
      minLength: 1,
      maxLength: 14,
    })
    .map((parts) => `${parts.join('\n')}\n`);

  it('section edits change nothing before the section body or after the section', () => {
    fc.assert(
      fc.property(
        noteArb,
        fc.constantFrom('A', 'B', 'C'),
        fc.boolean(),
        fc.boolean(),
        (text, heading, whole, append) => {
          let section: ReturnType<typeof findSection>;
          try {
            section = findSection(text, heading, 1);
          } catch {
            return;
          }
          const end = whole ? section.end : section.ownEnd;
          const op: EditOperation = append
            ? { kind: 'append_to_section', heading, content: 'NEW', occurrence: 1, whole }
            : { kind: 'replace_section', heading, content: 'NEW', occurrence: 1, whole };
          const next = applyEdit(text, op);
          expect(next.startsWith(text.slice(0, section.heading.contentStart))).toBe(true);
          expect(next.endsWith(text.slice(end))).toBe(true);
          expect(next).toContain('NEW');
        },
      ),
      { numRuns: 1000 },
    );
  });
});
