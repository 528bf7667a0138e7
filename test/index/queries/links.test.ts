import { afterEach, describe, expect, it } from 'vitest';
import { backlinks, outgoingLinks, resolveLinkTarget } from '../../../src/index/queries/links.js';
import { type IndexedVault, indexedVault } from '../indexed-vault.js';

let vault: IndexedVault | undefined;
afterEach(() => {
  vault?.close();
  vault = undefined;
});

function open(files: Record<string, string | Uint8Array>): IndexedVault {
  vault = indexedVault(files);
  return vault;
}

/** The targets of a note's links, in order. */
function targets(v: IndexedVault, note: string): (string | null)[] {
  return (outgoingLinks(v.db, note) ?? []).map((l) => l.target);
}

describe('outgoingLinks resolves as OBSIDIAN.md §1.2 reads a vault', () => {
  it('a unique bare name finds the note in any folder (rule 3), case-insensitively, .md optional (LNK-20)', () => {
    const v = open({
      'deep/er/Goals.md': '# Goals\n',
      'src.md': '[[Goals]] [[goals]] [[GOALS.md]] [[Missing]]\n',
    });
    expect(targets(v, 'src.md')).toEqual(['deep/er/Goals.md', 'deep/er/Goals.md', 'deep/er/Goals.md', null]);
  });

  it('relative paths resolve against the source folder (rule 4)', () => {
    const v = open({
      'a/Note.md': 'x',
      'b/Note.md': 'x',
      'a/sub/src.md': '[[../Note]] [[./Note]] [[../../b/Note]]\n',
    });
    expect(targets(v, 'a/sub/src.md')).toEqual(['a/Note.md', null, 'b/Note.md']);
  });

  it('an exact vault path wins, and a bare name finds the root file first (rule 5)', () => {
    const v = open({
      'Note.md': 'root',
      'a/Note.md': 'in a',
      'a/src.md': '[[Note]] [[a/Note]] [[/a/Note]] [[/Note]]\n',
    });
    expect(targets(v, 'a/src.md')).toEqual(['Note.md', 'a/Note.md', 'a/Note.md', 'Note.md']);
  });

  it('a leading / with no exact match is unresolved (rule 6)', () => {
    const v = open({ 'x/Plan.md': 'x', 'src.md': '[[/Plan]]\n' });
    expect(targets(v, 'src.md')).toEqual([null]);
  });

  it('a partial path prefers the source folder, then the shortest path (rule 7)', () => {
    const v = open({
      'p/q/Note.md': 'x',
      'zz/long/q/Note.md': 'x',
      'w/q/Note.md': 'x',
      'zz/src.md': '[[q/Note]]\n',
      'other/src.md': '[[q/Note]]\n',
    });
    expect(targets(v, 'zz/src.md')).toEqual(['zz/long/q/Note.md']);
    // Same length: the first in path order.
    expect(targets(v, 'other/src.md')).toEqual(['p/q/Note.md']);
  });

  it('a folder-qualified link whose folder does not match is unresolved even for a unique name (LNK-21)', () => {
    const v = open({ 'a/Note.md': 'x', 'src.md': '[[b/Note]]\n' });
    expect(targets(v, 'src.md')).toEqual([null]);
  });

  it('a missing heading or block still resolves the file (LNK-23); [[#Heading]] is the note itself', () => {
    const v = open({ 'Note.md': '# Real\n', 'src.md': '[[Note#Nowhere]] [[Note#^nope]] [[#Local]]\n' });
    const links = outgoingLinks(v.db, 'src.md') ?? [];
    expect(links.map((l) => [l.target, l.heading, l.block])).toEqual([
      ['Note.md', 'Nowhere', null],
      ['Note.md', null, 'nope'],
      ['src.md', 'Local', null],
    ]);
  });

  it('links inside code are not links (LNK-10)', () => {
    const v = open({
      'Note.md': 'x',
      'src.md': '`[[Note]]`\n\n```\n[[Note]]\n```\n\n[[Note]]\n',
    });
    expect(outgoingLinks(v.db, 'src.md')?.map((l) => l.line)).toEqual([7]);
  });

  it('embeds are links with embed: true; attachments need their extension (LNK-04, LNK-07)', () => {
    const v = open({
      'img/Photo.png': new Uint8Array([1, 2, 3]),
      'src.md': '![[Photo.png|100]] ![[Photo]] ![pic](img/Photo.png)\n',
    });
    const links = outgoingLinks(v.db, 'src.md') ?? [];
    expect(links.map((l) => [l.target, l.embed, l.alias])).toEqual([
      ['img/Photo.png', true, null],
      [null, true, null],
      ['img/Photo.png', true, 'pic'],
    ]);
    expect(backlinks(v.db, 'img/Photo.png')).toEqual([{ name: 'src.md', count: 2 }]);
  });

  it('Markdown links decode %20 and keep their text as alias (LNK-03)', () => {
    const v = open({
      'notes/My Plan.md': 'x',
      'src.md': '[the plan](notes/My%20Plan.md) [ext](https://example.com/My%20Plan.md)\n',
    });
    const links = outgoingLinks(v.db, 'src.md') ?? [];
    expect(links.map((l) => [l.kind, l.target, l.alias])).toEqual([
      ['markdown', 'notes/My Plan.md', 'the plan'],
    ]);
  });

  it('frontmatter links count only when a value is one whole quoted wikilink (LNK-11), listed first', () => {
    const v = open({
      'A.md': 'x',
      'B.md': 'x',
      'C.md': 'x',
      'src.md':
        '---\nup: "[[A]]"\nrelated:\n  - "[[B|bee]]"\n  - see [[C]] too\nbad: [[C]]\n---\nBody [[C]]\n',
    });
    const links = outgoingLinks(v.db, 'src.md') ?? [];
    expect(links.map((l) => [l.kind, l.property, l.target, l.alias, l.line])).toEqual([
      ['frontmatter', 'up', 'A.md', null, 2],
      ['frontmatter', 'related.0', 'B.md', 'bee', 4],
      ['wikilink', null, 'C.md', null, 8],
    ]);
  });

  it('an alias is the target only when no file matches, and only when one note holds it', () => {
    const v = open({
      'Artificial Intelligence.md': '---\naliases: [AI, ML]\n---\n',
      'Machine Learning.md': '---\naliases:\n  - ml\n---\n',
      'AI Safety.md': '---\naliases: [Safety]\n---\n',
      'Safety.md': 'a file called Safety wins over the alias',
      'src.md': '[[ai]] [[ML]] [[Safety]] [[AI#Intro|see]]\n',
    });
    expect(targets(v, 'src.md')).toEqual([
      'Artificial Intelligence.md',
      null,
      'Safety.md',
      'Artificial Intelligence.md',
    ]);
    expect(backlinks(v.db, 'Artificial Intelligence.md')).toEqual([{ name: 'src.md', count: 2 }]);
    expect(backlinks(v.db, 'AI Safety.md')).toEqual([]);
  });

  it('names with a dot: [[My.Note]] finds My.Note.md, and backlinks find it back', () => {
    const v = open({ 'My.Note.md': 'x', 'src.md': '[[My.Note]] [[my.note.md]]\n' });
    expect(targets(v, 'src.md')).toEqual(['My.Note.md', 'My.Note.md']);
    expect(backlinks(v.db, 'My.Note.md')).toEqual([{ name: 'src.md', count: 2 }]);
  });

  it('Unicode names compare in NFC, whatever form the file name or the link is written in', () => {
    const v = open({ 'Cafe\u0301.md': 'x', 'src.md': '[[CAFÉ]]\n' });
    expect(targets(v, 'src.md')).toEqual(['Cafe\u0301.md']);
  });

  it('a note that is not indexed has no outgoing links (null)', () => {
    const v = open({ 'a.md': 'x' });
    expect(outgoingLinks(v.db, 'missing.md')).toBeNull();
    expect(backlinks(v.db, 'missing.md')).toBeNull();
  });
});

describe('backlinks', () => {
  it('counts every link, embed and frontmatter link from each note; most first, then by name; no self-links', () => {
    const v = open({
      'Target.md': 'self: [[Target]] [[#Top]]\n',
      'b.md': '[[Target]] ![[Target]] [[target#x|y]]\n',
      'a.md': '---\nup: "[[Target]]"\n---\n[[Target]]\n',
      'c.md': '[[Target]]\n',
      'd.md': '`[[Target]]` [[Other]]\n',
    });
    expect(backlinks(v.db, 'Target.md')).toEqual([
      { name: 'b.md', count: 3 },
      { name: 'a.md', count: 2 },
      { name: 'c.md', count: 1 },
    ]);
  });

  it('a link to the same name elsewhere is not a backlink: only links resolving to the note count', () => {
    const v = open({
      'Note.md': 'root',
      'a/Note.md': 'in a',
      'a/src.md': '[[Note]] [[a/Note]]\n',
      'b/src.md': '[[Note]]\n',
    });
    expect(backlinks(v.db, 'Note.md')).toEqual([
      { name: 'a/src.md', count: 1 },
      { name: 'b/src.md', count: 1 },
    ]);
    expect(backlinks(v.db, 'a/Note.md')).toEqual([{ name: 'a/src.md', count: 1 }]);
  });

  it('a link becomes resolved when its target is created, and unresolved again when it is deleted', () => {
    const v = open({ 'src.md': '[[Later]] [[Later]]\n' });
    expect(targets(v, 'src.md')).toEqual([null, null]);
    v.write('folder/Later.md', '# Later\n');
    expect(targets(v, 'src.md')).toEqual(['folder/Later.md', 'folder/Later.md']);
    expect(backlinks(v.db, 'folder/Later.md')).toEqual([{ name: 'src.md', count: 2 }]);
    // A second note of that name at the root takes the bare link (rule 5), and the first loses it.
    v.write('Later.md', 'root');
    expect(targets(v, 'src.md')).toEqual(['Later.md', 'Later.md']);
    expect(backlinks(v.db, 'folder/Later.md')).toEqual([]);
    v.remove('Later.md');
    v.remove('folder/Later.md');
    expect(targets(v, 'src.md')).toEqual([null, null]);
    expect(backlinks(v.db, 'folder/Later.md')).toBeNull();
  });

  it('edits to the linking note are picked up incrementally', () => {
    const v = open({ 'T.md': 'x', 'src.md': '[[T]]\n' });
    expect(backlinks(v.db, 'T.md')).toEqual([{ name: 'src.md', count: 1 }]);
    v.write('src.md', 'no more links here\n');
    expect(backlinks(v.db, 'T.md')).toEqual([]);
  });

  it('an alias added later makes the alias links backlinks', () => {
    const v = open({ 'Long Name.md': 'x', 'src.md': '[[LN]]\n' });
    expect(backlinks(v.db, 'Long Name.md')).toEqual([]);
    v.write('Long Name.md', '---\naliases: LN\n---\nx\n');
    expect(backlinks(v.db, 'Long Name.md')).toEqual([{ name: 'src.md', count: 1 }]);
  });
});

describe('visibility', () => {
  const hidden = (p: string) => !p.startsWith('private/');

  it('a hidden note is no link target, no backlink source, and has no links of its own', () => {
    const v = open({
      'private/Plan.md': '[[Plan]]\n',
      'workspace/Plan.md': 'x',
      'src.md': '[[Plan]]\n',
      'private/spy.md': '[[workspace/Plan]]\n',
    });
    // Two notes called Plan: the shorter path wins (rule 7) unless it is hidden, as if absent.
    expect(outgoingLinks(v.db, 'src.md')?.[0]?.target).toBe('private/Plan.md');
    expect(outgoingLinks(v.db, 'src.md', { visible: hidden })?.[0]?.target).toBe('workspace/Plan.md');
    expect(backlinks(v.db, 'workspace/Plan.md')).toEqual([{ name: 'private/spy.md', count: 1 }]);
    expect(backlinks(v.db, 'workspace/Plan.md', { visible: hidden })).toEqual([{ name: 'src.md', count: 1 }]);
    expect(backlinks(v.db, 'private/Plan.md', { visible: hidden })).toBeNull();
    expect(outgoingLinks(v.db, 'private/spy.md', { visible: hidden })).toBeNull();
  });

  it('an alias held by a hidden note resolves nothing', () => {
    const v = open({ 'private/Secret.md': '---\naliases: [S]\n---\n', 'src.md': '[[S]]\n' });
    expect(resolveLinkTarget(v.db, 'S', 'src.md')).toBe('private/Secret.md');
    expect(resolveLinkTarget(v.db, 'S', 'src.md', { visible: hidden })).toBeNull();
  });
});

describe('resolveLinkTarget', () => {
  it('resolves one linkpath from a source note', () => {
    const v = open({ 'a/Note.md': 'x', 'b/Note.md': 'x' });
    expect(resolveLinkTarget(v.db, 'Note', 'b/src.md')).toBe('b/Note.md');
    expect(resolveLinkTarget(v.db, '', 'b/src.md')).toBe('b/src.md');
    expect(resolveLinkTarget(v.db, 'Nothing', 'b/src.md')).toBeNull();
  });
});
