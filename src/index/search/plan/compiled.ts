/**
 * @module
 * What compiling a search yields (compile.ts makes it, sql.ts runs its contract): the SQL that finds the
 * notes, the FTS5 expression that ranks them, and, for a query SQL cannot answer exactly, the check
 * code runs on each candidate (search/check/check.ts).
 */

import type { QueryNode } from '../parse/nodes.js';

export interface CompiledSearch {
  /** SQL boolean expression over the alias `n` (the `notes` table), with `?` placeholders. */
  where: string;
  /** Values for the placeholders of `where`, in order. */
  params: unknown[];
  /**
   * FTS5 expression every result must also match, to rank by BM25; null when the query cannot be
   * ranked (its top level is an OR with a field, a field alone…) and results go newest first.
   */
  rankMatch: string | null;
  /** Words and phrases the results were searched for (not excluded ones, not field values), for excerpts. */
  highlightTerms: string[];
  /**
   * Present when `where` and `rankMatch` only narrow the query down to candidates (they hold for every
   * match, but not only for matches): each candidate must also pass this check (search/check/check.ts), which
   * reads the candidate's `c0`, `c1`… columns, the exact parts of `columns`.
   */
  check?: Check;
  columns?: SqlPart[];
}

export interface SqlPart {
  readonly sql: string;
  readonly params: unknown[];
}

/** What a candidate must pass beyond the SQL: a tree over exact SQL columns and parts checked in code. */
export type Check =
  | { readonly k: 'col'; readonly i: number }
  | { readonly k: 'and' | 'or'; readonly ops: readonly Check[] }
  | { readonly k: 'not'; readonly op: Check }
  | { readonly k: 'node'; readonly node: QueryNode };
