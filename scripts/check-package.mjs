// CI (SPEC 15.1): the package installs and runs the way MCP servers are installed, with nothing of
// this checkout beside it. `npm pack` makes the tarball; then, each with an empty HOME (no user
// npm configuration, no cache) and from an empty folder:
//   1. `npm install -g` of the tarball into a temporary prefix gives a `noted-mcp` command;
//   2. `npx -y` of the tarball runs it;
// and a real MCP client starts each over stdio, initializes, lists the tools, writes a note and
// finds it by search. Both installs run in npm's strict install-script mode (the default from npm
// 12 on), so the `--allow-scripts` list that docs/clients.md and `noted-mcp config --npx` give is
// proven to be enough: better-sqlite3 must build its native module (from source where its prebuilt
// download is out of reach, about a minute).
//
//   node scripts/check-package.mjs        (about 1-2 minutes, the two installs side by side; needs the npm registry)
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { INSTALL_GLOBAL, RUN_WITH_NPX, withPackage } from './package-commands.mjs';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8'));
const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'noted-package-')));
const started = Date.now();

try {
  const tarball = pack();
  // Each install starts from its own empty HOME, and the two run side by side: each spends about a
  // minute building better-sqlite3 on one core, and the machine has two.
  const env = cleanEnv(path.join(tmp, 'home'));
  const npxEnv = cleanEnv(path.join(tmp, 'home-npx'));
  const empty = path.join(tmp, 'empty');
  fs.mkdirSync(empty);
  // npx takes an absolute path for a command to run, not a package: it is given ./NAME.tgz from
  // the tarball's own folder, as a person would type it.
  const local = `./${path.basename(tarball)}`;

  const prefix = path.join(tmp, 'prefix');
  fs.mkdirSync(path.join(prefix, 'lib'), { recursive: true });
  const [npm, ...install] = withPackage(INSTALL_GLOBAL, tarball);
  const bin = path.join(prefix, 'bin', 'noted-mcp');
  // npx installs into its own cache under HOME; the first call builds, the second starts at once.
  const [npx, ...npxArgs] = withPackage(RUN_WITH_NPX, local);
  const packed = path.dirname(tarball);
  await Promise.all([
    stepAsync(withPackage(INSTALL_GLOBAL, path.basename(tarball)).join(' '), async () => {
      await runAsync(npm, [...install, '--prefix', prefix], env, empty);
      if (!fs.existsSync(bin)) fail(`npm install -g made no ${bin}`);
    }),
    stepAsync(`${withPackage(RUN_WITH_NPX, local).join(' ')} --version`, async () =>
      expectVersion(await runAsync(npx, [...npxArgs, '--version'], npxEnv, packed)),
    ),
  ]);
  expectVersion(run(bin, ['--version'], env, empty));
  await stepAsync('noted-mcp (installed) over stdio', () => talk(bin, [], env, empty));
  await stepAsync(`${withPackage(RUN_WITH_NPX, local).join(' ')} over stdio`, () =>
    talk(npx, npxArgs, npxEnv, packed),
  );
  console.log(`package check passed in ${Math.round((Date.now() - started) / 1000)} s`);
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}

function pack() {
  const dir = path.join(tmp, 'packed');
  fs.mkdirSync(dir);
  const out = run('npm', ['pack', '--silent', '--pack-destination', dir], process.env, REPO);
  const file = path.join(dir, out.trim().split('\n').at(-1));
  if (!fs.existsSync(file)) fail(`npm pack printed ${out} but made no ${file}`);
  return file;
}

/**
 * The machine's environment without this checkout's traces: no npm_* variables (npm run sets
 * dozens), an empty HOME. The machine-wide npm configuration stays (its registry and
 * certificates); `--prefix` would otherwise move where npm looks for it. node-gyp takes Node's
 * headers from this Node installation when it ships them, instead of downloading them.
 */
function cleanEnv(home) {
  fs.mkdirSync(home);
  const globalconfig = run('npm', ['config', 'get', 'globalconfig'], process.env, REPO).trim();
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)));
  Object.assign(env, {
    HOME: home,
    npm_config_globalconfig: globalconfig,
    npm_config_strict_allow_scripts: 'true',
    npm_config_update_notifier: 'false',
    npm_config_fund: 'false',
    npm_config_audit: 'false',
  });
  const nodeDir = path.resolve(path.dirname(process.execPath), '..');
  if (fs.existsSync(path.join(nodeDir, 'include', 'node', 'node.h'))) env.npm_config_nodedir = nodeDir;
  return env;
}

function run(command, args, env, cwd) {
  const r = spawnSync(command, args, { cwd, env, encoding: 'utf8', timeout: 600_000 });
  if (r.status !== 0) {
    fail(
      `${command} ${args.join(' ')} exited ${r.status ?? r.signal}\n--- stdout\n${r.stdout}\n--- stderr\n${r.stderr}`,
    );
  }
  return r.stdout;
}

/** As run, without holding the event loop: the two installs run side by side. */
function runAsync(command, args, env, cwd) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, env, timeout: 600_000 });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('error', (err) => fail(`${command} ${args.join(' ')} could not start: ${err.message}`));
    child.on('close', (status, signal) => {
      if (status !== 0) {
        fail(
          `${command} ${args.join(' ')} exited ${status ?? signal}\n--- stdout\n${stdout}\n--- stderr\n${stderr}`,
        );
      }
      resolve(stdout);
    });
  });
}

function expectVersion(out) {
  if (out.trim() !== pkg.version) fail(`--version printed "${out.trim()}", expected ${pkg.version}`);
}

/** A real client: initialize, list the tools, write a note and find it. */
async function talk(command, args, env, cwd) {
  const vault = fs.mkdtempSync(path.join(tmp, 'vault-'));
  const transport = new StdioClientTransport({
    command,
    args: [...args, '--notes-dir', vault],
    env,
    cwd,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk) => {
    stderr += chunk.toString('utf8');
  });
  const client = new Client({ name: 'noted-package-check', version: pkg.version });
  // Anything but JSON-RPC on the server's stdout (an install message) surfaces here.
  const problems = [];
  client.onerror = (err) => problems.push(err.message);
  try {
    await client.connect(transport, { timeout: 120_000 });
    const info = client.getServerVersion();
    if (info?.name !== 'noted-mcp' || info.version !== pkg.version)
      fail(`initialize answered ${JSON.stringify(info)}`);
    const { tools } = await client.listTools();
    for (const name of ['create_note', 'search_notes', 'read_note']) {
      if (!tools.some((t) => t.name === name)) fail(`tools/list has no ${name}`);
    }
    const created = await client.callTool({
      name: 'create_note',
      arguments: { name: 'inbox/package check', content: '# Package check\n\nThe kestrel hovers.\n' },
    });
    if (created.isError) fail(`create_note failed: ${JSON.stringify(created.content)}`);
    const found = await client.callTool({ name: 'search_notes', arguments: { query: 'kestrel' } });
    const names = found.structuredContent?.results?.map((r) => r.name) ?? [];
    if (!names.includes('inbox/package check.md'))
      fail(`search_notes did not find the note it wrote: ${JSON.stringify(found.structuredContent)}`);
    if (!fs.existsSync(path.join(vault, 'inbox', 'package check.md'))) fail('the note is not in the vault');
  } catch (err) {
    fail(`${err instanceof Error ? err.message : String(err)}\n--- server stderr\n${stderr}`);
  } finally {
    await client.close();
  }
  if (problems.length > 0) fail(`the client saw: ${problems.join('; ')}\n--- server stderr\n${stderr}`);
}

async function stepAsync(title, fn) {
  const t = Date.now();
  await fn();
  console.log(`ok  ${title} (${Math.round((Date.now() - t) / 1000)} s)`);
}

function fail(message) {
  console.error(`package check FAILED: ${message}`);
  fs.rmSync(tmp, { recursive: true, force: true });
  process.exit(1);
}
