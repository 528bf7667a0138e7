/**
 * @module
 * The `search_notes` query language, parsed into a small tree. It follows Obsidian's search: plain words
 * must all match, `"exact phrase"`, `-term` / `-"phrase"` / `-(group)` exclude, upper-case `OR` (AND binds
 * tighter), parentheses group, `/regular expressions/`, and Obsidian's operators (search/parse/operators.ts):
 * `file:` `path:` `content:` `tag:` (a value, or a group distributed over its terms: `file:(a OR b)` is
 * `file:a OR file:b`), `line:` `block:` `section:` `task:` `task-todo:` `task-done:` (their operand
 * must match inside one line, block, section or task), `match-case:` / `ignore-case:` (pushed down onto
 * the terms they cover), and properties `[name]` / `[name:value]`. Anything else, FTS5 syntax included
 * (`*`, `^`, `NEAR`, `AND`, `NOT`), is an ordinary word: the compiler sends every word to FTS5 as a
 * quoted string, never as syntax. An unknown `name:` is refused, naming the operators that come close.
 *
 * A word or phrase with no letter or digit (`&`, `--`, `->`) is dropped: the index keeps only letters and
 * digits, so it could never be matched, and `rock & roll` should still find "rock and roll". Where
 * dropping would change the meaning (an excluded phrase or group, one side of an OR, the whole query)
 * the query is refused instead.
 *
 * Call {@link parseSearchQuery}, here: it checks the query as a whole (its length, that it looks for
 * something, how many terms it holds). The query is split into tokens by search/parse/tokens.ts, and built
 * into a tree (search/parse/nodes.ts) by search/parse/parser.ts, which leaves operators and properties to
 * search/parse/parse-operators.ts; the limits are in search/parse/limits.ts.
 */

import { NotedError } from '../../../common/errors.js';
import { MAX_QUERY_CHARS, MAX_QUERY_TERMS } from './limits.js';
import type { QueryNode } from './nodes.js';
import type { ParseOptions } from './parsed.js';
import { Parser } from './parser.js';
import { dedupeQuery } from './terms.js';
import { tokenize } from './tokens.js';

export type {
  AndNode,
  FieldNode,
  NotNode,
  OrNode,
  PhraseNode,
  PropertyNode,
  PropertyValue,
  QueryNode,
  RegexNode,
  ScopeNode,
  SearchField,
  TextTarget,
  WordNode,
} from './nodes.js';

/**
 * Parses a search query and keeps each repeated term once (search/parse/terms.ts). Throws
 * `NotedError('validation_error')` for a malformed query, naming the 1-based character position and
 * quoting the spot, and `NotedError('too_large')` past {@link MAX_QUERY_CHARS} characters,
 * {@link MAX_QUERY_TERMS} distinct terms or `MAX_GROUP_DEPTH` nested groups (search/parse/limits.ts).
 *
 * @example
 * parseSearchQuery('plan -draft OR tag:#work')
 * // { kind: 'or', operands: [
 * //   { kind: 'and', operands: [{ kind: 'word', text: 'plan' }, { kind: 'not', operand: { kind: 'word', text: 'draft' } }] },
 * //   { kind: 'field', field: 'tag', value: '#work' } ] }
 */
export function parseSearchQuery(query: string, options: ParseOptions = {}): QueryNode {
  if (query.length > MAX_QUERY_CHARS) {
    throw new NotedError(
      'too_large',
      `The search query is ${query.length} characters long; the limit is ${MAX_QUERY_CHARS}. ` +
        'Shorten it to the words that matter most.',
      { limit: MAX_QUERY_CHARS, actual: query.length },
    );
  }
  const tokens = tokenize(query);
  if (tokens.length === 0) {
    throw new NotedError(
      'validation_error',
      'The search query is empty: give at least one word, "exact phrase", or operator such as tag:#project to look for.',
    );
  }
  const parser = new Parser(query, tokens, options);
  const root = parser.parseQuery();
  if (root.kind === 'dropped') {
    throw parser.error(
      root.pos,
      `The query has nothing to search for: ${parser.quote(root)} at ${parser.describe(root.pos)} has no ` +
        'letters or digits, and the index keeps only words. Search for at least one word.',
    );
  }
  if (!hasPositiveTerm(root, false)) {
    throw new NotedError(
      'validation_error',
      `The query ${JSON.stringify(query.trim())} only excludes; it needs at least one term to look for. ` +
        'Add a word, "exact phrase" or operator (tag:, path:, file:, line:, [property]…) that results must contain, as in: project -draft',
    );
  }
  const unique = dedupeQuery(root);
  const terms = countTerms(unique);
  if (terms > MAX_QUERY_TERMS) {
    throw new NotedError(
      'too_large',
      `The search query has ${terms} different terms (words, phrases, regexes, operators and properties); the limit is ${MAX_QUERY_TERMS}. ` +
        'Keep the most distinctive terms and search again.',
      { limit: MAX_QUERY_TERMS, actual: terms },
    );
  }
  return unique;
}

/** Leaves of the tree: what the term limit counts (a scope counts with the terms inside it). */
export function countTerms(node: QueryNode): number {
  switch (node.kind) {
    case 'not':
      return countTerms(node.operand);
    case 'and':
    case 'or':
      return node.operands.reduce((n, op) => n + countTerms(op), 0);
    case 'scope':
      return 1 + (node.operand === null ? 0 : countTerms(node.operand));
    case 'property':
      return 1 + (node.value?.kind === 'match' ? countTerms(node.value.query) : 0);
    default:
      return 1;
  }
}

/** Excluded terms inside an excluded group count as wanted again (`-(-a)` looks for a). */
function hasPositiveTerm(node: QueryNode, negated: boolean): boolean {
  switch (node.kind) {
    case 'not':
      return hasPositiveTerm(node.operand, !negated);
    case 'and':
    case 'or':
      return node.operands.some((n) => hasPositiveTerm(n, negated));
    default:
      return !negated;
  }
}
