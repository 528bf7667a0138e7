import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { walkVault } from '../../src/vault/walk.js';

let base: string;
afterEach(() => fs.rmSync(base, { recursive: true, force: true }));

function vault(): string {
  base = fs.mkdtempSync(path.join(os.tmpdir(), 'noted-walk-'));
  const root = path.join(base, 'vault');
  fs.mkdirSync(root);
  return fs.realpathSync(root);
}

describe('walkVault', () => {
  it('lists a note under its own path even when a linked folder is met first', () => {
    const root = vault();
    fs.mkdirSync(path.join(root, 'zz-real'));
    fs.writeFileSync(path.join(root, 'zz-real', 'inside.md'), 'x');
    // "aa-link" sorts (and is usually read) before the real folder it points to.
    fs.symlinkSync(path.join(root, 'zz-real'), path.join(root, 'aa-link'));
    const names = walkVault(root, '.md').notes.map((n) => n.name);
    expect(names).toEqual(['zz-real/inside.md']);
  });

  it('does not follow a linked folder that leads out of the vault', () => {
    const root = vault();
    fs.mkdirSync(path.join(base, 'outside'));
    fs.writeFileSync(path.join(base, 'outside', 'secret.md'), 'x');
    fs.symlinkSync(path.join(base, 'outside'), path.join(root, 'out'));
    expect(walkVault(root, '.md').notes).toEqual([]);
  });

  it('names the real path behind a linked note, and behind every note of a linked folder walked by itself', () => {
    const root = vault();
    fs.mkdirSync(path.join(root, 'real', 'deep'), { recursive: true });
    fs.writeFileSync(path.join(root, 'real', 'deep', 'x.md'), 'x');
    fs.writeFileSync(path.join(root, 'real', 'y.md'), 'y');
    fs.symlinkSync(path.join(root, 'real', 'y.md'), path.join(root, 'shortcut.md'));
    fs.symlinkSync(path.join(root, 'real'), path.join(root, 'alias'));
    const whole = walkVault(root, '.md');
    expect(whole.notes.map((n) => n.name).sort()).toEqual(['real/deep/x.md', 'real/y.md', 'shortcut.md']);
    expect([...whole.linked]).toEqual([['shortcut.md', 'real/y.md']]);
    const sub = walkVault(root, '.md', 'alias');
    expect(sub.notes.map((n) => n.name).sort()).toEqual(['alias/deep/x.md', 'alias/y.md']);
    expect([...sub.linked].sort()).toEqual([
      ['alias/deep/x.md', 'real/deep/x.md'],
      ['alias/y.md', 'real/y.md'],
    ]);
  });

  it('skips hidden folders and sorts notes from attachments', () => {
    const root = vault();
    fs.mkdirSync(path.join(root, '.obsidian'));
    fs.writeFileSync(path.join(root, '.obsidian', 'x.md'), 'x');
    fs.writeFileSync(path.join(root, 'a.md'), 'x');
    fs.writeFileSync(path.join(root, 'b.png'), 'x');
    const walked = walkVault(root, '.md');
    expect(walked.notes.map((n) => n.name)).toEqual(['a.md']);
    expect(walked.attachments.map((n) => n.name)).toEqual(['b.png']);
  });
});
