/**
 * The name attacks of SPEC 1.3, each through a real client against a real vault with real links:
 * every one is refused with a clear error, and nothing is created or changed anywhere around the
 * vault (its parent folder is compared byte for byte before and after).
 *
 * Layout (all under one temporary folder):
 *   vault/note.md, vault/folder/inside.md, vault/.noted/secret.md
 *   vault/link-out -> ../outside            (a folder link leaving the vault)
 *   vault/link-out-file.md -> ../outside/secret.md
 *   vault/chain1.md -> chain2.md -> link-out/secret.md   (a chain that ends outside)
 *   vault/state -> .noted                   (a link into the server's own hidden folder)
 *   vault/evil -> ../vault-evil             (a sibling whose name extends the vault's)
 *   vault/dangling.md -> ../outside/nothing.md
 *   vault/alias -> folder                   (a link that stays inside: allowed)
 *   outside/secret.md, vault-evil/x.md
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestVault, readBytes, snapshot, type TestVault } from '../helpers/vault.js';

let vault: TestVault;

beforeAll(async () => {
  vault = await openTestVault(
    {
      'note.md': 'the note\n',
      'folder/inside.md': 'inside\n',
      '.noted/secret.md': 'server state, never for agents: kiwifruit\n',
    },
    {
      prepare: (dir, base) => {
        fs.mkdirSync(path.join(base, 'outside'));
        fs.writeFileSync(path.join(base, 'outside', 'secret.md'), 'outside secret: kiwifruit\n');
        fs.mkdirSync(path.join(base, 'vault-evil'));
        fs.writeFileSync(path.join(base, 'vault-evil', 'x.md'), 'evil sibling: kiwifruit\n');
        const link = (target: string, name: string) => fs.symlinkSync(target, path.join(dir, name));
        link('../outside', 'link-out');
        link('../outside/secret.md', 'link-out-file.md');
        link('link-out/secret.md', 'chain2.md');
        link('chain2.md', 'chain1.md');
        link('.noted', 'state');
        link('../vault-evil', 'evil');
        link('../outside/nothing.md', 'dangling.md');
        link('folder', 'alias');
      },
    },
  );
});

afterAll(async () => {
  await vault.close();
});

/** The whole neighbourhood of the vault; the derived index is allowed to change. */
function around(): Map<string, string> {
  const all = snapshot(vault.base, { includeState: true });
  for (const key of [...all.keys()])
    if (/^vault\/\.noted\/(index\.sqlite|locks\/)/.test(key)) all.delete(key);
  return all;
}

/** Calls read_note, create_note and update_note with `name`; returns each error code. */
async function attack(
  name: string,
): Promise<{ read: string; create: string; update: string; append: string }> {
  const read = await vault.call('read_note', { name });
  const create = await vault.call('create_note', { name, content: 'pwned' });
  const update = await vault.call('update_note', { name, content: 'pwned' });
  const append = await vault.call('update_note', { name, content: 'pwned', append: true });
  for (const r of [read, create, update, append]) {
    expect(r.isError, `${JSON.stringify(name)} must be refused`).toBe(true);
    expect(r.structured.message.length).toBeGreaterThan(20);
  }
  for (const w of [create, update, append]) expect(w.structured.committed).toBe(false);
  return {
    read: read.structured.code,
    create: create.structured.code,
    update: update.structured.code,
    append: append.structured.code,
  };
}

const INVALID = {
  read: 'invalid_name',
  create: 'invalid_name',
  update: 'invalid_name',
  append: 'invalid_name',
};

const REFUSED: [rule: string, names: string[]][] = [
  [
    '".." in every position',
    ['..', '../outside/secret', 'folder/..', 'folder/../note', 'folder/../../outside/secret', 'a/b/../../..'],
  ],
  ['absolute paths', ['/etc/passwd', '/tmp/x', '//server/share/x', 'C:/Windows/x', 'c:x']],
  [
    '"\\" separators',
    ['a\\..\\b', '..\\outside\\secret', '\\etc\\passwd', 'folder\\..\\..\\outside\\secret'],
  ],
  [
    'percent-encoded separators (a "." segment after all)',
    ['..%2F..%2Fx', '..%2f..%2fetc%2fpasswd', '.%2e/x'],
  ],
  [
    'NUL and control characters',
    ['note\u0000', 'a\u0000/../../x', 'line\nbreak', 'tab\there', 'del\u007f', 'c1\u0085'],
  ],
  [
    'a segment starting with "."',
    ['.noted/index.sqlite', '.noted/secret', '.obsidian/x', 'folder/.git/config', '.hidden'],
  ],
  ['more than 16 folders', [`${'d/'.repeat(17)}n`]],
  [
    'a link inside the vault leading outside',
    ['link-out/secret', 'link-out/new', 'link-out-file', 'link-out/sub/new'],
  ],
  ['a chain of links ending outside', ['chain1', 'chain2']],
  ['a link to the server folder .noted', ['state/secret', 'state/new', 'state/trash/x']],
  ["a sibling folder whose name extends the vault's", ['evil/x', 'evil/new']],
  ['a dangling link (where it leads cannot be checked)', ['dangling']],
];

describe('names that try to leave the vault or reach hidden files', () => {
  for (const [rule, names] of REFUSED) {
    it(`${rule}: invalid_name for reads and writes, nothing touched`, async () => {
      const before = around();
      for (const name of names) {
        expect(await attack(name), JSON.stringify(name)).toEqual(INVALID);
      }
      expect(around()).toEqual(before);
    });
  }

  it('the error names the rule that was broken', async () => {
    const cases: [string, RegExp][] = [
      ['../x', /"\.\."/],
      ['/etc/passwd', /absolute/],
      ['a\u0000b', /U\+0000/],
      ['.obsidian/x', /starts with "\."/],
      [`${'d/'.repeat(17)}n`, /17 folders deep.*16/],
      ['link-out/secret', /outside the vault/],
      ['state/secret', /hidden folder/],
      ['dangling', /symbolic link/],
    ];
    for (const [name, rule] of cases) {
      const { structured } = await vault.call('read_note', { name });
      expect(structured.code).toBe('invalid_name');
      expect(structured.message, name).toMatch(rule);
    }
  });

  it('16 levels of folders are accepted', async () => {
    const name = `${'d/'.repeat(16)}deep`;
    const created = await vault.call('create_note', { name, content: 'deep down\n' });
    expect(created.isError).toBe(false);
    expect(created.structured.name).toBe(`${name}.md`);
    const read = await vault.call('read_note', { name });
    expect(read.structured.body).toBe('deep down\n');
    fs.rmSync(path.join(vault.dir, 'd'), { recursive: true });
  });

  it('"%" is an ordinary character: an encoded name is created literally, inside the vault', async () => {
    const name = 'sub%2F..%2F..%2Fescape';
    const before = around();
    const read = await vault.call('read_note', { name });
    expect(read.structured.code).toBe('not_found');
    const created = await vault.call('create_note', { name, content: 'literal' });
    expect(created.structured.name).toBe('sub%2F..%2F..%2Fescape.md');
    const after = around();
    // The journal records the creation; apart from it, the only new file is the literal note.
    const added = [...after.keys()].filter((k) => !before.has(k) && !k.startsWith('vault/.noted/journal/'));
    expect(added).toEqual(['vault/sub%2F..%2F..%2Fescape.md']);
    expect(readBytes(vault.dir, 'sub%2F..%2F..%2Fescape.md')?.toString()).toBe('literal');
    fs.rmSync(path.join(vault.dir, 'sub%2F..%2F..%2Fescape.md'));
  });

  it('delete_note and restore_note refuse the same names', async () => {
    const before = around();
    for (const name of [
      '../outside/secret',
      'link-out/secret',
      'chain1',
      'state/secret',
      'evil/x',
      '.noted/secret',
    ]) {
      const del = await vault.call('delete_note', { name });
      expect(del.structured, name).toMatchObject({ code: 'invalid_name', committed: false });
      const restore = await vault.call('restore_note', { name });
      expect(['invalid_name', 'not_found']).toContain(restore.structured.code);
    }
    expect(around()).toEqual(before);
  });

  it('edit_note refuses a link leading outside, and the outside file keeps its bytes', async () => {
    const before = around();
    for (const name of ['link-out-file', 'chain1', 'evil/x']) {
      const { structured } = await vault.call('edit_note', {
        name,
        operation: 'replace',
        old_text: 'secret',
        new_text: 'pwned',
        expected_modified: new Date().toISOString(),
      });
      expect(structured, name).toMatchObject({ code: 'invalid_name', committed: false });
    }
    expect(around()).toEqual(before);
  });

  it('a link that stays inside the vault works', async () => {
    const { structured, isError } = await vault.call('read_note', { name: 'alias/inside' });
    expect(isError).toBe(false);
    expect(structured.body).toBe('inside\n');
  });

  it('nothing outside the vault or in .noted is listed or searchable through links', async () => {
    const listed = await vault.call('list_notes', { limit: 500 });
    const names = listed.structured.notes.map((n: { name: string }) => n.name);
    expect(names).not.toContainEqual(expect.stringMatching(/secret|evil\/|chain|link-out|dangling|^state\//));
    const found = await vault.call('search_notes', { query: 'kiwifruit' });
    expect(found.isError).toBe(false);
    expect(found.structured.total).toBe(0);
  });
});

describe('letter case on a case-sensitive disk', () => {
  it('NOTE.md when note.md exists: reads resolve to the canonical note.md', async () => {
    for (const name of ['NOTE.md', 'Note', 'NOTE.MD']) {
      const { structured, isError } = await vault.call('read_note', { name });
      expect(isError, name).toBe(false);
      expect(structured.name).toBe('note.md');
      expect(structured.body).toBe('the note\n');
    }
  });

  it('create_note of NOTE.md is refused with already_exists and nothing is created', async () => {
    const before = around();
    const { structured, isError } = await vault.call('create_note', { name: 'NOTE.md', content: 'shadow' });
    expect(isError).toBe(true);
    expect(structured).toMatchObject({ code: 'already_exists', committed: false, name: 'note.md' });
    expect(around()).toEqual(before);
    expect(fs.readdirSync(vault.dir)).not.toContain('NOTE.md');
  });

  it('update_note of NOTE writes the canonical note.md, never a second file', async () => {
    const { structured } = await vault.call('update_note', { name: 'NOTE', content: 'the note\n' });
    expect(structured.name).toBe('note.md');
    expect(fs.readdirSync(vault.dir)).not.toContain('NOTE.md');
    expect(readBytes(vault.dir, 'note.md')?.toString()).toBe('the note\n');
  });
});
