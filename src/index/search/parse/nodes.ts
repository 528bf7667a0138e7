/**
 * @module
 * The tree a search query parses into (search/parse/query.ts): text terms, fields, scopes, properties and
 * the AND, OR and `-` that combine them.
 */
import type { ScopeOperator } from './operators.js';

/** Where a text term is looked for: everywhere (title, tags, body) unless `content:` narrowed it to the body. */
export type TextTarget = 'content';

/** A word the note must contain (compared by token, case- and accent-insensitively unless matchCase). */
export interface WordNode {
  readonly kind: 'word';
  readonly text: string;
  readonly in?: TextTarget;
  /** Under `match-case:`: the characters must be exactly as typed. */
  readonly matchCase?: true;
}

/** `"exact phrase"`: these words, consecutive. `text` is what stood between the quotes. */
export interface PhraseNode {
  readonly kind: 'phrase';
  readonly text: string;
  readonly in?: TextTarget;
  readonly matchCase?: true;
}

/** `/source/`: a regular expression (RE2 syntax, run in linear time), case-insensitive unless matchCase. */
export interface RegexNode {
  readonly kind: 'regex';
  readonly source: string;
  /** What it is run on: title, tags and body (absent), the body, the file name, the path, or each tag. */
  readonly in?: TextTarget | 'file' | 'path' | 'tag';
  readonly matchCase?: true;
}

export type SearchField = 'tag' | 'path' | 'file';

/** `tag:x`, `path:x`, `file:x`. `value` is as typed, quotes removed (`#Work`, `my folder`); never empty. */
export interface FieldNode {
  readonly kind: 'field';
  readonly field: SearchField;
  readonly value: string;
  /** path: and file: under `match-case:`. */
  readonly matchCase?: true;
}

/** `line:(…)` and its kin: `operand` must match within one line, block, section or task; null: any task. */
export interface ScopeNode {
  readonly kind: 'scope';
  readonly scope: ScopeOperator;
  readonly operand: QueryNode | null;
}

/** What `[name:value]` asks of the value. */
export type PropertyValue =
  /** `[name:null]`: the property is there with no value (`name:` alone, `null`, `~`). */
  | { readonly kind: 'null' }
  /** `[name:<5]`, `[name:>=2024-01-01]`: numbers compare as numbers, dates as dates. */
  | { readonly kind: 'compare'; readonly op: '<' | '>' | '<=' | '>='; readonly value: string }
  /** Words, phrases, regexes with AND, OR, `-` and parentheses, matched against the value's text. */
  | { readonly kind: 'match'; readonly query: QueryNode };

/** `[name]` (has the property) or `[name:value]`. The name is compared case-insensitively, or a regex. */
export interface PropertyNode {
  readonly kind: 'property';
  readonly name: string;
  readonly nameRegex?: true;
  readonly value: PropertyValue | null;
}

/** `-x`: notes that do not match `operand`. */
export interface NotNode {
  readonly kind: 'not';
  readonly operand: QueryNode;
}

/** All operands must match. Always two or more operands, none of them an `and`. */
export interface AndNode {
  readonly kind: 'and';
  readonly operands: readonly QueryNode[];
}

/** At least one operand must match. Always two or more operands, none of them an `or`. */
export interface OrNode {
  readonly kind: 'or';
  readonly operands: readonly QueryNode[];
}

export type QueryNode =
  | WordNode
  | PhraseNode
  | RegexNode
  | FieldNode
  | ScopeNode
  | PropertyNode
  | NotNode
  | AndNode
  | OrNode;
