import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openTestVault, type Structured, type TestVault } from '../helpers/vault.js';

let vault: TestVault | undefined;
afterEach(async () => {
  await vault?.close();
  vault = undefined;
});

async function open(files: Record<string, string | Uint8Array>): Promise<TestVault> {
  vault = await openTestVault(files);
  return vault;
}

async function links(v: TestVault, name: string): Promise<Structured[]> {
  const r = await v.call('get_outgoing_links', { name });
  expect(r.isError, JSON.stringify(r.structured)).toBe(false);
  return r.structured.links;
}

async function targets(v: TestVault, name: string): Promise<(string | null)[]> {
  return (await links(v, name)).map((l) => l.target);
}

describe('get_outgoing_links resolves each link as Obsidian does (OBSIDIAN.md §1.2)', () => {
  it('returns the SPEC 10 fields for every link, in document order', async () => {
    const v = await open({
      'Goals.md': '# Goals\n',
      'src.md': 'Intro\n\n[[Goals#Q3|the goals]] and [[Goals#^abc]]\n',
    });
    const r = await v.call('get_outgoing_links', { name: 'src' });
    expect(r.structured).toMatchObject({
      name: 'src.md',
      links: [
        {
          raw: '[[Goals#Q3|the goals]]',
          target: 'Goals.md',
          heading: 'Q3',
          block: null,
          alias: 'the goals',
          embed: false,
          kind: 'wikilink',
          line: 3,
          property: null,
          lines: null,
        },
        {
          raw: '[[Goals#^abc]]',
          target: 'Goals.md',
          heading: null,
          block: 'abc',
          alias: null,
          embed: false,
          kind: 'wikilink',
          line: 3,
          property: null,
          lines: null,
        },
      ],
    });
    expect(r.text).toContain(
      'line 3: [[Goals#Q3|the goals]] → Goals.md (heading "Q3", not found in the target, shown as "the goals")',
    );
  });

  it('a unique bare name finds the note in any folder, case-insensitively, .md optional (rule 3, LNK-20)', async () => {
    const v = await open({
      'deep/er/Goals.md': 'x',
      'src.md': '[[Goals]] [[goals]] [[GOALS.md]] [[deep/er/Goals]]\n',
    });
    expect(await targets(v, 'src')).toEqual([
      'deep/er/Goals.md',
      'deep/er/Goals.md',
      'deep/er/Goals.md',
      'deep/er/Goals.md',
    ]);
  });

  it('relative paths, the root file for a bare name, the exact path, and a leading / (rules 4–6)', async () => {
    const v = await open({
      'Note.md': 'root',
      'a/Note.md': 'in a',
      'b/Plan.md': 'in b',
      'a/sub/src.md': '[[../Note]] [[Note]] [[a/Note]] [[/a/Note]] [[/Plan]] [[../../b/Plan]]\n',
    });
    expect(await targets(v, 'a/sub/src')).toEqual([
      'a/Note.md',
      'Note.md',
      'a/Note.md',
      'a/Note.md',
      null,
      'b/Plan.md',
    ]);
  });

  it('a partial path prefers the source folder, then the shortest path (rule 7)', async () => {
    const v = await open({
      'p/q/Note.md': 'x',
      'zz/long/q/Note.md': 'x',
      'zz/src.md': '[[q/Note]]\n',
      'other/src.md': '[[q/Note]]\n',
    });
    expect(await targets(v, 'zz/src')).toEqual(['zz/long/q/Note.md']);
    expect(await targets(v, 'other/src')).toEqual(['p/q/Note.md']);
  });

  it('a folder-qualified link whose folder does not match is unresolved, even for a unique name (LNK-21)', async () => {
    const v = await open({ 'a/Note.md': 'x', 'src.md': '[[b/Note]] [[Note]]\n' });
    expect(await targets(v, 'src')).toEqual([null, 'a/Note.md']);
  });

  it('embeds are links with embed: true; an attachment needs its extension; a size is no alias (LNK-04, LNK-07)', async () => {
    const v = await open({
      'img/Photo.png': new Uint8Array([137, 80, 78, 71]),
      'Note.md': 'x',
      'src.md': '![[Photo.png|100]] ![[Photo]] ![[Note]] ![pic](img/Photo.png)\n',
    });
    const found = await links(v, 'src');
    expect(found.map((l) => [l.raw, l.target, l.embed, l.alias])).toEqual([
      ['![[Photo.png|100]]', 'img/Photo.png', true, null],
      ['![[Photo]]', null, true, null],
      ['![[Note]]', 'Note.md', true, null],
      ['![pic](img/Photo.png)', 'img/Photo.png', true, 'pic'],
    ]);
  });

  it('Markdown links decode %20 and keep their text as alias; external links are not links (LNK-01, LNK-03)', async () => {
    const v = await open({
      'notes/My Plan.md': 'x',
      'src.md':
        '[the plan](notes/My%20Plan.md) [same](notes/My%20Plan) [ext](https://example.com/My%20Plan.md) [mail](mailto:a@b.c)\n',
    });
    const found = await links(v, 'src');
    expect(found.map((l) => [l.kind, l.raw, l.target, l.alias])).toEqual([
      ['markdown', '[the plan](notes/My%20Plan.md)', 'notes/My Plan.md', 'the plan'],
      ['markdown', '[same](notes/My%20Plan)', 'notes/My Plan.md', 'same'],
    ]);
  });

  it('frontmatter links come first with their property; only a whole quoted [[link]] counts (LNK-11)', async () => {
    const v = await open({
      'A.md': 'x',
      'B.md': 'x',
      'C.md': 'x',
      'src.md':
        '---\nup: "[[A]]"\nrelated:\n  - "[[B|bee]]"\n  - see [[C]] too\nbad: [[C]]\nmd: "[c](C.md)"\n---\nBody [[C]]\n',
    });
    const found = await links(v, 'src');
    expect(found.map((l) => [l.kind, l.property, l.target, l.alias, l.line])).toEqual([
      ['frontmatter', 'up', 'A.md', null, 2],
      ['frontmatter', 'related.0', 'B.md', 'bee', 4],
      ['wikilink', null, 'C.md', null, 9],
    ]);
  });

  it('links inside code are not links (LNK-10); [[#Heading]] points at the note itself', async () => {
    const v = await open({
      'Note.md': 'x',
      'src.md': '`[[Note]]`\n\n```\n[[Note]]\n```\n\n[[Note]] [[#Local]]\n',
    });
    const found = await links(v, 'src');
    expect(found.map((l) => [l.raw, l.target, l.line])).toEqual([
      ['[[Note]]', 'Note.md', 7],
      ['[[#Local]]', 'src.md', 7],
    ]);
  });

  it('a missing note gives target null, and a missing heading still resolves the file (LNK-23)', async () => {
    const v = await open({ 'Note.md': '# Real\n', 'src.md': '[[Nowhere]] [[Note#Not there]]\n' });
    const found = await links(v, 'src');
    expect(found.map((l) => [l.target, l.heading])).toEqual([
      [null, null],
      ['Note.md', 'Not there'],
    ]);
    const { text } = await v.call('get_outgoing_links', { name: 'src' });
    expect(text).toContain('[[Nowhere]] → unresolved');
  });

  it("an alias is the target only when no file has the name (Noted's rule, OBSIDIAN.md preamble)", async () => {
    const v = await open({
      'Artificial Intelligence.md': '---\naliases: [AI]\n---\n',
      'Safety.md': 'the file wins',
      'AI Safety.md': '---\naliases: [Safety]\n---\n',
      'src.md': '[[ai]] [[Safety]]\n',
    });
    expect(await targets(v, 'src')).toEqual(['Artificial Intelligence.md', 'Safety.md']);
  });

  it('a link becomes resolved when create_note makes its target, and unresolved again on delete_note', async () => {
    const v = await open({ 'src.md': '[[Later]] and [[ideas/Later#Part]]\n' });
    expect(await targets(v, 'src')).toEqual([null, null]);
    expect((await v.call('get_backlinks', { name: 'src' })).structured.backlinks).toMatchObject([]);

    const created = await v.call('create_note', { name: 'ideas/Later', content: '# Later\n' });
    expect(created.isError).toBe(false);
    expect(await targets(v, 'src')).toEqual(['ideas/Later.md', 'ideas/Later.md']);
    expect((await v.call('get_backlinks', { name: 'Later' })).structured.backlinks).toMatchObject([
      { name: 'src.md', count: 2 },
    ]);

    expect((await v.call('delete_note', { name: 'ideas/Later' })).isError).toBe(false);
    expect(await targets(v, 'src')).toEqual([null, null]);
  });

  it('a note without links has an empty list', async () => {
    const v = await open({ 'plain.md': 'no links here\n' });
    const r = await v.call('get_outgoing_links', { name: 'plain' });
    expect(r.structured).toMatchObject({ name: 'plain.md', links: [] });
    expect(r.text).toBe('plain.md has no links.');
  });
});

describe('get_outgoing_links names its note like every read (SPEC 1.4)', () => {
  it('a missing note is not_found; a name several notes share is ambiguous with the candidates', async () => {
    const v = await open({ 'a/Plan.md': '[[x]]', 'b/Plan.md': '[[y]]' });
    const missing = await v.call('get_outgoing_links', { name: 'nope' });
    expect(missing.structured.code).toBe('not_found');
    const ambiguous = await v.call('get_outgoing_links', { name: 'Plan' });
    expect(ambiguous.structured.code).toBe('ambiguous');
    expect(ambiguous.structured.candidates).toEqual(['a/Plan.md', 'b/Plan.md']);
    expect((await links(v, 'b/plan')).map((l) => l.raw)).toEqual(['[[y]]']);
    const invalid = await v.call('get_outgoing_links', { name: '../outside' });
    expect(invalid.structured.code).toBe('invalid_name');
  });

  it('answers for a note another program wrote a moment ago, before the index has caught up', async () => {
    const v = await open({ 'Target.md': 'x' });
    fs.writeFileSync(path.join(v.dir, 'fresh.md'), '[[Target]]\n');
    expect(await targets(v, 'fresh')).toEqual(['Target.md']);
  });
});
