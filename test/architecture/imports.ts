/**
 * @module
 * The import graph of `src/`, read from the TypeScript text: every relative `import`, `export … from`
 * and `import()` (type-only ones included, since a cycle of types still means two files cannot be read
 * apart), resolved to the file it names. Shared by the layering and the cycle tests.
 */

import fs from 'node:fs';
import path from 'node:path';

export const SRC = path.resolve(__dirname, '../../src');

export function sourceFiles(dir: string = SRC): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? sourceFiles(p) : e.name.endsWith('.ts') ? [p] : [];
  });
}

/** The module specifiers a TypeScript text imports or re-exports, in order. */
export function importsIn(text: string): string[] {
  const specs: string[] = [];
  for (const m of text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]/g))
    specs.push(m[1] as string);
  for (const m of text.matchAll(/(?:^|\n)\s*import\s+['"]([^'"]+)['"]/g)) specs.push(m[1] as string);
  for (const m of text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)) specs.push(m[1] as string);
  return specs;
}

export function importsOf(file: string): string[] {
  return importsIn(fs.readFileSync(file, 'utf8'));
}

/** The `.ts` file a relative specifier of `file` names (`./x.js` → `x.ts`), or null for a package. */
export function resolveSpec(file: string, spec: string): string | null {
  if (!spec.startsWith('.')) return null;
  return path.resolve(path.dirname(file), spec).replace(/\.js$/, '.ts');
}

/** file → the files of `src/` it imports (absolute paths), for every given file. */
export function importGraph(files: readonly string[], read = importsOf): Map<string, string[]> {
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const targets = read(file)
      .map((spec) => resolveSpec(file, spec))
      .filter((t): t is string => t !== null && known.has(t));
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/**
 * The import cycles of a graph: each strongly connected component of more than one file (or a file
 * importing itself), found with Tarjan's algorithm, as one cycle path through it for the message.
 */
export function importCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, counter);
    low.set(v, counter);
    counter++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) as number, low.get(w) as number));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) as number, index.get(w) as number));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop() as string;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || (graph.get(v) ?? []).includes(v))
      components.push(cyclePath(graph, component));
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return components;
}

/** One cycle through a strongly connected component, as `a → b → … → a`, for a readable failure. */
function cyclePath(graph: ReadonlyMap<string, readonly string[]>, component: readonly string[]): string[] {
  const inside = new Set(component);
  const start = [...component].sort()[0] as string;
  const path = [start];
  const seen = new Set([start]);
  let at = start;
  for (;;) {
    const next = (graph.get(at) ?? []).filter((w) => inside.has(w)).sort();
    const back = next.find((w) => w === start);
    const fresh = next.find((w) => !seen.has(w));
    if (back !== undefined && (fresh === undefined || path.length > 1)) return [...path, start];
    if (fresh === undefined) return [...path, next[0] as string];
    path.push(fresh);
    seen.add(fresh);
    at = fresh;
  }
}
