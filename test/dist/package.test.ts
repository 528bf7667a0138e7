/**
 * The npm package (SPEC 15.1) as `npm pack` would make it, checked without the network: what it
 * holds, what it depends on, and that the flags it tells npm to allow match its native modules.
 * scripts/check-package.mjs (CI, after npm test) installs and runs the real tarball.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs module shared with the CI scripts
import { ALLOW_SCRIPTS_FLAG, RUN_WITH_NPX } from '../../scripts/package-commands.mjs';
import { NATIVE_PACKAGES, NPX_LAUNCHER } from '../../src/cli/launcher.js';
import { DIST, ensureBuilt, REPO } from '../helpers/server-process.js';

const pkg = JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8'));

beforeAll(async () => {
  await ensureBuilt();
}, 60_000);

describe('the npm package', () => {
  it('holds the bundle, its notices, the licence, package.json and the README, nothing else', () => {
    const r = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
      cwd: REPO,
      encoding: 'utf8',
    });
    expect(r.status, r.stderr).toBe(0);
    const [report] = JSON.parse(r.stdout);
    expect(report.files.map((f: { path: string }) => f.path).sort()).toEqual([
      'LICENSE',
      'README.md',
      'dist-mcp/THIRD-PARTY-NOTICES.md',
      'dist-mcp/index.cjs',
      'package.json',
    ]);
    expect(report.name).toBe('noted-mcp');
  });

  it('carries the licence it declares (MIT) and names its repository (issue 36.7)', () => {
    expect(pkg.license).toBe('MIT');
    const licence = fs.readFileSync(path.join(REPO, 'LICENSE'), 'utf8');
    expect(licence).toMatch(/^MIT License\n/);
    expect(licence).toContain('Permission is hereby granted, free of charge');
    expect(pkg.repository).toEqual({ type: 'git', url: 'git+https://github.com/noted-mcp/noted-mcp.git' });
    // The registry name io.github.noted-mcp/noted-mcp is the GitHub repository noted-mcp/noted-mcp.
    expect(pkg.mcpName).toBe('io.github.noted-mcp/noted-mcp');
  });

  it('depends only on the native modules the bundle leaves out; npm pack builds first', () => {
    expect(Object.keys(pkg.dependencies).sort()).toEqual([...NATIVE_PACKAGES].sort());
    const build = fs.readFileSync(path.join(REPO, 'scripts', 'build-mcp.mjs'), 'utf8');
    expect(build).toContain(`external: ['better-sqlite3', '@parcel/watcher']`);
    expect(pkg.scripts.prepack).toBe('npm run build:mcp');
    expect(pkg.bin).toEqual({ 'noted-mcp': 'dist-mcp/index.cjs' });
    expect(fs.readFileSync(DIST, 'utf8').startsWith('#!/usr/bin/env node\n')).toBe(true);
  });

  it('the bundle requires no package but the native modules and Node built-ins', () => {
    const bundle = fs.readFileSync(DIST, 'utf8');
    const required = new Set(
      [...bundle.matchAll(/\brequire\("([^"./][^"]*)"\)/g)].map((m) => m[1] as string),
    );
    const builtins = new Set(builtinModules);
    const outside = [...required].filter(
      (name) =>
        !builtins.has(name.replace(/^node:/, '')) &&
        !name.startsWith('ajv/') &&
        !name.startsWith('ajv-formats/'),
    );
    expect(outside.sort()).toEqual([...NATIVE_PACKAGES].sort());
  });

  it('the npx form, server.json and the CI check allow the same install scripts', () => {
    expect(ALLOW_SCRIPTS_FLAG).toBe(`--allow-scripts=${NATIVE_PACKAGES.join(',')}`);
    expect([NPX_LAUNCHER.command, ...NPX_LAUNCHER.args]).toEqual(RUN_WITH_NPX);
  });

  it('lists its third-party licences', () => {
    const notices = fs.readFileSync(path.join(REPO, 'dist-mcp', 'THIRD-PARTY-NOTICES.md'), 'utf8');
    for (const name of ['zod', 'yaml', '@modelcontextprotocol/server', 'diff', 'turndown'])
      expect(notices).toMatch(new RegExp(`^## ${name.replace('/', '\\/')} \\d`, 'm'));
    expect(notices).toContain('Permission is hereby granted');
  });
});
