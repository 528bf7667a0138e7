import { describe, expect, it } from 'vitest';
import { htmlToMarkdown, looksLikeHtml } from '../../../src/markdown/html/to-markdown.js';

describe('looksLikeHtml', () => {
  it.each([
    ['a full document', '<!DOCTYPE html>\n<html><body><p>x</p></body></html>'],
    ['a lower-case doctype after whitespace', '\n  <!doctype html><title>x</title><p>y</p>'],
    ['an <html> root', '<html lang="en"><body>Hi</body></html>'],
    ['a paragraph fragment', '<p>Hello <b>you</b></p>'],
    [
      'a div with attributes over several lines',
      '<div class="note">\n  <h1>Title</h1>\n  <p>Text</p>\n</div>\n',
    ],
    ['a leading HTML comment', '<!-- copied --><ul><li>a</li></ul>'],
    ['a heading fragment', '<h2>Risks</h2><p>none</p>'],
    ['a <pre> whose text looks like Markdown', '<pre>\n# not a heading\n- not a list\n</pre>'],
  ])('true for %s', (_label, content) => {
    expect(looksLikeHtml(content)).toBe(true);
  });

  it.each([
    ['plain Markdown', '# Title\n\nSome *text*.\n'],
    ['Markdown with inline HTML later on', 'Some text with <b>bold</b> and <br> breaks.\n'],
    ['a note that starts with frontmatter', '---\ntitle: x\n---\n<p>html body</p>'],
    [
      'HTML followed by Markdown blocks',
      '<div align="center"><img src="logo.png"></div>\n\n# Project\n\n- item\n',
    ],
    ['an inline tag followed by text', '<b>Note</b>: remember this'],
    ['an unknown or custom tag', '<thing>x</thing>'],
    ['a Markdown autolink', '<https://example.com>'],
    ['a comparison', '<5 minutes left'],
    ['an unclosed comment', '<!-- never closed <p>x</p>'],
    ['empty content', ''],
    ['a lone <', '<'],
  ])('false for %s', (_label, content) => {
    expect(looksLikeHtml(content)).toBe(false);
  });

  it('stays linear on many unclosed <pre> tags', () => {
    const content = `<div>${'<pre>'.repeat(50_000)}</div>`;
    const started = Date.now();
    looksLikeHtml(content);
    expect(Date.now() - started).toBeLessThan(1000);
  });
});

describe('htmlToMarkdown: conversion', () => {
  it('ATX headings, paragraphs, emphasis and a single final line break', () => {
    expect(
      htmlToMarkdown('<h1>Title</h1><h3>Sub</h3><p>Some <em>em</em> and <strong>strong</strong>.</p>\n\n'),
    ).toBe('# Title\n\n### Sub\n\nSome *em* and **strong**.\n');
  });

  it('- bullets with nested lists, numbered lists from their start', () => {
    expect(
      htmlToMarkdown(
        '<ul><li>one<ul><li>two</li></ul></li><li>three</li></ul><ol start="3"><li>c</li><li>d</li></ol>',
      ),
    ).toBe('- one\n  - two\n- three\n\n3. c\n4. d\n');
  });

  it('fenced code blocks keep the language and the code as is', () => {
    expect(htmlToMarkdown('<pre><code class="language-js">if (a < b) {\n  x();\n}\n</code></pre>')).toBe(
      '```js\nif (a < b) {\n  x();\n}\n```\n',
    );
  });

  it('links, with parentheses and spaces in the URL kept readable by Markdown', () => {
    expect(htmlToMarkdown('<a href="https://x.com/a_(b)" title="T">ok</a> <a href="my note.md">n</a>')).toBe(
      '[ok](https://x.com/a_\\(b\\) "T") [n](my%20note.md)\n',
    );
  });

  it('images keep alt text and a safe src', () => {
    expect(htmlToMarkdown('<p><img src="pics/a.png" alt="A pic"></p>')).toBe('![A pic](pics/a.png)\n');
  });

  it('a horizontal rule is *** so that it cannot read back as frontmatter', () => {
    const md = htmlToMarkdown('<hr><p>a</p><hr>');
    expect(md).toBe('***\n\na\n\n***\n');
  });

  it('Markdown characters in text are escaped', () => {
    expect(htmlToMarkdown('<p># not heading</p><p>[[wiki]] *x*</p>')).toBe(
      '\\# not heading\n\n\\[\\[wiki\\]\\] \\*x\\*\n',
    );
  });

  it('empty or blank HTML gives an empty string', () => {
    expect(htmlToMarkdown('')).toBe('');
    expect(htmlToMarkdown('<p>  </p><script>x</script>')).toBe('');
  });
});

describe('htmlToMarkdown: sanitizing (SPEC 2.7)', () => {
  it('drops script, style and similar elements with their content', () => {
    const html = [
      '<p>keep</p>',
      '<script>alert("s")</script>',
      '<style>p { color: red }</style>',
      '<iframe src="https://evil">frame text</iframe>',
      '<object data="x">object text</object>',
      '<embed src="x">',
      '<noscript>noscript text</noscript>',
      '<template><p>template text</p></template>',
      '<form action="/steal"><input value="v"><button>Send</button>form text</form>',
      '<svg><a href="javascript:alert(1)">svg text</a></svg>',
      '<textarea>area text</textarea>',
    ].join('');
    expect(htmlToMarkdown(html)).toBe('keep\n');
  });

  it('event-handler attributes never survive', () => {
    const md = htmlToMarkdown(
      '<p onclick="alert(1)">click</p><img src="a.png" alt="x" onerror="alert(2)"><div onmouseover="alert(3)">hover</div>',
    );
    expect(md).not.toMatch(/on(click|error|mouseover)|alert/);
    expect(md).toBe('click\n\n![x](a.png)\n\nhover\n');
  });

  it('javascript:, vbscript: and data: links keep only their text', () => {
    const html =
      '<a href="javascript:alert(1)">js</a> <a href="vbscript:msgbox(1)">vb</a> <a href="data:text/html,<script>x</script>">data</a>';
    expect(htmlToMarkdown(html)).toBe('js vb data\n');
  });

  it('disguised dangerous schemes are caught: case, whitespace, entities, backslashes', () => {
    const hrefs = [
      ' JaVaScRiPt:alert(1)',
      'java&#x09;script:alert(1)',
      'java&#10;script:alert(1)',
      'javascript&amp;colon;alert(1)',
      'javascript&amp;#58;alert(1)',
      'javascript\\:alert(1)',
      '\u0001javascript:alert(1)',
    ];
    for (const href of hrefs) {
      expect(htmlToMarkdown(`<a href="${href}">t</a>`)).toBe('t\n');
    }
  });

  it('images with dangerous URLs are dropped, data:image included', () => {
    expect(
      htmlToMarkdown(
        '<img src="javascript:alert(1)" alt="a"><img src="data:image/png;base64,AAAA" alt="b"><p>x</p>',
      ),
    ).toBe('x\n');
  });

  it('escaped tags in the HTML stay text in the Markdown', () => {
    const md = htmlToMarkdown(
      '<p>&lt;script&gt;alert(1)&lt;/script&gt; &lt;img src=x onerror=alert(1)&gt;</p>',
    );
    expect(md).toBe('\\<script>alert(1)\\</script> \\<img src=x onerror=alert(1)>\n');
  });

  it('a character reference in a safe URL cannot turn into a scheme when Markdown decodes it', () => {
    expect(htmlToMarkdown('<a href="x&amp;#x3A;y">t</a>')).toBe('[t](x\\&#x3A;y)\n');
  });

  it('an angle bracket in a URL cannot open a Markdown <destination>', () => {
    expect(htmlToMarkdown('<a href="<javascript:alert(1)>">t</a>')).toBe(
      '[t](%3Cjavascript:alert\\(1\\)%3E)\n',
    );
  });

  it('comments and the document head disappear', () => {
    expect(
      htmlToMarkdown(
        '<html><head><title>T</title><meta charset="utf-8"></head><body><!-- c --><p>b</p></body></html>',
      ),
    ).toBe('b\n');
  });
});
