/**
 * @module
 * Reads an HTML note in one pass of htmlparser2 (the parser sanitize-html uses) for what the index and
 * read_note need (SPEC 11.2, 11.4): its plain text (block elements on their own lines, list items with
 * `- `, tags stripped, entities decoded), its title (`<title>`, else the first `<h1>`), its links
 * (`<a href>` and `<img src>` into the vault, `[[wikilinks]]` in the text), its `#tags` and its tasks
 * (list items with a checkbox, or `data-checked`). Pure; runs on parser threads.
 *
 * Wikilinks and tags in the text are found by the Markdown scanner over a "shadow" of the note: the
 * text with every tag blanked and every line kept where it was, so the scanner's rules (what a tag
 * is, what a wikilink is) are the same in both formats and its line numbers are the note's.
 */
import { Parser } from 'htmlparser2';
import { lastAtOrBefore } from '../common/sorted.js';
import { boundNesting } from '../markdown/html/nesting.js';
import { decodeMarkdownDestination, isExternalDestination, splitSubpath } from '../markdown/link-syntax.js';
import { scanBody } from '../markdown/scan.js';
import { parseDueDate } from '../markdown/task-syntax.js';
import { BLOCK, NOT_TEXT, PlainText } from './html-plain-text.js';
import { readLinkOf } from './markdown-read.js';
import type { ReadLink, ReadTask } from './note-format.js';

export interface HtmlReading {
  /** The note as plain text, block by block; what search reads and read_note shows first. */
  readonly plainText: string;
  /** `<title>`, else the first non-empty `<h1>`; null when there is neither. */
  readonly title: string | null;
  readonly links: ReadLink[];
  readonly tags: string[];
  readonly tasks: ReadTask[];
}

/** Elements whose text is code: shown, searched, but holding no links or tags (as in Markdown). */
const CODE = new Set(['code', 'pre', 'kbd', 'samp']);
interface ItemFrame {
  readonly line: number;
  checkbox: boolean;
  checked: boolean;
  text: string;
}

interface AnchorFrame {
  readonly link: Omit<ReadLink, 'alias'>;
  text: string;
  /** Offset in the shadow text. */
  readonly at: number;
}

/**
 * Reads an HTML note.
 *
 * @example
 * readHtml('<h1>Plan</h1>\n<ul><li><input type="checkbox" checked> ship #work</li></ul>')
 * // plainText 'Plan\n- [x] ship #work', title 'Plan', tags ['work'], tasks [{line: 2, status: 'x', …}]
 */
export function readHtml(note: string): HtmlReading {
  // Deep nesting blanked, offsets and lines kept (html/nesting.ts).
  const source = boundNesting(note);
  const lineStarts = [0];
  for (let i = source.indexOf('\n'); i !== -1; i = source.indexOf('\n', i + 1)) lineStarts.push(i + 1);
  let lineCursor = 0;
  // Events come in source order, so the line of an offset is found by moving forward.
  const lineOf = (offset: number): number => {
    if (offset < (lineStarts[lineCursor] ?? 0)) lineCursor = 0;
    while (lineCursor + 1 < lineStarts.length && (lineStarts[lineCursor + 1] as number) <= offset)
      lineCursor++;
    return lineCursor + 1;
  };

  const plain = new PlainText();
  const shadow: string[] = [];
  let shadowLength = 0;
  const pushShadow = (text: string) => {
    shadow.push(text);
    shadowLength += text.length;
  };
  let covered = 0;
  // The line breaks in [from, to), counted on lineStarts: searching the source for the next one from
  // each tag took quadratic time in a long line of many tags.
  const lastStartAtOrBefore = (offset: number) =>
    lastAtOrBefore(lineStarts.length, (i) => lineStarts[i] as number, offset);
  const newlinesOf = (from: number, to: number): string =>
    to <= from ? '' : '\n'.repeat(lastStartAtOrBefore(to) - lastStartAtOrBefore(from));
  // Markup between `covered` and `to` (tags, comments, a doctype) keeps only its line breaks.
  const blankUpTo = (to: number) => {
    if (to <= covered) return;
    pushShadow(` ${newlinesOf(covered, to)}`);
    covered = to;
  };

  let hidden = 0;
  let code = 0;
  let preDepth = 0;
  let listDepth = 0;
  let title: string | null = null;
  let titleText: string | null = null;
  let h1: string | null = null;
  let h1Text: string | null = null;
  const items: ItemFrame[] = [];
  const tasks: ReadTask[] = [];
  const anchors: AnchorFrame[] = [];
  /** Links with their offset in the shadow text, to be put in document order. */
  const placed: { at: number; link: ReadLink }[] = [];

  const parser = new Parser(
    {
      onopentag(name, attribs) {
        blankUpTo(parser.startIndex);
        // Where the tag sits in the shadow: links are put in the order they are written.
        const at = shadowLength;
        blankUpTo(parser.endIndex + 1);
        if (name === 'title' && title === null) titleText = '';
        if (name === 'h1' && h1 === null) h1Text = '';
        if (NOT_TEXT.has(name)) hidden++;
        if (CODE.has(name)) code++;
        if (name === 'pre') preDepth++;
        if (hidden > 0) return;
        if (name === 'ul' || name === 'ol') listDepth++;
        if (name === 'li') {
          const state = attribs['data-checked'];
          const frame: ItemFrame = {
            line: lineOf(parser.startIndex),
            checkbox: state === 'true' || state === 'false',
            checked: state === 'true',
            text: '',
          };
          items.push(frame);
          plain.breakLine(`${'  '.repeat(Math.max(0, listDepth - 1))}- `);
          if (frame.checkbox) plain.mark(frame.checked ? '[x] ' : '[ ] ');
          return;
        }
        if (BLOCK.has(name)) plain.breakLine();
        if (name === 'br') plain.breakLine();
        if (name === 'input' && (attribs.type ?? '').toLowerCase() === 'checkbox') {
          const item = items[items.length - 1];
          if (item !== undefined && !item.checkbox) {
            item.checkbox = true;
            item.checked = attribs.checked !== undefined;
            plain.mark(item.checked ? '[x] ' : '[ ] ');
          }
          return;
        }
        const raw = source.slice(parser.startIndex, parser.endIndex + 1);
        if (name === 'a' && attribs.href !== undefined) {
          const link = vaultLink('html', attribs.href, raw, lineOf(parser.startIndex), false);
          if (link !== null) anchors.push({ link, text: '', at });
        } else if (name === 'img' && attribs.src !== undefined) {
          const link = vaultLink('html', attribs.src, raw, lineOf(parser.startIndex), true);
          if (link !== null) placed.push({ at, link: { ...link, alias: attribs.alt?.trim() || null } });
        }
      },
      ontext(text) {
        const start = parser.startIndex;
        const end = parser.endIndex + 1;
        blankUpTo(start);
        const raw = source.slice(start, end);
        if (titleText !== null) titleText += text;
        if (h1Text !== null) h1Text += text;
        if (hidden > 0 || code > 0) {
          pushShadow(` ${newlinesOf(start, end)}`);
        } else if (raw === text) {
          pushShadow(shadowText(text));
        } else {
          // An entity was decoded: the text may be shorter or longer, but its line breaks stay.
          pushShadow(`${shadowText(text.replace(/\n/g, ' '))}${newlinesOf(start, end)}`);
        }
        covered = end;
        if (hidden > 0) return;
        plain.add(text, preDepth > 0);
        const item = items[items.length - 1];
        if (item !== undefined) item.text += text;
        const anchor = anchors[anchors.length - 1];
        if (anchor !== undefined) anchor.text += text;
      },
      onclosetag(name) {
        if (parser.startIndex >= covered) blankUpTo(parser.endIndex + 1);
        if (name === 'title' && titleText !== null) {
          title = collapse(titleText) || null;
          titleText = null;
        }
        if (name === 'h1' && h1Text !== null) {
          const text = collapse(h1Text);
          h1Text = null;
          if (text !== '' && h1 === null) h1 = text;
        }
        if (NOT_TEXT.has(name)) hidden = Math.max(0, hidden - 1);
        if (CODE.has(name)) code = Math.max(0, code - 1);
        if (name === 'pre') preDepth = Math.max(0, preDepth - 1);
        if (hidden > 0) return;
        if (name === 'ul' || name === 'ol') listDepth = Math.max(0, listDepth - 1);
        if (name === 'a') {
          const anchor = anchors.pop();
          if (anchor !== undefined)
            placed.push({ at: anchor.at, link: { ...anchor.link, alias: collapse(anchor.text) || null } });
        }
        if (name === 'li') {
          const item = items.pop();
          if (item?.checkbox) {
            const text = collapse(item.text);
            tasks.push({ line: item.line, status: item.checked ? 'x' : ' ', text, due: parseDueDate(text) });
          }
          plain.breakLine();
          return;
        }
        if (BLOCK.has(name)) plain.breakLine();
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.write(source);
  parser.end();
  blankUpTo(source.length);
  for (const anchor of anchors) {
    placed.push({ at: anchor.at, link: { ...anchor.link, alias: collapse(anchor.text) || null } });
  }

  // Indented HTML must not read as an indented Markdown code block: each line is scanned without its
  // leading whitespace, and offsets are mapped back to the untrimmed shadow.
  const lines = shadow.join('').split('\n');
  const trimmedLines = lines.map((line) => line.trimStart());
  const untrimmedStart: number[] = [];
  const trimmedStart: number[] = [];
  for (let i = 0, u = 0, t = 0; i < lines.length; i++) {
    untrimmedStart.push(u);
    trimmedStart.push(t);
    u += (lines[i] as string).length + 1;
    t += (trimmedLines[i] as string).length + 1;
  }
  const scan = scanBody(trimmedLines.join('\n'));
  for (const link of scan.links) {
    if (link.kind !== 'wikilink') continue;
    const i = link.line - 1;
    const removed = (lines[i] as string).length - (trimmedLines[i] as string).length;
    const at = (untrimmedStart[i] as number) + removed + link.start - (trimmedStart[i] as number);
    placed.push({ at, link: readLinkOf(link) });
  }
  placed.sort((a, b) => a.at - b.at);
  const links = placed.map((p) => p.link);
  tasks.sort((a, b) => a.line - b.line);
  return {
    plainText: plain.done(),
    title: title ?? h1,
    links,
    tags: scan.tags.map((t) => t.tag),
    tasks,
  };
}

/**
 * A link of an `href` or `src` into the vault (SPEC 11.4: relative or vault paths, percent-decoded);
 * null for an external address. `#Heading` alone links into the note itself.
 */
function vaultLink(
  kind: 'html',
  address: string,
  raw: string,
  line: number,
  embed: boolean,
): Omit<ReadLink, 'alias'> | null {
  const dest = address.trim();
  if (dest === '' || isExternalDestination(dest)) return null;
  const query = dest.search(/[?]/);
  const target = splitSubpath(decodeMarkdownDestination(query === -1 ? dest : dest.slice(0, query)));
  return {
    kind,
    raw,
    linkpath: target.linkpath,
    heading: target.heading,
    block: target.block,
    embed,
    line,
    property: null,
  };
}

/** Text as the Markdown scanner should see it: backticks and `<` mean nothing in HTML text. */
function shadowText(text: string): string {
  return text.replace(/[`<]/g, ' ');
}

function collapse(text: string): string {
  return text.replace(/[\t\n\f\r ]+/g, ' ').trim();
}
