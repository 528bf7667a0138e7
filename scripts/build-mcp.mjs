// Bundles the server into dist-mcp/index.cjs, runnable with plain `node` from any folder.
// Native modules stay external and load from this project's node_modules.
import { build } from 'esbuild';

await build({
  entryPoints: ['src/cli/main.ts'],
  outfile: 'dist-mcp/index.cjs',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  banner: { js: '#!/usr/bin/env node' },
  external: ['better-sqlite3', '@parcel/watcher'],
  sourcemap: 'linked',
  logLevel: 'warning',
});
