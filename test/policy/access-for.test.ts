import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  accessFor,
  describeAccess,
  hasHidden,
  isVisible,
  noteVisibility,
  PolicyMemo,
  visibilityKey,
} from '../../src/policy/access.js';
import { parsePolicy } from '../../src/policy/policy.js';

const SPEC_EXAMPLE = parsePolicy(
  'default: read-only\nfolders:\n  private: hidden\n  inbox: read-write\n  inbox/locked: read-only\n  drafts: staged\n',
);

describe('accessFor', () => {
  it('with no policy file everything is read-write', () => {
    expect(accessFor(null, 'a.md')).toBe('read-write');
    expect(accessFor(null, 'private/deep/x.md')).toBe('read-write');
  });

  it('the most specific folder wins, whatever the order in the file', () => {
    const reversed = parsePolicy('folders:\n  inbox/locked: read-only\n  inbox: read-write\n');
    for (const policy of [SPEC_EXAMPLE, reversed]) {
      expect(accessFor(policy, 'inbox/idea.md')).toBe('read-write');
      expect(accessFor(policy, 'inbox/locked/plan.md')).toBe('read-only');
      expect(accessFor(policy, 'inbox/locked/deeper/plan.md')).toBe('read-only');
      expect(accessFor(policy, 'inbox/lockedx/plan.md')).toBe('read-write');
    }
  });

  it('a more specific rule may open a folder inside a hidden one', () => {
    const policy = parsePolicy('folders:\n  private: hidden\n  private/shared: read-only\n');
    expect(accessFor(policy, 'private/diary.md')).toBe('hidden');
    expect(accessFor(policy, 'private/shared/list.md')).toBe('read-only');
  });

  it('rules cover whole path segments: inbox does not cover inbox2/x.md', () => {
    expect(accessFor(SPEC_EXAMPLE, 'inbox2/x.md')).toBe('read-only');
    expect(accessFor(SPEC_EXAMPLE, 'privately.md')).toBe('read-only');
    expect(accessFor(SPEC_EXAMPLE, 'private.md')).toBe('read-only');
    expect(accessFor(SPEC_EXAMPLE, 'private')).toBe('hidden');
  });

  it('compares ignoring case, with \\ as / and Unicode NFC', () => {
    expect(accessFor(SPEC_EXAMPLE, 'PRIVATE/Diary.md')).toBe('hidden');
    expect(accessFor(SPEC_EXAMPLE, 'Inbox\\Locked\\x.md')).toBe('read-only');
    const cafe = parsePolicy('folders:\n  "Caf\u00e9": hidden\n');
    expect(accessFor(cafe, 'cafe\u0301/menu.md')).toBe('hidden');
    const nfd = parsePolicy('folders:\n  "Cafe\u0301": hidden\n');
    expect(accessFor(nfd, 'caf\u00e9/menu.md')).toBe('hidden');
  });

  it('the default applies where no rule matches', () => {
    expect(accessFor(SPEC_EXAMPLE, 'top.md')).toBe('read-only');
    expect(accessFor(parsePolicy('folders:\n  a: hidden\n'), 'b/x.md')).toBe('read-write');
    expect(accessFor(parsePolicy('default: hidden\n'), 'b/x.md')).toBe('hidden');
  });

  it('a path through a dot-folder is hidden whatever the policy says', () => {
    expect(accessFor(null, '.obsidian/x.md')).toBe('hidden');
    expect(accessFor(parsePolicy('default: read-write\n'), 'a/.git/x.md')).toBe('hidden');
  });
});

describe('visibility helpers', () => {
  it('hasHidden is true only when some folder or the default is hidden', () => {
    expect(hasHidden(null)).toBe(false);
    expect(hasHidden(parsePolicy('default: read-only\n'))).toBe(false);
    expect(hasHidden(parsePolicy('default: hidden\nfolders:\n  open: read-only\n'))).toBe(true);
    expect(hasHidden(SPEC_EXAMPLE)).toBe(true);
  });

  it('isVisible is accessFor not hidden', () => {
    expect(isVisible(SPEC_EXAMPLE, 'private/x.md')).toBe(false);
    expect(isVisible(SPEC_EXAMPLE, 'drafts/x.md')).toBe(true);
    expect(isVisible(null, 'x.md')).toBe(true);
  });
});

describe('noteVisibility and visibilityKey', () => {
  const segment = fc.constantFrom(
    'a',
    'A',
    'b',
    'private',
    'Private',
    'é',
    'e\u0301',
    '.dot',
    'x.md',
    'n.MD',
  );
  const folderPath = fc.array(segment, { minLength: 1, maxLength: 3 }).map((s) => s.join('/'));
  const notePath = fc
    .tuple(
      fc.array(segment, { maxLength: 3 }),
      fc.constantFrom('n.md', 'N.MD', '.h.md', 'x', 'a\\b.md'),
      fc.constantFrom('/', '/', '\\'),
    )
    .map(([dirs, file, sep]) => [...dirs, file].join(sep));
  const policy = fc
    .tuple(
      fc.constantFrom('read-write', 'hidden', 'read-only'),
      fc.dictionary(folderPath, fc.constantFrom('hidden', 'read-only', 'read-write', 'staged'), {
        maxKeys: 4,
      }),
    )
    .map(([d, folders]) => {
      const lines = Object.entries(folders)
        .filter(([f]) => !f.split('/').some((s) => s.startsWith('.')))
        .map(([f, a]) => `  ${JSON.stringify(f)}: ${a}\n`);
      try {
        return parsePolicy(`default: ${d}\nfolders:\n${lines.join('')}`);
      } catch {
        return null; // the same folder twice, by case or NFC
      }
    });

  it('noteVisibility answers as isVisible for every path, one folder remembered or not', () => {
    fc.assert(
      fc.property(policy, fc.array(notePath, { minLength: 1, maxLength: 30 }), (p, paths) => {
        const visible = noteVisibility(p);
        for (const path of [...paths, ...paths]) expect(visible(path), path).toBe(isVisible(p, path));
      }),
      { numRuns: 300, seed: 4 },
    );
  });

  it('visibilityKey names only which folders hide: equal keys, equal answers', () => {
    const key = (text: string) => visibilityKey(parsePolicy(text));
    expect(visibilityKey(null)).toBe('all');
    expect(key('folders:\n  a: read-only\n')).toBe('all');
    expect(key('folders:\n  p: hidden\n  p/s: read-only\n')).toBe(
      key('folders:\n  P/s: read-write\n  p: hidden\n'),
    );
    expect(key('folders:\n  p: hidden\n')).not.toBe(key('folders:\n  p: hidden\n  p/s: read-only\n'));
    expect(key('default: hidden\n')).not.toBe(key('folders:\n  p: hidden\n'));
    fc.assert(
      fc.property(policy, policy, fc.array(notePath, { maxLength: 20 }), (a, b, paths) => {
        if (visibilityKey(a) !== visibilityKey(b)) return;
        for (const path of paths) expect(isVisible(a, path), path).toBe(isVisible(b, path));
      }),
      { numRuns: 300, seed: 5 },
    );
  });
});

describe('describeAccess', () => {
  it('lists every rule in tree order with what it overrides', () => {
    const summary = describeAccess(SPEC_EXAMPLE);
    expect(summary.policyFile).toBe(true);
    expect(summary.default).toBe('read-only');
    expect(summary.folders).toEqual([
      { folder: 'drafts', access: 'staged', line: 6, within: { folder: null, access: 'read-only' } },
      { folder: 'inbox', access: 'read-write', line: 4, within: { folder: null, access: 'read-only' } },
      {
        folder: 'inbox/locked',
        access: 'read-only',
        line: 5,
        within: { folder: 'inbox', access: 'read-write' },
      },
      { folder: 'private', access: 'hidden', line: 3, within: { folder: null, access: 'read-only' } },
    ]);
  });

  it('says when there is no policy file', () => {
    expect(describeAccess(null)).toEqual({
      policyFile: false,
      default: 'read-write',
      defaultGiven: false,
      folders: [],
    });
  });
});

describe('PolicyMemo', () => {
  it('parses a text once, and keeps failing for a bad text until it changes', () => {
    const memo = new PolicyMemo();
    const first = memo.parse('default: staged\n');
    expect(memo.parse('default: staged\n')).toBe(first);
    expect(memo.parse(null)).toBeNull();
    expect(() => memo.parse('default: hiden\n')).toThrow(/did you mean "hidden"/);
    expect(() => memo.parse('default: hiden\n')).toThrow(/did you mean "hidden"/);
    expect(memo.parse('default: hidden\n')?.default).toBe('hidden');
  });
});
