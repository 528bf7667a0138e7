import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { importCycles, importGraph, importsIn, SRC, sourceFiles } from './imports.js';

/**
 * No two files of src/ import each other, directly or round a loop, type-only imports included: a
 * cycle of types still means the two files cannot be read apart (the layout issue). A cycle is broken
 * by moving the shared type or function down into a file both sides import.
 */
const rel = (f: string): string => path.relative(SRC, f);

describe('import cycles', () => {
  it('src/ has none, type-only imports counted', () => {
    const cycles = importCycles(importGraph(sourceFiles())).map((c) => c.map(rel).join(' → '));
    expect(cycles).toEqual([]);
  });

  it('the checker itself sees a cycle of types and a longer loop', () => {
    // Guards the test above with a synthetic graph read from text, as the real one is.
    const texts: Record<string, string> = {
      [path.join(SRC, 'x/a.ts')]: "import type { B } from './b.js';\n",
      [path.join(SRC, 'x/b.ts')]: "import type { A } from './a.js';\n",
      [path.join(SRC, 'y/c.ts')]: "import { d } from '../y/d.js';\n",
      [path.join(SRC, 'y/d.ts')]: "export { e } from './e.js';\n",
      [path.join(SRC, 'y/e.ts')]: "const c = await import('./c.js');\n",
      [path.join(SRC, 'y/f.ts')]: "import { c } from './c.js';\n",
    };
    const graph = importGraph(Object.keys(texts), (f) => importsIn(texts[f] as string));
    const cycles = importCycles(graph).map((c) => c.map(rel).join(' → '));
    expect(cycles.sort()).toEqual(['x/a.ts → x/b.ts → x/a.ts', 'y/c.ts → y/d.ts → y/e.ts → y/c.ts']);
  });
});
