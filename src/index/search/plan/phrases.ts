/**
 * @module
 * The phrases of a ranked text, as FTS5's bm25() sees them. bm25() scores a note as the sum, over
 * every phrase of the MATCH expression, of that phrase's idf times its weighted frequency in the note
 * (shrunk by the note's length). A phrase counts in a note only where FTS5 found it as part of the
 * match: its iterator must stand on the note, so every group on its way up must match there too — in
 * `meeting OR (plan quarter)`, `plan` counts only in notes that also hold `quarter`, and a phrase
 * after NOT never counts. So the score of the text is the sum of what each phrase scores alone over
 * the notes where it counts, and Lucene's BM25 (SPEC 17.7) is that sum with each phrase's idf
 * exchanged for Lucene's (search/run/phrase-scores.ts).
 *
 * The expressions are the planner's own (plan-node.ts, fts.ts): quoted strings, some behind a
 * `body : ` column filter, joined by AND, OR and NOT (tightest first, as FTS5 binds them) and
 * parentheses. Nothing else reaches FTS5.
 */

export interface RankPhrase {
  /** The phrase as an FTS5 expression of its own, with its column filter. */
  readonly expr: string;
  /**
   * Where it counts: the notes matching this expression (the whole text, narrowed where it must be);
   * null wherever the phrase is, when every note holding it matches the text (it is one of the ORs
   * the text is made of).
   */
  readonly within: string | null;
  /** How often the text names it there: bm25() counts each time. */
  readonly times: number;
}

type Node =
  | { readonly kind: 'phrase'; readonly expr: string }
  | { readonly kind: 'and' | 'or' | 'not'; readonly operands: readonly Node[]; readonly text: string };

const COLUMN_FILTER = 'body : ';

/**
 * Every phrase of `rankMatch` that can count, once for each place it counts in, in the order they
 * first appear; and whether the text is flat: phrases joined by AND alone or by OR alone, maybe
 * followed by NOT. Where groups nest (an OR inside an AND inside an OR…), or ORs meet a NOT, FTS5's
 * bm25() does not always count a phrase where its group matched (it leaves one of two ORed phrases
 * out when a NOT follows), so its score of the whole text is the sum of the phrases' only for a flat text.
 */
export function phrasesOf(rankMatch: string): { phrases: RankPhrase[]; flat: boolean } {
  const root = new Parser(rankMatch).parse();
  const left = root.kind === 'not' ? (root.operands[0] as Node) : root;
  const flat = left.kind === 'phrase' || left.operands.every((o) => o.kind === 'phrase');
  return { phrases: phrasesIn(rankMatch, root), flat: flat && (left === root || left.kind !== 'or') };
}

function phrasesIn(rankMatch: string, root: Node): RankPhrase[] {
  const found = new Map<string, { expr: string; within: string | null; times: number }>();
  const visit = (node: Node, narrowing: readonly string[], topOr: boolean) => {
    if (node.kind === 'phrase') {
      const within = topOr
        ? null
        : narrowing.length === 0
          ? rankMatch
          : [rankMatch, ...narrowing].map((e) => `(${e})`).join(' AND ');
      const key = `${node.expr}\u0000${within ?? ''}`;
      const seen = found.get(key);
      if (seen) seen.times++;
      else found.set(key, { expr: node.expr, within, times: 1 });
      return;
    }
    if (node.kind === 'not') {
      // What follows NOT is absent from every note that matches.
      visit(node.operands[0] as Node, narrowing, false);
      return;
    }
    for (const operand of node.operands) {
      // Under an OR, a phrase counts only where its own branch matches.
      if (node.kind === 'or') visit(operand, [...narrowing, textOf(operand)], topOr);
      else visit(operand, narrowing, false);
    }
  };
  visit(root, [], true);
  return [...found.values()];
}

/** True when the text is one phrase and nothing else: it then ranks as that phrase alone. */
export function singlePhrase(rankMatch: string): boolean {
  return new Parser(rankMatch).parse().kind === 'phrase';
}

function textOf(node: Node): string {
  return node.kind === 'phrase' ? node.expr : node.text;
}

/** A recursive descent over the planner's expressions: OR of ANDs of NOTs of phrases and groups. */
class Parser {
  private at = 0;

  constructor(private readonly src: string) {}

  parse(): Node {
    const node = this.binary('or');
    this.space();
    if (this.at !== this.src.length) this.fail('an operator or the end');
    return node;
  }

  private binary(kind: 'or' | 'and' | 'not'): Node {
    const start = this.at;
    const next = kind === 'or' ? 'and' : kind === 'and' ? 'not' : null;
    const operand = () => (next === null ? this.primary() : this.binary(next));
    const operands = [operand()];
    const word = kind.toUpperCase();
    for (;;) {
      this.space();
      if (!this.src.startsWith(`${word} `, this.at) && !this.src.startsWith(`${word}(`, this.at)) break;
      this.at += word.length;
      operands.push(operand());
      // FTS5's NOT is binary and binds left to right: `a NOT b NOT c` is `(a NOT b) NOT c`.
      if (kind === 'not' && operands.length === 2) {
        const text = this.src.slice(start, this.at).trim();
        operands.splice(0, 2, { kind, operands: [operands[0] as Node, operands[1] as Node], text });
      }
    }
    if (operands.length === 1) return operands[0] as Node;
    return { kind, operands, text: this.src.slice(start, this.at).trim() };
  }

  private primary(): Node {
    this.space();
    if (this.src[this.at] === '(') {
      this.at++;
      const inner = this.binary('or');
      this.space();
      if (this.src[this.at] !== ')') this.fail('a closing parenthesis');
      this.at++;
      return inner;
    }
    const filtered = this.src.startsWith(COLUMN_FILTER, this.at);
    if (filtered) this.at += COLUMN_FILTER.length;
    if (this.src[this.at] !== '"') this.fail('a quoted phrase');
    let end = this.at + 1;
    for (;;) {
      end = this.src.indexOf('"', end);
      if (end === -1) this.fail('the end of a quoted phrase');
      if (this.src[end + 1] !== '"') break;
      end += 2;
    }
    const expr = (filtered ? COLUMN_FILTER : '') + this.src.slice(this.at, end + 1);
    this.at = end + 1;
    return { kind: 'phrase', expr };
  }

  private space(): void {
    while (this.src[this.at] === ' ') this.at++;
  }

  private fail(wanted: string): never {
    throw new Error(`phrasesOf: expected ${wanted} at ${this.at} in ${this.src}`);
  }
}
