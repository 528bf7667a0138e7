import { describe, expect, it } from 'vitest';
import { isNotedError } from '../../src/common/errors.js';
import { parsePolicy, unreadablePolicy } from '../../src/policy/policy.js';

/** The policy_error `parsePolicy(text)` throws: its message and line. */
function refusal(text: string): { message: string; line: unknown; problem: unknown } {
  try {
    parsePolicy(text);
  } catch (error) {
    if (isNotedError(error)) {
      expect(error.code).toBe('policy_error');
      return { message: error.message, line: error.details.line, problem: error.details.problem };
    }
    throw error;
  }
  throw new Error('expected a policy_error, but the policy parsed');
}

describe('parsePolicy: what it understands', () => {
  it('reads the example of SPEC 4', () => {
    const policy = parsePolicy(
      [
        'default: read-only      # hidden | read-only | read-write | staged',
        'folders:',
        '  private: hidden',
        '  inbox: read-write',
        '  inbox/locked: read-only',
        '  drafts: staged',
        '',
      ].join('\n'),
    );
    expect(policy.default).toBe('read-only');
    expect(policy.defaultGiven).toBe(true);
    expect(policy.folders.map((r) => [r.folder, r.access, r.line])).toEqual([
      ['inbox/locked', 'read-only', 5],
      ['private', 'hidden', 3],
      ['inbox', 'read-write', 4],
      ['drafts', 'staged', 6],
    ]);
  });

  it('without default, the default is read-write', () => {
    const policy = parsePolicy('folders:\n  private: hidden\n');
    expect(policy.default).toBe('read-write');
    expect(policy.defaultGiven).toBe(false);
  });

  it('an empty file, a comment-only file and an empty folders key are empty policies', () => {
    for (const text of ['', '# nothing yet\n', '\n\n', 'folders:\n', 'default: staged\nfolders: {}\n']) {
      const policy = parsePolicy(text);
      expect(policy.folders).toEqual([]);
    }
  });

  it('keeps the folder as written, with \\ read as / and trailing slashes dropped', () => {
    const policy = parsePolicy('folders:\n  Projects\\Secret/: hidden\n  "2024": read-only\n');
    expect(policy.folders.map((r) => r.folder)).toEqual(['Projects/Secret', '2024']);
    expect(policy.folders[0]?.key).toBe('projects/secret');
  });

  it('accepts a byte-order mark and quoted access words', () => {
    expect(parsePolicy('\uFEFFdefault: "hidden"\n').default).toBe('hidden');
  });
});

describe('parsePolicy: every refusal names the problem and its line', () => {
  it('bad YAML', () => {
    const { message, line } = refusal('default: read-only\nfolders:\n  private: "hidden\n');
    expect(message).toContain('not valid YAML');
    expect(line).toBeTypeOf('number');
    expect(message).toContain(`line ${line}`);
  });

  it('nesting 10,000 levels deep, in flow or block form, is refused before it is composed (issue 10)', () => {
    // Composing it recursed to the stack limit, where V8 may abort the process instead of throwing.
    for (const text of [
      `default: read-only\nfolders: ${'['.repeat(10_000)}${']'.repeat(10_000)}\n`,
      `default: read-only\nfolders:\n  ${'- '.repeat(10_000)}x\n`,
    ]) {
      const { message, line } = refusal(text);
      expect(message).toContain('nests lists or mappings far too deeply to be a policy');
      expect(line).toBeOneOf([2, 3]);
    }
  });

  it('more than one YAML document', () => {
    const { message, line } = refusal('default: hidden\n---\ndefault: read-write\n');
    expect(message).toContain('more than one YAML document');
    expect(message).not.toContain('parseAllDocuments');
    expect(line).toBe(2);
  });

  it('a root that is not a mapping', () => {
    expect(refusal('- private: hidden\n').message).toContain('must be a mapping');
    expect(refusal('read-only\n').message).toContain('the text "read-only"');
  });

  it('an unknown top-level key, with the closest known one', () => {
    const { message, line } = refusal('default: read-only\nfolder:\n  private: hidden\n');
    expect(line).toBe(2);
    expect(message).toContain('unknown key "folder"; did you mean "folders"?');
    expect(refusal('rules: x\n').message).toContain('The file may only have "default" and "folders"');
  });

  it('a top-level key given twice', () => {
    const { message, line } = refusal('default: hidden\ndefault: read-write\n');
    expect(line).toBe(2);
    expect(message).toContain('given twice (also on line 1)');
  });

  it('an unknown access word suggests the closest: hiden → hidden', () => {
    const { message, line } = refusal('folders:\n  inbox: read-write\n  private: hiden\n');
    expect(line).toBe(3);
    expect(message).toContain(
      'line 3: unknown access word "hiden" for the folder "private"; did you mean "hidden"?',
    );
    expect(message).toContain('until the vault owner fixes or deletes'.replace('until', 'Until'));
  });

  it('suggests read-only for readonly / read_only, and nothing for a word far from any', () => {
    expect(refusal('default: readonly\n').message).toContain('did you mean "read-only"?');
    expect(refusal('default: read_only\n').message).toContain('did you mean "read-only"?');
    expect(refusal('default: Staged\n').message).toContain('did you mean "staged"?');
    const far = refusal('default: everything\n').message;
    expect(far).not.toContain('did you mean');
    expect(far).toContain('The access words are hidden, read-only, read-write or staged');
  });

  it('a folder given twice, in another case, with \\, a trailing / or in NFD', () => {
    const cases: [string, string, string][] = [
      ['private', 'Private/', 'different case and a trailing slash'],
      ['a/b', 'a\\b', 'a backslash'],
      ['inbox', 'inbox//', 'trailing slashes'],
      ['Caf\u00e9', 'cafe\u0301', 'NFC versus NFD'],
    ];
    for (const [first, second] of cases) {
      const { message, line } = refusal(
        `folders:\n  ${JSON.stringify(first)}: hidden\n  ${JSON.stringify(second)}: read-only\n`,
      );
      expect(line).toBe(3);
      expect(message).toContain('is the same folder as');
      expect(message).toContain('on line 2');
    }
  });

  it('folder paths that cannot name a folder inside the vault', () => {
    const bad: [string, string][] = [
      ['../outside', '".." segments are not allowed'],
      ['a/../b', '".." segments are not allowed'],
      ['/etc', 'not absolute paths'],
      ['C:\\notes', 'not drive paths'],
      ['\\\\server\\share', 'not absolute paths'],
      ['', 'the name is empty'],
      ['/', 'not absolute paths'],
      ['a//b', 'empty path segment'],
      ['./a', '"." segments are not allowed'],
      ['.obsidian', 'always hidden from agents'],
      ['a/.git', 'always hidden from agents'],
      ['bad\u0007name', 'control character'],
    ];
    for (const [folder, why] of bad) {
      const { message, line } = refusal(`folders:\n  ${JSON.stringify(folder)}: read-write\n`);
      expect(message, folder).toContain(why);
      expect(line, folder).toBe(2);
    }
  });

  it('a value that is not one access word', () => {
    expect(refusal('folders:\n  a: [hidden]\n').message).toContain('needs one access word');
    expect(refusal('folders:\n  a:\n    b: hidden\n').message).toContain('but has a mapping');
    expect(refusal('default: &x hidden\nfolders:\n  a: *x\n').message).toContain('an alias');
    expect(refusal('folders:\n  a:\n').message).toContain('has no access word');
    expect(refusal('default: true\n').message).toContain('unknown access word "true"');
    expect(refusal('default: 5\n').message).toContain('unknown access word "5"');
  });

  it('folders that is not a mapping', () => {
    const { message, line } = refusal('folders:\n  - private: hidden\n');
    expect(message).toContain('"folders" must be a mapping');
    expect(line).toBe(2);
    expect(refusal('folders: private\n').message).toContain('"folders" must be a mapping');
  });

  it('an unreadable file reads like every other policy problem', () => {
    const error = unreadablePolicy('permission denied');
    expect(error.code).toBe('policy_error');
    expect(error.message).toContain('cannot be read: permission denied.');
  });
});
