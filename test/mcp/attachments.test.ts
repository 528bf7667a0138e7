/**
 * list_attachments and read_attachment through a real client (SPEC 13.4): link counts from the link
 * index, unused files, pages, images as image content, text as text, the rest as resource links, and
 * hidden attachments absent everywhere.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  checkResult,
  openTestVault,
  type Structured,
  type TestVault,
  type VaultFiles,
} from '../helpers/vault.js';

let vault: TestVault | undefined;
afterEach(async () => {
  await vault?.close();
  vault = undefined;
});

/** The smallest valid PNG (1×1, transparent). */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

const FILES: VaultFiles = {
  'notes/a.md': '# A\n\n![[photo.png]] and ![](../img/chart.png)\n[the doc](../docs/spec.pdf)\n',
  'notes/b.md': '---\ncover: "[[photo.png]]"\n---\n![[photo.png|200]] ![[photo.png]]\n',
  'private/secret.md': '![[lonely.png]] ![[hidden.png]]\n',
  'img/photo.png': PNG,
  'img/chart.png': PNG,
  'img/lonely.png': PNG,
  'docs/spec.pdf': Buffer.from('%PDF-1.4 fake'),
  'docs/data.csv': 'a,b\n1,2\n',
  'docs/unused.txt': 'nobody links me\n',
  'private/hidden.png': PNG,
  '.obsidian/workspace.json': '{}',
  '.noted/mcp-policy.yaml': 'folders:\n  private: hidden\n',
};

async function open(files: VaultFiles = FILES): Promise<TestVault> {
  vault = await openTestVault(files);
  return vault;
}

function rows(r: { structured: Structured }): [string, number][] {
  return r.structured.attachments.map((a: Structured) => [a.path, a.embeddedBy]);
}

describe('list_attachments', () => {
  it('lists files that are not notes, in path order, with how many visible notes embed or link each', async () => {
    const v = await open();
    const r = await v.call('list_attachments');
    expect(rows(r)).toEqual([
      ['docs/data.csv', 0],
      ['docs/spec.pdf', 1],
      ['docs/unused.txt', 0],
      ['img/chart.png', 1],
      ['img/lonely.png', 0],
      ['img/photo.png', 2],
    ]);
    expect(r.structured.total).toBe(6);
    expect(r.structured.more).toBe(false);
    expect(r.structured.nextCursor).toBeUndefined();
    expect(r.structured.attachments[5]).toEqual({
      path: 'img/photo.png',
      sizeBytes: PNG.length,
      mimeType: 'image/png',
      modified: expect.any(String),
      embeddedBy: 2,
    });
    expect(r.text).toMatch(/img\/photo\.png — image\/png, \d+ bytes, linked from 2 notes/);
  });

  it('unused lists only what nothing links to: a file linked only from a hidden note counts as unused', async () => {
    const v = await open();
    const r = await v.call('list_attachments', { unused: true });
    expect(rows(r)).toEqual([
      ['docs/data.csv', 0],
      ['docs/unused.txt', 0],
      ['img/lonely.png', 0],
    ]);
    expect(r.structured.total).toBe(3);
  });

  it('pages with a cursor and says the total; a folder includes its sub-folders', async () => {
    const v = await open();
    const first = await v.call('list_attachments', { limit: 4 });
    expect(first.structured.attachments).toHaveLength(4);
    expect(first.structured).toMatchObject({ total: 6, more: true });
    expect(first.text).toMatch(/More attachments follow: call again with cursor/);
    const second = await v.call('list_attachments', { limit: 4, cursor: first.structured.nextCursor });
    expect(rows(second).map(([p]) => p)).toEqual(['img/lonely.png', 'img/photo.png']);
    expect(second.structured.nextCursor).toBeUndefined();
    const unused = await v.call('list_attachments', { unused: true, limit: 2 });
    const unused2 = await v.call('list_attachments', {
      unused: true,
      limit: 2,
      cursor: unused.structured.nextCursor,
    });
    expect([...rows(unused), ...rows(unused2)].map(([p]) => p)).toEqual([
      'docs/data.csv',
      'docs/unused.txt',
      'img/lonely.png',
    ]);
    expect(unused2.structured.total).toBe(3);
    const inImg = await v.call('list_attachments', { folder: 'IMG' });
    expect(rows(inImg).map(([p]) => p)).toEqual(['img/chart.png', 'img/lonely.png', 'img/photo.png']);
    expect((await v.call('list_attachments', { folder: 'private' })).structured).toEqual({
      attachments: [],
      total: 0,
      more: false,
    });
    // A cursor of one listing is refused by the other.
    const crossed = await v.call('list_attachments', { cursor: unused.structured.nextCursor });
    expect(crossed.structured.code).toBe('validation_error');
  });

  it('refuses a cursor it did not give and a folder that cannot be one', async () => {
    const v = await open();
    expect((await v.call('list_attachments', { cursor: 'nope' })).structured.code).toBe('validation_error');
    expect((await v.call('list_attachments', { folder: '../x' })).structured.code).toBe('invalid_name');
  });
});

interface RawContent {
  type: string;
  text?: string;
  data?: string;
  mimeType?: string;
  uri?: string;
  size?: number;
}

/** read_attachment answers with image and resource-link blocks, which the text-only helper refuses. */
async function readAttachment(v: TestVault, args: Record<string, unknown>) {
  const raw = (await v.client.callTool({ name: 'read_attachment', arguments: args })) as {
    content: RawContent[];
    structuredContent: Structured;
    isError?: boolean;
  };
  const last = raw.content[raw.content.length - 1]!;
  expect(last.type).toBe('text');
  expect(JSON.parse(last.text!.replace(/^structuredContent: /, ''))).toEqual(raw.structuredContent);
  return raw;
}

describe('read_attachment', () => {
  it('returns an image as image content clients show', async () => {
    const v = await open();
    const r = await readAttachment(v, { path: 'img/photo.png' });
    expect(r.isError).toBeFalsy();
    expect(r.content.map((c) => c.type)).toEqual(['text', 'image', 'text']);
    expect(r.content[1]).toEqual({ type: 'image', data: PNG.toString('base64'), mimeType: 'image/png' });
    expect(r.structuredContent).toMatchObject({
      path: 'img/photo.png',
      kind: 'image',
      mimeType: 'image/png',
      sizeBytes: PNG.length,
      uri: 'noted://note/img/photo.png',
    });
  });

  it('returns a text file as text, in pages when asked', async () => {
    const v = await open();
    const r = await v.call('read_attachment', { path: 'docs/data.csv' });
    expect(r.structured).toMatchObject({ kind: 'text', mimeType: 'text/csv', text: 'a,b\n1,2\n' });
    expect(r.text).toContain('a,b\n1,2\n');
    const page = await v.call('read_attachment', { path: 'docs/data.csv', offset: 2, max_chars: 3 });
    expect(page.structured).toMatchObject({
      text: 'b\n1',
      truncated: true,
      offset: 2,
      nextOffset: 5,
      totalChars: 8,
    });
  });

  it('offers anything else as a resource link with its size and type, without reading it', async () => {
    const v = await open();
    const r = await readAttachment(v, { path: 'docs/spec.pdf' });
    expect(r.content[1]).toMatchObject({
      type: 'resource_link',
      uri: 'noted://note/docs/spec.pdf',
      mimeType: 'application/pdf',
      size: 13,
    });
    expect(r.structuredContent).toMatchObject({ kind: 'file', sizeBytes: 13 });
    await v.close();
    const notUtf8 = await open({ 'bin.txt': Buffer.from([0xff, 0xfe, 0x00]) });
    expect((await readAttachment(notUtf8, { path: 'bin.txt' })).structuredContent.kind).toBe('file');
  });

  it('a hidden attachment answers exactly like a missing one; a note or a dot-folder is not an attachment', async () => {
    const v = await open();
    const hidden = await v.call('read_attachment', { path: 'private/hidden.png' });
    const missing = await v.call('read_attachment', { path: 'private/absent.png' });
    expect(hidden.structured.code).toBe('not_found');
    expect(hidden.structured.message).toBe(missing.structured.message.replace('absent', 'hidden'));
    expect((await v.call('read_attachment', { path: 'notes/a.md' })).structured.code).toBe(
      'validation_error',
    );
    expect((await v.call('read_attachment', { path: '.obsidian/workspace.json' })).structured.code).toBe(
      'invalid_name',
    );
    expect((await v.call('read_attachment', { path: '../outside.png' })).structured.code).toBe(
      'invalid_name',
    );
  });

  it('an image over 5 MB is too large to show, and says so', async () => {
    const v = await open({ 'big.png': Buffer.alloc(5 * 1024 * 1024 + 1) });
    const r = await v.call('read_attachment', { path: 'big.png' });
    expect(r.structured).toMatchObject({ code: 'too_large', sizeBytes: 5 * 1024 * 1024 + 1 });
  });

  it('results are valid tool results (SPEC 3.1)', async () => {
    const v = await open();
    const raw = await v.client.callTool({ name: 'read_attachment', arguments: { path: 'docs/unused.txt' } });
    expect(checkResult(raw as Parameters<typeof checkResult>[0]).structured.kind).toBe('text');
  });
});
