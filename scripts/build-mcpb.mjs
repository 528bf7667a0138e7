// `npm run build:mcpb` (SPEC 15.2): noted-mcp.mcpb, an MCP Bundle for one-click install in Claude
// Desktop. The bundle holds manifest.json, the single-file server (server/index.cjs) and the native
// modules it loads, as built in this checkout's node_modules: so it runs on this platform and
// architecture, with the Node major that built them (the manifest says both). Claude Desktop asks
// for the vault folder (user_config.notes_dir) and passes it as --notes-dir.
//
//   node scripts/build-mcpb.mjs [--out FILE] [--skip-build]
//     --out FILE     where to write the bundle (default: noted-mcp.mcpb in the checkout)
//     --skip-build   take dist-mcp/ as it is (tests build it once, under their lock)
//
// The manifest's tool list is what the built server itself answers to tools/list, so it cannot
// drift from the code. `mcpb validate` checks the manifest and `mcpb pack` zips the folder.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { firstSentence } from './first-sentence.mjs';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outArg = process.argv.indexOf('--out');
const OUT = path.resolve(outArg === -1 ? path.join(REPO, 'noted-mcp.mcpb') : process.argv[outArg + 1]);
const pkg = JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8'));
/** Packages only their own install step needs (they build or download the native module). */
const INSTALL_ONLY = new Set(['prebuild-install', 'node-addon-api', 'node-gyp']);
/** Per package, the files a running server needs; the rest (C++ sources, build objects) stays out. */
const KEEP = {
  'better-sqlite3': ['package.json', 'LICENSE', 'lib', 'build/Release/better_sqlite3.node'],
  '@parcel/watcher': ['package.json', 'LICENSE', 'index.js', 'wrapper.js'],
};

if (!process.argv.includes('--skip-build'))
  run(process.execPath, [path.join(REPO, 'scripts', 'build-mcp.mjs')]);
const stage = fs.mkdtempSync(path.join(os.tmpdir(), 'noted-mcpb-'));
try {
  fs.mkdirSync(path.join(stage, 'server'));
  for (const file of ['index.cjs', 'THIRD-PARTY-NOTICES.md'])
    fs.copyFileSync(path.join(REPO, 'dist-mcp', file), path.join(stage, 'server', file));
  for (const name of productionPackages()) copyPackage(name);
  const manifest = await buildManifest();
  fs.writeFileSync(path.join(stage, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  const mcpb = path.join(REPO, 'node_modules', '.bin', 'mcpb');
  run(mcpb, ['validate', path.join(stage, 'manifest.json')]);
  fs.mkdirSync(path.dirname(OUT), { recursive: true });
  run(mcpb, ['pack', stage, OUT]);
  console.log(
    `${path.relative(process.cwd(), OUT) || OUT}: ${(fs.statSync(OUT).size / 1e6).toFixed(1)} MB, for ${process.platform}-${process.arch} and Node ${process.versions.node.split('.')[0]}`,
  );
} finally {
  fs.rmSync(stage, { recursive: true, force: true });
}

/** The runtime dependency closure of package.json's dependencies, as installed here. */
function productionPackages() {
  const seen = new Set();
  const visit = (name) => {
    if (seen.has(name) || INSTALL_ONLY.has(name)) return;
    const file = path.join(REPO, 'node_modules', name, 'package.json');
    if (!fs.existsSync(file)) return; // an optional dependency for another platform
    seen.add(name);
    const p = JSON.parse(fs.readFileSync(file, 'utf8'));
    for (const dep of [...Object.keys(p.dependencies ?? {}), ...Object.keys(p.optionalDependencies ?? {})])
      visit(dep);
  };
  for (const name of Object.keys(pkg.dependencies)) visit(name);
  return [...seen].sort();
}

function copyPackage(name) {
  const from = path.join(REPO, 'node_modules', name);
  const to = path.join(stage, 'node_modules', name);
  for (const entry of KEEP[name] ?? ['.']) {
    const source = path.join(from, entry);
    if (!fs.existsSync(source)) throw new Error(`${name} has no ${entry}: is it built (npm ci)?`);
    fs.cpSync(source, path.join(to, entry), { recursive: true, dereference: true });
  }
}

async function buildManifest() {
  const tools = await listTools();
  const nodeMajor = Number(process.versions.node.split('.')[0]);
  return {
    manifest_version: '0.3',
    name: pkg.name,
    display_name: 'Noted — Markdown notes',
    version: pkg.version,
    description: 'Read, search and write a folder of Markdown notes (an Obsidian-style vault).',
    long_description:
      'Noted serves a vault of plain Markdown notes to Claude: ranked full-text search in Obsidian’s syntax, links, tags, properties and tasks, and writes that keep every other byte. You stay in control: folder access rules (hidden, read-only, staged for review, read-write) in `.noted/mcp-policy.yaml`, a tamper-evident journal of every agent write with undo, and a trash deleted notes can be restored from. ' +
      builtFor(nodeMajor),
    author: { name: 'Noted MCP' },
    license: pkg.license,
    keywords: pkg.keywords,
    server: {
      type: 'node',
      entry_point: 'server/index.cjs',
      mcp_config: {
        command: 'node',
        args: [
          `${mcpbVar('__dirname')}/server/index.cjs`,
          '--notes-dir',
          mcpbVar('user_config.notes_dir'),
          '--create',
        ],
      },
    },
    user_config: {
      notes_dir: {
        type: 'directory',
        title: 'Notes folder',
        description:
          'The folder of Markdown notes (your vault) that Claude may read and write. It is created when missing; Noted keeps its index, journal and trash in .noted/ inside it.',
        required: true,
        default: `${mcpbVar('HOME')}/notes`,
      },
    },
    tools,
    prompts_generated: true,
    compatibility: {
      platforms: [process.platform],
      // better-sqlite3 is built against this Node's ABI, which every release of one major shares.
      runtimes: { node: `>=${nodeMajor}.0.0 <${nodeMajor + 1}.0.0` },
    },
  };
}

/**
 * Issue 36.8: the bundle's native modules are the packing machine's, so it runs only there. The
 * manifest's compatibility says platform and Node major; the architecture has no field, so the
 * description says all three.
 */
function builtFor(nodeMajor) {
  return `This bundle was packed on ${process.platform}-${process.arch} with Node ${nodeMajor}: its native modules (better-sqlite3, @parcel/watcher) are built for that platform, architecture and Node major, and it runs only there. Elsewhere, install the npm package (see docs/clients.md).`;
}

/** The built server's own tools/list: names and the first sentence of each description. */
async function listTools() {
  const vault = fs.mkdtempSync(path.join(os.tmpdir(), 'noted-mcpb-vault-'));
  const client = new Client({ name: 'build-mcpb', version: pkg.version });
  try {
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [path.join(REPO, 'dist-mcp', 'index.cjs'), '--notes-dir', vault],
        stderr: 'ignore',
      }),
    );
    const { tools } = await client.listTools();
    return tools.map((t) => ({
      name: t.name,
      description: firstSentence(t.description ?? t.title ?? t.name),
    }));
  } finally {
    await client.close();
    fs.rmSync(vault, { recursive: true, force: true });
  }
}

/** `${NAME}`: a placeholder the client fills in when it installs or starts the bundle. */
function mcpbVar(name) {
  return `\${${name}}`;
}

function run(command, args) {
  const r = spawnSync(command, args, { cwd: REPO, encoding: 'utf8' });
  if (r.status !== 0) {
    console.error(`${command} ${args.join(' ')} exited ${r.status ?? r.signal}\n${r.stdout}\n${r.stderr}`);
    process.exit(1);
  }
  return r.stdout;
}
