/**
 * The built server (`dist-mcp/index.cjs`, SPEC 8.5) run with plain `node` from another working
 * directory, spoken to over stdio by a real client (SPEC 8.1).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/client';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import packageJson from '../../package.json' with { type: 'json' };
import { DIST, ensureBuilt, runCli, type ServerProcess, spawnServer } from '../helpers/server-process.js';
import { makeVault, readBytes } from '../helpers/vault.js';

beforeAll(async () => {
  await ensureBuilt();
}, 60_000);

let server: ServerProcess | undefined;
let base: string | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  if (base) fs.rmSync(base, { recursive: true, force: true });
  base = undefined;
});

describe('the built server over stdio', () => {
  it('lists its tools and does a create → read → search round trip, from another working directory', async () => {
    const made = makeVault({ 'existing.md': '# Existing\n\nalready here\n' });
    base = made.base;
    server = await spawnServer(made.dir, { cwd: os.tmpdir() });

    const { tools } = await server.client.listTools();
    expect(tools.map((t) => t.name)).toEqual([
      'get_vault_info',
      'list_notes',
      'list_changes',
      'export_notes',
      'read_note',
      'get_note_outline',
      'search_notes',
      'list_tasks',
      'get_backlinks',
      'get_outgoing_links',
      'list_tags',
      'list_by_tag',
      'get_properties',
      'query_notes',
      'list_bases',
      'query_base',
      'create_note',
      'update_note',
      'edit_note',
      'delete_note',
      'list_trash',
      'restore_note',
      'move_note',
      'move_notes',
      'delete_notes',
      'list_folders',
      'create_folder',
      'move_folder',
      'delete_folder',
      'update_task',
      'get_daily_note',
      'list_attachments',
      'list_links',
      'read_attachment',
      'create_agent_workflow',
      'append_agent_event',
      'advance_agent_state',
      'approve_agent_gate',
      'reject_agent_gate',
    ]);
    expect(server.client.getServerVersion()).toMatchObject({
      name: 'noted-mcp',
      version: packageJson.version,
    });

    const created = await server.call('create_note', {
      name: 'inbox/stdio',
      content: '# Over stdio\n\nA pangolin.\n',
    });
    expect(created.isError).toBe(false);
    expect(readBytes(made.dir, 'inbox/stdio.md')?.toString()).toBe('# Over stdio\n\nA pangolin.\n');

    const read = await server.call('read_note', { name: 'stdio' });
    expect(read.structured).toMatchObject({ name: 'inbox/stdio.md', body: '# Over stdio\n\nA pangolin.\n' });
    expect(read.structured.etag).toBe(created.structured.etag);

    const found = await server.call('search_notes', { query: 'pangolin' });
    expect(found.structured.results.map((r: { name: string }) => r.name)).toEqual(['inbox/stdio.md']);
    expect(found.structured.results[0].excerpt).toContain('**pangolin**');

    const listed = await server.call('list_notes');
    expect(listed.structured.notes.map((n: { name: string }) => n.name).sort()).toEqual([
      'existing.md',
      'inbox/stdio.md',
    ]);

    const refused = await server.call('read_note', { name: '../etc/passwd' });
    expect(refused.structured.code).toBe('invalid_name');
  });

  it('serves prompts, resources and a workflow from the built bundle', async () => {
    const made = makeVault({
      'prompts/Shorten.md': '---\nscope: selection\n---\nShorten: {{selection}}\n',
      'img/dot.png': new Uint8Array([137, 80, 78, 71]),
    });
    base = made.base;
    server = await spawnServer(made.dir, { cwd: os.tmpdir() });
    const { prompts } = await server.client.listPrompts();
    // The vault's prompt, then the ready-made ones (SPEC 17.6).
    expect(prompts.map((p) => p.name)).toEqual([
      'shorten',
      'find-note',
      'weekly-review',
      'new-meeting-note',
      'tidy-links',
    ]);
    const got = await server.client.getPrompt({ name: 'shorten', arguments: { selection: 'a long text' } });
    expect(got.messages[0]?.content).toEqual({ type: 'text', text: 'Shorten: a long text' });
    const image = await server.client.readResource({ uri: 'noted://note/img/dot.png' });
    expect(image.contents[0]).toMatchObject({ mimeType: 'image/png', blob: 'iVBORw==' });
    const flow = await server.call('create_agent_workflow', { title: 'Over stdio', states: ['a', 'b'] });
    const moved = await server.call('advance_agent_state', {
      name: flow.structured.name,
      expected_etag: flow.structured.etag,
    });
    expect(moved.structured.workflow.current).toBe('b');
  });

  it('does the everyday writes from the built bundle: daily note, properties, a task, an image', async () => {
    const made = makeVault({
      '.obsidian/daily-notes.json': '{"folder": "Daily", "format": "YYYY-MM-DD", "template": "Tpl/Day"}',
      'Tpl/Day.md': '# {{date:dddd}}\n\n- [ ] plan the day\n',
      'img/dot.png': new Uint8Array([137, 80, 78, 71]),
    });
    base = made.base;
    server = await spawnServer(made.dir, { cwd: os.tmpdir() });
    const day = await server.call('get_daily_note', { date: '2026-05-01', create: true });
    expect(day.structured).toMatchObject({
      created: true,
      name: 'Daily/2026-05-01.md',
      body: '# Friday\n\n- [ ] plan the day\n',
    });
    const props = await server.call('edit_note', {
      name: day.structured.name,
      operation: 'set_properties',
      properties: { mood: 'good' },
      expected_etag: day.structured.etag,
    });
    const [task] = (await server.call('list_tasks')).structured.tasks;
    expect(task).toMatchObject({ note: 'Daily/2026-05-01.md', line: 6, etag: props.structured.etag });
    const ticked = await server.call('update_task', {
      name: task.note,
      line: task.line,
      expected_etag: task.etag,
      done: true,
    });
    expect(ticked.structured.task).toMatchObject({ done: true, text: 'plan the day' });
    expect(readBytes(made.dir, 'Daily/2026-05-01.md')?.toString()).toBe(
      '---\nmood: good\n---\n# Friday\n\n- [x] plan the day\n',
    );
    const image = (await server.client.callTool({
      name: 'read_attachment',
      arguments: { path: 'img/dot.png' },
    })) as {
      content: { type: string; data?: string }[];
    };
    expect(image.content[1]).toMatchObject({ type: 'image', data: 'iVBORw==' });
  });

  it('resolves a relative --notes-dir against its working directory', async () => {
    const made = makeVault({ 'here.md': 'relative vault\n' });
    base = made.base;
    server = await spawnServer('vault', { cwd: made.base });
    const read = await server.call('read_note', { name: 'here' });
    expect(read.structured.body).toBe('relative vault\n');
  });
});

describe('the command line', () => {
  it('--version prints the version on stdout and exits 0', () => {
    for (const flag of ['--version', '-v']) {
      const run = runCli([flag]);
      expect(run.status).toBe(0);
      expect(run.stdout).toBe(`${packageJson.version}\n`);
      expect(run.stderr).toBe('');
    }
  });

  it('--help prints the usage on stdout and exits 0', () => {
    for (const flag of ['--help', '-h']) {
      const run = runCli([flag]);
      expect(run.status).toBe(0);
      expect(run.stdout).toMatch(/^Usage: noted-mcp/);
      expect(run.stdout).toContain('--notes-dir');
      expect(run.stderr).toBe('');
    }
  });

  it('a bad flag is a usage error: exit 2, the problem and a pointer to --help on stderr, nothing on stdout', () => {
    const run = runCli(['--bogus-flag']);
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe("noted-mcp: unknown option --bogus-flag\nSee 'noted-mcp --help'.\n");
  });

  it('reports every usage problem at once', () => {
    const run = runCli(['--bogus', '--trash-retention-days', 'soon', 'extra-command']);
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('unknown option --bogus');
    expect(run.stderr).toContain('--trash-retention-days');
    expect(run.stderr).toContain('extra-command');
  });
});

describe('stdout belongs to the protocol', () => {
  it('writes nothing to stdout but JSON-RPC messages, over a whole session and its end', async () => {
    const made = makeVault({ 'n.md': '# N\n\nsome words\n' });
    base = made.base;
    // Make the start talkative: a damaged index is rebuilt, with a message (which must go to stderr).
    fs.mkdirSync(path.join(made.dir, '.noted'));
    fs.writeFileSync(path.join(made.dir, '.noted', 'index.sqlite'), 'garbage, not a database');

    const child = spawn(process.execPath, [DIST, '--notes-dir', made.dir], {
      cwd: os.tmpdir(),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString('utf8');
    });
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString('utf8');
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));

    const responses = (): Record<string, unknown>[] =>
      stdout
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => JSON.parse(l) as Record<string, unknown>);
    const send = (message: object) =>
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
    const answered = async (id: number) => {
      const deadline = Date.now() + 10_000;
      while (!responses().some((m) => m.id === id)) {
        if (Date.now() > deadline)
          throw new Error(`no answer to request ${id}; stdout: ${stdout}; stderr: ${stderr}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    };

    send({
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: LATEST_PROTOCOL_VERSION,
        capabilities: {},
        clientInfo: { name: 'raw', version: '0' },
      },
    });
    await answered(1);
    send({ method: 'notifications/initialized' });
    const calls: [string, Record<string, unknown>][] = [
      ['list_notes', {}],
      ['search_notes', { query: 'words' }],
      ['search_notes', { query: '"broken' }],
      ['create_note', { name: 'made', content: 'made over raw stdio' }],
      ['read_note', { name: 'made' }],
      ['read_note', { name: '../../etc/passwd' }],
      ['read_note', { name: 42 }],
    ];
    send({ id: 2, method: 'tools/list', params: {} });
    calls.forEach(([name, args], i) => {
      send({ id: 3 + i, method: 'tools/call', params: { name, arguments: args } });
    });
    for (let id = 2; id < 3 + calls.length; id++) await answered(id);
    child.stdin.end();
    expect(await exited).toBe(0);

    const lines = stdout.split('\n');
    expect(lines.pop()).toBe(''); // ends with a line break
    for (const line of lines) {
      const message = JSON.parse(line) as Record<string, unknown>;
      expect(message.jsonrpc).toBe('2.0');
      expect('result' in message || 'error' in message || 'method' in message).toBe(true);
    }
    const byId = new Map(responses().map((m) => [m.id, m]));
    for (let id = 1; id < 3 + calls.length; id++) expect(byId.get(id)?.result, `request ${id}`).toBeDefined();
    expect(readBytes(made.dir, 'made.md')?.toString()).toBe('made over raw stdio');
    // The rebuild was announced, on stderr.
    expect(stderr).toContain('rebuilt');
  });
});
