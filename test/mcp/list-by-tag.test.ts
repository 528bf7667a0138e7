import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FormatName } from '../../src/vault/format-name.js';
import { FORMATS, openTestVaultIn } from '../helpers/formats.js';
import { AN_ID } from '../helpers/note-ids.js';
import type { TestVault } from '../helpers/vault.js';

/** The format of the vault each test runs on (the suite runs on both, SPEC 11). */
let format: FormatName = 'markdown';
let vault: TestVault | undefined;
afterEach(async () => {
  await vault?.close();
  vault = undefined;
});

/** Notes with distinct modification times, `minutes` after a fixed moment. */
async function open(files: Record<string, [text: string, minutes: number]>): Promise<TestVault> {
  vault = await openTestVaultIn(
    format,
    Object.fromEntries(Object.entries(files).map(([k, [text]]) => [k, text])),
    {
      prepare: (dir) => {
        for (const [rel, [, minutes]] of Object.entries(files)) {
          const t = new Date(Date.UTC(2026, 0, 1, 0, minutes));
          fs.utimesSync(path.join(dir, rel), t, t);
        }
      },
    },
  );
  return vault;
}

const names = (notes: { name: string }[]) => notes.map((n) => n.name);

describe.each(FORMATS)('list_by_tag (%s vault)', (f) => {
  beforeEach(() => {
    format = f;
  });
  const FILES: Record<string, [string, number]> = {
    'top.md': ['---\ntags: [Project]\n---\n# Top plan\n', 1],
    'nested.md': ['Work on #project/apollo continues.\n', 3],
    'deeper.md': ['#PROJECT/apollo/launch\n', 2],
    'longer.md': ['A #projection of sales.\n', 4],
    'other.md': ['#myjob/project\n', 5],
    'code.md': ['`#project`\n', 6],
  };

  it('finds the tag and every tag nested below it, case-insensitively, # optional, newest first (TAG-21)', async () => {
    const v = await open(FILES);
    const r = await v.call('list_by_tag', { tag: '#project' });
    expect(r.isError).toBe(false);
    expect(r.structured).toEqual({
      tag: 'project',
      notes: [
        { name: 'nested.md', id: AN_ID, title: 'nested', modified: '2026-01-01T00:03:00.000Z' },
        { name: 'deeper.md', id: AN_ID, title: 'deeper', modified: '2026-01-01T00:02:00.000Z' },
        { name: 'top.md', id: AN_ID, title: 'Top plan', modified: '2026-01-01T00:01:00.000Z' },
      ],
      more: false,
    });
    expect(r.text).toBe(
      [
        '3 notes tagged #project (nested tags included), newest first:',
        '- nested.md — nested (modified 2026-01-01T00:03:00.000Z)',
        '- deeper.md — deeper (modified 2026-01-01T00:02:00.000Z)',
        '- top.md — Top plan (modified 2026-01-01T00:01:00.000Z)',
      ].join('\n'),
    );
    expect(names((await v.call('list_by_tag', { tag: 'Project/Apollo' })).structured.notes)).toEqual([
      'nested.md',
      'deeper.md',
    ]);
    expect(names((await v.call('list_by_tag', { tag: 'project/apollo/launch' })).structured.notes)).toEqual([
      'deeper.md',
    ]);
    // A tag nested elsewhere (#myjob/project) is not the tag; nor is a longer one.
    expect(names((await v.call('list_by_tag', { tag: 'myjob' })).structured.notes)).toEqual(['other.md']);
    expect(names((await v.call('list_by_tag', { tag: 'proj' })).structured.notes)).toEqual([]);
  });

  it('limit keeps the newest and says there may be more', async () => {
    const v = await open(FILES);
    const r = await v.call('list_by_tag', { tag: 'project', limit: 2 });
    expect(names(r.structured.notes)).toEqual(['nested.md', 'deeper.md']);
    expect(r.structured.more).toBe(true);
    expect(r.text).toContain(`More notes follow: call again with cursor "${r.structured.nextCursor}".`);
  });

  it('a tag no note carries gives an empty list; an empty tag or one with a space is refused', async () => {
    const v = await open(FILES);
    const none = await v.call('list_by_tag', { tag: 'nothing' });
    expect(none.structured).toEqual({ tag: 'nothing', notes: [], more: false });
    expect(none.text).toBe('No notes are tagged #nothing.');
    const empty = await v.call('list_by_tag', { tag: '#' });
    expect(empty.structured.code).toBe('validation_error');
    expect(empty.structured.message).toMatch(/tag is empty/);
    const spaced = await v.call('list_by_tag', { tag: 'two words' });
    expect(spaced.structured.code).toBe('validation_error');
    expect(spaced.structured.message).toMatch(/contains a space/);
  });
});
