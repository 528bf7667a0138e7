/**
 * @module
 * A scope's operand over the parts of a note (lines, blocks or sections, numbered in order): which
 * parts each AND, OR and `-` of it holds, given which parts each other term holds. Shared by the text
 * check (search/check/scopes.ts) and the index's answer (search/check/positions.ts).
 */
import type { QueryNode } from '../parse/nodes.js';

/**
 * The parts (of `count`) matching `node`; `leaf` answers every node but AND, OR and `-`. Null when
 * `leaf` answers null for some term (the caller then checks another way).
 */
export function partSets(
  node: QueryNode,
  count: number,
  leaf: (node: QueryNode) => Set<number> | null,
): Set<number> | null {
  switch (node.kind) {
    case 'not': {
      const inner = partSets(node.operand, count, leaf);
      if (inner === null) return null;
      const out = new Set<number>();
      for (let i = 0; i < count; i++) if (!inner.has(i)) out.add(i);
      return out;
    }
    case 'and':
    case 'or': {
      const sets: Set<number>[] = [];
      for (const op of node.operands) {
        const set = partSets(op, count, leaf);
        if (set === null) return null;
        sets.push(set);
      }
      if (node.kind === 'or') return new Set(sets.flatMap((set) => [...set]));
      const [first, ...rest] = sets.sort((a, b) => a.size - b.size);
      return new Set([...(first ?? [])].filter((i) => rest.every((set) => set.has(i))));
    }
    default:
      return leaf(node);
  }
}
