/**
 * @module
 * How deeply an HTML note's elements nest, bounded before any HTML library reads it. htmlparser2 keeps
 * its open elements in an array it unshifts, and sanitize-html and turndown's DOM recurse per level: a
 * search over 100,000 nested `<div>`s (1.1 MB) held the server for 114 s, then failed with "Maximum
 * call stack size exceeded" (25,000 levels already failed so). Real notes nest a few dozen levels.
 *
 * The bound blanks the tags that would open an element past {@link MAX_HTML_NESTING} levels, and
 * their closing tags: each character becomes a space, a line break stays, so every offset and line
 * number of the rest is unchanged and their text is kept. A note within the bound is returned as it is.
 */

import { Parser } from 'htmlparser2';

export const MAX_HTML_NESTING = 100;

const P = new Set(['p']);
const FORM = new Set(['input', 'option', 'optgroup', 'select', 'button', 'datalist', 'textarea']);
const DDT = new Set(['dd', 'dt']);
const RTP = new Set(['rt', 'rp']);
const TABLE_SECTIONS = new Set(['thead', 'tbody']);
/** htmlparser2's openImpliesClose (v10): an opening tag closes these open elements first. */
const IMPLIES_CLOSE = new Map<string, ReadonlySet<string>>([
  ['tr', new Set(['tr', 'th', 'td'])],
  ['th', new Set(['th'])],
  ['td', new Set(['thead', 'th', 'td'])],
  ['body', new Set(['head', 'link', 'script'])],
  ['li', new Set(['li'])],
  ['option', new Set(['option'])],
  ['optgroup', new Set(['optgroup', 'option'])],
  ['dd', DDT],
  ['dt', DDT],
  ['rt', RTP],
  ['rp', RTP],
  ['tbody', TABLE_SECTIONS],
  ['tfoot', TABLE_SECTIONS],
  ...['select', 'input', 'output', 'button', 'datalist', 'textarea'].map((t) => [t, FORM] as const),
  // biome-ignore format: a word list reads best packed
  ...[
    'p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'address', 'article', 'aside', 'blockquote', 'details', 'div',
    'dl', 'fieldset', 'figcaption', 'figure', 'footer', 'form', 'header', 'hr', 'main', 'nav', 'ol', 'pre',
    'section', 'table', 'ul',
  ].map((t) => [t, P] as const),
]);
/** Elements that hold nothing and take no closing tag (htmlparser2's list). */
// biome-ignore format: a word list reads best packed
export const VOID_ELEMENTS: ReadonlySet<string> = new Set([
  'area', 'base', 'basefont', 'br', 'col', 'command', 'embed', 'frame', 'hr', 'img', 'input', 'isindex',
  'keygen', 'link', 'meta', 'param', 'source', 'track', 'wbr',
]);
/** Elements whose content is text up to their closing tag; they cannot nest, so they are kept. */
const RAW_TEXT = new Set(['script', 'style', 'title', 'textarea', 'xmp']);

/**
 * `html` with the tags nesting past `max` levels blanked (same length, same lines), or `html` itself
 * when it nests no deeper. Linear in the text.
 *
 * The levels are those htmlparser2 sees (its implied closes, void, raw-text and foreign elements),
 * measured by htmlparser2 itself and given up on past the bound, so measuring stays linear. Tags are
 * blanked by a model of its rules; should the blanked text still nest deeper than twice the bound (a
 * case the model reads otherwise), every `<` is blanked instead and the note is read as text.
 *
 * @example
 * boundNesting('<b><i>x</i></b>', 1) // '<b>   x    </b>'
 */
export function boundNesting(html: string, max = MAX_HTML_NESTING): string {
  if (!mayNestPast(html, max) || nestsWithin(html, max)) return html;
  const blanked = blankDeepTags(html, max);
  return nestsWithin(blanked, 2 * max) ? blanked : html.replace(/</g, ' ');
}

/** Whether htmlparser2 finds `html` nesting at most `max` elements deep; stops as soon as it does not. */
function nestsWithin(html: string, max: number): boolean {
  let depth = 0;
  const deeper = new Error('deeper');
  const parser = new Parser({
    onopentagname() {
      if (++depth > max) throw deeper;
    },
    onclosetag() {
      depth--;
    },
  });
  try {
    parser.write(html);
    parser.end();
    return true;
  } catch (err) {
    if (err === deeper) return false;
    throw err;
  }
}

/** The tags `html` opens past `max` levels by htmlparser2's rules, and their closing tags, blanked. */
function blankDeepTags(html: string, max: number): string {
  const stack: string[] = [];
  const inStack = new Map<string, number>();
  const blanked = new Map<string, number>();
  const blanks: [number, number][] = [];
  const pop = () => {
    const name = stack.pop() as string;
    inStack.set(name, (inStack.get(name) ?? 1) - 1);
  };
  let i = 0;
  for (;;) {
    const lt = html.indexOf('<', i);
    if (lt === -1) break;
    const tag = readTag(html, lt);
    if (tag === null) {
      i = lt + 1;
      continue;
    }
    if (tag.kind === 'unclosed') break;
    i = tag.end;
    if (tag.kind === 'other') continue;
    const { name } = tag;
    if (tag.kind === 'close') {
      const hidden = blanked.get(name) ?? 0;
      if (hidden > 0) {
        // The innermost element of that name is a blanked one: it is deeper than any kept.
        blanked.set(name, hidden - 1);
        blanks.push([lt, tag.end]);
      } else if ((inStack.get(name) ?? 0) > 0) {
        while (stack.length > 0 && stack[stack.length - 1] !== name) pop();
        pop();
        // Closing a kept element closes the blanked ones inside it too.
        blanked.clear();
      }
      continue;
    }
    const implied = IMPLIES_CLOSE.get(name);
    if (implied) while (stack.length > 0 && implied.has(stack[stack.length - 1] as string)) pop();
    if (VOID_ELEMENTS.has(name)) continue;
    if (stack.length >= max && !RAW_TEXT.has(name)) {
      blanked.set(name, (blanked.get(name) ?? 0) + 1);
      blanks.push([lt, tag.end]);
    } else {
      stack.push(name);
      inStack.set(name, (inStack.get(name) ?? 0) + 1);
    }
    if (RAW_TEXT.has(name)) i = rawTextEnd(html, name, i);
  }
  if (blanks.length === 0) return html;
  const parts: string[] = [];
  let at = 0;
  for (const [from, to] of blanks) {
    parts.push(html.slice(at, from), html.slice(from, to).replace(/[^\n]/g, ' '));
    at = to;
  }
  parts.push(html.slice(at));
  return parts.join('');
}

/** Whether `html` has more than `max` tags at all: fewer cannot nest past it. */
function mayNestPast(html: string, max: number): boolean {
  let count = 0;
  for (let i = html.indexOf('<'); i !== -1; i = html.indexOf('<', i + 1)) if (++count > max) return true;
  return false;
}

type Tag =
  | { kind: 'open' | 'close'; name: string; end: number }
  | { kind: 'other'; end: number }
  | { kind: 'unclosed' };

/**
 * The markup starting at `lt` (a `<`): a tag with its lower-cased name, a comment or declaration
 * (`other`), markup running to the end of the text (`unclosed`), or null when the `<` is text.
 */
function readTag(html: string, lt: number): Tag | null {
  if (html.startsWith('<!--', lt)) {
    const close = html.indexOf('-->', lt + 4);
    return close === -1 ? { kind: 'unclosed' } : { kind: 'other', end: close + 3 };
  }
  const next = html.charCodeAt(lt + 1);
  if (next === 0x21 || next === 0x3f) {
    const close = html.indexOf('>', lt + 2);
    return close === -1 ? { kind: 'unclosed' } : { kind: 'other', end: close + 1 };
  }
  const closing = next === 0x2f;
  const start = closing ? lt + 2 : lt + 1;
  if (!isLetter(html.charCodeAt(start))) return null;
  let j = start;
  while (j < html.length && !endsName(html.charCodeAt(j))) j++;
  const name = html.slice(start, j).toLowerCase();
  const end = closing ? html.indexOf('>', j) : openTagEnd(html, j);
  if (end === -1) return { kind: 'unclosed' };
  return { kind: closing ? 'close' : 'open', name, end: end + 1 };
}

/** The `>` ending an opening tag whose attributes start at `from`: one inside a quoted value does not. */
function openTagEnd(html: string, from: number): number {
  let quote = 0;
  let afterEquals = false;
  for (let k = from; k < html.length; k++) {
    const c = html.charCodeAt(k);
    if (quote !== 0) {
      if (c === quote) quote = 0;
      continue;
    }
    if (c === 0x3e) return k;
    if (c === 0x3d) {
      afterEquals = true;
      continue;
    }
    if (afterEquals && (c === 0x22 || c === 0x27)) quote = c;
    else if (!isSpace(c)) afterEquals = false;
  }
  return -1;
}

/** Where the closing tag of a raw-text element opened before `from` starts (or the text's end). */
function rawTextEnd(html: string, name: string, from: number): number {
  const close = new RegExp(`</${name}`, 'gi');
  close.lastIndex = from;
  return close.exec(html)?.index ?? html.length;
}

function isLetter(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a);
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d;
}

function endsName(c: number): boolean {
  return isSpace(c) || c === 0x2f || c === 0x3e;
}
