/**
 * noted-mcp doctor (SPEC 12.4): each check is a function; a test breaks each thing doctor checks and
 * sees it reported with its fix; the command exits 1 when one fails, 0 when all pass, and writes
 * nothing.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openVault } from '../../src/access/open.js';
import {
  checkClients,
  checkGitExclude,
  checkIndex,
  checkJournal,
  checkNativeModules,
  checkNoteFormats,
  checkPolicy,
  checkTokenFile,
  checkVault,
} from '../../src/cli/doctor-checks.js';
import { doctorCommand } from '../../src/cli/doctor-command.js';
import { captureIo } from '../helpers/cli-run.js';
import { snapshot, testJournalKey } from '../helpers/vault.js';

let bases: string[] = [];
afterEach(() => {
  for (const b of bases) fs.rmSync(b, { recursive: true, force: true });
  bases = [];
});

/** A vault a server has opened once (index built, git excluded), with one journaled write. */
async function healthyVault(): Promise<string> {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'noted-doctor-'));
  bases.push(base);
  const dir = path.join(base, 'vault');
  fs.mkdirSync(path.join(dir, '.git', 'info'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'a.md'), 'a\n');
  const opened = await openVault({
    vaultDir: dir,
    trashRetentionDays: 30,
    watch: false,
    log: { warn: () => undefined },
    journalKey: testJournalKey(),
  });
  await opened.access.updateNote({ id: 's', clientName: () => 'test' }, { name: 'a', content: 'b\n' });
  await opened.close();
  return dir;
}

function io(env: NodeJS.ProcessEnv = {}) {
  // The run's journal key (test/helpers/global-config.ts): the healthy vault's journal was written with it.
  return captureIo({
    HOME: '/nonexistent-home',
    NOTED_MCP_CONFIG_DIR: process.env.NOTED_MCP_CONFIG_DIR,
    ...env,
  });
}

describe('noted-mcp doctor', () => {
  it('a healthy vault passes every check; exit 0; nothing is written', async () => {
    const dir = await healthyVault();
    // SQLite's companion files of an index opened read-only (-wal, -shm) may come and go; nothing else may.
    const files = () =>
      new Map(
        [...snapshot(dir, { includeState: true })].filter(([k]) => !/index\.sqlite-(wal|shm)$/.test(k)),
      );
    const before = files();
    const run = io();
    expect(await doctorCommand(['--notes-dir', dir], run.io)).toBe(0);
    expect(run.out()).toContain('All checks passed.');
    for (const check of [
      'vault folder',
      'native modules',
      'index',
      'note format',
      'access policy',
      'journal',
      'HTTP token file',
      'git',
    ]) {
      expect(run.out()).toContain(`✓ ${check}:`);
    }
    expect(files()).toEqual(before);
  });

  it('each broken thing is reported with its fix', async () => {
    const dir = await healthyVault();
    const state = (...p: string[]) => path.join(dir, '.noted', ...p);

    expect(checkVault(path.join(dir, 'missing'))).toMatchObject({
      status: 'fail',
      fix: expect.stringContaining('--notes-dir'),
    });
    expect(
      await checkNativeModules(async () => {
        throw new Error('Module did not self-register: better_sqlite3.node');
      }),
    ).toMatchObject({ status: 'fail', fix: expect.stringContaining('npm rebuild') });

    fs.writeFileSync(path.join(dir, 'new.md'), 'new\n');
    expect(checkIndex(dir)).toMatchObject({ status: 'fail', detail: expect.stringContaining('1 new') });
    fs.writeFileSync(state('index.sqlite'), 'not a database');
    expect(checkIndex(dir)).toMatchObject({
      status: 'fail',
      detail: expect.stringContaining('cannot be used'),
    });
    fs.rmSync(state('index.sqlite'));
    expect(checkIndex(dir)).toMatchObject({
      status: 'fail',
      fix: expect.stringContaining('Start the server'),
    });

    fs.writeFileSync(state('mcp-policy.yaml'), 'default: writable\n');
    expect(checkPolicy(dir)).toMatchObject({
      status: 'fail',
      detail: expect.stringContaining('does not parse'),
    });

    const journal = state('journal');
    const day = fs.readdirSync(journal).find((f) => f.endsWith('.jsonl')) as string;
    fs.writeFileSync(
      path.join(journal, day),
      fs.readFileSync(path.join(journal, day), 'utf8').replace('"update', '"create'),
    );
    expect(checkJournal(dir, testJournalKey())).toMatchObject({
      status: 'fail',
      fix: expect.stringContaining('journal verify'),
    });

    fs.writeFileSync(state('mcp-http-token'), 'token', { mode: 0o644 });
    fs.chmodSync(state('mcp-http-token'), 0o644);
    expect(checkTokenFile(dir)).toMatchObject({ status: 'fail', fix: expect.stringContaining('chmod 600') });

    fs.writeFileSync(path.join(dir, '.git', 'info', 'exclude'), '# nothing\n');
    expect(checkGitExclude(dir)).toMatchObject({ status: 'fail', fix: expect.stringContaining('.noted/') });

    const run = io();
    expect(await doctorCommand(['--notes-dir', dir], run.io)).toBe(1);
    expect(run.out()).toContain('5 checks failed.');
    for (const check of ['index', 'access policy', 'journal', 'HTTP token file', 'git']) {
      expect(run.out()).toContain(`✗ ${check}:`);
    }
  });

  it('names the clients configured for this vault, without failing when there are none', async () => {
    const dir = await healthyVault();
    const home = path.dirname(dir);
    const cursor = path.join(home, '.cursor', 'mcp.json');
    fs.mkdirSync(path.dirname(cursor), { recursive: true });
    const files = [
      { client: 'Cursor', file: cursor },
      { client: 'Codex', file: path.join(home, 'none.toml') },
    ];
    expect(checkClients(dir, files)).toMatchObject({
      status: 'info',
      fix: expect.stringContaining('noted-mcp config'),
    });
    fs.writeFileSync(
      cursor,
      JSON.stringify({
        mcpServers: { noted: { command: 'npx', args: ['-y', 'noted-mcp', '--notes-dir', dir] } },
      }),
    );
    expect(checkClients(dir, files)).toEqual({
      name: 'clients',
      status: 'info',
      detail: 'configured for this vault in Cursor',
    });
    const run = io({ HOME: home });
    await doctorCommand(['--notes-dir', dir], run.io);
    expect(run.out()).toContain('configured for this vault in Cursor');
  });

  it('a folder of mixed notes is told with the counts, which kind is served and what to do (issue 32)', async () => {
    const dir = await healthyVault();
    expect(checkNoteFormats(dir)).toEqual({
      name: 'note format',
      status: 'ok',
      detail: 'Markdown (.md): 1 note',
    });
    for (const n of ['x', 'y', 'z']) fs.writeFileSync(path.join(dir, `${n}.html`), `<p>${n}</p>`);
    const mixed = checkNoteFormats(dir);
    expect(mixed.status).toBe('info');
    expect(mixed.detail).toContain(
      '1 Markdown (.md) and 3 HTML (.html) notes; it is served as an HTML vault',
    );
    const run = io();
    await doctorCommand(['--notes-dir', dir], run.io);
    expect(run.out()).toContain('· note format: The vault holds 1 Markdown (.md) and 3 HTML (.html) notes');
  });

  it('usage errors exit 2', async () => {
    const run = io();
    expect(await doctorCommand(['--bogus'], run.io)).toBe(2);
    expect(run.err()).toContain('unknown option --bogus');
  });
});
