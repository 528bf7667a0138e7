import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { htmlNoteToMarkdown, markdownNoteToHtml } from '../../src/format/convert-note.js';
import { readHtml } from '../../src/format/html-read.js';
import { readMarkdown } from '../../src/format/markdown-read.js';
import { splitFrontmatter } from '../../src/markdown/frontmatter/frontmatter.js';
import { findHeadings } from '../../src/markdown/headings.js';
import { markdownToHtml } from '../../src/markdown/html/render.js';

/**
 * SPEC 11.5 / issue 21: Markdown → HTML → Markdown keeps a note's text (as it reads once rendered),
 * links (their targets, headings and kinds), tags, tasks with their state, headings and the
 * frontmatter. What it does not keep, by design, and why:
 * - the Markdown spelling: `*` bullets become `-`, `_x_` becomes `*x*`, setext headings become ATX,
 *   blank lines and indentation are normalised — HTML records the structure, not the keystrokes;
 * - task states other than a space and `x` (Obsidian's `[-]`, `[/]`…): an HTML checkbox is ticked or
 *   not, so they come back as `x` (convert --dry-run names each one);
 * - raw HTML the sanitizer refuses (scripts, handlers…), which an HTML vault may not store.
 * None of these is generated below, except the spelling, which the comparison looks through.
 */

const word = fc.stringMatching(/^[a-z][a-z0-9]{0,7}$/);
const name = fc.stringMatching(/^[A-Z][a-z]{1,6}( [A-Z][a-z]{1,6})?$/);
const tag = fc.stringMatching(/^[a-z][a-z0-9_]{0,6}(\/[a-z][a-z0-9]{0,5})?$/);

const inline = fc.oneof(
  { weight: 6, arbitrary: word },
  { weight: 1, arbitrary: word.map((w) => `*${w}*`) },
  { weight: 1, arbitrary: word.map((w) => `**${w}**`) },
  { weight: 1, arbitrary: word.map((w) => `\`${w}\``) },
  { weight: 1, arbitrary: tag.map((t) => `#${t}`) },
  { weight: 1, arbitrary: name.map((n) => `[[${n}]]`) },
  { weight: 1, arbitrary: fc.tuple(name, word).map(([n, h]) => `[[${n}#${h}|${h}]]`) },
  { weight: 1, arbitrary: fc.tuple(word, name).map(([t, n]) => `[${t}](${encodeURI(n)}.md)`) },
);
const line = fc.array(inline, { minLength: 1, maxLength: 8 }).map((parts) => parts.join(' '));

const block = fc.oneof(
  line.map((l) => `${l}\n`),
  fc.tuple(fc.integer({ min: 2, max: 4 }), line).map(([level, l]) => `${'#'.repeat(level)} ${l}\n`),
  fc
    .array(fc.tuple(fc.boolean(), line), { minLength: 1, maxLength: 4 })
    .map((items) => items.map(([done, l]) => `- [${done ? 'x' : ' '}] ${l}\n`).join('')),
  fc.array(line, { minLength: 1, maxLength: 3 }).map((items) => items.map((l) => `- ${l}\n`).join('')),
  fc.array(word, { minLength: 1, maxLength: 3 }).map((ws) => `\`\`\`\n${ws.join(' ')}\n\`\`\`\n`),
);

const frontmatter = fc.option(
  fc
    .tuple(line, fc.array(tag, { minLength: 1, maxLength: 3 }))
    .map(
      ([title, tags]) => `---\ntitle: "${title.replace(/["\\]/g, '')}"\ntags: [${tags.join(', ')}]\n---\n`,
    ),
  { nil: '' },
);

const note = fc
  .tuple(frontmatter, name, fc.array(block, { minLength: 1, maxLength: 6 }))
  .map(([fm, title, blocks]) => `${fm}# ${title}\n\n${blocks.join('\n')}`);

/** What a note says, in terms that do not depend on how its Markdown is spelled. */
function meaning(markdown: string) {
  const read = readMarkdown('n.md', markdown);
  const body = splitFrontmatter(markdown).body;
  return {
    frontmatter: splitFrontmatter(markdown).yaml,
    title: read.title,
    tags: read.tags,
    links: read.links.map((l) => [l.kind, l.linkpath, l.heading, l.block, l.alias, l.embed]),
    tasks: read.tasks.map((t) => [t.status, t.text, t.due]),
    headings: findHeadings(body).map((h) => [h.level, h.text]),
    text: readHtml(markdownToHtml(body, { keepWikilinks: true })).plainText,
  };
}

const relink = () => null;

describe('Markdown → HTML → Markdown (SPEC 11.5)', () => {
  it('keeps the text, links, tags, tasks, headings and frontmatter of generated notes', () => {
    fc.assert(
      fc.property(note, (markdown) => {
        const html = markdownNoteToHtml(markdown, relink);
        expect(html.losses.filter((l) => !l.startsWith('frontmatter properties'))).toEqual([]);
        const back = htmlNoteToMarkdown(html.text, relink);
        expect(back.losses).toEqual([]);
        expect(meaning(back.text)).toEqual(meaning(markdown));
      }),
      { numRuns: 300 },
    );
  });

  it('the HTML note reads as the Markdown note did: title, tags, links, tasks (SPEC 11.4)', () => {
    fc.assert(
      fc.property(note, (markdown) => {
        const html = readHtml(markdownNoteToHtml(markdown, relink).text);
        const md = readMarkdown('n.md', markdown);
        expect(html.title ?? '').toBe(md.title);
        expect([...new Set(html.tags.map((t) => t.toLowerCase()))].sort()).toEqual(
          [...new Set(md.tags.map((t) => t.toLowerCase()))].sort(),
        );
        // A task's text is its rendered text in HTML and its Markdown in Markdown: compare the states.
        expect(html.tasks.map((t) => t.status)).toEqual(md.tasks.map((t) => t.status));
        const targets = (links: { linkpath: string; heading: string | null }[]) =>
          links.map((l) => [l.linkpath.replace(/\.md$/, ''), l.heading]).sort();
        expect(targets(html.links)).toEqual(targets(md.links.filter((l) => l.kind !== 'frontmatter')));
      }),
      { numRuns: 200 },
    );
  });
});
