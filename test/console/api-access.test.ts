import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parsePolicy } from '../../src/policy/policy.js';
import { type ConsoleFixture, startFixture } from './console-fixture.js';

/**
 * SPEC 4 through the console: the folder tree with each folder's access, edits validated by
 * `parsePolicy` and written atomically (only over the file the page was shown), an invalid file on
 * disk shown with its error; and the Connect page's snippets and install action.
 */
let f: ConsoleFixture;
afterEach(async () => f?.close());

const policyFile = () => path.join(f.vault.dir, '.noted', 'mcp-policy.yaml');

describe('access API', () => {
  it('shows every folder with its effective access and the rule naming it', async () => {
    f = await startFixture({
      'inbox/a.md': 'a\n',
      'inbox/locked/b.md': 'b\n',
      'private/c.md': 'c\n',
      '.obsidian/x.json': '{}',
      '.noted/mcp-policy.yaml':
        'default: read-only\nfolders:\n  inbox: read-write\n  inbox/locked: read-only\n  gone: hidden\n',
    });
    const { cookie } = await f.signIn();
    const access = (await f.request('/api/access', { cookie })).json;
    expect(access.file.error).toBeNull();
    expect(access.default).toBe('read-only');
    expect(access.folders).toEqual([
      { folder: 'gone', access: 'hidden', rule: 'hidden', onDisk: false },
      { folder: 'inbox', access: 'read-write', rule: 'read-write', onDisk: true },
      { folder: 'inbox/locked', access: 'read-only', rule: 'read-only', onDisk: true },
      { folder: 'private', access: 'read-only', rule: null, onDisk: true },
    ]);
  });

  it('writes a validated policy atomically, and agents are refused at once', async () => {
    f = await startFixture({ 'private/c.md': 'c\n', 'inbox/a.md': 'a\n' });
    const { cookie, csrf } = await f.signIn();
    const before = (await f.request('/api/access', { cookie })).json;
    expect(before.file.exists).toBe(false);
    expect(before.etag).toBe('none');
    const saved = await f.request('/api/access', {
      method: 'PUT',
      cookie,
      csrf,
      body: {
        etag: before.etag,
        default: 'read-write',
        folders: [{ folder: 'private', access: 'read-only' }],
      },
    });
    expect(saved.status).toBe(200);
    expect(saved.json.folders.find((x: { folder: string }) => x.folder === 'private')).toMatchObject({
      access: 'read-only',
      rule: 'read-only',
    });
    const text = fs.readFileSync(policyFile(), 'utf8');
    expect(parsePolicy(text).folders.map((r) => [r.folder, r.access])).toEqual([['private', 'read-only']]);
    expect(fs.readdirSync(path.join(f.vault.dir, '.noted')).filter((n) => n.includes('tmp'))).toEqual([]);
    const read = await f.vault.call('read_note', { name: 'private/c' });
    const write = await f.vault.call('update_note', {
      name: 'private/c',
      content: 'changed\n',
      expected_etag: read.structured.etag,
    });
    expect(write.isError).toBe(true);
    expect(write.structured.code).toBe('read_only');
  });

  it('refuses a rule the parser refuses, and a write over a file changed since; nothing is written', async () => {
    f = await startFixture({ 'inbox/a.md': 'a\n', '.noted/mcp-policy.yaml': 'default: read-write\n' });
    const { cookie, csrf } = await f.signIn();
    const { etag } = (await f.request('/api/access', { cookie })).json;
    const dotted = await f.request('/api/access', {
      method: 'PUT',
      cookie,
      csrf,
      body: { etag, default: 'read-write', folders: [{ folder: '.git', access: 'read-write' }] },
    });
    expect(dotted.status).toBe(400);
    expect(dotted.json.error.message).toMatch(/always hidden from agents/);
    const badLevel = await f.request('/api/access', {
      method: 'PUT',
      cookie,
      csrf,
      body: { etag, default: 'open', folders: [] },
    });
    expect(badLevel.status).toBe(400);
    expect(fs.readFileSync(policyFile(), 'utf8')).toBe('default: read-write\n');
    fs.writeFileSync(policyFile(), 'default: read-only\n');
    const stale = await f.request('/api/access', {
      method: 'PUT',
      cookie,
      csrf,
      body: { etag, default: 'hidden', folders: [] },
    });
    expect(stale.status).toBe(409);
    expect(fs.readFileSync(policyFile(), 'utf8')).toBe('default: read-only\n');
  });

  it('shows an invalid policy file with its error, and lets the owner replace it', async () => {
    f = await startFixture({
      'private/c.md': 'c\n',
      '.noted/mcp-policy.yaml': 'folders:\n  private: hiden\n',
    });
    const { cookie, csrf } = await f.signIn();
    const access = (await f.request('/api/access', { cookie })).json;
    expect(access.file.error).toMatch(/line 2: unknown access word "hiden".*did you mean "hidden"/);
    expect(access.file.text).toBe('folders:\n  private: hiden\n');
    expect(access.folders).toEqual([{ folder: 'private', access: null, rule: null, onDisk: true }]);
    const fixed = await f.request('/api/access', {
      method: 'PUT',
      cookie,
      csrf,
      body: { etag: access.etag, default: 'read-write', folders: [{ folder: 'private', access: 'hidden' }] },
    });
    expect(fixed.status).toBe(200);
    expect(fixed.json.file.error).toBeNull();
    const read = await f.vault.call('read_note', { name: 'private/c' });
    expect(read.structured.code).toBe('not_found');
  });
});

describe('access API: the file as text, and an invalid file', () => {
  it('writes the text as typed once it parses; refuses text the parser refuses, a stale etag and a huge text', async () => {
    const text = '# keep this comment\ndefault: read-only\nfolders:\n  private: hidden # and this one\n';
    f = await startFixture({ 'private/c.md': 'c\n', '.noted/mcp-policy.yaml': 'default: read-write\n' });
    const { cookie, csrf } = await f.signIn();
    const { etag } = (await f.request('/api/access', { cookie })).json;
    const put = (body: unknown) => f.request('/api/access/text', { method: 'PUT', cookie, csrf, body });
    const bad = await put({ etag, text: 'folders:\n  private: hiden\n' });
    expect(bad.status).toBe(400);
    expect(bad.json.error.message).toMatch(/line 2: unknown access word "hiden"/);
    expect((await put({ etag, text: `# ${'x'.repeat(300 * 1024)}\n` })).status).toBe(413);
    expect((await put({ etag: 'stale', text })).status).toBe(409);
    expect((await put({ text })).status).toBe(400);
    expect(fs.readFileSync(policyFile(), 'utf8')).toBe('default: read-write\n');
    const ok = await put({ etag, text });
    expect(ok.status).toBe(200);
    expect(fs.readFileSync(policyFile(), 'utf8')).toBe(text);
    expect(ok.json.file.text).toBe(text);
    expect((await f.vault.call('read_note', { name: 'private/c' })).structured.code).toBe('not_found');
  });

  it('offers what could be read of an invalid file, and refuses a form that opens more than that', async () => {
    const invalid = 'default: read-only\nfolders:\n  private: hiden\n  inbox: read-write\n';
    f = await startFixture({ 'private/c.md': 'c\n', 'inbox/a.md': 'a\n', '.noted/mcp-policy.yaml': invalid });
    const { cookie, csrf } = await f.signIn();
    const access = (await f.request('/api/access', { cookie })).json;
    expect(access.default).toBeNull();
    expect(access.file).toMatchObject({ text: invalid, errorLine: 3 });
    expect(access.salvage).toEqual({
      default: 'read-only',
      folders: [
        { folder: 'private', access: 'hidden' },
        { folder: 'inbox', access: 'read-write' },
      ],
      notes: ['line 3: private: "hiden" is not an access level; read as hidden.'],
    });
    const put = (d: string, folders: unknown[]) =>
      f.request('/api/access', {
        method: 'PUT',
        cookie,
        csrf,
        body: { etag: access.etag, default: d, folders },
      });
    for (const [d, folders] of [
      [
        'read-only',
        [
          { folder: 'private', access: 'read-only' },
          { folder: 'inbox', access: 'read-write' },
        ],
      ],
      [
        'read-write',
        [
          { folder: 'private', access: 'hidden' },
          { folder: 'inbox', access: 'read-write' },
        ],
      ],
      [
        'read-only',
        [
          { folder: 'private', access: 'hidden' },
          { folder: 'private/open', access: 'read-write' },
        ],
      ],
    ] as const) {
      const refused = await put(d, [...folders]);
      expect(refused.status, JSON.stringify(folders)).toBe(409);
      expect(fs.readFileSync(policyFile(), 'utf8')).toBe(invalid);
    }
    // As read, or more closed: saved.
    const saved = await put('hidden', [
      { folder: 'private', access: 'hidden' },
      { folder: 'inbox', access: 'read-only' },
    ]);
    expect(saved.status).toBe(200);
    expect(parsePolicy(fs.readFileSync(policyFile(), 'utf8')).default).toBe('hidden');
  });
});

describe('connect API', () => {
  it('lists the client snippets and runs the Claude Desktop install only on a CSRF-checked POST', async () => {
    f = await startFixture();
    const { cookie, csrf } = await f.signIn();
    const connect = (await f.request('/api/connect', { cookie })).json;
    expect(connect.clients[0]).toMatchObject({ client: 'claude-code' });
    expect(connect.install.claudeDesktop).toBe(true);
    expect((await f.request('/api/connect/install-claude-desktop', { method: 'POST', cookie })).status).toBe(
      403,
    );
    expect(f.installs).toHaveLength(0);
    const installed = await f.request('/api/connect/install-claude-desktop', {
      method: 'POST',
      cookie,
      csrf,
    });
    expect(installed.json).toEqual({ ok: true, message: 'Added "noted".' });
    expect(f.installs).toHaveLength(1);
  });
});
