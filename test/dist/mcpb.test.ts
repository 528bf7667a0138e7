/**
 * The MCP Bundle (SPEC 15.2): `npm run build:mcpb`'s script makes a bundle that `mcpb validate`
 * accepts, that asks for the vault folder, and whose server, unpacked far from this checkout and
 * started the way Claude Desktop starts it (the manifest's mcp_config with its placeholders filled
 * in), answers a real MCP client over stdio with the native modules it carries.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkServes, ensureBuilt, REPO } from '../helpers/server-process.js';

const MCPB = path.join(REPO, 'node_modules', '.bin', 'mcpb');
/** `${name}`: a placeholder of the manifest that the client fills in. */
const placeholder = (name: string) => `\${${name}}`;
let base: string;
let unpacked: string;
let manifest: {
  version: string;
  long_description: string;
  server: { entry_point: string; mcp_config: { command: string; args: string[] } };
  user_config: Record<string, { type: string; required?: boolean }>;
  tools: { name: string; description: string }[];
  compatibility: { platforms: string[]; runtimes: { node: string } };
};

beforeAll(async () => {
  await ensureBuilt();
  base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'noted-mcpb-test-')));
  const file = path.join(base, 'noted-mcp.mcpb');
  const built = spawnSync(
    process.execPath,
    [path.join(REPO, 'scripts', 'build-mcpb.mjs'), '--out', file, '--skip-build'],
    {
      cwd: REPO,
      encoding: 'utf8',
    },
  );
  expect(built.status, `${built.stdout}\n${built.stderr}`).toBe(0);
  unpacked = path.join(base, 'installed', 'noted-mcp');
  const unpack = spawnSync(MCPB, ['unpack', file, unpacked], { encoding: 'utf8' });
  expect(unpack.status, unpack.stderr).toBe(0);
  manifest = JSON.parse(fs.readFileSync(path.join(unpacked, 'manifest.json'), 'utf8'));
}, 120_000);

afterAll(() => fs.rmSync(base, { recursive: true, force: true }));

describe('noted-mcp.mcpb', () => {
  it('mcpb validate accepts its manifest, and a broken one is refused', () => {
    const ok = spawnSync(MCPB, ['validate', path.join(unpacked, 'manifest.json')], { encoding: 'utf8' });
    expect(ok.status, ok.stdout + ok.stderr).toBe(0);
    const broken = path.join(base, 'broken.json');
    fs.writeFileSync(broken, JSON.stringify({ ...manifest, server: { type: 'node' } }));
    expect(spawnSync(MCPB, ['validate', broken], { encoding: 'utf8' }).status).not.toBe(0);
  });

  it('asks for the vault folder and passes it as --notes-dir; names this platform and Node major', () => {
    expect(manifest.user_config.notes_dir).toMatchObject({ type: 'directory', required: true });
    expect(manifest.server.mcp_config).toEqual({
      command: 'node',
      args: [
        `${placeholder('__dirname')}/server/index.cjs`,
        '--notes-dir',
        placeholder('user_config.notes_dir'),
        '--create',
      ],
    });
    expect(manifest.server.entry_point).toBe('server/index.cjs');
    expect(manifest.compatibility.platforms).toEqual([process.platform]);
    // Issue 36.8: the architecture has no field of its own; the description names all three.
    expect(manifest.long_description).toContain(
      `packed on ${process.platform}-${process.arch} with Node ${process.versions.node.split('.')[0]}`,
    );
    const major = Number(process.versions.node.split('.')[0]);
    expect(manifest.compatibility.runtimes.node).toBe(`>=${major}.0.0 <${major + 1}.0.0`);
    expect(manifest.version).toBe(
      JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8')).version,
    );
  });

  it('unpacked, its server answers over stdio with its own native modules, and lists the tools the manifest lists', async () => {
    // Claude Desktop's directory picker gives a folder that exists (a named vault that does not is refused).
    const vault = path.join(base, 'My Notes');
    fs.mkdirSync(vault);
    const args = manifest.server.mcp_config.args.map((a) =>
      a.replace(placeholder('__dirname'), unpacked).replace(placeholder('user_config.notes_dir'), vault),
    );
    const transport = new StdioClientTransport({
      command: process.execPath,
      args,
      cwd: base,
      env: { PATH: process.env.PATH ?? '', HOME: base },
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (c: Buffer) => {
      stderr += c.toString('utf8');
    });
    await checkServes(transport, vault, { name: 'from the bundle' });
    const { tools } = await listTools(args);
    expect(manifest.tools.map((t) => t.name)).toEqual(tools.map((t) => t.name));
    expect(stderr).not.toMatch(/error/i);
    // Unpacked outside this checkout, the server could load its native modules only from the bundle.
    expect(path.relative(REPO, unpacked).startsWith('..')).toBe(true);
    expect(
      fs.existsSync(
        path.join(unpacked, 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node'),
      ),
    ).toBe(true);
  });
});

describe('a first install (issue 32)', () => {
  it('accepting the default notes folder, which does not exist yet, gets a server that makes it and serves it', async () => {
    const home = path.join(base, 'first-home');
    fs.mkdirSync(home);
    const fallback = (manifest.user_config.notes_dir as { default?: string }).default ?? '';
    const vault = fallback.replace(placeholder('HOME'), home);
    expect(vault).toBe(path.join(home, 'notes'));
    expect(fs.existsSync(vault)).toBe(false);
    const args = manifest.server.mcp_config.args.map((a) =>
      a.replace(placeholder('__dirname'), unpacked).replace(placeholder('user_config.notes_dir'), vault),
    );
    const transport = new StdioClientTransport({
      command: process.execPath,
      args,
      cwd: home,
      env: { PATH: process.env.PATH ?? '', HOME: home },
      stderr: 'ignore',
    });
    await checkServes(transport, vault, { name: 'first note' });
  });
});

/** tools/list of the unpacked server. */
async function listTools(args: string[]) {
  const client = new Client({ name: 'claude-desktop-stand-in', version: '0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args,
      cwd: base,
      env: { PATH: process.env.PATH ?? '', HOME: base },
      stderr: 'ignore',
    }),
  );
  try {
    return await client.listTools();
  } finally {
    await client.close();
  }
}
