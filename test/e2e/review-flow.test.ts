import { afterEach, describe, expect, it } from 'vitest';
import type { CliIo } from '../../src/cli/io.js';
import { reviewCommand } from '../../src/cli/review-command.js';
import { Journal } from '../../src/journal/journal.js';
import { openTestVault, readBytes, type TestVault, testJournalKey, writeFiles } from '../helpers/vault.js';

/**
 * The whole staged flow: an agent writes through a real client into a staged folder, the owner
 * reviews with the CLI, and the note changes only when approved, with the journal recording it.
 */
let vault: TestVault;
afterEach(async () => vault?.close());

const BASE = 'title line\nalpha\n\nmiddle 1\nmiddle 2\nmiddle 3\nmiddle 4\nmiddle 5\n\nomega\n';

async function review(argv: string[]) {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    env: { NOTED_VAULT: vault.dir, NOTED_MCP_CONFIG_DIR: process.env.NOTED_MCP_CONFIG_DIR },
    stdout: (t) => {
      stdout += t;
    },
    stderr: (t) => {
      stderr += t;
    },
    script: '/opt/noted/index.cjs',
    isTty: false,
  };
  return { code: await reviewCommand(argv, io), stdout, stderr };
}

async function stageEdit(): Promise<string> {
  const read = await vault.call('read_note', { name: 'drafts/plan' });
  const staged = await vault.call('update_note', {
    name: 'drafts/plan',
    content: BASE.replace('alpha', 'ALPHA').replace('omega', 'OMEGA'),
    expected_etag: read.structured.etag,
  });
  expect(staged.structured.staged).toBe(true);
  return staged.structured.pendingId as string;
}

describe('staged changes reviewed by the owner', () => {
  it('a partial approval writes only the kept hunk and journals it under the agent', async () => {
    vault = await openTestVault({
      'drafts/plan.md': BASE,
      '.noted/mcp-policy.yaml': 'folders:\n  drafts: staged\n',
    });
    const id = await stageEdit();
    const shown = await review(['show', id]);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(/ALPHA/);
    const approved = await review(['approve', id, '--keep', '2']);
    expect(approved.code).toBe(0);
    expect(readBytes(vault.dir, 'drafts/plan.md')?.toString()).toBe(BASE.replace('omega', 'OMEGA'));
    const [entry] = new Journal(vault.opened.vault, { now: () => new Date(), key: testJournalKey() }).list();
    expect(entry).toMatchObject({
      note: 'drafts/plan.md',
      kind: 'update',
      client: 'noted-test',
      tool: 'update_note',
    });
    expect((await review(['list'])).stdout).toMatch(/no changes|0 changes|nothing/i);
  });

  it('an approval is refused, with nothing written, when the note changed since the agent saw it', async () => {
    vault = await openTestVault({
      'drafts/plan.md': BASE,
      '.noted/mcp-policy.yaml': 'folders:\n  drafts: staged\n',
    });
    const id = await stageEdit();
    writeFiles(vault.dir, { 'drafts/plan.md': `${BASE}edited by hand\n` });
    const approved = await review(['approve', id]);
    expect(approved.code).toBe(1);
    expect(approved.stdout + approved.stderr).toMatch(/changed/i);
    expect(readBytes(vault.dir, 'drafts/plan.md')?.toString()).toBe(`${BASE}edited by hand\n`);
    expect(new Journal(vault.opened.vault, { now: () => new Date(), key: testJournalKey() }).list()).toEqual(
      [],
    );
    // The change is still there for the owner to reject.
    expect((await review(['reject', id])).code).toBe(0);
  });

  it('an approved deletion goes to the trash, where the agent can see it', async () => {
    vault = await openTestVault({
      'drafts/plan.md': BASE,
      '.noted/mcp-policy.yaml': 'folders:\n  drafts: staged\n',
    });
    const staged = await vault.call('delete_note', { name: 'drafts/plan' });
    expect((await review(['approve', staged.structured.pendingId])).code).toBe(0);
    expect(readBytes(vault.dir, 'drafts/plan.md')).toBeNull();
    const trash = await vault.call('list_trash', {});
    expect(trash.structured.items.map((i: { name: string }) => i.name)).toEqual(['drafts/plan.md']);
  });
});
