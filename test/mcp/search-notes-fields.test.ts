import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestVault, type Structured, type TestVault } from '../helpers/vault.js';

/** The field operators of Obsidian's search (SPEC 2.3; OBSIDIAN.md TAG-21, H-SRCH). */
const FILES = {
  'Work/Projects/Alpha Plan.md': '---\ntags: [Work]\n---\nalpha launch plan\n',
  'work/notes/meeting.md': 'Meeting about the plan #work/meetings\n',
  'personal/myjob.md': 'A plan for #myjob/work at home\n',
  'personal/planning.md': 'garden ideas #Garden\n',
  'archive/old plan.md': 'old plan, code: `#work`\n',
};

let vault: TestVault;
beforeAll(async () => {
  vault = await openTestVault(FILES);
});
afterAll(async () => {
  await vault.close();
});

async function names(query: string): Promise<string[]> {
  const r = await vault.call('search_notes', { query, max_results: 50 });
  expect(r.isError, JSON.stringify(r.structured)).toBe(false);
  return r.structured.results.map((h: Structured) => h.name).sort();
}

describe('search_notes field operators', () => {
  it('tag: matches the tag and nested tags from the start, case-insensitively; not #myjob/work, not code', async () => {
    expect(await names('tag:#work')).toEqual(['Work/Projects/Alpha Plan.md', 'work/notes/meeting.md']);
    expect(await names('tag:WORK')).toEqual(['Work/Projects/Alpha Plan.md', 'work/notes/meeting.md']);
    expect(await names('tag:work/meetings')).toEqual(['work/notes/meeting.md']);
    expect(await names('tag:myjob')).toEqual(['personal/myjob.md']);
    expect(await names('tag:garden')).toEqual(['personal/planning.md']);
  });

  it('path: is text anywhere in the vault-relative path, case-insensitively, folders and file name alike', async () => {
    expect(await names('path:projects')).toEqual(['Work/Projects/Alpha Plan.md']);
    expect(await names('path:work/')).toEqual(['Work/Projects/Alpha Plan.md', 'work/notes/meeting.md']);
    expect(await names('path:"old plan"')).toEqual(['archive/old plan.md']);
    expect(await names('path:myjob')).toEqual(['personal/myjob.md']);
  });

  it('file: is text in the file name only, not in its folders', async () => {
    expect(await names('file:plan')).toEqual([
      'Work/Projects/Alpha Plan.md',
      'archive/old plan.md',
      'personal/planning.md',
    ]);
    expect(await names('file:work')).toEqual([]);
    expect(await names('file:MEETING')).toEqual(['work/notes/meeting.md']);
  });

  it('fields combine with words, OR and exclusion', async () => {
    expect(await names('plan path:work')).toEqual(['Work/Projects/Alpha Plan.md', 'work/notes/meeting.md']);
    expect(await names('plan -tag:work')).toEqual(['archive/old plan.md', 'personal/myjob.md']);
    expect(await names('file:planning OR tag:myjob')).toEqual(['personal/myjob.md', 'personal/planning.md']);
  });

  it('an OR of fields beside words and another field keeps its own group (it was read as A OR (B AND C))', async () => {
    // The fields of a ranked query were joined with AND unparenthesized: `(tag:work OR path:archive)
    // plan file:old` also gave the two notes tagged work, whose names have no "old".
    expect(await names('(tag:work OR path:archive) plan file:old')).toEqual(['archive/old plan.md']);
    expect(await names('(tag:work OR path:archive) plan -file:old')).toEqual([
      'Work/Projects/Alpha Plan.md',
      'work/notes/meeting.md',
    ]);
  });

  it('a field without a value is a validation_error saying where', async () => {
    const r = await vault.call('search_notes', { query: 'plan tag:' });
    expect(r.structured.code).toBe('validation_error');
    expect(r.structured.message).toMatch(/tag:/);
  });
});
