/**
 * @module
 * The yaml package's `parseDocument`, with how deeply the text nests checked while it is parsed and
 * before anything is composed. The composer recurses once per level: 10,000 levels of `- - - …` (a
 * few kilobytes of frontmatter) exhaust the stack, and V8 may then abort the whole process while
 * compiling a regular expression near the stack limit ("RegExpCompiler Allocation failed - process
 * out of memory", exit 134) instead of throwing a RangeError that could be caught. The parser itself
 * keeps its open nodes in an array, so it can take any depth; its length is watched after every
 * token, which also stops a hostile text early (5 MB of `[[[[…` took 44 s to refuse before).
 */
import {
  Composer,
  type Document,
  type DocumentOptions,
  Lexer,
  LineCounter,
  type ParseOptions,
  Parser,
  type SchemaOptions,
  YAMLParseError,
} from 'yaml';

/**
 * The deepest nesting allowed, counted as the parser's open nodes (the document, each collection,
 * and the token being read). Frontmatter and the policy file need a handful of levels; this leaves
 * the composer (about a kilobyte of stack per level) far from the stack limit wherever it is called.
 */
export const MAX_YAML_NESTING = 128;

export type YamlOptions = ParseOptions & DocumentOptions & SchemaOptions;

/** A text nested deeper than `MAX_YAML_NESTING`: `line` (1-based) is where it went too deep. */
export interface TooDeep {
  readonly tooDeep: true;
  readonly line: number;
}

/**
 * Parses one YAML document like `parseDocument(source, options)` (yaml 2.x: the first document, a
 * `MULTIPLE_DOCS` error when there are more, `linePos` on every error and warning), or returns
 * `TooDeep` without composing anything. Error messages are not prettified: they carry no
 * "at line X, column Y" suffix and no excerpt; `linePos` gives the place.
 *
 * @example
 * parseYamlDocument('a: [1, 2]\n', {}) // a Document
 * parseYamlDocument(`a: ${'['.repeat(10_000)}`, {}) // { tooDeep: true, line: 1 }
 */
export function parseYamlDocument(source: string, options: YamlOptions): Document.Parsed | TooDeep {
  const lineCounter = options.lineCounter ?? new LineCounter();
  const parser = new Parser(lineCounter.addNewLine);
  let tooDeep = false;
  function* tokens() {
    lineCounter.addNewLine(0); // as Parser#parse does at the start
    for (const lexeme of new Lexer().lex(source)) {
      yield* parser.next(lexeme);
      if (parser.stack.length > MAX_YAML_NESTING) {
        tooDeep = true;
        return;
      }
    }
    yield* parser.end();
  }
  let doc: Document.Parsed | null = null;
  for (const next of new Composer(options).compose(tokens(), true, source.length)) {
    if (tooDeep) break;
    if (doc === null) {
      doc = next;
    } else if (doc.options.logLevel !== 'silent') {
      doc.errors.push(
        new YAMLParseError(
          [next.range[0], next.range[1]],
          'MULTIPLE_DOCS',
          'Source contains multiple documents; please use YAML.parseAllDocuments()',
        ),
      );
      break;
    }
  }
  if (tooDeep) return { tooDeep: true, line: lineCounter.linePos(parser.offset).line };
  if (doc === null) throw new Error('parseYamlDocument: the composer gave no document');
  for (const problem of [...doc.errors, ...doc.warnings]) {
    if (problem.pos[0] === -1) continue;
    problem.linePos = [lineCounter.linePos(problem.pos[0]), lineCounter.linePos(problem.pos[1])];
  }
  return doc;
}
