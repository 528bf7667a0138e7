/**
 * Issue 35 finding 1 through a real client: a short regex whose counted repetition compiles to a
 * large program no longer holds the server for seconds over one long line. A pattern over the
 * program bound is refused when read, and a smaller one that would cost too much on one note is
 * refused before any note is read. Both answered and held the server before (22 s for the issue's
 * 200 KB note). No timing here: bench/abuse.mjs --regex prints it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_REGEX_PROGRAM } from '../../src/index/search/parse/regex.js';
import { openTestVault, type TestVault } from '../helpers/vault.js';

let vault: TestVault;
beforeAll(async () => {
  vault = await openTestVault({
    // The note: one 100,000-letter line, then 20,000 short words.
    'pub/one.md': `${'a'.repeat(100_000)}\n${'aaaa '.repeat(20_000)}`,
    'pub/small.md': '# Small\n\naaaa z here\n',
  });
}, 120_000);
afterAll(async () => {
  await vault.close();
});

describe('a regex costs what its compiled program costs (SPEC 3.3a, issue 35)', () => {
  it('refuses a pattern that compiles past the program bound, saying why and what to do', async () => {
    const refused = await vault.call('search_notes', { query: '/.{0,1000}.{0,1000}z/' });
    expect(refused.isError).toBe(true);
    expect(refused.structured.code).toBe('validation_error');
    expect(refused.structured.message).toContain('too costly to run');
    expect(refused.structured.message).toContain(`the limit is ${MAX_REGEX_PROGRAM.toLocaleString('en-US')}`);
    expect(refused.structured.message).toContain('use smaller counts');
  });

  it('refuses a regex that would cost too much on one long note before reading it, and answers it elsewhere', async () => {
    const query = '/.{0,200}.{0,200}z/';
    const refused = await vault.call('search_notes', { query });
    expect(refused.isError).toBe(true);
    expect(refused.structured.code).toBe('too_large');
    expect(refused.structured.message).toContain('"pub/one.md"');
    expect(refused.structured.message).toContain('hold up every other request');
    // Without the long note the same pattern is answered.
    const narrowed = await vault.call('search_notes', { query: `path:small ${query}` });
    expect(narrowed.isError).toBe(false);
    expect(narrowed.structured.results.map((r: { name: string }) => r.name)).toEqual(['pub/small.md']);
  });

  it('a small regex over the long note is still answered', async () => {
    const found = await vault.call('search_notes', { query: '/a{3}z?/' });
    expect(found.isError).toBe(false);
    expect(found.structured.total).toBe(2);
  });
});
