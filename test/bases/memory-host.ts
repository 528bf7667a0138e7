/**
 * A BasesHost over files made in a test: paths, frontmatter, tags and links, resolved by file name
 * or path as Obsidian resolves a plain link.
 */
import { loadMoment } from '../../src/bases/dates.js';
import type { BasesHost, FileFacts, FileLink } from '../../src/bases/host.js';

export interface TestFile {
  readonly path: string;
  readonly props?: Record<string, unknown>;
  readonly tags?: string[];
  /** Link texts; `!x` is an embed. */
  readonly links?: string[];
  readonly size?: number;
  readonly mtime?: string;
  readonly ctime?: string;
}

export const NOW = new Date(2025, 4, 27, 15, 30, 0).getTime();

export async function memoryHost(
  files: readonly TestFile[],
  now = NOW,
): Promise<BasesHost & { all: FileFacts[] }> {
  const moment = await loadMoment();
  const byPath = new Map<string, FileFacts>();
  const resolve = (text: string): string | null => {
    const t = text.replace(/#.*$/, '');
    if (byPath.has(t)) return t;
    if (byPath.has(`${t}.md`)) return `${t}.md`;
    for (const p of byPath.keys()) {
      const name = p.split('/').pop() as string;
      if (name === t || name === `${t}.md`) return p;
    }
    return null;
  };
  const facts = files.map((f): FileFacts => {
    const links = (): FileLink[] =>
      (f.links ?? []).map((l) => {
        const embed = l.startsWith('!');
        const target = embed ? l.slice(1) : l;
        return { target, display: null, resolved: resolve(target), embed };
      });
    return {
      path: f.path,
      size: f.size ?? 100,
      mtimeMs: f.mtime ? new Date(f.mtime).getTime() : now - 86_400_000,
      ctimeMs: f.ctime ? new Date(f.ctime).getTime() : now - 10 * 86_400_000,
      properties: () => f.props ?? {},
      tags: () => f.tags ?? [],
      links,
    };
  });
  for (const f of facts) byPath.set(f.path, f);
  return {
    all: facts,
    file: (p) => byPath.get(p) ?? null,
    resolve: (text) => resolve(text),
    backlinks: (p) => facts.filter((f) => f.links().some((l) => l.resolved === p)).map((f) => f.path),
    now: () => now,
    moment,
  };
}
