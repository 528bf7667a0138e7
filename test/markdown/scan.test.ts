import { describe, expect, it } from 'vitest';
import { scanBody } from '../../src/markdown/scan.js';

const idsOf = (body: string): string[] => scanBody(body).blockIds.map((b) => b.id);

describe('block ids (LNK-42)', () => {
  it('LNK-42: ^id at the end of a paragraph line after whitespace', () => {
    expect(scanBody('A paragraph ^para-1').blockIds).toEqual([{ id: 'para-1', line: 1 }]);
  });

  it('LNK-42: ^id alone on a line (after a list, quote or table), trailing spaces allowed', () => {
    expect(scanBody('- a\n- b\n\n^list-id  ', { lineOffset: 2 }).blockIds).toEqual([
      { id: 'list-id', line: 6 },
    ]);
  });

  it('LNK-42: ^id at the end of a list item applies to the item', () => {
    expect(idsOf('- [ ] task ^t1\n- item ^i2')).toEqual(['t1', 'i2']);
  });

  it('LNK-42: only [a-zA-Z0-9-]: an underscore or a ^ glued to a word is no block id', () => {
    expect(idsOf('text ^bad_id\nword^glued\ntext ^ok-1 more')).toEqual([]);
  });

  it('LNK-42: no block ids in code, comments or links', () => {
    const body = [
      '```',
      'code ^c1',
      '```',
      'a `x ^c2`',
      '%% ^c3 %%',
      '%%',
      '^c4',
      '%%',
      '[[Note#^c5]]',
      'real ^c6',
    ].join('\n');
    expect(idsOf(body)).toEqual(['c6']);
  });

  it('LNK-42: a block id after a closed comment on the same line counts', () => {
    expect(idsOf('text %% note %% ^after')).toEqual(['after']);
  });
});

describe('one pass over the body', () => {
  it('collects tags, links, tasks and block ids together, lines shifted by lineOffset', () => {
    const body = [
      '# Plans #work',
      '',
      '- [ ] call [[Bo]] 📅 2024-05-01 ^call',
      'See [doc](Docs/Spec.md).',
    ].join('\n');
    const scan = scanBody(body, { lineOffset: 3 });
    expect(scan.tags).toEqual([{ tag: 'work', line: 4 }]);
    expect(scan.links.map((l) => [l.linkpath, l.line])).toEqual([
      ['Bo', 6],
      ['Docs/Spec.md', 7],
    ]);
    expect(scan.tasks).toEqual([
      { line: 6, status: ' ', text: 'call [[Bo]] 📅 2024-05-01 ^call', due: '2024-05-01', indent: 0 },
    ]);
    expect(scan.blockIds).toEqual([{ id: 'call', line: 6 }]);
  });

  it('CRLF line endings give the same result as LF', () => {
    const lf = '#a [[B]]\n- [x] c ^d\n';
    const crlf = lf.replaceAll('\n', '\r\n');
    const strip = (s: ReturnType<typeof scanBody>) => ({
      ...s,
      links: s.links.map((l) => ({ ...l, start: 0, end: 0 })),
    });
    expect(strip(scanBody(crlf))).toEqual(strip(scanBody(lf)));
  });

  it('an unclosed fence hides everything after it (CommonMark)', () => {
    expect(scanBody('#before\n```\n#after [[X]]\n- [ ] y').tags).toEqual([{ tag: 'before', line: 1 }]);
    expect(scanBody('```\n- [ ] y\n[[X]]')).toEqual({ tags: [], links: [], tasks: [], blockIds: [] });
  });

  it('an unclosed %% comment hides the rest of the note', () => {
    expect(scanBody('#a %% open\n#b [[C]]\n- [ ] d')).toEqual({
      tags: [{ tag: 'a', line: 1 }],
      links: [],
      tasks: [],
      blockIds: [],
    });
  });

  it('an empty body yields nothing', () => {
    expect(scanBody('')).toEqual({ tags: [], links: [], tasks: [], blockIds: [] });
  });

  it('a long line of unmatched brackets and backticks is still scanned to the end', () => {
    const noisy = `${'[ ` ``'.repeat(5000)} #end [[Target]]`;
    const scan = scanBody(noisy);
    expect(scan.tags.map((t) => t.tag)).toEqual(['end']);
    expect(scan.links.map((l) => l.linkpath)).toEqual(['Target']);
  });
});
