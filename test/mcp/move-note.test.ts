import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openTestVault, readBytes, type TestVault } from '../helpers/vault.js';

let vaults: TestVault[] = [];
afterEach(async () => {
  for (const v of vaults) await v.close();
  vaults = [];
});

async function open(files: Record<string, string>): Promise<TestVault> {
  const v = await openTestVault(files);
  vaults.push(v);
  return v;
}

const text = (v: TestVault, rel: string) => readBytes(v.dir, rel)?.toString() ?? null;

describe('move_note', () => {
  it('moves a note and rewrites every kind of link to it, keeping subpaths, aliases and style', async () => {
    const v = await open({
      'Plan.md': '# Plan\nSee [[#Goals]] and [[Plan#Goals|self]].\n',
      'a/links.md': [
        '---',
        'up: "[[Plan]]"',
        'related: [\'[[Plan#Goals|g]]\', "[[other]]"]',
        '---',
        'Bare [[Plan]], aliased [[plan|the plan]], heading [[Plan#Goals]], block ![[Plan#^b1]].',
        'Markdown [p](Plan.md), encoded [p](<Plan.md#Goals>), image ![i](Plan.md "t").',
        '`[[Plan]]` in code stays.',
        '',
      ].join('\n'),
      'other.md': 'x\n',
    });
    const r = await v.call('move_note', { name: 'Plan', new_name: 'projects/2025/Road Map' });
    expect(r.isError, r.text).toBe(false);
    expect(r.structured).toMatchObject({
      name: 'Plan.md',
      newName: 'projects/2025/Road Map.md',
      committed: true,
    });
    expect(text(v, 'Plan.md')).toBeNull();
    expect(text(v, 'projects/2025/Road Map.md')).toBe(
      '# Plan\nSee [[#Goals]] and [[Road Map#Goals|self]].\n',
    );
    expect(text(v, 'a/links.md')).toBe(
      [
        '---',
        'up: "[[Road Map]]"',
        'related: [\'[[Road Map#Goals|g]]\', "[[other]]"]',
        '---',
        'Bare [[Road Map]], aliased [[Road Map|the plan]], heading [[Road Map#Goals]], block ![[Road Map#^b1]].',
        'Markdown [p](Road%20Map.md), encoded [p](<Road Map.md#Goals>), image ![i](Road%20Map.md "t").',
        '`[[Plan]]` in code stays.',
        '',
      ].join('\n'),
    );
    const links = await v.call('get_outgoing_links', { name: 'a/links' });
    const targets = links.structured.links.map((l: { target: string | null }) => l.target);
    expect(targets.filter((t: string | null) => t !== 'other.md')).toEqual(
      Array(9).fill('projects/2025/Road Map.md'),
    );
    expect(
      (await v.call('get_backlinks', { name: 'projects/2025/Road Map' })).structured.backlinks,
    ).toMatchObject([{ name: 'a/links.md', count: 9 }]);
  });

  it('dry_run returns the plan and changes nothing', async () => {
    const v = await open({ 'Plan.md': 'p\n', 'b.md': 'line one\nsee [[Plan]]\n' });
    const r = await v.call('move_note', { name: 'Plan', new_name: 'x/Plan2', dry_run: true });
    expect(r.isError, r.text).toBe(false);
    expect(r.structured).toMatchObject({
      dryRun: true,
      committed: false,
      changesTotal: 1,
      updated: ['b.md'],
      changes: [{ note: 'b.md', line: 2, kind: 'wikilink', before: '[[Plan]]', after: '[[Plan2]]' }],
    });
    expect(text(v, 'Plan.md')).toBe('p\n');
    expect(text(v, 'b.md')).toBe('line one\nsee [[Plan]]\n');
  });
});

describe('move_note keeps every other link where it pointed', () => {
  it('a moved note that would capture bare links meant for another note qualifies them', async () => {
    const v = await open({
      'c/Plan.md': 'the real plan\n',
      'draft.md': 'a draft\n',
      'x.md': 'see [[Plan]] and [[draft]]\n',
    });
    // At the vault root, Plan.md would win every bare [[Plan]] (OBSIDIAN.md §1.2 rule 5).
    const r = await v.call('move_note', { name: 'draft', new_name: 'Plan' });
    expect(r.isError, r.text).toBe(false);
    expect(text(v, 'x.md')).toBe('see [[c/Plan]] and [[Plan]]\n');
    const links = (await v.call('get_outgoing_links', { name: 'x' })).structured.links;
    expect(links.map((l: { target: string }) => l.target)).toEqual(['c/Plan.md', 'Plan.md']);
  });

  it('a bare link stays bare while the name is unique, and gains the shortest path that resolves', async () => {
    const v = await open({
      'a/Plan.md': 'a\n',
      'b/deep/Note.md': 'n\n',
      'src.md': '[[Plan]] [link](Plan.md) [[Plan|shown]]\n',
    });
    const r = await v.call('move_note', { name: 'a/Plan', new_name: 'b/deep/Note2' });
    expect(r.isError, r.text).toBe(false);
    expect(text(v, 'src.md')).toBe('[[Note2]] [link](Note2.md) [[Note2|shown]]\n');
    // Now a second note of that name exists elsewhere: the link gains a folder, the shortest that finds it.
    fs.mkdirSync(path.join(v.dir, 'z'), { recursive: true });
    fs.writeFileSync(path.join(v.dir, 'z/Moved.md'), 'already here\n');
    v.opened.index.touched(['z/Moved.md']);
    const r2 = await v.call('move_note', { name: 'b/deep/Note2', new_name: 'q/deep/Moved' });
    expect(r2.isError, r2.text).toBe(false);
    expect(text(v, 'src.md')).toBe('[[deep/Moved]] [link](deep/Moved.md) [[deep/Moved|shown]]\n');
  });

  it('Markdown links keep their encoding: %20 stays encoded, <…> stays bracketed, .md only where it was', async () => {
    const v = await open({
      'Old Name.md': 'o\n',
      'src.md': [
        '[a](Old%20Name.md) [b](<Old Name.md>) [c](Old%20Name) [d](./Old%20Name.md#Part "title")',
        '[[Old Name.md]] [[Old Name]]',
        '',
      ].join('\n'),
    });
    const r = await v.call('move_note', { name: 'Old Name', new_name: 'sub/Café 50%' });
    expect(r.isError, r.text).toBe(false);
    expect(text(v, 'src.md')).toBe(
      [
        '[a](Caf%C3%A9%2050%25.md) [b](<Café 50%25.md>) [c](Caf%C3%A9%2050%25) [d](./sub/Caf%C3%A9%2050%25.md#Part "title")',
        '[[Café 50%.md]] [[Café 50%]]',
        '',
      ].join('\n'),
    );
    const links = (await v.call('get_outgoing_links', { name: 'src' })).structured.links;
    expect(new Set(links.map((l: { target: string }) => l.target))).toEqual(new Set(['sub/Café 50%.md']));
  });

  it('relative links inside the moved note are rewritten so they still find their notes', async () => {
    const v = await open({
      'a/b/Moving.md': 'up [[../Sibling]] and [s](../Sibling.md) and self [[./Moving#Top]]\n',
      'a/Sibling.md': 's\n',
    });
    const r = await v.call('move_note', { name: 'a/b/Moving', new_name: 'c/Moved' });
    expect(r.isError, r.text).toBe(false);
    expect(text(v, 'c/Moved.md')).toBe(
      'up [[../a/Sibling]] and [s](../a/Sibling.md) and self [[./Moved#Top]]\n',
    );
  });

  it('a save to the moved note while the move is journaled is kept: conflict, nothing moved, entries voided', async () => {
    const v = await open({
      'a/b/Moving.md': 'up [[../Sibling]]\n',
      'a/Sibling.md': 's\n',
    });
    const journal = v.opened.access.ctx.journal;
    const real = journal.recordMany.bind(journal);
    let saved = false;
    journal.recordMany = (inputs) => {
      const entries = real(inputs);
      if (!saved) {
        saved = true; // an editor saves the note right after the move is journaled
        fs.writeFileSync(path.join(v.dir, 'a/b/Moving.md'), 'up [[../Sibling]] saved by hand\n');
      }
      return entries;
    };
    const r = await v.call('move_note', { name: 'a/b/Moving', new_name: 'c/Moved' });
    journal.recordMany = real;
    expect(r.isError).toBe(true);
    expect(r.structured).toMatchObject({ code: 'conflict', committed: false });
    expect(r.structured.currentText).toBe('up [[../Sibling]] saved by hand\n');
    expect(text(v, 'a/b/Moving.md')).toBe('up [[../Sibling]] saved by hand\n');
    expect(text(v, 'c/Moved.md')).toBeNull();
    const entries = journal.list().reverse();
    expect(entries.map((e) => [e.note, e.kind])).toEqual([
      ['a/b/Moving.md', 'delete'],
      ['c/Moved.md', 'create'],
      ['a/b/Moving.md', 'not_applied'],
      ['c/Moved.md', 'not_applied'],
    ]);
    expect(entries[2]?.voids).toBe(entries[0]?.id);
    expect(entries[3]?.voids).toBe(entries[1]?.id);
    expect(journal.verify()).toMatchObject({ ok: true, entries: 4, unverified: null });
  });

  it('update_links: false moves the note and leaves every link alone', async () => {
    const v = await open({ 'Plan.md': 'p\n', 'b.md': '[[Plan]]\n' });
    const r = await v.call('move_note', { name: 'Plan', new_name: 'x/Plan2', update_links: false });
    expect(r.structured).toMatchObject({ committed: true, changesTotal: 0 });
    expect(text(v, 'b.md')).toBe('[[Plan]]\n');
    expect(text(v, 'x/Plan2.md')).toBe('p\n');
  });

  it('a name that a link cannot carry is refused before anything moves', async () => {
    const v = await open({ 'Plan.md': 'p\n', 'b.md': '[[Plan]]\n' });
    const r = await v.call('move_note', { name: 'Plan', new_name: 'C# notes' });
    expect(r.structured).toMatchObject({ code: 'validation_error', committed: false });
    expect(text(v, 'Plan.md')).toBe('p\n');
    expect(text(v, 'b.md')).toBe('[[Plan]]\n');
  });

  it('the index shows the move at once: backlinks, search and the old name', async () => {
    const v = await open({ 'Plan.md': 'unique kiwifruit\n', 'b.md': '[[Plan]]\n' });
    await v.call('move_note', { name: 'Plan', new_name: 'x/Road' });
    expect((await v.call('get_backlinks', { name: 'x/Road' })).structured.backlinks).toMatchObject([
      { name: 'b.md', count: 1 },
    ]);
    expect((await v.call('read_note', { name: 'Plan.md' })).structured.code).toBe('not_found');
    const hits = (await v.call('search_notes', { query: 'kiwifruit' })).structured.results;
    expect(hits.map((h: { name: string }) => h.name)).toEqual(['x/Road.md']);
  });
});

describe('move_note refusals', () => {
  it('an existing destination, in any letter case, is already_exists; the source is untouched', async () => {
    const v = await open({ 'Plan.md': 'p\n', 'x/Goal.md': 'g\n' });
    for (const to of ['x/Goal', 'X/goal.md']) {
      const r = await v.call('move_note', { name: 'Plan', new_name: to });
      expect(r.structured, to).toMatchObject({ code: 'already_exists', committed: false });
    }
    expect(text(v, 'Plan.md')).toBe('p\n');
    // A change of letter case of the note itself is a rename, not a clash.
    const r = await v.call('move_note', { name: 'Plan', new_name: 'plan' });
    expect(r.isError, r.text).toBe(false);
    expect(
      fs
        .readdirSync(v.dir)
        .filter((f) => f.endsWith('.md'))
        .sort(),
    ).toEqual(['plan.md']);
  });

  it('a stale expected_etag is a conflict and nothing moves', async () => {
    const v = await open({ 'Plan.md': 'p\n', 'b.md': '[[Plan]]\n' });
    const r = await v.call('move_note', { name: 'Plan', new_name: 'Q', expected_etag: 'sha256:old' });
    expect(r.structured).toMatchObject({ code: 'conflict', committed: false });
    expect(text(v, 'Plan.md')).toBe('p\n');
    expect(text(v, 'b.md')).toBe('[[Plan]]\n');
  });

  it('dot names and the state folder are invalid destinations', async () => {
    const v = await open({ 'Plan.md': 'p\n' });
    for (const to of ['.hidden/Plan', '.noted/Plan', 'a/../Plan2']) {
      const r = await v.call('move_note', { name: 'Plan', new_name: to });
      expect(r.structured.code, to).toBe('invalid_name');
    }
    expect(text(v, 'Plan.md')).toBe('p\n');
  });
});
