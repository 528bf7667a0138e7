import { describe, expect, it } from 'vitest';
import { htmlFormat, storedHtml } from '../../src/format/html-format.js';
import { rewriteHtmlLinks } from '../../src/format/html-links.js';
import { readHtml } from '../../src/format/html-read.js';
import { unsafeAdditions, unsafeParts } from '../../src/format/html-safety.js';

const NOTE = `<!DOCTYPE html><html><head><title>My &amp; Plan</title><style>p{}</style></head><body>
<h1>Heading</h1>
<p>See <a href="Other%20Note.html#Part">other</a> and [[Wiki|w]] #work &amp; #home/sub</p>
<ul>
  <li><input type="checkbox" checked> ship it 📅 2024-05-01</li>
  <li data-checked="false">todo #later
    <ul><li><input type="checkbox"> nested</li></ul>
  </li>
  <li>plain</li>
</ul>
<pre><code>#notatag [[notalink]]</code></pre>
<p><img src="img/a.png" alt="A"> <a href="https://example.com/x.html">out</a> <a href="#Heading">up</a></p>
<script>var t = "#nottag [[nolink]]";</script>
</body></html>`;

describe('readHtml: what the index reads in an HTML note (SPEC 11.4)', () => {
  const read = readHtml(NOTE);

  it('plain text: tags stripped, entities decoded, blocks on their own lines, list items with "- "', () => {
    expect(read.plainText).toBe(
      [
        'Heading',
        'See other and [[Wiki|w]] #work & #home/sub',
        '- [x] ship it 📅 2024-05-01',
        '- [ ] todo #later',
        '  - [ ] nested',
        '- plain',
        '#notatag [[notalink]]',
        'out up',
      ].join('\n'),
    );
  });

  it('the title is <title>, else the first <h1>, else the file name', () => {
    expect(read.title).toBe('My & Plan');
    expect(readHtml('<h1> First </h1><h1>Second</h1>').title).toBe('First');
    expect(readHtml('<p>no heading</p>').title).toBeNull();
    expect(htmlFormat.read('notes/Some Note.html', '<p>x</p>').title).toBe('Some Note');
  });

  it('links: <a href> and <img src> into the vault, percent-decoded, and [[wikilinks]] in the text; not in code or scripts, not external', () => {
    expect(read.links.map((l) => [l.kind, l.linkpath, l.heading, l.alias, l.embed, l.line])).toEqual([
      ['html', 'Other Note.html', 'Part', 'other', false, 3],
      ['wikilink', 'Wiki', null, 'w', false, 3],
      ['html', 'img/a.png', null, 'A', true, 12],
      ['html', '', 'Heading', 'up', false, 12],
    ]);
  });

  it('tags are #tags in the text, not in code, scripts or attributes', () => {
    expect(read.tags).toEqual(['work', 'home/sub', 'later']);
  });

  it('tasks are list items with a checkbox or data-checked, with the line of their <li>', () => {
    expect(read.tasks).toEqual([
      { line: 5, status: 'x', text: 'ship it 📅 2024-05-01', due: '2024-05-01' },
      { line: 6, status: ' ', text: 'todo #later', due: null },
      { line: 7, status: ' ', text: 'nested', due: null },
    ]);
  });

  it('an entity that decodes to a line break does not shift the lines of what follows', () => {
    const r = readHtml('<p>a&#10;b</p>\n<p>#tag</p>');
    expect(r.tags).toEqual(['tag']);
    expect(readHtml('<p>a&#10;&#10;b</p>\n<p>[[X]]</p>').links[0]?.line).toBe(2);
  });

  it('indented HTML is not read as a Markdown code block', () => {
    expect(readHtml('<div>\n        <p>#deep [[Deep]]</p>\n</div>').tags).toEqual(['deep']);
  });
});

describe('search excerpts of a large HTML note', () => {
  it('read around the first match only, so 50 results of 5 MB each stay cheap (SPEC 3.3a)', () => {
    const filler = '<p>plain words <b>here</b> and there</p>\n'.repeat(5000);
    const note = `${filler}<p>the <em>needle</em> is here</p>\n${filler}`;
    const text = htmlFormat.excerptText(note, ['needle']);
    expect(text).toContain('the needle is here');
    expect(text.length).toBeLessThan(20_000);
    expect(text).not.toMatch(/[<>]/);
    // A small note is read whole, and a term found nowhere gives the beginning.
    expect(htmlFormat.excerptText('<p>a</p><p>b</p>', ['x'])).toBe('a\nb');
    expect(htmlFormat.excerptText(note, ['absent']).startsWith('plain words here and there')).toBe(true);
  });
});

describe('writing HTML notes', () => {
  it('Markdown is rendered (tasks as checkboxes, wikilinks kept as text) and sanitized', () => {
    expect(storedHtml('# Hi\n\n- [ ] a #t\n- [x] b\n\nSee [[Note]] <script>x()</script>\n')).toBe(
      '<h1>Hi</h1>\n<ul>\n<li><input type="checkbox" disabled /> a #t</li>\n<li><input type="checkbox" disabled checked /> b</li>\n</ul>\n<p>See [[Note]] </p>\n',
    );
  });

  it('HTML is sanitized: handlers, javascript: links, inputs other than checkboxes and frames go', () => {
    expect(
      storedHtml(
        '<p onclick="x()">hi <a href="javascript:alert(1)">x</a><input type="text"><input type="checkbox" checked><iframe src=x></iframe></p>',
      ),
    ).toBe('<p>hi <a>x</a><input type="checkbox" checked /></p>');
  });

  it('append adds <hr> and the new part after the stored text, which stays exactly as it was', () => {
    expect(htmlFormat.appended('<p>a</p>', '<p>b</p>\n')).toBe('<p>a</p>\n<hr>\n<p>b</p>\n');
    expect(htmlFormat.appended('<p>a</p>\n', '<p>b</p>\n')).toBe('<p>a</p>\n<hr>\n<p>b</p>\n');
    expect(htmlFormat.appended('', '<p>b</p>\n')).toBe('<p>b</p>\n');
  });

  it('section and property operations are not supported, saying why', () => {
    for (const op of ['replace_section', 'append_to_section', 'set_properties', 'add_tags']) {
      expect(htmlFormat.unsupportedEdit(op)).toMatch(/need a Markdown vault/);
    }
    expect(htmlFormat.unsupportedEdit('replace')).toBeNull();
  });
});

describe('unsafe parts of an edit', () => {
  it('names what the sanitizer would drop', () => {
    expect(
      unsafeParts('<p onclick="x()">hi <script>y()</script><a href=" java\tscript:x">a</a></p>'),
    ).toEqual(['onclick on <p>', '<script>', 'javascript: in href']);
  });

  it('an edit is judged by what it adds, not by what the owner already had', () => {
    const before = '<p>mine <script>owner()</script></p>';
    expect(unsafeAdditions(before, `${before}<p>more</p>`)).toEqual([]);
    expect(unsafeAdditions(before, '<p>mine <scr')).toEqual([]);
    expect(unsafeAdditions('<p>ipt>x()</p>', '<p><script>x()</p>')).toEqual(['<script>']);
  });
});

describe('rewriteHtmlLinks', () => {
  it('changes only the address of <a>/<img> and the target of wikilinks, keeping subpaths and quotes', () => {
    const done = rewriteHtmlLinks(
      "<p><a class='x' href='Old.html#Part'>x</a> [[Old|o]] <code>[[Old]]</code> [t](Old.html)</p>",
      (l) => (l.linkpath.startsWith('Old') ? 'b/New One.html' : null),
    );
    expect(done.text).toBe(
      "<p><a class='x' href='b/New%20One.html#Part'>x</a> [[b/New One.html|o]] <code>[[Old]]</code> [t](Old.html)</p>",
    );
    expect(done.edits.map((e) => e.kind)).toEqual(['html', 'wikilink']);
  });
});
