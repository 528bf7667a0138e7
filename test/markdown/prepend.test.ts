import { describe, expect, it } from 'vitest';
import { applyEdit } from '../../src/markdown/edit.js';
import { refusal } from '../helpers/refusal.js';

describe('edit_note prepend (SPEC 13.1): after the frontmatter, before the body', () => {
  it('puts content first in the body with one blank line before the old text', () => {
    expect(applyEdit('---\na: 1\n---\n# T\n\nx\n', { kind: 'prepend', content: 'new' })).toBe(
      '---\na: 1\n---\nnew\n\n# T\n\nx\n',
    );
    expect(applyEdit('# T\n', { kind: 'prepend', content: '\n\nnew  \n\n' })).toBe('new\n\n# T\n');
    expect(applyEdit('', { kind: 'prepend', content: 'first' })).toBe('first\n');
  });

  it('keeps blank lines already at the top of the body where they are, and the line-break style', () => {
    expect(applyEdit('---\na: 1\n---\n\n# T\n', { kind: 'prepend', content: 'new' })).toBe(
      '---\na: 1\n---\n\nnew\n\n# T\n',
    );
    expect(applyEdit('---\r\na: 1\r\n---\r\nx\r\n', { kind: 'prepend', content: 'n1\nn2' })).toBe(
      '---\r\na: 1\r\n---\r\nn1\r\nn2\r\n\r\nx\r\n',
    );
    expect(applyEdit('\uFEFFx\n', { kind: 'prepend', content: 'n' })).toBe('\uFEFFn\n\nx\n');
  });

  it('a note ending right after its frontmatter gets a line break first', () => {
    expect(applyEdit('---\na: 1\n---', { kind: 'prepend', content: 'n' })).toBe('---\na: 1\n---\nn\n');
  });

  it('refuses empty content, and content that would turn into the frontmatter', () => {
    expect(refusal(() => applyEdit('x\n', { kind: 'prepend', content: ' \n ' })).code).toBe(
      'validation_error',
    );
    const err = refusal(() => applyEdit('x\n', { kind: 'prepend', content: '---\nb: 2\n---' }));
    expect(err.code).toBe('validation_error');
    expect(err.message).toMatch(/frontmatter/);
    // With frontmatter already there, a --- line after it is a thematic break, not a second block.
    expect(applyEdit('---\na: 1\n---\nx\n', { kind: 'prepend', content: '---' })).toBe(
      '---\na: 1\n---\n---\n\nx\n',
    );
  });
});

describe('edit_note prepend_to_section (SPEC 13.1): right after the heading line', () => {
  const doc = '# A\n\nold text\n\n## Sub\n\nsub text\n\n# B\nb\n';

  it('puts content under the heading, before the section’s text, one blank line between', () => {
    expect(applyEdit(doc, { kind: 'prepend_to_section', heading: 'A', content: '- new' })).toBe(
      '# A\n\n- new\n\nold text\n\n## Sub\n\nsub text\n\n# B\nb\n',
    );
    expect(applyEdit(doc, { kind: 'prepend_to_section', heading: 'B', content: 'n' })).toBe(
      '# A\n\nold text\n\n## Sub\n\nsub text\n\n# B\nn\n\nb\n',
    );
  });

  it('an empty section gets content as append_to_section would give it', () => {
    expect(applyEdit('# A\n## Sub\nx\n', { kind: 'prepend_to_section', heading: 'A', content: 'n' })).toBe(
      '# A\n\nn\n\n## Sub\nx\n',
    );
    expect(applyEdit('# A', { kind: 'prepend_to_section', heading: 'A', content: 'n' })).toBe('# A\n\nn\n');
  });

  it('picks among equal headings with occurrence, and refuses what append_to_section refuses', () => {
    const twice = '## R\n\none\n\n## R\n\ntwo\n';
    expect(applyEdit(twice, { kind: 'prepend_to_section', heading: 'R', content: 'n', occurrence: 2 })).toBe(
      '## R\n\none\n\n## R\n\nn\n\ntwo\n',
    );
    expect(
      refusal(() => applyEdit(twice, { kind: 'prepend_to_section', heading: 'R', content: 'n' })).code,
    ).toBe('ambiguous');
    expect(
      refusal(() => applyEdit(twice, { kind: 'prepend_to_section', heading: 'Q', content: 'n' })).code,
    ).toBe('validation_error');
    expect(
      refusal(() =>
        applyEdit(twice, { kind: 'prepend_to_section', heading: 'R', content: '', occurrence: 1 }),
      ).code,
    ).toBe('validation_error');
  });
});
