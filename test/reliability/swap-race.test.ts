/**
 * Issue 25 item 4: hidden means absent against a local process racing the server too. With `pub/dir`
 * flipped between a real folder and a symbolic link to `../private/dir` (hidden by policy), the
 * red team got hidden text from read_note, resources and search excerpts, and create_note wrote into
 * the hidden folder. Every read is now judged on the file it opened and every write goes through a
 * folder opened and checked once.
 *
 * First the swap at the worst moment, made inside `fs.openSync` (deterministic; each fails without
 * the checks); then a child process flipping the folder as fast as it can while a fixed number of
 * calls run: 0 leaks, 0 files written into the hidden folder.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { interceptOpen } from '../helpers/fs-faults.js';
import { openTestVault, type TestVault } from '../helpers/vault.js';

const SECRET = 'SECRETMARKER merger layoffs';
const PUBLIC = 'public words about the merger';
const onLinux = process.platform === 'linux';

let v: TestVault | undefined;
let flipper: ChildProcess | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  flipper?.kill('SIGKILL');
  flipper = undefined;
  await v?.close();
  v = undefined;
});

async function vault(): Promise<TestVault> {
  v = await openTestVault({
    '.noted/mcp-policy.yaml': 'folders:\n  private: hidden\n',
    'pub/dir/note.md': `# Note\n${PUBLIC}\n`,
    'private/dir/note.md': `# Secret\n${SECRET}\n`,
    'private/dir/other.md': `# Other\n${SECRET}\n`,
  });
  return v;
}

/** Replaces `pub/dir` by a link to the hidden folder (the real folder is kept aside). */
function swap(dir: string): void {
  fs.renameSync(path.join(dir, 'pub', 'dir'), path.join(dir, 'pub', 'dir-away'));
  fs.symlinkSync('../private/dir', path.join(dir, 'pub', 'dir'));
}

/** The hidden folder's files and texts, to see that nothing was written there. */
function hiddenState(dir: string): string {
  const folder = path.join(dir, 'private', 'dir');
  return JSON.stringify(
    fs
      .readdirSync(folder)
      .sort()
      .map((f) => [f, fs.readFileSync(path.join(folder, f), 'utf8')]),
  );
}

/** Swaps once, at the first open of a path for which `when` is true. */
function swapAt(dir: string, when: (file: string) => boolean): void {
  let done = false;
  interceptOpen((file, open) => {
    if (!done && when(String(file))) {
      done = true;
      swap(dir);
    }
    return open();
  });
}

describe.skipIf(!onLinux)('a folder swapped for a link into a hidden folder at the worst moment', () => {
  it('read_note, resources and excerpts read nothing from the hidden note', async () => {
    const t = await vault();
    const note = path.join(t.dir, 'pub', 'dir', 'note.md');
    swapAt(t.dir, (f) => f === note);
    const read = await t.call('read_note', { name: 'pub/dir/note' });
    expect(read.structured.code).toBe('not_found');
    expect(JSON.stringify(read)).not.toContain('SECRETMARKER');

    vi.restoreAllMocks();
    fs.rmSync(path.join(t.dir, 'pub', 'dir'));
    fs.renameSync(path.join(t.dir, 'pub', 'dir-away'), path.join(t.dir, 'pub', 'dir'));
    swapAt(t.dir, (f) => f === note);
    const resource = await t.client
      .readResource({ uri: 'noted://note/pub/dir/note.md' })
      .catch((e: Error) => e.message);
    expect(JSON.stringify(resource)).not.toContain('SECRETMARKER');

    vi.restoreAllMocks();
    fs.rmSync(path.join(t.dir, 'pub', 'dir'));
    fs.renameSync(path.join(t.dir, 'pub', 'dir-away'), path.join(t.dir, 'pub', 'dir'));
    swapAt(t.dir, (f) => f === note);
    const search = await t.call('search_notes', { query: 'merger' });
    expect(search.structured.results.map((r: { name: string }) => r.name)).toEqual(['pub/dir/note.md']);
    expect(JSON.stringify(search)).not.toContain('SECRETMARKER');
  });

  it('the index does not take the hidden text for the note it listed', async () => {
    const t = await vault();
    fs.writeFileSync(path.join(t.dir, 'pub', 'dir', 'note.md'), `# Note\n${PUBLIC} again\n`);
    const note = path.join(t.dir, 'pub', 'dir', 'note.md');
    swapAt(t.dir, (f) => f === note);
    t.opened.access.ctx.index.touched(['pub/dir/note.md']);
    vi.restoreAllMocks();
    const search = await t.call('search_notes', { query: 'SECRETMARKER' });
    expect(search.structured.total).toBe(0);
    const list = await t.call('list_notes', {});
    expect(JSON.stringify(list)).not.toContain('SECRETMARKER');
    expect(JSON.stringify(list)).not.toContain('Secret');
  });

  it('create_note and update_note write nothing into the hidden folder, and leave nothing behind', async () => {
    const t = await vault();
    const before = hiddenState(t.dir);
    const folder = path.join(t.dir, 'pub', 'dir');
    // The swap lands right before the write opens the folder it writes in.
    swapAt(t.dir, (f) => f === folder);
    const created = await t.call('create_note', { name: 'pub/dir/new', content: 'planted\n' });
    expect(created.isError).toBe(true);
    expect(created.structured).toMatchObject({ code: 'invalid_name', reason: 'changed' });
    expect(hiddenState(t.dir)).toBe(before);

    vi.restoreAllMocks();
    fs.rmSync(path.join(t.dir, 'pub', 'dir'));
    fs.renameSync(path.join(t.dir, 'pub', 'dir-away'), path.join(t.dir, 'pub', 'dir'));
    const read = await t.call('read_note', { name: 'pub/dir/note' });
    swapAt(t.dir, (f) => f === folder);
    const updated = await t.call('update_note', {
      name: 'pub/dir/note',
      content: 'overwritten\n',
      expected_etag: read.structured.etag,
    });
    expect(updated.isError).toBe(true);
    expect(hiddenState(t.dir)).toBe(before);
    expect(fs.readdirSync(path.join(t.dir, 'private', 'dir')).sort()).toEqual(['note.md', 'other.md']);
  });

  it('a new folder is not made through the link either', async () => {
    const t = await vault();
    const folder = path.join(t.dir, 'pub', 'dir');
    swapAt(t.dir, (f) => f === path.join(folder, 'sub') || f === folder);
    const created = await t.call('create_note', { name: 'pub/dir/sub/deeper/new', content: 'planted\n' });
    expect(created.isError).toBe(true);
    expect(fs.readdirSync(path.join(t.dir, 'private', 'dir')).sort()).toEqual(['note.md', 'other.md']);
  });
});

/**
 * Flips `pub/dir` between the real folder and a link to `../private/dir` until killed, writing how many
 * flips it made to a file every 100 (not to a pipe, which would block it when the test does not read).
 * A folder the server made at `pub/dir` while it was missing (a create racing the flip) is moved aside,
 * and the flipping goes on.
 */
const FLIPPER = `
const fs = require('node:fs');
const path = require('node:path');
const pub = process.argv[1];
const counter = process.argv[2];
const dir = path.join(pub, 'dir'), away = path.join(pub, 'dir-away'), link = path.join(pub, 'dir-link');
fs.symlinkSync('../private/dir', link);
process.stdout.write('ready\\n');
let flips = 0;
const move = (from, to) => {
  try {
    fs.renameSync(from, to);
  } catch (err) {
    if (err.code !== 'EISDIR' && err.code !== 'ENOTEMPTY' && err.code !== 'EEXIST' && err.code !== 'ENOTDIR') throw err;
    fs.renameSync(to, path.join(pub, 'made-' + flips));
    fs.renameSync(from, to);
  }
};
for (;;) {
  move(dir, away);
  move(link, dir);
  move(dir, link);
  move(away, dir);
  if (++flips % 100 === 0) {
    fs.writeFileSync(counter + '.tmp', String(flips));
    fs.renameSync(counter + '.tmp', counter);
  }
}
`;

describe.skipIf(!onLinux)('a process flipping the folder while agents call', () => {
  it('over a fixed number of calls: 0 leaks, 0 writes into the hidden folder', async () => {
    const t = await vault();
    const before = hiddenState(t.dir);
    const counter = path.join(t.base, 'flips');
    flipper = spawn(process.execPath, ['-e', FLIPPER, path.join(t.dir, 'pub'), counter], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    await new Promise<void>((resolve) => flipper?.stdout?.once('data', () => resolve()));
    const flipsSoFar = () => Number(fs.existsSync(counter) ? fs.readFileSync(counter, 'utf8') || 0 : 0);
    let leaks = 0;
    let answered = 0;
    const leaked = (value: unknown) => {
      if (JSON.stringify(value).includes('SECRETMARKER')) leaks++;
      answered++;
    };
    for (let i = 0; i < 400; i++) {
      leaked(await t.call('read_note', { name: 'pub/dir/note' }));
      leaked(
        await t.client.readResource({ uri: 'noted://note/pub/dir/note.md' }).catch((e: Error) => e.message),
      );
      if (i % 4 === 0) {
        t.opened.access.ctx.index.touched(['pub/dir/note.md', 'pub/dir']);
        leaked(await t.call('search_notes', { query: 'merger' }));
        leaked(await t.call('list_notes', { folder: 'pub' }));
      }
      if (i % 2 === 0)
        leaked(await t.call('create_note', { name: `pub/dir/new-${i}`, content: `planted ${i}\n` }));
      if (i % 8 === 0)
        leaked(await t.call('update_note', { name: 'pub/dir/note', content: `# Note\n${PUBLIC} ${i}\n` }));
    }
    const flips = flipsSoFar();
    const running = flipper.exitCode === null;
    flipper.kill('SIGKILL');
    flipper = undefined;
    // The race really ran: the flipper was still flipping at the end, thousands of times.
    expect(running).toBe(true);
    expect(flips).toBeGreaterThan(1000);
    expect(answered).toBeGreaterThan(1000);
    expect(leaks).toBe(0);
    expect(hiddenState(t.dir)).toBe(before);
  }, 120_000);
});
