/**
 * @module
 * HTML written again with every element closed where htmlparser2 closes it, for turndown. Turndown
 * parses with domino, whose HTML5 tree builder restructures misnested formatting elements (the
 * "adoption agency"): 20,000 repeats of `<font><div></font>` (120 KB) took 6 s and built a tree deep
 * enough to overflow the stack. Balanced, the same markup is a flat run of `<font><div></div></font>`
 * that domino takes as it is, in linear time. Nesting is bounded first (html/nesting.ts), so the
 * balanced tree is as shallow.
 */

import { Parser } from 'htmlparser2';
import { VOID_ELEMENTS } from './nesting.js';

/**
 * `html` with its elements explicitly closed in order: text, entities, comments and attribute values
 * as written (values re-quoted with `"`).
 *
 * @example
 * balanceHtml('<i><b>x</i>y') // '<i><b>x</b></i>y'
 */
export function balanceHtml(html: string): string {
  const out: string[] = [];
  const parser = new Parser(
    {
      onopentag(name, attribs) {
        let attributes = '';
        for (const [key, value] of Object.entries(attribs)) {
          attributes += ` ${key}="${value.replace(/"/g, '&quot;')}"`;
        }
        out.push(`<${name}${attributes}>`);
      },
      ontext(text) {
        out.push(text);
      },
      onclosetag(name) {
        if (!VOID_ELEMENTS.has(name)) out.push(`</${name}>`);
      },
      oncomment(data) {
        out.push(`<!--${data}-->`);
      },
      onprocessinginstruction(_name, data) {
        out.push(`<${data}>`);
      },
    },
    { decodeEntities: false },
  );
  parser.write(html);
  parser.end();
  return out.join('');
}
