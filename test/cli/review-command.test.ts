import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CliIo } from '../../src/cli/io.js';
import { journalCommand } from '../../src/cli/journal-command.js';
import { createReviewCommand, parseReviewArgs, reviewCommand } from '../../src/cli/review-command.js';
import { journalApprovedWrites } from '../../src/cli/review-journal.js';
import { Journal } from '../../src/journal/journal.js';
import type { ApprovedWrite } from '../../src/staging/approve.js';
import { PendingStore } from '../../src/staging/pending-store.js';
import { RejectedStore } from '../../src/staging/rejected-store.js';
import type { NewPendingChange } from '../../src/staging/types.js';
import { etagOf } from '../../src/vault/etag.js';
import { testJournalKey } from '../helpers/vault.js';
import { type TempVault, tempVault } from '../staging/temp-vault.js';

let t: TempVault;
afterEach(() => t?.cleanup());

const WHO = { session: 'sess-1', client: 'Claude Code', tool: 'edit_note' };
const BASE = 'one\nThe quick brown fox\nthree\nfour\nfive\nsix\nseven\n';
const NEXT = 'one\nThe slow brown fox\nthree\nfour\nfive\nsix\nseven\neight\n';

function update(note: string, baseText: string, newText: string): NewPendingChange {
  return { note, kind: 'update', baseEtag: etagOf(baseText), baseText, newText, ...WHO };
}

/** Runs `review` in-process with a fake CliIo; the vault comes from $NOTED_VAULT unless flags say. */
async function review(
  argv: string[],
  env: NodeJS.ProcessEnv = { NOTED_VAULT: t.dir, NOTED_MCP_CONFIG_DIR: process.env.NOTED_MCP_CONFIG_DIR },
  command = reviewCommand,
) {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    env,
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
    script: '/opt/noted/index.cjs',
    isTty: false,
  };
  const code = await command(argv, io);
  return { code, stdout, stderr };
}

describe('noted-mcp review list', () => {
  it('lists each change with id, kind, note, who asked (self-declared, unverified) and when', async () => {
    t = tempVault({ 'drafts/plan.md': BASE });
    const store = new PendingStore(t.vault, () => new Date('2026-03-14T09:15:02.123Z'));
    const change = store.add(update('drafts/plan.md', BASE, NEXT));
    for (const argv of [[], ['list']]) {
      const { code, stdout, stderr } = await review(argv);
      expect(code).toBe(0);
      expect(stderr).toBe('');
      expect(stdout).toContain('1 change waiting for review');
      expect(stdout).toContain(`${change.id}  update  "drafts/plan.md"`);
      expect(stdout).toContain(
        'asked by "Claude Code" (self-declared, unverified) with "edit_note" at 2026-03-14T09:15:02.123Z',
      );
    }
  });

  it('says when nothing is waiting', async () => {
    t = tempVault();
    const { code, stdout } = await review(['list']);
    expect(code).toBe(0);
    expect(stdout).toContain('No changes are waiting for review');
  });

  it('finds the vault through --notes-dir, --vault, $NOTED_VAULT and $NOTES_VAULT', async () => {
    t = tempVault({ 'a.md': 'a\n' });
    new PendingStore(t.vault).add(update('a.md', 'a\n', 'b\n'));
    for (const [argv, env] of [
      [['--notes-dir', t.dir], {}],
      [[`--vault=${t.dir}`], {}],
      [[], { NOTES_VAULT: t.dir }],
      [[], { NOTED_VAULT: t.dir, NOTES_VAULT: '/nonexistent' }],
    ] as const) {
      const { code, stdout } = await review([...argv], { HOME: '/nonexistent-home', ...env });
      expect(code).toBe(0);
      expect(stdout).toContain('1 change waiting');
    }
  });

  it('does not create a missing vault', async () => {
    t = tempVault();
    const missing = path.join(t.dir, 'nope');
    const { code, stderr } = await review(['--notes-dir', missing]);
    expect(code).toBe(1);
    expect(stderr).toContain(`there is no vault at ${missing}`);
    expect(fs.existsSync(missing)).toBe(false);
  });

  it('a client name cannot drive the terminal: control characters are shown escaped', async () => {
    t = tempVault();
    new PendingStore(t.vault).add({
      note: 'x.md',
      kind: 'create',
      baseEtag: null,
      baseText: null,
      newText: 'evil \u001b[2J text\n',
      ...WHO,
      client: 'Claude\u001b[31m Code\u009b',
    });
    const listed = await review(['list']);
    expect(listed.stdout).not.toMatch(/[\u001b\u009b]/);
    expect(listed.stdout).toContain('"Claude\\u001b[31m Code\\u009b"');
    const id = new PendingStore(t.vault).list()[0]!.id;
    const shown = await review(['show', id]);
    expect(shown.stdout).not.toMatch(/[\u001b\u009b]/);
    expect(shown.stdout).toContain('+ evil \\u001b[2J text');
  });
});

describe('noted-mcp review show', () => {
  it('shows an update as numbered hunks with the changed words marked', async () => {
    t = tempVault({ 'plan.md': BASE });
    const { id } = new PendingStore(t.vault).add(update('plan.md', BASE, NEXT));
    const { code, stdout } = await review(['show', id]);
    expect(code).toBe(0);
    expect(stdout).toContain('2 hunks');
    expect(stdout).toContain('Hunk 1 of 2: line 2 → line 2');
    expect(stdout).toContain('  ~ The [-quick-]{+slow+} brown fox');
    expect(stdout).toContain('Hunk 2 of 2: after line 7 → line 8');
    expect(stdout).toContain('  ~ {+eight+}');
    expect(stdout).toContain('(self-declared, unverified)');
  });

  it('marks every line of a multi-line change on its own', async () => {
    t = tempVault({ 'n.md': 'a\n' });
    const { id } = new PendingStore(t.vault).add(update('n.md', 'a\n', 'a\nb\nc\n'));
    const { stdout } = await review(['show', id]);
    expect(stdout).toContain('  ~ {+b+}\n  ~ {+c+}\n');
  });

  it('shows a create and a delete whole', async () => {
    t = tempVault({ 'old.md': 'gone soon\n' });
    const store = new PendingStore(t.vault);
    const create = store.add({
      note: 'n.md',
      kind: 'create',
      baseEtag: null,
      baseText: null,
      newText: 'hello\nworld\n',
      ...WHO,
    });
    const del = store.add({
      note: 'old.md',
      kind: 'delete',
      baseEtag: etagOf('gone soon\n'),
      baseText: 'gone soon\n',
      newText: null,
      ...WHO,
    });
    expect((await review(['show', create.id])).stdout).toContain(
      'Creates a new note with this text:\n+ hello\n+ world\n',
    );
    expect((await review(['show', del.id])).stdout).toContain('approving moves it to the trash');
  });

  it('an unknown id fails with exit 1 on stderr', async () => {
    t = tempVault();
    const { code, stderr, stdout } = await review(['show', '20260101-000000-000-abcdef']);
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toContain('There is no pending change');
  });
});

describe('noted-mcp review approve / reject', () => {
  it('approve writes the note and calls the recorder the lead passes in', async () => {
    t = tempVault({ 'plan.md': BASE });
    const { id } = new PendingStore(t.vault).add(update('plan.md', BASE, NEXT));
    const recorded: ApprovedWrite[] = [];
    const command = createReviewCommand({ recordApprovedWrite: () => (info) => void recorded.push(info) });
    const { code, stdout } = await review(['approve', id], undefined, command);
    expect(code).toBe(0);
    expect(stdout).toBe(`Approved ${id}: updated "plan.md".\n`);
    expect(t.read('plan.md')).toBe(NEXT);
    expect(recorded.map((r) => [r.note, r.before, r.after])).toEqual([['plan.md', BASE, NEXT]]);
  });

  it('approve --keep applies only the kept hunks', async () => {
    t = tempVault({ 'plan.md': BASE });
    const { id } = new PendingStore(t.vault).add(update('plan.md', BASE, NEXT));
    const { code, stdout } = await review(['approve', id, '--keep', '2']);
    expect(code).toBe(0);
    expect(stdout).toContain('(hunks 2 of 2 applied)');
    expect(t.read('plan.md')).toBe(`${BASE}eight\n`);
  });

  it('a stale approval prints why it was refused and exits 1; the change stays', async () => {
    t = tempVault({ 'plan.md': BASE });
    const { id } = new PendingStore(t.vault).add(update('plan.md', BASE, NEXT));
    t.write('plan.md', 'the owner rewrote it\n');
    const { code, stdout, stderr } = await review(['approve', id]);
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toContain('was changed since the agent saw it');
    expect(stderr).toContain('Nothing was written and the change is still pending');
    expect(t.read('plan.md')).toBe('the owner rewrote it\n');
    expect(new PendingStore(t.vault).count()).toBe(1);
  });

  it('reject takes the change out of pending, keeps it, and leaves the note', async () => {
    t = tempVault({ 'plan.md': BASE });
    const { id } = new PendingStore(t.vault).add(update('plan.md', BASE, NEXT));
    const { code, stdout } = await review(['reject', id]);
    expect(code).toBe(0);
    expect(stdout).toBe(
      `Rejected ${id} ("plan.md"); the note was not touched. It is kept for 30 days (noted-mcp review rejected; put back with noted-mcp review put-back ID).\n`,
    );
    expect(t.read('plan.md')).toBe(BASE);
    expect(new PendingStore(t.vault).count()).toBe(0);
  });

  it('approve --all reports each change and exits 1 when one was refused', async () => {
    t = tempVault({ 'a.md': 'a\n', 'b.md': 'b\n' });
    const store = new PendingStore(t.vault);
    const ok = store.add(update('a.md', 'a\n', 'A\n'));
    const stale = store.add(update('b.md', 'b\n', 'B\n'));
    t.write('b.md', 'edited\n');
    const { code, stdout, stderr } = await review(['approve', '--all']);
    expect(code).toBe(1);
    expect(stdout).toContain(`Approved ${ok.id}: updated "a.md".`);
    expect(stdout).toContain('Approved 1 of 2 changes; 1 was refused and is still pending.');
    expect(stderr).toContain(`Change ${stale.id} was not approved`);
    expect(t.read('a.md')).toBe('A\n');
    expect(t.read('b.md')).toBe('edited\n');
  });

  it('reject --all rejects every change and keeps each', async () => {
    t = tempVault({ 'a.md': 'a\n' });
    const store = new PendingStore(t.vault);
    store.add(update('a.md', 'a\n', 'A\n'));
    store.add(update('a.md', 'a\n', 'AA\n'));
    const { code, stdout } = await review(['reject', '--all']);
    expect(code).toBe(0);
    expect(stdout).toBe(
      'Rejected 2 changes; no note was touched. They are kept for 30 days (noted-mcp review rejected; put back with noted-mcp review put-back ID).\n',
    );
    expect(store.count()).toBe(0);
    expect(new RejectedStore(t.vault).list()).toHaveLength(2);
    expect(t.read('a.md')).toBe('a\n');
  });
});

describe('noted-mcp review: usage', () => {
  it('help goes to stdout with exit 0', async () => {
    t = tempVault();
    const { code, stdout } = await review(['--help']);
    expect(code).toBe(0);
    expect(stdout).toContain('Usage: noted-mcp review');
  });

  it('every usage problem is reported at once, on stderr, with exit 2', async () => {
    t = tempVault();
    const { code, stdout, stderr } = await review(['approve', '--all', '--keep', '1,x', '--bogus']);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain('unknown option --bogus');
    expect(stderr).toContain('--keep goes with "approve ID"');
    expect(stderr).toContain('--keep takes hunk numbers separated by commas');
  });

  it('parses the forms of the command', () => {
    expect(parseReviewArgs([])).toMatchObject({ action: 'list', errors: [] });
    expect(parseReviewArgs(['approve', 'X', '--keep', '1, 3'])).toMatchObject({
      action: 'approve',
      id: 'X',
      keep: [1, 3],
      errors: [],
    });
    expect(parseReviewArgs(['reject', '--all'])).toMatchObject({ action: 'reject', all: true, errors: [] });
    expect(parseReviewArgs(['show']).errors).toEqual([
      'show needs the id of a change (see "noted-mcp review list")',
    ]);
    expect(parseReviewArgs(['approve']).errors[0]).toContain('needs the id of a change, or --all');
    expect(parseReviewArgs(['approve', 'X', '--all']).errors[0]).toContain('not both');
    expect(parseReviewArgs(['list', '--all']).errors[0]).toContain('--all goes with approve or reject');
    expect(parseReviewArgs(['frobnicate']).errors[0]).toContain('unknown review command "frobnicate"');
    expect(parseReviewArgs(['show', 'X', 'Y']).errors).toEqual(['unexpected argument "Y"']);
  });
});

describe('journalApprovedWrites', () => {
  it('records the approved change, and voids it with a not_applied entry when the write did not happen', () => {
    t = tempVault({ 'drafts/plan.md': BASE });
    const onWrite = journalApprovedWrites(testJournalKey, () => new Date('2026-12-01T10:00:00Z'))(t.vault);
    const change = {
      id: 'p1',
      note: 'drafts/plan.md',
      kind: 'update' as const,
      ...WHO,
    } as unknown as ApprovedWrite['change'];
    const notMade = onWrite({ change, note: 'drafts/plan.md', kind: 'update', before: BASE, after: NEXT });
    expect(typeof notMade).toBe('function');
    notMade?.(Buffer.from('saved by hand\n'));
    const journal = new Journal(t.vault, { now: () => new Date(), key: testJournalKey() });
    const [voided, recorded] = journal.list();
    expect(recorded).toMatchObject({
      note: 'drafts/plan.md',
      kind: 'update',
      session: 'sess-1',
      tool: 'edit_note',
    });
    expect(voided).toMatchObject({ note: 'drafts/plan.md', kind: 'not_applied', voids: recorded?.id });
    expect(journal.verify()).toMatchObject({ ok: true, entries: 2, unverified: null });
  });
});

describe("noted-mcp review: rejected changes are kept and the owner's decisions journaled (issue 30, point 7)", () => {
  const journalOf = () => new Journal(t.vault, { now: () => new Date(), key: testJournalKey() });

  it('keeps a rejection with its reason, lists it, puts it back under its id, and journals each decision', async () => {
    t = tempVault({ 'plan.md': BASE });
    const { id } = new PendingStore(t.vault).add(update('plan.md', BASE, NEXT));
    expect((await review(['reject', id, '--reason', 'wrong fox'])).code).toBe(0);
    expect(new PendingStore(t.vault).count()).toBe(0);

    const listed = await review(['rejected']);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain(`${id}  update  "plan.md"`);
    expect(listed.stdout).toContain('because "wrong fox"');
    expect(listed.stdout).toContain('asked by "Claude Code" (self-declared, unverified)');
    const kept = new RejectedStore(t.vault).get(id);
    expect(kept).toMatchObject({ baseText: BASE, newText: NEXT, client: 'Claude Code', reason: 'wrong fox' });

    const back = await review(['put-back', id]);
    expect(back.code).toBe(0);
    expect(back.stdout).toContain(`Put ${id} ("plan.md") back to pending`);
    expect(new PendingStore(t.vault).get(id)).toMatchObject({
      baseText: BASE,
      newText: NEXT,
      session: 'sess-1',
    });
    expect(new RejectedStore(t.vault).list()).toEqual([]);

    expect((await review(['approve', id, '--keep', '1'])).code).toBe(0);
    const decisions = journalOf()
      .list()
      .reverse()
      .map((e) => [e.kind, e.session, e.decision]);
    expect(decisions).toEqual([
      ['decision', 'sess-1', { by: 'owner', action: 'reject', pending: id, reason: 'wrong fox' }],
      ['decision', 'sess-1', { by: 'owner', action: 'put_back', pending: id }],
      ['update', 'sess-1', { by: 'owner', action: 'approve', pending: id, hunks: { total: 2, kept: [1] } }],
    ]);
    const verified = journalOf().verify();
    expect(verified.ok).toBe(true);
    expect(t.read('plan.md')).toBe(BASE.replace('quick', 'slow'));
    // The journal's own listing says so in words.
    const listing = await review(['list'], undefined, (argv, io) => journalCommand(argv, io));
    expect(listing.stdout).toContain(`you rejected staged change ${id} (reason: wrong fox)`);
    expect(listing.stdout).toContain(`you put staged change ${id} back to pending`);
    expect(listing.stdout).toContain(`you approved staged change ${id} (hunks 1 of 2)`);
  });

  it('purges a rejected change 30 days after it was rejected', async () => {
    t = tempVault({ 'plan.md': BASE });
    let now = new Date('2026-12-01T10:00:00Z');
    const clock = () => now;
    const command = createReviewCommand({ recordApprovedWrite: () => () => undefined, now: clock });
    const { id } = new PendingStore(t.vault).add(update('plan.md', BASE, NEXT));
    expect((await review(['reject', id], undefined, command)).code).toBe(0);
    now = new Date('2026-12-31T09:59:00Z');
    expect((await review(['rejected'], undefined, command)).stdout).toContain(id);
    now = new Date('2026-12-31T10:01:00Z');
    const after = await review(['rejected'], undefined, command);
    expect(after.stdout).toContain('No rejected change is kept');
    expect(fs.readdirSync(path.join(t.dir, '.noted', 'rejected'))).toEqual([]);
    const back = await review(['put-back', id], undefined, command);
    expect(back.code).toBe(1);
    expect(back.stderr).toContain('purged 30 days after it was rejected');
  });

  it('refuses to put back a new note while another creation of that name waits', async () => {
    t = tempVault();
    const store = new PendingStore(t.vault);
    const create = (text: string): NewPendingChange => ({
      note: 'idea.md',
      kind: 'create',
      baseEtag: null,
      baseText: null,
      newText: text,
      ...WHO,
    });
    const first = store.add(create('one\n'));
    expect((await review(['reject', first.id])).code).toBe(0);
    store.add(create('two\n'));
    const back = await review(['put-back', first.id]);
    expect(back.code).toBe(1);
    expect(back.stderr).toContain('another new note of that name is waiting already');
    expect(new RejectedStore(t.vault).list()).toHaveLength(1);
  });
});
