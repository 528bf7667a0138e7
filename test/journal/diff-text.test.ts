/**
 * Diffs for people: a unified diff like git's, hunks for review, and words marked `[-old-]{+new+}`.
 */
import { describe, expect, it } from 'vitest';
import { diffOf, hunksOf, wordDiffOf } from '../../src/journal/diff-text.js';

describe('diffOf', () => {
  it('is a unified diff with git-style headers', () => {
    expect(diffOf('a\nb\nc\n', 'a\nB\nc\n', { name: 'x.md' })).toBe(
      '--- a/x.md\n+++ b/x.md\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n',
    );
  });

  it('shows a creation and a deletion against /dev/null', () => {
    expect(diffOf(null, 'new\n', { name: 'n.md' })).toBe(
      '--- /dev/null\n+++ b/n.md\n@@ -0,0 +1,1 @@\n+new\n',
    );
    expect(diffOf('old\n', null, { name: 'n.md' })).toBe(
      '--- a/n.md\n+++ /dev/null\n@@ -1,1 +0,0 @@\n-old\n',
    );
  });

  it('is empty for equal texts', () => {
    expect(diffOf('same', 'same')).toBe('');
  });

  it('limits context to the given number of lines', () => {
    const before = 'l1\nl2\nl3\nl4\nl5\n';
    expect(diffOf(before, before.replace('l3', 'L3'), { context: 1 })).toContain(
      '@@ -2,3 +2,3 @@\n l2\n-l3\n+L3\n l4\n',
    );
  });
});

describe('hunksOf', () => {
  it('splits separate runs of changed lines into hunks', () => {
    const before = Array.from({ length: 20 }, (_, i) => `line ${i}`).join('\n');
    const after = before.replace('line 2', 'LINE 2').replace('line 17', 'LINE 17');
    const hunks = hunksOf(before, after, 2);
    expect(hunks).toHaveLength(2);
    expect(hunks[0]?.lines).toEqual([' line 0', ' line 1', '-line 2', '+LINE 2', ' line 3', ' line 4']);
  });
});

describe('wordDiffOf', () => {
  it('marks removed and added words', () => {
    expect(wordDiffOf('the quick brown fox', 'the slow brown fox jumps')).toBe(
      'the [-quick-]{+slow+} brown fox{+ jumps+}',
    );
  });

  it('colours them when asked', () => {
    expect(wordDiffOf('a b', 'a c', { color: true })).toBe(
      'a \u001b[31m[-b-]\u001b[0m\u001b[32m{+c+}\u001b[0m',
    );
  });
});
