import { afterEach, describe, expect, it } from 'vitest';
import { openTestVault, type TestVault } from '../helpers/vault.js';

/**
 * Deeply nested HTML (a hostile file, or what an agent sends) is read with its nesting bounded
 * (markdown/html/nesting.ts): before, 20,000 nested <b> made search_notes fail with "Maximum call
 * stack size exceeded", and 100,000 nested <div> held the server for minutes.
 */
// Past 100 levels an element's markup is blanked and its text kept: the link stays a link above that
// depth, and the wikilink and tag deep inside are text, found as in any text.
const DEEP = `<p><a href="plan.html">the plan</a></p>${'<div><b>'.repeat(20000)}[[goals]] #deep words${'</b></div>'.repeat(20000)}`;

let v: TestVault | undefined;
afterEach(async () => {
  await v?.close();
  v = undefined;
});

describe('a deeply nested HTML note', () => {
  it('in an HTML vault is indexed, found, read and linked like any other', async () => {
    v = await openTestVault({ 'deep.html': DEEP, 'plan.html': '<p>plan</p>', 'goals.html': '<p>goals</p>' });
    const found = await v.call('search_notes', { query: 'plan' });
    expect(found.isError, JSON.stringify(found.structured)).toBe(false);
    expect(found.structured.results.map((r: { name: string }) => r.name)).toContain('deep.html');
    const read = await v.call('read_note', { name: 'deep' });
    expect(read.isError, JSON.stringify(read.structured)).toBe(false);
    expect(read.text).toContain('the plan');
    expect(read.text).toContain('deep words');
    const links = await v.call('get_outgoing_links', { name: 'deep' });
    expect(links.structured.links.map((l: { target: string | null }) => l.target).sort()).toEqual([
      'goals.html',
      'plan.html',
    ]);
    expect(
      (await v.call('list_by_tag', { tag: 'deep' })).structured.notes.map((n: { name: string }) => n.name),
    ).toEqual(['deep.html']);
  });

  it('sent to create_note in a Markdown vault becomes Markdown', async () => {
    v = await openTestVault({});
    const made = await v.call('create_note', { name: 'pasted', content: DEEP });
    expect(made.isError, JSON.stringify(made.structured)).toBe(false);
    const read = await v.call('read_note', { name: 'pasted' });
    expect(read.structured.body).toContain('the plan');
    expect(read.structured.body).toContain('deep words');
    expect(read.structured.body).not.toContain('<div>');
  });
});
