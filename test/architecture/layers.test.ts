import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * ARCHITECTURE.md: imports point downward only. A layer may import its own folder and any layer
 * below it; `markdown/` and `policy/` are pure (no I/O); only `mcp/`, `transport/` (and tests)
 * import the MCP SDK; only `cli/` reads argv and the environment.
 */
const RANK: Record<string, number> = {
  common: 0,
  markdown: 1,
  // The Bases language (SPEC 16): pure, beside markdown/ (whose YAML reader it uses); the index and
  // the gate evaluate with it.
  bases: 1.5,
  vault: 2,
  // Note formats (SPEC 11) read and write notes for the index and the gate, above the files.
  format: 2.5,
  index: 3,
  policy: 4,
  journal: 4,
  staging: 4,
  access: 5,
  workflows: 6,
  mcp: 7,
  console: 8,
  transport: 9,
  cli: 10,
};
const PURE = new Set(['common', 'markdown', 'bases', 'policy', 'format']);
const IO_MODULES = /^(node:)?(fs|fs\/promises|child_process|net|http|https|dgram|worker_threads)$/;

const SRC = path.resolve(__dirname, '../../src');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? sourceFiles(p) : e.name.endsWith('.ts') ? [p] : [];
  });
}

function importsOf(file: string): string[] {
  return importsIn(fs.readFileSync(file, 'utf8'));
}

function importsIn(text: string): string[] {
  const specs: string[] = [];
  for (const m of text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]/g))
    specs.push(m[1] as string);
  for (const m of text.matchAll(/(?:^|\n)\s*import\s+['"]([^'"]+)['"]/g)) specs.push(m[1] as string);
  for (const m of text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)) specs.push(m[1] as string);
  return specs;
}

function layerOf(file: string): string {
  return path.relative(SRC, file).split(path.sep)[0] as string;
}

function upwardImports(file: string, specs: string[]): string[] {
  const from = layerOf(file);
  const upward: string[] = [];
  for (const spec of specs) {
    if (!spec.startsWith('.')) continue;
    const target = path.resolve(path.dirname(file), spec);
    if (path.relative(SRC, target).startsWith('..')) continue; // package.json and the like
    const to = layerOf(target);
    if (to === from) continue;
    if ((RANK[to] ?? Number.POSITIVE_INFINITY) > (RANK[from] ?? -1))
      upward.push(`${path.relative(SRC, file)} → ${spec}`);
  }
  return upward;
}

const files = sourceFiles(SRC);

describe('layering (ARCHITECTURE.md)', () => {
  it('knows the rank of every top-level folder of src/', () => {
    const unknown = [...new Set(files.map(layerOf))].filter((l) => !(l in RANK));
    expect(unknown).toEqual([]);
  });

  it('no module imports a layer above its own', () => {
    expect(files.flatMap((file) => upwardImports(file, importsOf(file)))).toEqual([]);
  });

  it('the checker itself sees an upward import', () => {
    // Guards the test above: a synthetic vault module importing the MCP layer must be caught.
    const fake = path.join(SRC, 'vault', 'fake.ts');
    const specs = importsIn("import type { X } from '../mcp/server.js';\nimport { y } from './names.js';\n");
    expect(upwardImports(fake, specs)).toEqual(['vault/fake.ts → ../mcp/server.js']);
  });

  it('pure layers do no I/O', () => {
    const impure = files
      .filter((f) => PURE.has(layerOf(f)))
      .flatMap((f) =>
        importsOf(f)
          .filter((s) => IO_MODULES.test(s))
          .map((s) => `${path.relative(SRC, f)} imports ${s}`),
      );
    expect(impure).toEqual([]);
  });

  it('only mcp/ and transport/ import the MCP SDK', () => {
    const offenders = files
      .filter((f) => !['mcp', 'transport'].includes(layerOf(f)))
      .flatMap((f) =>
        importsOf(f)
          .filter((s) => s.startsWith('@modelcontextprotocol/'))
          .map((s) => `${path.relative(SRC, f)} imports ${s}`),
      );
    expect(offenders).toEqual([]);
  });

  it('only cli/ reads argv and the environment', () => {
    const offenders = files
      .filter((f) => layerOf(f) !== 'cli')
      .filter((f) => /process\.(argv|env)\b/.test(fs.readFileSync(f, 'utf8')))
      .map((f) => path.relative(SRC, f));
    expect(offenders).toEqual([]);
  });
});
