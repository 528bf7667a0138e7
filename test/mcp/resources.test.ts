import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { noteUri, pathOfUri } from '../../src/mcp/resources.js';
import { openTestVault, type TestVault } from '../helpers/vault.js';

let vaults: TestVault[] = [];
afterEach(async () => {
  for (const v of vaults) await v.close();
  vaults = [];
});

async function open(
  files: Record<string, string | Uint8Array>,
  prepare?: (dir: string, base: string) => void,
): Promise<TestVault> {
  const v = await openTestVault(files, prepare === undefined ? {} : { prepare });
  vaults.push(v);
  return v;
}

async function failure(request: Promise<unknown>): Promise<{ code: number; message: string; data: unknown }> {
  try {
    await request;
  } catch (err) {
    const e = err as { code: number; message: string; data?: unknown };
    return { code: e.code, message: e.message, data: e.data };
  }
  throw new Error('expected the request to fail');
}

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 1, 2, 3]);

const FILES = {
  'inbox/Q3 plan #1.md': '---\ntitle: Q3 plan\n---\nThe plan, 100% done?\n',
  'inbox/idea.md': '# Idea\n\npangolins\n',
  'img/Photo.png': PNG,
  'docs/paper.pdf': '%PDF-1.4 tiny',
  'docs/data.bin': new Uint8Array([0, 255]),
  '.obsidian/app.json': '{}',
  'private/secret.md': 'hidden words\n',
  'private/scan.png': PNG,
  '.noted/mcp-policy.yaml': 'folders:\n  private: hidden\n',
};

describe('notes and attachments are resources (SPEC 9.2)', () => {
  it('resources/list names every readable file by noted://note/<path>, each segment URL-encoded', async () => {
    const v = await open(FILES);
    const { resources } = await v.client.listResources();
    expect(resources.map((r) => [r.uri, r.name, r.mimeType, r.title])).toEqual([
      ['noted://note/docs/data.bin', 'docs/data.bin', 'application/octet-stream', undefined],
      ['noted://note/docs/paper.pdf', 'docs/paper.pdf', 'application/pdf', undefined],
      ['noted://note/img/Photo.png', 'img/Photo.png', 'image/png', undefined],
      ['noted://note/inbox/Q3%20plan%20%231.md', 'inbox/Q3 plan #1.md', 'text/markdown', 'Q3 plan'],
      ['noted://note/inbox/idea.md', 'inbox/idea.md', 'text/markdown', 'Idea'],
    ]);
    expect(resources[2]).toMatchObject({
      size: PNG.length,
      annotations: { lastModified: expect.any(String) },
    });
    const { resourceTemplates } = await v.client.listResourceTemplates();
    expect(resourceTemplates).toMatchObject([
      { uriTemplate: 'noted://note/{path}', name: 'vault-file' },
      { uriTemplate: 'noted://vault', name: 'vault' },
      { uriTemplate: 'noted://folder/{path}', name: 'vault-folder' },
    ]);
  });

  it('resources/read gives a note as text/markdown, exactly as stored, and an attachment as a base64 blob', async () => {
    const v = await open(FILES);
    const note = await v.client.readResource({ uri: 'noted://note/inbox/Q3%20plan%20%231.md' });
    expect(note.contents).toEqual([
      {
        uri: 'noted://note/inbox/Q3%20plan%20%231.md',
        mimeType: 'text/markdown',
        text: FILES['inbox/Q3 plan #1.md'],
      },
    ]);
    // .md is optional, as in every argument.
    const bare = await v.client.readResource({ uri: 'noted://note/inbox/idea' });
    expect(bare.contents[0]).toMatchObject({ mimeType: 'text/markdown', text: '# Idea\n\npangolins\n' });
    const image = await v.client.readResource({ uri: 'noted://note/img/Photo.png' });
    expect(image.contents).toEqual([
      { uri: 'noted://note/img/Photo.png', mimeType: 'image/png', blob: Buffer.from(PNG).toString('base64') },
    ]);
    const pdf = await v.client.readResource({ uri: noteUri('docs/paper.pdf') });
    expect(pdf.contents[0]).toMatchObject({
      mimeType: 'application/pdf',
      blob: Buffer.from('%PDF-1.4 tiny').toString('base64'),
    });
  });

  it('an attachment over 5 MB is refused with a clear error; one of exactly 5 MB is read', async () => {
    const v = await open({
      'big/over.png': new Uint8Array(5 * 1024 * 1024 + 1),
      'big/limit.png': new Uint8Array(5 * 1024 * 1024),
    });
    const err = await failure(v.client.readResource({ uri: 'noted://note/big/over.png' }));
    expect(err.code).toBe(-32602);
    expect(err.message).toMatch(/"big\/over\.png" is 5\.0 MB; files are offered as resources up to 5 MB/);
    expect(err.data).toMatchObject({ code: 'too_large', maxBytes: 5 * 1024 * 1024 });
    const ok = await v.client.readResource({ uri: 'noted://note/big/limit.png' });
    expect(Buffer.from((ok.contents[0] as { blob: string }).blob, 'base64').length).toBe(5 * 1024 * 1024);
  });

  it('a hidden file is not listed and reads exactly like a missing one', async () => {
    const v = await open(FILES, (dir) => {
      fs.symlinkSync(path.join(dir, 'private', 'scan.png'), path.join(dir, 'img', 'link.png'));
      fs.symlinkSync(path.join(dir, 'private', 'gone.png'), path.join(dir, 'img', 'dangling.png'));
    });
    const { resources } = await v.client.listResources();
    expect(resources.some((r) => r.name.startsWith('private/') || r.name === 'img/link.png')).toBe(false);
    for (const [hidden, missing] of [
      ['noted://note/private/secret.md', 'noted://note/private/gone.md'],
      ['noted://note/private/scan.png', 'noted://note/private/gone.png'],
      // A visible link into a hidden folder reads exactly like a dangling one (issue 35 finding 10).
      ['noted://note/img/link.png', 'noted://note/img/dangling.png'],
    ] as const) {
      const a = await failure(v.client.readResource({ uri: hidden }));
      const b = await failure(v.client.readResource({ uri: missing }));
      expect(a.code).toBe(-32602);
      // The same answer but for the names asked.
      const same = (e: unknown, uri: string) =>
        JSON.stringify(e)
          .replaceAll(uri, 'URI')
          .replaceAll(uri.slice('noted://note/'.length), 'NAME')
          .replace(/\\"[^"\\]*\\" exists/, '"X" exists');
      expect(same(a, hidden)).toBe(same(b, missing));
    }
  });

  it('a URI that tries to leave the vault is refused before any file is touched', async () => {
    const v = await open(FILES, (dir, base) => {
      fs.writeFileSync(path.join(base, 'outside.png'), 'outside');
      fs.symlinkSync(path.join(base, 'outside.png'), path.join(dir, 'img', 'out.png'));
    });
    const refused = [
      'noted://note/../outside.png',
      'noted://note/img/../../outside.png',
      'noted://note/%2E%2E/outside.png',
      'noted://note/img%2F..%2F..%2Foutside.png',
      'noted://note/img/%2e%2e%5C%2e%2e%5Coutside.png',
      'noted://note/./inbox/idea.md',
      'noted://note//etc/passwd',
      'noted://note/%2Fetc%2Fpasswd',
      'noted://note/',
      'noted://note/inbox/idea.md?x=1',
      'noted://note/inbox/%E0%A4%A.md',
      'noted://note/a%00b.md',
      'file:///etc/passwd',
      'noted://other/inbox/idea.md',
    ];
    for (const uri of refused) {
      const err = await failure(v.client.readResource({ uri }));
      expect(err.code, uri).toBe(-32602);
      expect(err.message, uri).toMatch(/^(Refused: the URI|".*" is not a resource of this server)/);
    }
    // Names the vault never offers agents, and a link that leads out of it, are refused by the gate.
    for (const uri of [
      'noted://note/.noted/mcp-policy.yaml',
      'noted://note/.obsidian/app.json',
      'noted://note/img/out.png',
    ]) {
      const err = await failure(v.client.readResource({ uri }));
      expect(err.code, uri).toBe(-32602);
      expect(err.data, uri).toMatchObject({ code: 'invalid_name' });
    }
  });

  it('URIs round-trip: noteUri and pathOfUri agree on awkward names', () => {
    for (const name of ['a b/c#d?.md', '100%/x.png', 'Été/日本.md', "it's (1).md"]) {
      expect(pathOfUri(noteUri(name))).toBe(name);
    }
  });
});

describe('resources/list pages for large vaults', () => {
  it('pages of 2000 in path order with a cursor; together they are every file once', async () => {
    const files: Record<string, string | Uint8Array> = {};
    for (let i = 0; i < 1100; i++) files[`notes/n${String(i).padStart(4, '0')}.md`] = `note ${i}\n`;
    for (let i = 0; i < 1000; i++) files[`img/a${String(i).padStart(4, '0')}.png`] = PNG;
    const v = await open(files);
    // A request without a cursor is the first page (listResources() without one walks all pages).
    const first = await v.client.request({ method: 'resources/list', params: {} });
    expect(first.resources).toHaveLength(2000);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await v.client.listResources({ cursor: first.nextCursor as string });
    expect(second.resources).toHaveLength(100);
    expect(second.nextCursor).toBeUndefined();
    const names = [...first.resources, ...second.resources].map((r) => r.name);
    expect(names).toEqual(Object.keys(files).sort());
    // The client's own walk over the pages gives the same.
    expect((await v.client.listResources()).resources.map((r) => r.name)).toEqual(names);
    const bad = await failure(v.client.listResources({ cursor: 'not-ours' }));
    expect(bad.code).toBe(-32602);
    expect(bad.message).toMatch(/cursor is not one this server gave out/);
  });
});

describe('completion of paths', () => {
  it("completes the template path (notes and attachments) and prompts' note argument (notes), never hidden ones", async () => {
    const v = await open({
      ...FILES,
      'prompts/Review.md': '---\nscope: note\n---\nReview {{note}}\n',
      'private/idea.md': 'x',
    });
    const path = async (value: string) =>
      (
        await v.client.complete({
          ref: { type: 'ref/resource', uri: 'noted://note/{path}' },
          argument: { name: 'path', value },
        })
      ).completion.values;
    expect(await path('inb')).toEqual(['inbox/Q3 plan #1.md', 'inbox/idea.md']);
    expect(await path('IMG/p')).toEqual(['img/Photo.png']);
    expect(await path('ide')).toEqual(['inbox/idea.md']);
    expect(await path('priv')).toEqual([]);
    const note = await v.client.complete({
      ref: { type: 'ref/prompt', name: 'review' },
      argument: { name: 'note', value: '' },
    });
    expect(note.completion.values).toEqual(['inbox/Q3 plan #1.md', 'inbox/idea.md', 'prompts/Review.md']);
  });
});

describe('noted://vault and noted://folder/{path} (SPEC 17.6, issue 32)', () => {
  it("noted://vault is get_vault_info's answer; a folder lists its notes and sub-folders directly in it", async () => {
    const v = await openTestVault({
      'top.md': 't',
      'projects/plan.md': '# Plan',
      'projects/alpha/deep.md': 'd',
      'projects/img.png': 'png',
      'secret/s.md': 's',
      '.noted/mcp-policy.yaml': 'default: read-write\nfolders:\n  secret: hidden\n',
    });
    try {
      const read = async (uri: string) => {
        const r = await v.client.readResource({ uri });
        const c = r.contents[0] as { uri: string; mimeType: string; text: string };
        expect(c.mimeType).toBe('application/json');
        return JSON.parse(c.text);
      };
      const info = await read('noted://vault');
      expect(info.vault).toEqual({ name: 'vault', format: 'markdown' });
      expect(info.counts.notes).toBe(3);
      const projects = await read('noted://folder/projects');
      expect(projects).toEqual({
        folder: 'projects',
        folders: [{ path: 'projects/alpha', notes: 1, uri: 'noted://folder/projects/alpha' }],
        notes: [{ name: 'projects/plan.md', title: 'Plan', modified: expect.any(String) }],
      });
      const root = await read('noted://folder/');
      expect(root.folders.map((f: { path: string }) => f.path)).toEqual(['projects']);
      expect(root.notes.map((n: { name: string }) => n.name)).toEqual(['top.md']);
      // A hidden folder answers as a missing one.
      const hidden = await v.client.readResource({ uri: 'noted://folder/secret' }).catch((e: Error) => e);
      const missing = await v.client.readResource({ uri: 'noted://folder/nowhere' }).catch((e: Error) => e);
      expect(hidden).toBeInstanceOf(Error);
      expect(missing).toBeInstanceOf(Error);
      expect((hidden as Error).message.replaceAll('secret', 'X')).toBe(
        (missing as Error).message.replaceAll('nowhere', 'X'),
      );
      await expect(v.client.readResource({ uri: 'noted://folder/../x' })).rejects.toThrow(/leave the vault/);
    } finally {
      await v.close();
    }
  });
});
