import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isNotedError } from '../../src/common/errors.js';
import { realVaultRoot, relativeToRoot, resolveInside } from '../../src/vault/confine.js';
import { normalizeNoteName } from '../../src/vault/names.js';

/**
 * Layout of every test (all real directories under the OS temp folder):
 *   <base>/vault          the vault (root = its real path)
 *   <base>/outside        a folder next to it, holding secret.md
 *   <base>/vault-evil     a sibling whose name extends the vault's
 */
let base: string;
let vault: string;
let outside: string;
let evil: string;
let root: string;

beforeEach(() => {
  base = fs.mkdtempSync(path.join(os.tmpdir(), 'noted-confine-'));
  vault = path.join(base, 'vault');
  outside = path.join(base, 'outside');
  evil = path.join(base, 'vault-evil');
  for (const dir of [vault, outside, evil]) fs.mkdirSync(dir);
  fs.writeFileSync(path.join(outside, 'secret.md'), 'secret');
  fs.writeFileSync(path.join(evil, 'x.md'), 'evil');
  root = realVaultRoot(vault);
});

afterEach(() => {
  fs.rmSync(base, { recursive: true, force: true });
});

/** What a tool does: validate the name, confine it, then write. */
function writeNote(name: string, text: string): string {
  const abs = resolveInside(root, normalizeNoteName(name, '.md'));
  fs.mkdirSync(path.dirname(abs), { recursive: true });
  fs.writeFileSync(abs, text);
  return abs;
}

function link(target: string, at: string): void {
  fs.symlinkSync(target, path.join(vault, at));
}

/** Asserts `fn` throws invalid_name for the given reason. */
function expectEscape(fn: () => unknown, reason: string): void {
  try {
    fn();
  } catch (error) {
    if (!isNotedError(error)) throw error;
    expect(error.code).toBe('invalid_name');
    expect(error.details.reason).toBe(reason);
    expect(error.message).toMatch(/Nothing was read or written/);
    return;
  }
  throw new Error('expected invalid_name, but the name was accepted');
}

/** A snapshot of everything outside the vault, to show it was not touched. */
function outsideState(): string[] {
  const list = (dir: string): string[] =>
    fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).map((entry) => {
      const p = path.join(dir, entry);
      return `${p}:${fs.lstatSync(p).mtimeMs}:${fs.lstatSync(p).size}`;
    });
  return [...list(outside), ...list(evil), ...fs.readdirSync(base)].sort();
}

describe('resolveInside: names that stay inside', () => {
  it('returns the absolute path below the real root, whether the note exists or not', () => {
    fs.mkdirSync(path.join(vault, 'inbox'));
    fs.writeFileSync(path.join(vault, 'inbox', 'idea.md'), 'x');
    expect(resolveInside(root, 'inbox/idea.md')).toBe(path.join(root, 'inbox', 'idea.md'));
    expect(resolveInside(root, 'inbox/new.md')).toBe(path.join(root, 'inbox', 'new.md'));
    expect(resolveInside(root, 'a/b/c/new.md')).toBe(path.join(root, 'a', 'b', 'c', 'new.md'));
    expect(resolveInside(root, '')).toBe(root);
  });

  it('follows a symlink that stays inside and returns the real location', () => {
    fs.mkdirSync(path.join(vault, 'projects'));
    fs.writeFileSync(path.join(vault, 'projects', 'plan.md'), 'x');
    link('projects', 'alias');
    expect(resolveInside(root, 'alias/plan.md')).toBe(path.join(root, 'projects', 'plan.md'));
    expect(resolveInside(root, 'alias/new.md')).toBe(path.join(root, 'projects', 'new.md'));
  });

  it('accepts a chain of symlinks inside → inside → inside', () => {
    fs.writeFileSync(path.join(vault, 'real.md'), 'x');
    link('real.md', 'c3.md');
    link('c3.md', 'c2.md');
    link('c2.md', 'c1.md');
    expect(resolveInside(root, 'c1.md')).toBe(path.join(root, 'real.md'));
  });

  it('a case-variant name is not folded: NOTE.md resolves to a path that does not exist', (ctx) => {
    fs.writeFileSync(path.join(vault, 'note.md'), 'x');
    const caseSensitive = !fs.existsSync(path.join(vault, 'NOTE.md'));
    // A case-insensitive disk folds case itself; there is nothing of ours to pin there.
    if (!caseSensitive) ctx.skip();
    const abs = resolveInside(root, 'NOTE.md');
    expect(abs).toBe(path.join(root, 'NOTE.md'));
    expect(fs.existsSync(abs)).toBe(false);
  });

  it('a file where a folder is expected is not an escape: the path is returned and the I/O fails later', () => {
    fs.writeFileSync(path.join(vault, 'file.md'), 'x');
    expect(resolveInside(root, 'file.md/x.md')).toBe(path.join(root, 'file.md', 'x.md'));
  });

  it('percent-encoded dots and separators are literal names that land inside the vault', () => {
    const abs = writeNote('%2e%2e/x', 'literal');
    expect(abs).toBe(path.join(root, '%2e%2e', 'x.md'));
    const other = writeNote('a%2F..%2F..%2Foutside%2Fsecret', 'literal');
    expect(other).toBe(path.join(root, 'a%2F..%2F..%2Foutside%2Fsecret.md'));
    expect(fs.readFileSync(path.join(outside, 'secret.md'), 'utf8')).toBe('secret');
  });
});

describe('resolveInside: symlinks that leave the vault are refused and nothing is touched', () => {
  it('a symlink to a file outside: reading and writing it are both refused', () => {
    link(path.join(outside, 'secret.md'), 'leak.md');
    const before = outsideState();
    expectEscape(() => resolveInside(root, 'leak.md'), 'outside');
    expectEscape(() => writeNote('leak', 'overwritten'), 'outside');
    expect(fs.readFileSync(path.join(outside, 'secret.md'), 'utf8')).toBe('secret');
    expect(outsideState()).toEqual(before);
  });

  it('a symlink to a folder outside: an existing note and a new note under it are both refused', () => {
    link(outside, 'out');
    const before = outsideState();
    expectEscape(() => resolveInside(root, 'out/secret.md'), 'outside');
    expectEscape(() => writeNote('out/new', 'planted'), 'outside');
    expectEscape(() => writeNote('out/deeper/new', 'planted'), 'outside');
    expect(fs.existsSync(path.join(outside, 'new.md'))).toBe(false);
    expect(fs.existsSync(path.join(outside, 'deeper'))).toBe(false);
    expect(outsideState()).toEqual(before);
  });

  it('a chain inside → inside → outside is refused', () => {
    link(path.join(outside, 'secret.md'), 'l3.md');
    link('l3.md', 'l2.md');
    link('l2.md', 'l1.md');
    expectEscape(() => resolveInside(root, 'l1.md'), 'outside');
  });

  it('a relative symlink that climbs out is refused', () => {
    fs.mkdirSync(path.join(vault, 'a'));
    link('../../outside', 'a/up');
    const before = outsideState();
    expectEscape(() => resolveInside(root, 'a/up/secret.md'), 'outside');
    expectEscape(() => writeNote('a/up/new', 'planted'), 'outside');
    expect(outsideState()).toEqual(before);
  });

  it('a sibling folder whose name extends the vault name is outside (/x/vault-evil is not in /x/vault)', () => {
    link('../vault-evil', 'evil');
    const before = outsideState();
    expectEscape(() => resolveInside(root, 'evil/x.md'), 'outside');
    expectEscape(() => writeNote('evil/new', 'planted'), 'outside');
    expect(outsideState()).toEqual(before);
  });

  it('a symlink to the folder that holds the vault is refused', () => {
    link('..', 'parent');
    expectEscape(() => resolveInside(root, 'parent/outside/secret.md'), 'outside');
    expectEscape(() => resolveInside(root, 'parent'), 'outside');
  });

  it('a dangling symlink as the final name is refused, so a write cannot create its target', () => {
    link(path.join(outside, 'created.md'), 'dangling.md');
    link('missing-inside.md', 'dangling-inside.md');
    const before = outsideState();
    expectEscape(() => resolveInside(root, 'dangling.md'), 'dangling_symlink');
    expectEscape(() => writeNote('dangling', 'planted'), 'dangling_symlink');
    expectEscape(() => resolveInside(root, 'dangling-inside.md'), 'dangling_symlink');
    expect(fs.existsSync(path.join(outside, 'created.md'))).toBe(false);
    expect(fs.existsSync(path.join(vault, 'missing-inside.md'))).toBe(false);
    expect(outsideState()).toEqual(before);
  });

  it('a dangling symlink in the middle of a name is refused', () => {
    link(path.join(outside, 'nodir'), 'gone');
    link('gone', 'via');
    const before = outsideState();
    expectEscape(() => writeNote('gone/new', 'planted'), 'dangling_symlink');
    expectEscape(() => resolveInside(root, 'via/a/b.md'), 'dangling_symlink');
    expect(fs.existsSync(path.join(outside, 'nodir'))).toBe(false);
    expect(outsideState()).toEqual(before);
  });

  it('a symlink loop is refused, as the final name and in the middle', () => {
    link('self.md', 'self.md');
    link('loop2', 'loop1');
    link('loop1', 'loop2');
    expectEscape(() => resolveInside(root, 'self.md'), 'symlink_loop');
    expectEscape(() => resolveInside(root, 'loop1'), 'symlink_loop');
    expectEscape(() => resolveInside(root, 'loop1/x.md'), 'symlink_loop');
  });

  it('the error message quotes the name and says nothing happened', () => {
    link(outside, 'out');
    expect(() => resolveInside(root, 'out/secret.md')).toThrow(
      'The name "out/secret.md" cannot be used: it resolves to a location outside the vault through a symbolic link. Nothing was read or written;',
    );
  });

  it('a name that was not normalized first is a bug and throws a plain error', () => {
    for (const rel of ['../outside/secret.md', 'a//b.md', './x.md', path.join(outside, 'secret.md')]) {
      expect(() => resolveInside(root, rel)).toThrow(/expects a normalized name/);
    }
  });

  it('property: any accepted name resolves inside the vault, even next to outward links', () => {
    link(outside, 'out');
    link('../vault-evil', 'evil');
    const pieces = fc.constantFrom('out', 'evil', '..', '.', '%2e%2e', 'a', 'b', '/', '\\', '..%2F', 'x.md');
    const names = fc.array(pieces, { minLength: 1, maxLength: 8 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(names, (input) => {
        let abs: string;
        try {
          abs = resolveInside(root, normalizeNoteName(input, '.md'));
        } catch (error) {
          return isNotedError(error) && error.code === 'invalid_name';
        }
        return relativeToRoot(root, abs) !== null;
      }),
      { numRuns: 500 },
    );
  });
});

describe('relativeToRoot', () => {
  it('gives the /-separated path below the root, "" for the root itself', () => {
    expect(relativeToRoot(root, path.join(root, 'a', 'b.md'))).toBe('a/b.md');
    expect(relativeToRoot(root, root)).toBe('');
    expect(relativeToRoot(root, `${root}${path.sep}`)).toBe('');
  });

  it('is null outside the root, including a sibling whose name extends it (not a string prefix)', () => {
    expect(relativeToRoot(root, path.join(realVaultRoot(evil), 'x.md'))).toBeNull();
    expect(relativeToRoot(root, `${root}-evil`)).toBeNull();
    expect(relativeToRoot(root, path.dirname(root))).toBeNull();
    expect(relativeToRoot(root, `${root}${path.sep}..${path.sep}outside${path.sep}secret.md`)).toBeNull();
    expect(relativeToRoot(root, 'relative/path.md')).toBeNull();
  });

  it('works for a vault at the file-system root', () => {
    expect(relativeToRoot('/', '/a/b.md')).toBe('a/b.md');
    expect(relativeToRoot('/', '/')).toBe('');
  });
});
