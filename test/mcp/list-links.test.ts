/**
 * list_links (SPEC 17.5, issue 32): every link that resolves to nothing (source note, line, target
 * text), or every note nothing links to; hidden notes are neither sources nor targets.
 */
import { afterEach, expect, it } from 'vitest';
import { AN_ID } from '../helpers/note-ids.js';
import { openTestVault, type Structured, type TestVault } from '../helpers/vault.js';

let vault: TestVault | undefined;
afterEach(async () => {
  await vault?.close();
  vault = undefined;
});

const FILES = {
  'home.md': '# Home\n\n[[Projects]] and [[Missing note]]\n\n![[gone.png]] [[home#Top]] [[#Self]]\n',
  'Projects.md': '---\naliases: [Work]\n---\nSee [[Work]] and [[private/secret]].\n',
  'lonely.md': 'Nobody links here; [[Projects]] though.\n',
  'docs/a.md': '[[nowhere]] and [[docs/b]]\n',
  'docs/b.md': 'b\n',
  'private/secret.md': '[[also missing]] [[lonely]]\n',
  '.noted/mcp-policy.yaml': 'default: read-write\nfolders:\n  private: hidden\n',
};

it('unresolved: every link to nothing, with its note and line; a link to a hidden note is one of them', async () => {
  vault = await openTestVault(FILES);
  const r = await vault.call('list_links', { kind: 'unresolved' });
  expect(r.isError, r.text).toBe(false);
  expect(r.structured.links.map((l: Structured) => [l.source, l.line, l.target])).toEqual([
    ['Projects.md', 4, 'private/secret'],
    ['docs/a.md', 1, 'nowhere'],
    ['home.md', 3, 'Missing note'],
    ['home.md', 5, 'gone.png'],
  ]);
  expect(r.structured.total).toBe(4);
  expect(r.text).toContain('home.md:3 [[Missing note]]');
  expect(r.text).not.toContain('also missing');
});

it('orphans: the notes no other note links to, hidden ones never named', async () => {
  vault = await openTestVault(FILES);
  const r = await vault.call('list_links', { kind: 'orphans' });
  expect(r.structured.notes.map((n: Structured) => n.name)).toEqual(['docs/a.md', 'home.md', 'lonely.md']);
  const inDocs = await vault.call('list_links', { kind: 'orphans', folder: 'docs' });
  expect(inDocs.structured.notes).toEqual([{ name: 'docs/a.md', id: AN_ID }]);
});

it('pages with cursor and limit, without losing or repeating an item', async () => {
  vault = await openTestVault(FILES);
  const seen: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await vault.call('list_links', {
      kind: 'unresolved',
      limit: 1,
      ...(cursor ? { cursor } : {}),
    });
    seen.push(...page.structured.links.map((l: Structured) => `${l.source}:${l.line}`));
    cursor = page.structured.nextCursor;
  } while (cursor !== undefined);
  expect(seen).toEqual(['Projects.md:4', 'docs/a.md:1', 'home.md:3', 'home.md:5']);
});
