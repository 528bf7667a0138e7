/**
 * @module
 * The syntax tree of a Bases expression (Obsidian's filter and formula language). Every node keeps
 * where it starts, so an evaluation error can name the place.
 */

/** Where a node starts: 1-based line and column, and the 0-based offset in the source. */
export interface Position {
  readonly line: number;
  readonly column: number;
  readonly offset: number;
}

export type BinaryOperator =
  | '+'
  | '-'
  | '*'
  | '/'
  | '%'
  | '=='
  | '!='
  | '>'
  | '<'
  | '>='
  | '<='
  | '&&'
  | '||';

export type Expr =
  | { readonly kind: 'number'; readonly value: number; readonly at: Position }
  | { readonly kind: 'string'; readonly value: string; readonly at: Position }
  | { readonly kind: 'boolean'; readonly value: boolean; readonly at: Position }
  | { readonly kind: 'null'; readonly at: Position }
  | { readonly kind: 'regex'; readonly source: string; readonly flags: string; readonly at: Position }
  | { readonly kind: 'name'; readonly name: string; readonly at: Position }
  | { readonly kind: 'list'; readonly items: readonly Expr[]; readonly at: Position }
  | {
      readonly kind: 'object';
      readonly entries: readonly (readonly [string, Expr])[];
      readonly at: Position;
    }
  | { readonly kind: 'member'; readonly object: Expr; readonly name: string; readonly at: Position }
  | { readonly kind: 'index'; readonly object: Expr; readonly index: Expr; readonly at: Position }
  | { readonly kind: 'call'; readonly callee: Expr; readonly args: readonly Expr[]; readonly at: Position }
  | { readonly kind: 'unary'; readonly op: '!' | '-'; readonly arg: Expr; readonly at: Position }
  | {
      readonly kind: 'binary';
      readonly op: BinaryOperator;
      readonly left: Expr;
      readonly right: Expr;
      readonly at: Position;
    };
