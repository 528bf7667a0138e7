/**
 * A folder of mixed notes (SPEC 17.7, issue 32): three .html notes and a README.md are an HTML vault
 * (the stray .md does not turn it into a Markdown vault of one note), and get_vault_info says how many
 * notes of each kind there are, which kind is served and what the owner can do; a vault of one kind
 * says nothing of the sort.
 */
import fs from 'node:fs';
import { afterEach, expect, it } from 'vitest';
import { ensureBuilt, spawnServer } from '../helpers/server-process.js';
import { makeVault, openTestVault, type TestVault, within } from '../helpers/vault.js';

let vaults: TestVault[] = [];
afterEach(async () => {
  for (const v of vaults) await v.close();
  vaults = [];
});

const page = (title: string) =>
  `<!doctype html><html><head><title>${title}</title></head><body><p>${title} budget</p></body></html>`;

it('three HTML notes and a README.md: served as an HTML vault, and get_vault_info says the vault is mixed', async () => {
  const v = await openTestVault({
    'one.html': page('one'),
    'two.html': page('two'),
    'docs/three.html': page('three'),
    'README.md': '# Readme\n\nbudget\n',
  });
  vaults.push(v);
  const info = await v.call('get_vault_info');
  expect(info.isError, info.text).toBe(false);
  expect(info.structured.vault.format).toBe('html');
  expect(info.structured.counts.notes).toBe(3);
  expect(info.structured.mixedFormats).toMatchObject({ markdown: 1, html: 3, served: 'html' });
  expect(info.structured.mixedFormats.advice).toContain('"format": "markdown" in .noted/config.json');
  expect(info.text).toContain('Mixed formats: The vault holds 1 Markdown (.md) and 3 HTML (.html) notes');
  const listed = await v.call('list_notes', {});
  expect(listed.structured.notes.map((n: { name: string }) => n.name).sort()).toEqual([
    'docs/three.html',
    'one.html',
    'two.html',
  ]);
});

it('a Markdown vault with a few .html files is still Markdown, and says so', async () => {
  const v = await openTestVault({
    'a.md': 'a',
    'b.md': 'b',
    'export.html': page('export'),
  });
  vaults.push(v);
  const info = await v.call('get_vault_info');
  expect(info.structured.vault.format).toBe('markdown');
  expect(info.structured.mixedFormats).toMatchObject({ markdown: 2, html: 1, served: 'markdown' });
});

it('a vault of one kind, and a hidden folder of the other kind, mention no mix', async () => {
  const v = await openTestVault({
    'a.md': 'a',
    'secret/page.html': page('secret'),
    '.noted/mcp-policy.yaml': 'default: read-write\nfolders:\n  secret: hidden\n',
  });
  vaults.push(v);
  const info = await v.call('get_vault_info');
  expect(info.structured.mixedFormats).toBeUndefined();
  expect(info.text).not.toContain('Mixed');
});

it('the server says so at start-up, on stderr', async () => {
  await ensureBuilt();
  const { base, dir } = makeVault({
    'one.html': page('one'),
    'two.html': page('two'),
    'README.md': '# Readme\n',
  });
  const server = await spawnServer(dir);
  try {
    const said = await within(20_000, () =>
      server.stderr().includes('The vault holds 1 Markdown (.md) and 2 HTML (.html) notes'),
    );
    expect(said, server.stderr()).not.toBeNull();
    expect(server.stderr()).toContain('served as an HTML vault');
  } finally {
    await server.close();
    fs.rmSync(base, { recursive: true, force: true });
  }
}, 120_000);
