import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { importsIn, importsOf, resolveSpec, SRC, sourceFiles } from './imports.js';

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

/**
 * The rooms of `index/` (docs/development.md has the map), lowest first: a room may import its own
 * files and rooms below it. The search language's phases read top to bottom: parse, plan the SQL,
 * check in the text, run.
 */
const INDEX_ROOMS: Record<string, number> = {
  words: 0,
  db: 1,
  feed: 2,
  store: 3,
  'search/parse': 4,
  'search/plan': 5,
  'search/check': 6,
  'search/run': 7,
  queries: 8,
  table: 9,
  sync: 10,
};

/** The room of an `index/` file (`search/plan` for index/search/plan/sql.ts), or null elsewhere. */
function indexRoomOf(file: string): string | null {
  const parts = path.relative(path.join(SRC, 'index'), file).split(path.sep);
  if (parts[0] === '..' || parts.length < 2) return null;
  return parts[0] === 'search' ? `search/${parts[1]}` : (parts[0] as string);
}

function upwardRoomImports(file: string, specs: string[]): string[] {
  const from = indexRoomOf(file);
  if (from === null) return [];
  return specs.flatMap((spec) => {
    const target = resolveSpec(file, spec);
    const to = target === null ? null : indexRoomOf(target);
    if (to === null || to === from) return [];
    return (INDEX_ROOMS[to] ?? Number.POSITIVE_INFINITY) > (INDEX_ROOMS[from] ?? -1)
      ? [`${path.relative(SRC, file)} → ${spec}`]
      : [];
  });
}

/** Folders whose files are one of a kind by design (one MCP tool a file), exempt from the count. */
const MANY_BY_DESIGN = new Set(['mcp/tools']);
const MAX_FILES_IN_FOLDER = 30;
const MAX_LINES = 400;

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

  it('every file of index/ is in a known room, and no room imports a room above it', () => {
    const loose = files
      .filter(
        (f) =>
          path.dirname(f) === path.join(SRC, 'index') ||
          path.dirname(f) === path.join(SRC, 'index', 'search'),
      )
      .map((f) => path.relative(SRC, f));
    expect(loose).toEqual([]);
    const rooms = [...new Set(files.map(indexRoomOf).filter((r): r is string => r !== null))];
    expect(rooms.filter((r) => !(r in INDEX_ROOMS))).toEqual([]);
    expect(files.flatMap((file) => upwardRoomImports(file, importsOf(file)))).toEqual([]);
  });

  it('the room checker itself sees an upward import', () => {
    const store = path.join(SRC, 'index', 'store', 'fake.ts');
    const specs = importsIn(
      "import { a } from '../search/run/run.js';\nimport { b } from '../db/database.js';\n",
    );
    expect(upwardRoomImports(store, specs)).toEqual(['index/store/fake.ts → ../search/run/run.js']);
  });

  it(`no folder holds more than ${MAX_FILES_IN_FOLDER} source files directly, no file more than ${MAX_LINES} lines`, () => {
    const perFolder = new Map<string, number>();
    for (const f of files) {
      const dir = path.relative(SRC, path.dirname(f));
      perFolder.set(dir, (perFolder.get(dir) ?? 0) + 1);
    }
    const crowded = [...perFolder]
      .filter(([dir, n]) => n > MAX_FILES_IN_FOLDER && !MANY_BY_DESIGN.has(dir))
      .map(([dir, n]) => `${dir}: ${n} files`);
    const long = files
      .map((f) => [path.relative(SRC, f), fs.readFileSync(f, 'utf8').split('\n').length - 1] as const)
      .filter(([, lines]) => lines > MAX_LINES)
      .map(([f, lines]) => `${f}: ${lines} lines`);
    expect([...crowded, ...long]).toEqual([]);
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
