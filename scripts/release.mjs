#!/usr/bin/env node
// The release a maintainer runs (docs/release.md): set the version everywhere it is written, make
// and publish the npm package, build the Claude Desktop bundle, and publish server.json to the MCP
// registry. A dry run by default: it checks what it can without changing anything and prints each
// step it would take. `--publish` takes them.
//
//   node scripts/release.mjs [--version X.Y.Z] [--publish]
//
// Publishing needs `npm login` (an account allowed to publish noted-mcp) and `mcp-publisher`
// (https://github.com/modelcontextprotocol/registry) logged in with `mcp-publisher login github`
// as a member of the noted-mcp GitHub organization (the registry name io.github.noted-mcp/…
// is granted to it).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const USAGE = 'usage: node scripts/release.mjs [--version X.Y.Z] [--publish]';

const args = process.argv.slice(2);
let version;
let publish = false;
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--publish') publish = true;
  else if (args[i] === '--version' && args[i + 1] !== undefined) version = args[++i];
  else if (args[i] === '--help' || args[i] === '-h') {
    console.log(USAGE);
    process.exit(0);
  } else {
    console.error(`release: unknown argument ${args[i]}\n${USAGE}`);
    process.exit(2);
  }
}

const pkgFile = path.join(REPO, 'package.json');
const serverFile = path.join(REPO, 'server.json');
const pkg = JSON.parse(fs.readFileSync(pkgFile, 'utf8'));
const server = JSON.parse(fs.readFileSync(serverFile, 'utf8'));
version ??= pkg.version;
if (!/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/.test(version)) {
  console.error(`release: --version must be semver (X.Y.Z), got ${version}`);
  process.exit(2);
}
const tarball = `${pkg.name}-${version}.tgz`;
const mode = publish ? 'PUBLISH' : 'DRY RUN (nothing is changed; --publish to release)';
console.log(`release ${pkg.name}@${version}: ${mode}\n`);

let stepNo = 0;
/** One step: printed always; run when publishing, or when `safe` (it changes nothing). */
function step(what, command, { safe = false, fn } = {}) {
  stepNo++;
  console.log(`${stepNo}. ${what}${command ? `\n   $ ${command.join(' ')}` : ''}`);
  if (!publish && !safe) {
    console.log('   (dry run: not done)');
    return;
  }
  if (fn) fn();
  if (command) {
    const r = spawnSync(command[0], command.slice(1), { cwd: REPO, stdio: 'inherit' });
    if (r.status !== 0) {
      console.error(`release: "${command.join(' ')}" failed (${r.status ?? r.signal}); stopped here.`);
      process.exit(1);
    }
  }
}

// 0. Where we stand.
const status = spawnSync('git', ['status', '--porcelain'], { cwd: REPO, encoding: 'utf8' });
if (status.status === 0 && status.stdout.trim() !== '') {
  const say = `the work tree has uncommitted changes:\n${status.stdout}`;
  if (publish) {
    console.error(`release: ${say}commit them (or stash them) first.`);
    process.exit(1);
  }
  console.log(`note: ${say}`);
}
for (const [file, value] of [
  ['server.json version', server.version],
  ['server.json packages[0].version', server.packages?.[0]?.version],
]) {
  if (value !== pkg.version)
    console.log(`note: ${file} is ${value}, package.json ${pkg.version}: step 1 sets both.`);
}

step(
  `Set the version ${version} in package.json, package-lock.json and server.json (its own and its npm package's)`,
  ['npm', 'version', version, '--no-git-tag-version', '--allow-same-version'],
  {
    fn: () => {
      server.version = version;
      for (const p of server.packages ?? []) p.version = version;
      fs.writeFileSync(serverFile, `${JSON.stringify(server, null, 2)}\n`);
    },
  },
);
step('Check the package: contents, install with npm -g and npx from the tarball, empty HOME', [
  'node',
  'scripts/check-package.mjs',
]);
step('See what the package will hold (builds dist-mcp first)', ['npm', 'pack', '--dry-run'], { safe: true });
step(`Make the tarball ${tarball}`, ['npm', 'pack']);
step('Publish it to the npm registry (needs npm login)', [
  'npm',
  'publish',
  `./${tarball}`,
  '--access',
  'public',
]);
step(
  'Build the Claude Desktop bundle noted-mcp.mcpb for THIS platform and Node major (attach it to the GitHub release; build it again on each platform you offer, see docs/clients.md)',
  ['npm', 'run', 'build:mcpb'],
);
step(
  'Validate server.json against the registry schema (the test CI runs)',
  ['npx', 'vitest', 'run', 'test/dist/server-json.test.ts'],
  { safe: true },
);
step('Publish server.json to the MCP registry (needs mcp-publisher, logged in: mcp-publisher login github)', [
  'mcp-publisher',
  'publish',
]);
step(
  `Commit and tag: git commit -am "Release ${version}" && git tag v${version} && git push --follow-tags`,
  undefined,
);
console.log(
  publish
    ? `\nReleased ${pkg.name}@${version}. Now npx -y ${pkg.name} works: remove NOT_YET_PUBLISHED (src/cli/config-command.ts) and the tarball install notes in README.md and docs/clients.md if this was the first release.`
    : '\nDry run done. Run again with --publish to release.',
);
