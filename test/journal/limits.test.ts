/**
 * Issue 25 item 8: the journal's growth is bounded. Forty 5 MB update_note calls wrote 201 MB; now the
 * stored texts may take up to a limit (journalMaxMB), past which an agent's change is refused before
 * anything is written, and the owner frees room with `noted-mcp journal prune`. Scaled down here: a
 * 64 KiB limit and 10 KB notes.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { journalCommand } from '../../src/cli/journal-command.js';
import { Journal } from '../../src/journal/journal.js';
import { measureUsage } from '../../src/journal/usage.js';
import { Vault } from '../../src/vault/vault.js';
import { type CliRun, runCommand } from '../helpers/cli-run.js';
import { type Connection, connect, makeVault, readBytes } from '../helpers/vault.js';
import { agentWrite, fixtureKey, type JournalVault, journalVault } from './fixtures/journal-vault.js';

const LIMIT = 64 * 1024;
/** A 10 KB text that no other call writes. */
const text = (n: number) => `${String(n).padStart(6, '0')}\n${'x'.repeat(10 * 1024)}\n`;

let cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.reverse()) await c();
  cleanups = [];
});

async function server(): Promise<Connection & { dir: string; base: string }> {
  const { base, dir } = makeVault({ 'a.md': 'start\n' });
  const conn = await connect(dir, { journalMaxBytes: LIMIT });
  cleanups.push(
    () => fs.rmSync(base, { recursive: true, force: true }),
    () => conn.close(),
  );
  return { ...conn, dir, base };
}

function jvOf(files = {}): JournalVault {
  const jv = journalVault(files, { maxStoredBytes: LIMIT });
  cleanups.push(() => jv.cleanup());
  return jv;
}

describe('the journal limit', () => {
  it('refuses the change that would pass it, before anything is written, and says what to do', async () => {
    const v = await server();
    let refused: Record<string, unknown> | null = null;
    let last = '';
    for (let i = 0; i < 40 && refused === null; i++) {
      const r = await v.call('update_note', { name: 'a', content: text(i) });
      if (r.isError) refused = r.structured;
      else last = text(i);
    }
    expect(refused).toMatchObject({
      code: 'too_large',
      committed: false,
      journalFull: true,
      maxBytes: LIMIT,
      message: expect.stringMatching(
        /journal is full.*note was not changed.*noted-mcp journal prune --before DATE/,
      ),
    });
    expect(readBytes(v.dir, 'a.md')?.toString()).toBe(last);
    const stored = measureUsage(path.join(v.dir, '.noted', 'journal')).storedBytes;
    expect(stored).toBeLessThanOrEqual(LIMIT);
    expect(stored).toBeGreaterThan(LIMIT - 2 * 11 * 1024);
    // Writes that add no new text still pass: the journal is full of texts, not of entries.
    const same = await v.call('update_note', { name: 'a', content: last });
    expect(same.isError).toBe(false);
    expect((await v.call('read_note', { name: 'a' })).isError).toBe(false);
  });

  it('is one count for every process sharing the vault', async () => {
    const jv = jvOf();
    const other = new Journal(Vault.open(jv.dir), {
      now: () => new Date(),
      key: fixtureKey(jv.base),
      maxStoredBytes: LIMIT,
    });
    for (let i = 0; i < 3; i++) await agentWrite(jv, `a${i}.md`, text(i));
    const write = (i: number) =>
      other.record({
        session: 's',
        client: null,
        tool: 't',
        note: `b${i}.md`,
        kind: 'create',
        before: null,
        after: text(i + 100),
      });
    for (let i = 0; i < 3; i++) write(i);
    expect(() => {
      for (let i = 3; i < 10; i++) write(i);
    }).toThrow(/journal is full/);
    expect(jv.journal.usage().storedBytes).toBe(measureUsage(jv.journalDir).storedBytes);
    expect(jv.journal.usage().storedBytes).toBeLessThanOrEqual(LIMIT);
  });

  it('never refuses to say a recorded change was not made', async () => {
    const jv = jvOf({ 'a.md': 'a\n' });
    const made = await agentWrite(jv, 'a.md', text(1));
    for (let i = 2; i < 20; i++) {
      try {
        await agentWrite(jv, `n${i}.md`, text(i));
      } catch {
        break;
      }
    }
    expect(() =>
      jv.journal.record({
        session: 's',
        client: null,
        tool: 't',
        note: 'x.md',
        kind: 'create',
        before: null,
        after: text(99),
      }),
    ).toThrow(/journal is full/);
    expect(jv.journal.voidEntries([{ entry: made, now: Buffer.from(text(98)) }])).toBe(true);
  });

  it('counts a journal that predates the count from its files', async () => {
    const jv = jvOf();
    await agentWrite(jv, 'a.md', text(1));
    fs.rmSync(path.join(jv.journalDir, 'usage.json'));
    expect(jv.journal.usage().storedBytes).toBe(measureUsage(jv.journalDir).storedBytes);
    expect(jv.journal.usage().storedBytes).toBeGreaterThan(10 * 1024);
  });
});

describe('noted-mcp journal prune', () => {
  it('frees the texts of changes before a date, keeps their entries, and verify still passes', async () => {
    const jv = jvOf();
    jv.setTime('2026-11-01T10:00:00Z');
    const old = await agentWrite(jv, 'a.md', text(1));
    await agentWrite(jv, 'a.md', text(2));
    jv.setTime('2026-12-05T10:00:00Z');
    const recent = await agentWrite(jv, 'a.md', text(3));
    const before = jv.journal.usage().storedBytes;

    const dry = await cli(jv, ['prune', '--before', '2026-12-01', '--dry-run']);
    expect(dry.code).toBe(0);
    expect(dry.out).toMatch(
      /^Would remove 1 stored text \(0\.0 MB\) needed only by the changes before entry 3; nothing was removed/,
    );
    expect(jv.journal.usage().storedBytes).toBe(before);

    const run = await cli(jv, ['prune', '--before', '2026-12-01']);
    expect(run.code).toBe(0);
    expect(run.out).toMatch(
      /^Removed 1 stored text .* can no longer be undone\.\nStored texts: 0\.0 MB of 1,024 MB allowed/,
    );
    // text(1) is gone (only entry 1 needed it); text(2) stays, the recent change's before-text.
    expect(jv.journal.bytesOf(old.afterSha256 as string)).toBeNull();
    expect(jv.journal.bytesOf(recent.beforeSha256 as string)?.toString()).toBe(text(2));
    expect(jv.journal.usage().storedBytes).toBeLessThan(before);
    expect(jv.journal.list()).toHaveLength(3);
    expect(jv.journal.verify()).toMatchObject({ ok: true, entries: 3, unverified: null });
    const undo = await jv.journal.undo({ entry: recent.id }, { session: 'o', client: null });
    expect(undo.outcomes[0]).toMatchObject({ outcome: 'undone' });
  });

  it('a text deleted by hand is still found missing; a journal that does not verify is not pruned', async () => {
    const jv = jvOf();
    jv.setTime('2026-11-01T10:00:00Z');
    await agentWrite(jv, 'a.md', text(1));
    jv.setTime('2026-12-05T10:00:00Z');
    const recent = await agentWrite(jv, 'a.md', text(2));
    fs.rmSync(path.join(jv.journalDir, 'blobs', recent.afterSha256 as string));
    expect(jv.journal.verify()).toMatchObject({ ok: false, reason: expect.stringMatching(/missing/) });
    const run = await cli(jv, ['prune', '--before', '2026-12-01']);
    expect(run.code).toBe(1);
    expect(run.err).toMatch(/does not fully verify here .* it was not pruned/);
    expect(jv.journal.bytesOf(recent.beforeSha256 as string)).not.toBeNull();
  });

  it('rewrites a pack, keeping the texts later changes need', async () => {
    const jv = jvOf(Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`n${i}.md`, `start ${i}\n`])));
    jv.setTime('2026-11-01T10:00:00Z');
    const batch = jv.journal.recordMany(
      Array.from({ length: 6 }, (_, i) => ({
        session: 's',
        client: null,
        tool: 'move_note',
        note: `n${i}.md`,
        kind: 'update' as const,
        before: `start ${i}\n`,
        after: `moved ${i}\n`,
      })),
    );
    expect(fs.readdirSync(path.join(jv.journalDir, 'blobs', 'packs'))).toHaveLength(1);
    jv.setTime('2026-12-05T10:00:00Z');
    jv.journal.record({
      session: 's',
      client: null,
      tool: 't',
      note: 'n0.md',
      kind: 'update',
      before: 'moved 0\n',
      after: 'x',
    });
    const run = await cli(jv, ['prune', '--before', '2026-12-01']);
    expect(run.code, run.err).toBe(0);
    expect(run.out).toMatch(/^Removed 11 stored texts/);
    expect(jv.journal.bytesOf(batch[0]?.afterSha256 as string)?.toString()).toBe('moved 0\n');
    expect(jv.journal.bytesOf(batch[1]?.afterSha256 as string)).toBeNull();
    expect(jv.journal.verify()).toMatchObject({ ok: true, unverified: null });
  });

  it('needs --before, and list shows the usage', async () => {
    const jv = jvOf();
    await agentWrite(jv, 'a.md', text(1));
    const missing = await cli(jv, ['prune']);
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/journal prune needs --before DATE/);
    const list = await cli(jv, ['list']);
    expect(list.out).toMatch(/\nStored texts: 0\.0 MB of 1,024 MB allowed \(journalMaxMB\)\n$/);
    const limited = await cli(jv, ['list'], { NOTED_MCP_JOURNAL_MAX_MB: '0' });
    expect(limited.out).toMatch(/Stored texts: 0\.0 MB of no limit\n$/);
  });
});

function cli(jv: JournalVault, args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliRun> {
  return runCommand(journalCommand, [...args, '--notes-dir', jv.dir], { HOME: jv.base, ...env });
}
