/**
 * Writing `.base` files through create_note and update_note (SPEC 16.3): under the policy, the
 * journal, staging and etags like notes; a base that does not parse is refused with its line and
 * column and nothing is written.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AN_ID } from '../helpers/note-ids.js';
import { openTestVault, type TestVault } from '../helpers/vault.js';

const GOOD =
  'filters: file.hasTag("book")\nviews:\n  - type: table\n    name: Books\n    order: [file.name, price]\n';
const BAD = "views:\n  - type: table\n    name: Books\n    filters: 'price >> 2'\n";

let vault: TestVault;
beforeEach(async () => {
  vault = await openTestVault({
    'Dune.md': '---\ntags: [book]\nprice: 12\n---\n',
    'drafts/.keep.md': '',
    '.noted/mcp-policy.yaml':
      'default: read-write\nfolders:\n  drafts: staged\n  private: hidden\n  archive: read-only\n',
  });
});
afterEach(async () => {
  await vault.close();
});

const onDisk = (rel: string): string | null => {
  const abs = path.join(vault.dir, rel);
  return fs.existsSync(abs) ? fs.readFileSync(abs, 'utf8') : null;
};

describe('.base files through create_note and update_note', () => {
  it('creates a base that parses, which list_bases, query_base and read_note then see', async () => {
    const r = await vault.call('create_note', { name: 'Books.base', content: GOOD });
    expect(r.isError, JSON.stringify(r.structured)).toBe(false);
    expect(r.structured.name).toBe('Books.base');
    expect(onDisk('Books.base')).toBe(GOOD);
    const listed = await vault.call('list_bases', {});
    expect(listed.structured.bases).toEqual([
      { name: 'Books.base', views: [{ name: 'Books', type: 'table' }] },
    ]);
    const q = await vault.call('query_base', { base: 'Books.base' });
    expect(q.structured.groups[0].rows).toEqual([
      { name: 'Dune.md', id: AN_ID, values: { 'file.name': 'Dune.md', price: 12 } },
    ]);
    const read = await vault.call('read_note', { name: 'Books.base' });
    expect(read.structured.body).toBe(GOOD);
    expect(read.structured.etag).toBe(r.structured.etag);
  });

  it('refuses a base that does not parse, with its line and column, and writes nothing', async () => {
    const r = await vault.call('create_note', { name: 'Books.base', content: BAD });
    expect(r.isError).toBe(true);
    expect(r.structured.code).toBe('validation_error');
    expect(r.structured.message).toContain('line 4, column 22');
    expect(r.structured.committed).toBe(false);
    expect(onDisk('Books.base')).toBe(null);
  });

  it('refuses an unknown function naming it with a suggestion, and a formula cycle naming the cycle', async () => {
    const unknown = await vault.call('create_note', {
      name: 'A.base',
      content: 'formulas:\n  x: "price.toFixd(2)"\n',
    });
    expect(unknown.structured.message).toContain('Unknown function "toFixd". Did you mean "toFixed"?');
    const cycle = await vault.call('create_note', {
      name: 'B.base',
      content: 'formulas:\n  a: "formula.b + 1"\n  b: "formula.c"\n  c: "formula.a"\n',
    });
    expect(cycle.structured.message).toContain('formula.a → formula.b → formula.c → formula.a');
    expect(onDisk('A.base')).toBe(null);
    expect(onDisk('B.base')).toBe(null);
  });

  it('updates a base against its etag; a change that does not parse leaves it as it was', async () => {
    const created = await vault.call('create_note', { name: 'Books.base', content: GOOD });
    const bad = await vault.call('update_note', {
      name: 'Books.base',
      content: BAD,
      expected_etag: created.structured.etag,
    });
    expect(bad.structured.code).toBe('validation_error');
    expect(onDisk('Books.base')).toBe(GOOD);
    const changed = GOOD.replace('name: Books', 'name: All books');
    const stale = await vault.call('update_note', {
      name: 'Books.base',
      content: changed,
      expected_etag: 'nope',
    });
    expect(stale.structured.code).toBe('conflict');
    const ok = await vault.call('update_note', {
      name: 'Books.base',
      content: changed,
      expected_etag: created.structured.etag,
    });
    expect(ok.isError, JSON.stringify(ok.structured)).toBe(false);
    expect(onDisk('Books.base')).toBe(changed);
    const listed = await vault.call('list_bases', {});
    expect(listed.structured.bases[0].views).toEqual([{ name: 'All books', type: 'table' }]);
  });

  it('follows the policy: staged in a staged folder, refused in read-only and hidden ones', async () => {
    const staged = await vault.call('create_note', { name: 'drafts/Books.base', content: GOOD });
    expect(staged.isError, JSON.stringify(staged.structured)).toBe(false);
    expect(staged.structured.staged).toBe(true);
    expect(onDisk('drafts/Books.base')).toBe(null);
    const readOnly = await vault.call('create_note', { name: 'archive/Books.base', content: GOOD });
    expect(readOnly.structured.code).toBe('read_only');
    const hidden = await vault.call('create_note', { name: 'private/Books.base', content: GOOD });
    expect(hidden.isError).toBe(true);
    expect(onDisk('private/Books.base')).toBe(null);
  });

  it('edit_note does not edit a base: it says to use update_note', async () => {
    const created = await vault.call('create_note', { name: 'Books.base', content: GOOD });
    const r = await vault.call('edit_note', {
      name: 'Books.base',
      operation: { type: 'append', content: 'x' },
      expected_etag: created.structured.etag,
    });
    expect(r.isError).toBe(true);
    expect(onDisk('Books.base')).toBe(GOOD);
  });
});
