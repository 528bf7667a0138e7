// Bundles the server into dist-mcp/index.cjs, runnable with plain `node` from any folder.
// Native modules stay external and load from node_modules (this checkout's, or the installed
// package's dependencies). The bundle carries other packages' code, so their licence texts go
// beside it in dist-mcp/THIRD-PARTY-NOTICES.md, which the npm package and the MCP Bundle ship.
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const result = await build({
  entryPoints: ['src/cli/main.ts'],
  outfile: 'dist-mcp/index.cjs',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  banner: { js: '#!/usr/bin/env node' },
  external: ['better-sqlite3', '@parcel/watcher'],
  sourcemap: 'linked',
  metafile: true,
  logLevel: 'warning',
});

// Runnable as a command (it starts with #!/usr/bin/env node), as npm makes it when it installs it.
fs.chmodSync('dist-mcp/index.cjs', 0o755);
fs.writeFileSync('dist-mcp/THIRD-PARTY-NOTICES.md', notices(bundledPackages(result.metafile)));

/** The package folders under node_modules whose files went into the bundle. */
function bundledPackages(metafile) {
  const dirs = new Set();
  for (const input of Object.keys(metafile.inputs)) {
    const m = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input);
    if (m) dirs.add(m[1]);
  }
  return [...dirs].sort();
}

function notices(dirs) {
  const parts = [
    '# Third-party notices',
    '',
    'dist-mcp/index.cjs contains code from these packages, under their licences below.',
    '',
  ];
  for (const dir of dirs) {
    const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
    const licenceFile = fs.readdirSync(dir).find((name) => /^(licen[cs]e|copying)(\.(md|txt))?$/i.test(name));
    parts.push(`## ${pkg.name} ${pkg.version} (${pkg.license ?? 'see its package'})`, '');
    if (licenceFile)
      parts.push('```', fs.readFileSync(path.join(dir, licenceFile), 'utf8').trim(), '```', '');
    else parts.push(`No licence file ships with ${pkg.name}; its package.json names ${pkg.license}.`, '');
  }
  return `${parts.join('\n')}\n`;
}
