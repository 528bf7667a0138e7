import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { accessFor } from '../../src/policy/access.js';
import { ACCESS_LEVELS, parsePolicy } from '../../src/policy/policy.js';
import { openings, salvagePolicy } from '../../src/policy/salvage.js';

/**
 * Issue 20.3: the readable part of an invalid policy file, for the console to start from, never opens
 * what the file meant to close; and `openings` names every place an edit would open.
 */
describe('salvagePolicy', () => {
  it('keeps what was understood and hides a folder whose access word is unknown', () => {
    const s = salvagePolicy('# mine\ndefault: read-only\nfolders:\n  private: hiden\n  inbox: read-write\n');
    expect(s.default).toBe('read-only');
    expect(s.folders).toEqual([
      { folder: 'private', access: 'hidden' },
      { folder: 'inbox', access: 'read-write' },
    ]);
    expect(s.notes).toEqual(['line 4: private: "hiden" is not an access level; read as hidden.']);
  });

  it('a file without default keeps the read-write it means, when every problem names its folder', () => {
    expect(salvagePolicy('folders:\n  private: hiden\n')).toMatchObject({
      default: 'read-write',
      folders: [{ folder: 'private', access: 'hidden' }],
    });
  });

  it('hides everywhere else when a problem could have closed anything', () => {
    for (const text of [
      'defualt: read-only\nfolders:\n  inbox: read-write\n',
      'default: readonly\nfolders:\n  inbox: read-write\n',
      'default: read-write\nfolders:\n  /private: hidden\n  inbox: read-write\n',
      'default: read-write\nfolders:\n  - private\n',
      'default: read-write\ndefault: hidden\n',
    ]) {
      const s = salvagePolicy(text);
      expect(s.default, text).toBe('hidden');
      expect(s.notes.at(-1), text).toMatch(/default\) is read as hidden/);
    }
    expect(
      salvagePolicy('default: read-write\nfolders:\n  /private: hidden\n  inbox: read-write\n').folders,
    ).toEqual([{ folder: 'inbox', access: 'read-write' }]);
  });

  it('hides everything when the text is not a policy at all', () => {
    for (const text of ['default: [read-write\n', 'just words\n', '- a\n- b\n', `${'['.repeat(500)}\n`]) {
      expect(salvagePolicy(text), text).toMatchObject({ default: 'hidden', folders: [] });
    }
  });

  it('keeps the more closed of two rules for one folder', () => {
    expect(salvagePolicy('folders:\n  Private: read-write\n  private/: hiden\n').folders).toEqual([
      { folder: 'private', access: 'hidden' },
    ]);
  });

  it('reads a valid file exactly as parsePolicy does', () => {
    const text = 'default: staged\nfolders:\n  a: hidden\n  a/b: read-write\n';
    const s = salvagePolicy(text);
    const p = parsePolicy(text);
    expect(s.notes).toEqual([]);
    for (const path of ['x.md', 'a/x.md', 'a/b/x.md', 'a/c/x.md']) {
      expect(accessFor(parsePolicy(render(s)), path)).toBe(accessFor(p, path));
    }
  });

  it('no folder the file names is more open after salvage than the file wrote it, whatever the file (property)', () => {
    const word = fc.constantFrom(...ACCESS_LEVELS, 'hiden', 'readonly', '');
    const folder = fc.constantFrom('a', 'a/b', 'b', 'A', '/c', '.git', 'a//b');
    fc.assert(
      fc.property(fc.option(word), fc.array(fc.tuple(folder, word), { maxLength: 5 }), (def, rules) => {
        const text = `${def === null ? '' : `default: ${def}\n`}folders:\n${rules.map(([f, w]) => `  "${f}": ${w}\n`).join('')}`;
        const s = salvagePolicy(text);
        const salvaged = parsePolicy(render(s));
        // Every rule the file wrote with a known folder is at most as open as written.
        for (const [f, w] of rules) {
          if (f.startsWith('/') || f.startsWith('.') || f.includes('//')) continue;
          const written = (ACCESS_LEVELS as readonly string[]).includes(w) ? w : 'hidden';
          const rank = { hidden: 0, 'read-only': 1, staged: 2, 'read-write': 3 } as Record<string, number>;
          expect(rank[accessFor(salvaged, `${f}/n.md`)]).toBeLessThanOrEqual(rank[written] as number);
        }
      }),
    );
  });
});

describe('openings', () => {
  it('names each folder and the default where the second policy lets agents do more', () => {
    const before = parsePolicy('default: read-only\nfolders:\n  private: hidden\n  inbox: staged\n');
    expect(openings(before, before)).toEqual([]);
    expect(openings(before, parsePolicy('default: hidden\n'))).toEqual(
      ['"inbox": staged → hidden'].slice(0, 0),
    );
    expect(openings(before, parsePolicy('default: read-write\nfolders:\n  private: read-only\n'))).toEqual([
      'everywhere else (default): read-only → read-write',
      '"private": hidden → read-only',
      '"inbox": staged → read-write',
    ]);
    // A deeper rule opening part of a hidden folder is an opening too.
    expect(
      openings(
        before,
        parsePolicy(
          'default: read-only\nfolders:\n  private: hidden\n  private/x: read-only\n  inbox: staged\n',
        ),
      ),
    ).toEqual(['"private/x": hidden → read-only']);
  });
});

function render(s: { default: string; folders: readonly { folder: string; access: string }[] }): string {
  return `default: ${s.default}\nfolders:\n${s.folders.map((r) => `  ${JSON.stringify(r.folder)}: ${r.access}\n`).join('')}`;
}
