/**
 * Views over thousands of notes: every candidate evaluated (a filter the index cannot narrow) and a
 * tag view with over a thousand rows, their totals and summaries exact.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { AN_ID } from '../helpers/note-ids.js';
import { openTestVault, type TestVault } from '../helpers/vault.js';

const NOTES = 2400;
const files: Record<string, string> = {
  'Big.base': [
    'summaries:',
    '  count: "values.length"',
    'views:',
    '  - type: table',
    '    name: all',
    '    filters: "n >= 0"',
    '    order: [n, file.tags]',
    '    summaries:',
    '      n: Sum',
    '      file.tags: count',
    '  - type: table',
    '    name: tagged',
    '    filters: file.hasTag("big")',
    '    order: [n]',
    '    summaries:',
    '      n: Sum',
    '',
  ].join('\n'),
};
for (let i = 0; i < NOTES; i++) {
  files[`n/${String(i).padStart(4, '0')}.md`] =
    `---\nn: ${i}\ntags: [${i % 2 === 0 && i < 2200 ? 'big' : 'small'}]\n---\n`;
}

let vault: TestVault;
beforeAll(async () => {
  vault = await openTestVault(files);
}, 120_000);
afterAll(async () => {
  await vault.close();
});

it('answers views over thousands of notes with exact totals and summaries', async () => {
  const all = await vault.call('query_base', { base: 'Big.base', view: 'all', limit: 2 });
  expect(all.structured.total).toBe(NOTES);
  expect(all.structured.groups[0].summaries).toEqual({ n: (NOTES * (NOTES - 1)) / 2, 'file.tags': NOTES });
  expect(all.structured.groups[0].rows[1]).toEqual({
    name: 'n/0001.md',
    id: AN_ID,
    values: { n: 1, 'file.tags': ['#small'] },
  });
  const tagged = await vault.call('query_base', { base: 'Big.base', view: 'tagged', limit: 1 });
  expect(tagged.structured.total).toBe(1100);
  expect(tagged.structured.groups[0].summaries).toEqual({ n: 1100 * 1099 });
}, 120_000);
