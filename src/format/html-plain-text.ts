/**
 * @module
 * An HTML note's plain text, as search and read_note show it: block elements on their own lines,
 * list items with `- `, tags stripped, entities decoded, whitespace collapsed as a browser would.
 * `PlainText` builds it for readHtml (html-read.ts) too; `htmlPlainText` is the lighter pass that
 * reads nothing else. Pure.
 */
import { Parser } from 'htmlparser2';
import { boundNesting } from '../markdown/html/nesting.js';

/** Elements whose text is not the note's text. */
export const NOT_TEXT = new Set([
  'script',
  'style',
  'template',
  'noscript',
  'head',
  'title',
  'textarea',
  'select',
]);
/** Elements that start and end a line of plain text. */
// biome-ignore format: a word list reads best packed
export const BLOCK = new Set([
  'address', 'article', 'aside', 'blockquote', 'body', 'dd', 'details', 'dialog', 'div', 'dl', 'dt', 'fieldset',
  'figcaption', 'figure', 'footer', 'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hr', 'html', 'li', 'main',
  'nav', 'ol', 'p', 'pre', 'section', 'summary', 'table', 'tbody', 'td', 'tfoot', 'th', 'thead', 'tr', 'ul', 'caption',
]);

/**
 * Plain text built line by line: whitespace collapsed as a browser would, `<pre>` kept as written.
 * A line is kept as its pieces, joined when it ends: asking a string built by `+=` whether it ends
 * with a space flattens it, so a long paragraph of many elements took quadratic time (a 1.2 MB note
 * of 40,000 links took 6 s to read).
 */
export class PlainText {
  private readonly lines: string[] = [];
  private pieces: string[] = [];
  /** Whether the line is empty or ends with a space, so that a space collapses into it. */
  private atSpace = true;
  /** Whether the line holds only whitespace. */
  private blank = true;
  private prefix = '';

  /**
   * Ends the current line (if it holds anything) and starts the next one with `prefix`. A block that
   * opens before any text (`<li><p>…`) keeps the list item's `- `.
   */
  breakLine(prefix = ''): void {
    if (this.blank) {
      this.startLine('');
      if (prefix !== '') this.prefix = prefix;
      return;
    }
    this.endLine();
    this.startLine('');
    this.prefix = prefix;
  }

  add(text: string, pre: boolean): void {
    if (pre) {
      const parts = text.split('\n');
      this.append(parts[0] ?? '');
      for (const part of parts.slice(1)) {
        this.endLine();
        this.prefix = '';
        this.startLine(part);
      }
      return;
    }
    const collapsed = text.replace(/[\t\n\f\r ]+/g, ' ');
    if (collapsed === ' ' && this.atSpace) return;
    this.append(this.atSpace ? collapsed.trimStart() : collapsed);
  }

  /** Text that belongs right after the line's prefix (a task's `[x] `). */
  mark(text: string): void {
    this.prefix += text;
  }

  done(): string {
    this.breakLine();
    return this.lines.join('\n');
  }

  private append(text: string): void {
    if (text === '') return;
    this.pieces.push(text);
    this.atSpace = text.endsWith(' ');
    if (this.blank && text.trim() !== '') this.blank = false;
  }

  private endLine(): void {
    this.lines.push((this.prefix + this.pieces.join('')).trimEnd());
  }

  private startLine(text: string): void {
    this.pieces = [];
    this.atSpace = true;
    this.blank = true;
    this.append(text);
  }
}

/**
 * Only the note's plain text (what `readHtml` gives as `plainText`), in a lighter pass: no links,
 * tags, tasks or title. What read_note and search excerpts need, several times faster on a large note.
 */
export function htmlPlainText(note: string): string {
  const source = boundNesting(note);
  const plain = new PlainText();
  let hidden = 0;
  let preDepth = 0;
  let listDepth = 0;
  const parser = new Parser(
    {
      onopentag(name, attribs) {
        if (NOT_TEXT.has(name)) hidden++;
        if (name === 'pre') preDepth++;
        if (hidden > 0) return;
        if (name === 'ul' || name === 'ol') listDepth++;
        if (name === 'li') {
          plain.breakLine(`${'  '.repeat(Math.max(0, listDepth - 1))}- `);
          const state = attribs['data-checked'];
          if (state === 'true' || state === 'false') plain.mark(state === 'true' ? '[x] ' : '[ ] ');
          return;
        }
        if (BLOCK.has(name) || name === 'br') plain.breakLine();
        if (name === 'input' && (attribs.type ?? '').toLowerCase() === 'checkbox') {
          plain.mark(attribs.checked !== undefined ? '[x] ' : '[ ] ');
        }
      },
      ontext(text) {
        if (hidden === 0) plain.add(text, preDepth > 0);
      },
      onclosetag(name) {
        if (NOT_TEXT.has(name)) hidden = Math.max(0, hidden - 1);
        if (name === 'pre') preDepth = Math.max(0, preDepth - 1);
        if (hidden > 0) return;
        if (name === 'ul' || name === 'ol') listDepth = Math.max(0, listDepth - 1);
        if (BLOCK.has(name)) plain.breakLine();
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.write(source);
  parser.end();
  return plain.done();
}
