import { Parser } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import { readHtml } from '../../../src/format/html-read.js';
import { balanceHtml } from '../../../src/markdown/html/balance.js';
import { boundNesting, MAX_HTML_NESTING } from '../../../src/markdown/html/nesting.js';
import { sanitizeHtml } from '../../../src/markdown/html/render.js';
import { htmlToMarkdown } from '../../../src/markdown/html/to-markdown.js';

/** How deep htmlparser2 finds `html` nesting. */
function depthOf(html: string): number {
  let depth = 0;
  let deepest = 0;
  const parser = new Parser({
    onopentagname() {
      deepest = Math.max(deepest, ++depth);
    },
    onclosetag() {
      depth--;
    },
  });
  parser.write(html);
  parser.end();
  return deepest;
}

function newlines(text: string): number[] {
  return [...text.matchAll(/\n/g)].map((m) => m.index);
}

const PIECES = [
  '<div>',
  '</div>',
  '<p>',
  '</p>',
  '<ul>',
  '<li>',
  '</li>',
  '</ul>',
  '<b>',
  '</b>',
  '<br>',
  '<img src="a.png">',
  '<a href="x.html">',
  '</a>',
  'text ',
  '\n',
  '<!-- c -->',
  '<table><tr><td>',
  '</td></tr></table>',
  '<svg><path/></svg>',
  '<script>if (a < b) {}</script>',
  '<input type="checkbox" checked>',
  '<div class="a>b">',
];

describe('bounding how deeply HTML nests', () => {
  it('leaves a note within the bound exactly as it is', () => {
    let seed = 11;
    const rnd = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    let checked = 0;
    for (let k = 0; k < 3000; k++) {
      let html = '';
      for (let i = 0, n = 1 + rnd(300); i < n; i++) html += PIECES[rnd(PIECES.length)];
      if (depthOf(html) > MAX_HTML_NESTING) continue;
      expect(boundNesting(html)).toBe(html);
      checked++;
    }
    expect(checked).toBeGreaterThan(2000);
  });

  it('blanks the tags past the bound, keeping every offset, line and word', () => {
    const cases = [
      `${'<div>'.repeat(5000)}deep words${'</div>'.repeat(5000)}`,
      `${'<b>'.repeat(5000)}x`,
      `${'<ul><li>\n'.repeat(3000)}item${'</li></ul>'.repeat(3000)}`,
      `<section>${'<div class="a\nb">'.repeat(500)}inner${'</div>\n'.repeat(500)}</section>after`,
      `<div>${'<span><em>'.repeat(400)}x${'</em></span>'.repeat(400)}</div><p>tail</p>`,
    ];
    for (const html of cases) {
      const bounded = boundNesting(html);
      expect(bounded).not.toBe(html);
      expect(bounded.length).toBe(html.length);
      expect(newlines(bounded)).toEqual(newlines(html));
      expect(depthOf(bounded)).toBeLessThanOrEqual(MAX_HTML_NESTING + 1);
      // Every word of the text, in order: only markup was blanked.
      const words = readHtml(bounded)
        .plainText.split(/\s+/)
        .filter((w) => w !== '' && w !== '-');
      expect(words).toEqual(
        html
          .replace(/<[^>]*>/g, ' ')
          .split(/\s+/)
          .filter((w) => w !== ''),
      );
    }
  });

  it('reads a note htmlparser2 nests otherwise than the model as text, never deeper than twice the bound', () => {
    // Inside <svg>, htmlparser2 closes <a/> at once; a model that kept it open would pop the <g>
    // with </a> and count one level where htmlparser2 counts thousands.
    const html = `<svg>${'<a/><g></a>'.repeat(3000)}end</svg>`;
    expect(depthOf(html)).toBeGreaterThan(2000);
    const bounded = boundNesting(html);
    expect(bounded.length).toBe(html.length);
    expect(depthOf(bounded)).toBeLessThanOrEqual(2 * MAX_HTML_NESTING);
    expect(bounded).toBe(html.replace(/</g, ' '));
    expect(readHtml(html).plainText).toContain('end');
  });

  it('lets every reader of HTML take a deeply nested note without running out of stack', () => {
    const html = `${'<div><b>'.repeat(20000)}<a href="Plan.html">plan</a> [[Goals]] #tag${'</b></div>'.repeat(20000)}`;
    const read = readHtml(html);
    expect(read.plainText).toContain('plan');
    expect(read.tags).toEqual(['tag']);
    expect(htmlToMarkdown(html)).toContain('plan');
    expect(sanitizeHtml(html)).toContain('plan');
  });

  it('turndown takes misnested formatting elements, balanced first, as htmlparser2 reads them', () => {
    // domino's HTML5 tree builder nests these ever deeper (its "adoption agency"): 20,000 repeats
    // took seconds and overflowed the stack.
    for (const unit of ['<font><div></font>', '<i><b></i>']) {
      const markdown = htmlToMarkdown(`${unit.repeat(20000)}last words`);
      expect(markdown).toContain('last words');
    }
    expect(balanceHtml('<i><b>x</i>y &amp; <img src="a.png"><p title=\'say "hi"\'>z')).toBe(
      '<i><b>x</b></i>y &amp; <img src="a.png"><p title="say &quot;hi&quot;">z</p>',
    );
  });
});
