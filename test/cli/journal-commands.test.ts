/**
 * `noted-mcp journal …` and `noted-mcp undo …`, run in-process on a real vault with a fake CliIo:
 * what they print, where, and their exit codes (0 ok, 1 failure, 2 usage).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CliIo } from '../../src/cli/io.js';
import { JOURNAL_USAGE, journalCommand } from '../../src/cli/journal-command.js';
import { UNDO_USAGE, undoCommand } from '../../src/cli/undo-command.js';
import {
  agentWrite,
  dayLines,
  type JournalVault,
  journalVault,
  writeDayLines,
} from '../journal/fixtures/journal-vault.js';

let jv: JournalVault;
afterEach(() => jv?.cleanup());

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

async function run(
  command: typeof journalCommand,
  argv: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    env: { HOME: jv.base, ...env },
    stdout: (t) => {
      stdout += t;
    },
    stderr: (t) => {
      stderr += t;
    },
    script: 'noted-mcp',
    isTty: false,
  };
  const code = await command(argv, io);
  return { code, stdout, stderr };
}

const journal = (...argv: string[]) => run(journalCommand, [...argv, '--notes-dir', jv.dir]);
const undo = (...argv: string[]) => run(undoCommand, [...argv, '--notes-dir', jv.dir]);

async function twoSessions() {
  jv = journalVault({ 'a.md': 'alpha one\n' });
  const a = await agentWrite(jv, 'a.md', 'alpha two\n', {
    session: 'S1',
    client: 'claude-code',
    tool: 'edit_note',
  });
  const b = await agentWrite(jv, 'b.md', 'beta\n', { session: 'S2', client: null, tool: 'create_note' });
  const c = await agentWrite(jv, 'a.md', 'alpha three\n', {
    session: 'S1',
    client: 'claude-code',
    group: 'g1',
  });
  return { a, b, c };
}

describe('noted-mcp journal list', () => {
  it('groups changes by session, newest first, with time, client (self-declared), tool, kind, note and id', async () => {
    const { a, b, c } = await twoSessions();
    const r = await journal();
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const lines = r.stdout.split('\n');
    expect(lines[0]).toBe('Session S1 — client "claude-code" (self-declared, unverified) — 2 changes');
    expect(lines[1]).toMatch(
      new RegExp(`^ 2026-12-01 10:00:03Z +update_note +update +a\\.md +${c.id} +\\(group g1\\)$`),
    );
    expect(lines[2]).toMatch(new RegExp(`^ 2026-12-01 10:00:01Z +edit_note +update +a\\.md +${a.id}$`));
    expect(lines[3]).toBe('');
    expect(lines[4]).toBe('Session S2 — no client name given — 1 change');
    expect(lines[5]).toMatch(new RegExp(`create_note +create +b\\.md +${b.id}$`));
  });

  it('filters by session, client, kind and note, and says when nothing matches', async () => {
    const { b } = await twoSessions();
    expect((await journal('list', '--kind', 'create')).stdout).toContain(b.id);
    expect((await journal('--session', 'S1')).stdout).not.toContain(b.id);
    expect((await journal('--client', 'claude-code', '--note', 'b')).stdout).toBe(
      'No journal entries match.\n',
    );
    expect((await journal('--note', 'b')).stdout).toContain(b.id);
  });

  it('shows the newest N with --limit and says there are more', async () => {
    const { c } = await twoSessions();
    const r = await journal('--limit', '1');
    expect(r.stdout).toContain(c.id);
    expect(r.stdout.match(/^ 2026/gm)).toHaveLength(1);
    expect(r.stdout).toContain('Showing the newest change; pass --limit N to see more.');
  });

  it('an empty journal says so', async () => {
    jv = journalVault();
    expect(await journal()).toEqual({
      code: 0,
      stdout: 'The journal is empty: no agent has changed a note.\n',
      stderr: '',
    });
  });

  it('finds the vault from $NOTED_VAULT like serve does', async () => {
    const { a } = await twoSessions();
    const r = await run(journalCommand, [], { NOTED_VAULT: jv.dir });
    expect(r.stdout).toContain(a.id);
  });

  it('a vault folder that does not exist is an error, not an empty journal', async () => {
    jv = journalVault();
    const missing = path.join(jv.base, 'nowhere');
    const r = await run(journalCommand, ['--notes-dir', missing]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/There is no vault at .*nowhere \(from --notes-dir\)/);
    expect(fs.existsSync(missing)).toBe(false);
  });

  it('reports every usage problem at once, on one line with a pointer to --help, exit 2', async () => {
    jv = journalVault();
    const r = await journal('--kind', 'rename', '--limit', '0', '--bogus', 'extra-arg-for-list');
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('unknown option --bogus');
    expect(r.stderr).toContain('unknown journal command "extra-arg-for-list"');
    expect(r.stderr).toContain(
      '--kind takes one of create, update, delete, restore, undo, not_applied, decision (got "rename")',
    );
    expect(r.stderr).toContain('--limit takes a whole number, 1 or more (got "0")');
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(2);
    expect(r.stderr).toContain("See 'noted-mcp journal --help'.");
    expect(r.stderr).not.toContain(JOURNAL_USAGE);
  });

  it('--help prints the usage on stdout', async () => {
    jv = journalVault();
    expect(await run(journalCommand, ['--help'])).toEqual({ code: 0, stdout: JOURNAL_USAGE, stderr: '' });
  });
});

describe('noted-mcp journal show', () => {
  it('prints the entry and its unified diff', async () => {
    const { c } = await twoSessions();
    const r = await journal('show', c.id);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`Entry    ${c.id}\n`);
    expect(r.stdout).toContain('Client   "claude-code" (self-declared, unverified)\n');
    expect(r.stdout).toContain('Group    g1\n');
    expect(r.stdout).toContain('--- a/a.md\n+++ b/a.md\n@@ -1,1 +1,1 @@\n-alpha two\n+alpha three\n');
  });

  it('--words marks changed words', async () => {
    const { c } = await twoSessions();
    expect((await journal('show', c.id, '--words')).stdout).toContain('alpha [-two-]{+three+}\n');
  });

  it('names the undo that undid it', async () => {
    const { a } = await twoSessions();
    const created = await agentWrite(jv, 'c.md', 'x');
    expect((await undo(created.id)).code).toBe(0);
    expect((await journal('show', created.id)).stdout).toMatch(/Undone {3}by \S+ at /);
    expect((await journal('show', a.id)).stdout).not.toContain('Undone');
  });

  it('an unknown id: exit 1 on stderr; no id: usage, exit 2', async () => {
    jv = journalVault();
    const unknown = await journal('show', 'nope');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/no journal entry has the id "nope"/);
    const none = await journal('show');
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('journal show needs an ENTRY id');
    const misplaced = await journal('show', 'x', '--session', 's');
    expect(misplaced.stderr).toContain('--session only applies to journal list');
  });
});

describe('noted-mcp journal verify', () => {
  it('an intact journal: exit 0 with the count and what was checked', async () => {
    await twoSessions();
    const keyId = jv.journal.key.key?.id;
    expect(await journal('verify')).toEqual({
      code: 0,
      stdout: `intact: 3 entries (hash chain intact, 3 authenticated with this machine's key ${keyId}, end anchored, 5 stored texts checked)\nStored texts: 0.0 MB of 1,024 MB allowed (journalMaxMB)\n`,
      stderr: '',
    });
  });

  it('a broken chain: exit 1 naming the first broken entry', async () => {
    const { b } = await twoSessions();
    const lines = dayLines(jv);
    lines[1] = (lines[1] as string).replace('"b.md"', '"secret.md"');
    writeDayLines(jv, lines);
    const r = await journal('verify');
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      `broken: 2026-12-01.jsonl line 2 (entry ${b.id}): the entry's hash does not match its content: the entry was changed after it was written, or made up.\n1 entry before it is intact.\n`,
    );
  });
});

describe('noted-mcp undo', () => {
  it('undoes one entry and prints its outcome, exit 0', async () => {
    const { c } = await twoSessions();
    const r = await undo(c.id);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      new RegExp(
        `^undone   a\\.md  \\(entry ${c.id}; recorded as \\S+\\)\\n1 change undone, 0 refused\\.\\n$`,
      ),
    );
    expect(fs.readFileSync(path.join(jv.dir, 'a.md'), 'utf8')).toBe('alpha two\n');
    const recorded = jv.journal.list()[0];
    expect(recorded).toMatchObject({ kind: 'undo', client: 'noted-mcp-cli', tool: 'undo', undoOf: c.id });
    expect(recorded?.session).toMatch(/^cli-/);
  });

  it('--session undoes newest first; a refusal makes the exit code 1', async () => {
    const { a, c } = await twoSessions();
    const r = await undo('--session', 'S1');
    expect(r.code).toBe(0);
    expect(
      r.stdout
        .split('\n')
        .slice(0, 2)
        .map((l) => l.match(/entry (\S+?)[;)]/)?.[1]),
    ).toEqual([c.id, a.id]);
    expect(fs.readFileSync(path.join(jv.dir, 'a.md'), 'utf8')).toBe('alpha one\n');
    const again = await undo('--session', 'S1');
    expect(again).toMatchObject({
      code: 0,
      stdout: 'Nothing to undo: every change of session S1 was already undone.\n',
    });
  });

  it('a refused undo: exit 1, the reason printed, the note untouched', async () => {
    const { b } = await twoSessions();
    fs.writeFileSync(path.join(jv.dir, 'b.md'), 'edited by hand\n');
    const r = await undo(b.id);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(
      `refused  b.md  (entry ${b.id}): the note "b.md" changed since the agent wrote it`,
    );
    expect(r.stdout).toContain('0 changes undone, 1 refused.\n');
    expect(fs.readFileSync(path.join(jv.dir, 'b.md'), 'utf8')).toBe('edited by hand\n');
  });

  it('--group undoes the group', async () => {
    const { c } = await twoSessions();
    const r = await undo('--group', 'g1');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`entry ${c.id}`);
  });

  it('unknown targets are exit 1 on stderr', async () => {
    await twoSessions();
    const r = await undo('--session', 'nobody');
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/The session "nobody" made no recorded change/);
  });

  it('usage: no target, or several, or an unknown option — all reported, exit 2', async () => {
    jv = journalVault();
    const none = await undo();
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('say what to undo');
    expect(none.stderr).toContain("See 'noted-mcp undo --help'.");
    const several = await undo('x', '--group', 'g', '--all');
    expect(several.code).toBe(2);
    expect(several.stderr).toContain('give only one of ENTRY, --session ID and --group ID');
    expect(several.stderr).toContain('unknown option --all');
    expect(await run(undoCommand, ['-h'])).toEqual({ code: 0, stdout: UNDO_USAGE, stderr: '' });
  });
});
