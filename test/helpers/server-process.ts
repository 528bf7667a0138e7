/**
 * @module
 * The built server (`dist-mcp/index.cjs`) as a child process: built once per change of the sources
 * (under a lock, since test files run in parallel), spawned with a real stdio client.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { type CallResult, checkResult } from './vault.js';

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const DIST = path.join(REPO, 'dist-mcp', 'index.cjs');

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const abs = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(abs) : fs.statSync(abs).mtimeMs);
  }
  return newest;
}

function isFresh(): boolean {
  try {
    const built = fs.statSync(DIST).mtimeMs;
    const sources = Math.max(
      newestSource(path.join(REPO, 'src')),
      fs.statSync(path.join(REPO, 'package.json')).mtimeMs,
    );
    return built >= sources;
  } catch {
    return false;
  }
}

/**
 * Runs `npm run build:mcp` unless `dist-mcp/index.cjs` is newer than every source file. A lock folder
 * keeps two test files from writing the bundle at once (one would read it half written).
 */
export async function ensureBuilt(): Promise<void> {
  const lock = path.join(os.tmpdir(), `noted-mcp-build-${Buffer.from(REPO).toString('hex').slice(-24)}.lock`);
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      fs.mkdirSync(lock);
      break;
    } catch {
      // A lock older than a minute was left by a killed run.
      const age = Date.now() - (fs.statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > 60_000) fs.rmSync(lock, { recursive: true, force: true });
      if (Date.now() > deadline) throw new Error(`waited a minute for the build lock ${lock}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  try {
    if (isFresh()) return;
    const built = spawnSync('npm', ['run', 'build:mcp'], { cwd: REPO, encoding: 'utf8' });
    if (built.status !== 0) throw new Error(`npm run build:mcp failed:\n${built.stdout}\n${built.stderr}`);
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}

export interface ServerProcess {
  readonly client: Client;
  readonly transport: StdioClientTransport;
  /** Everything the server wrote to stderr so far. */
  stderr(): string;
  call(name: string, args?: Record<string, unknown>): Promise<CallResult>;
  close(): Promise<void>;
}

/** Spawns the built server on `vaultDir` from `cwd` and connects a stdio client to it. */
export async function spawnServer(
  vaultDir: string,
  options: {
    cwd?: string;
    args?: string[];
    name?: string;
    /** The client's options (e.g. `versionNegotiation` for the 2026-07-28 era). */
    client?: ConstructorParameters<typeof Client>[1];
  } = {},
): Promise<ServerProcess> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [DIST, '--notes-dir', vaultDir, ...(options.args ?? [])],
    cwd: options.cwd ?? os.tmpdir(),
    stderr: 'pipe',
    // The run's configuration folder (global-config.ts), not the user's: the journal key lives there.
    env: { NOTED_MCP_CONFIG_DIR: process.env.NOTED_MCP_CONFIG_DIR ?? '' },
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const client = new Client({ name: options.name ?? 'noted-e2e', version: '0' }, options.client);
  await client.connect(transport);
  return {
    client,
    transport,
    stderr: () => stderr,
    call: async (name, args = {}) => checkResult(await client.callTool({ name, arguments: args })),
    close: () => client.close(),
  };
}

/** Runs the built CLI to completion and returns its exit code and output. */
export function runCli(
  args: string[],
  cwd = os.tmpdir(),
  env: NodeJS.ProcessEnv = process.env,
): { status: number | null; stdout: string; stderr: string } {
  const run = spawnSync(process.execPath, [DIST, ...args], {
    cwd,
    env,
    encoding: 'utf8',
    timeout: 20_000,
    input: '',
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

/**
 * Connects a real client over `transport`, writes a note and reads it back from `vaultDir`: the
 * server answers MCP and serves that very vault. Any line on the server's stdout that is not
 * JSON-RPC reaches the client's onerror and fails the check, unless `tolerate` accepts it.
 */
export async function checkServes(
  transport: Parameters<Client['connect']>[0],
  vaultDir: string,
  options: { tolerate?: (message: string) => boolean; name?: string } = {},
): Promise<void> {
  const client = new Client({ name: 'noted-serves-check', version: '0' });
  const problems: string[] = [];
  client.onerror = (err) => {
    if (!options.tolerate?.(err.message)) problems.push(err.message);
  };
  const name = options.name ?? `served ${Date.now()}`;
  try {
    await client.connect(transport);
    const created = checkResult(
      await client.callTool({
        name: 'create_note',
        arguments: { name, content: `# ${name}\n\nA kestrel.\n` },
      }),
    );
    if (created.isError) throw new Error(`create_note failed: ${created.text}`);
    const found = checkResult(
      await client.callTool({ name: 'search_notes', arguments: { query: 'kestrel' } }),
    );
    const names = (found.structured.results as { name: string }[]).map((r) => r.name);
    if (!names.includes(`${name}.md`))
      throw new Error(`search_notes did not find ${name}.md: ${names.join(', ')}`);
    if (!fs.existsSync(path.join(vaultDir, `${name}.md`)))
      throw new Error(`${name}.md is not in ${vaultDir}: the server serves another folder`);
  } finally {
    await client.close();
  }
  if (problems.length > 0) throw new Error(`the client saw: ${problems.join('; ')}`);
}
