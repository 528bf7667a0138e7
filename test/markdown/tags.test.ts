import { describe, expect, it } from 'vitest';
import { frontmatterTags } from '../../src/markdown/frontmatter/fields.js';
import { scanBody } from '../../src/markdown/scan.js';
import { normalizeTag, tagMatches, tagWithParents } from '../../src/markdown/tag-match.js';

const tagsOf = (body: string): string[] => scanBody(body).tags.map((t) => t.tag);

describe('inline tags (OBSIDIAN.md §2.1)', () => {
  it('TAG-01: letters, digits, _, - and / are kept; the tag is returned without # as written', () => {
    expect(tagsOf('#Project_X-2/Sub-Part')).toEqual(['Project_X-2/Sub-Part']);
  });

  it('TAG-01: #1984 is all digits and no tag, #y1984 and #1984y are tags', () => {
    expect(tagsOf('#1984 #y1984 #1984y')).toEqual(['y1984', '1984y']);
  });

  it('TAG-01: a space ends the tag', () => {
    expect(tagsOf('#two words')).toEqual(['two']);
  });

  it('TAG-02: a tag ends at each of \' ! " # $ % & ( ) * + , . : ; < = > ? @ ^ ` { | } ~ [ ] \\', () => {
    const ends = `'!"#$%&()*+,.:;<=>?@^\`{|}~[]\\`;
    for (const ch of ends) {
      expect(tagsOf(`#ab${ch}cd`), `ending at ${ch}`).toEqual(['ab']);
    }
  });

  it('TAG-02: a tag ends at general punctuation U+2000–U+206F (em dash, curly quote, ellipsis, ZWSP)', () => {
    expect(tagsOf('#dash\u2014more #quote\u201dx #dots\u2026 #zw\u200bx')).toEqual([
      'dash',
      'quote',
      'dots',
      'zw',
    ]);
  });

  it('TAG-02: a tag ends at supplemental punctuation U+2E00–U+2E7F', () => {
    expect(tagsOf('#a\u2E3Ab')).toEqual(['a']);
  });

  it('TAG-02: emoji, symbols such as § and €, and letters in any script are kept', () => {
    expect(tagsOf('#🚀launch #§1 #€uro #日本語 #café')).toEqual(['🚀launch', '§1', '€uro', '日本語', 'café']);
  });

  it('TAG-02: an emoji-only tag is a tag (not all digits)', () => {
    expect(tagsOf('#🔥')).toEqual(['🔥']);
  });

  it('TAG-03: a # after a non-space is not a tag: word#tag, (#tag), /#tag, "#tag"', () => {
    expect(tagsOf('word#tag (#tag) /#tag "#tag"')).toEqual([]);
  });

  it('TAG-03: a # at the start of the line or after any whitespace (tab, NBSP) starts a tag', () => {
    expect(tagsOf('#first\tx\t#tab y\u00a0#nbsp')).toEqual(['first', 'tab', 'nbsp']);
  });

  it('TAG-03: ##tag is not a tag', () => {
    expect(tagsOf('##tag and ###deeper')).toEqual([]);
  });

  it('TAG-03: \\# escapes the hash', () => {
    expect(tagsOf('\\#escaped but #real')).toEqual(['real']);
  });

  it('TAG-03: a URL fragment is not a tag', () => {
    expect(tagsOf('see https://x.com/#frag and https://x.com/page#top')).toEqual([]);
  });

  it('TAG-03: the #heading part of a wikilink is not a tag, nor a # in its alias', () => {
    expect(tagsOf('[[Note#Heading]] [[Note| #alias]] [[#Local]]')).toEqual([]);
  });

  it('a # in the text or destination of a Markdown link is not a tag (the link is skipped whole)', () => {
    const scan = scanBody('[#label](Note.md) [see #x](https://x.com/a?q=1#b)');
    expect(scan.tags).toEqual([]);
    expect(scan.links.map((l) => l.alias)).toEqual(['#label']);
  });

  it('TAG-03: a # right after a blockquote marker starts the quoted text, so it is a tag', () => {
    expect(tagsOf('> #quoted\n>#tight')).toEqual(['quoted', 'tight']);
  });

  it('TAG-04: tags in fenced code blocks and inline code spans are ignored', () => {
    const body = [
      '```',
      '#fenced',
      '```',
      '~~~md',
      '#tilde',
      '~~~',
      'a `#span` b ``x ` #inner`` #after',
    ].join('\n');
    expect(tagsOf(body)).toEqual(['after']);
  });

  it('TAG-04: an unmatched backtick does not hide the rest of the line', () => {
    expect(tagsOf('a ` b #tag')).toEqual(['tag']);
  });

  it('TAG-05: tags inside headings are tags; "# Heading" and "#tag" lines are told apart', () => {
    expect(tagsOf('## Plans #project\n# Not a tag\n#tagline')).toEqual(['project', 'tagline']);
  });

  it('TAG-06: tags in %%comments%% and <!-- comments --> are ignored, on one line or across lines', () => {
    const body = [
      'a %% #hidden %% #shown',
      '%% start',
      '#inside',
      'end %% #after',
      '<!-- #html',
      '#more -->',
      '#last',
    ].join('\n');
    expect(tagsOf(body)).toEqual(['shown', 'after', 'last']);
  });

  it('TAG-22: one trailing / is stripped; a tag that is then all digits is no tag', () => {
    expect(tagsOf('#inbox/ #a/b// #2024/')).toEqual(['inbox', 'a/b/']);
  });

  it('each tag carries its 1-based line, shifted by lineOffset', () => {
    expect(scanBody('x\n#one\n\n#two', { lineOffset: 4 }).tags).toEqual([
      { tag: 'one', line: 6 },
      { tag: 'two', line: 8 },
    ]);
  });

  it('tags in a list item and a task line count', () => {
    expect(tagsOf('- item #a\n- [ ] task #b')).toEqual(['a', 'b']);
  });
});

describe('frontmatter tags (TAG-11, TAG-12)', () => {
  it('TAG-11: a string value is one tag', () => {
    expect(frontmatterTags({ tags: ' journal ' })).toEqual(['journal']);
  });

  it('TAG-11: a list keeps its trimmed strings and drops numbers, booleans, null and objects', () => {
    expect(frontmatterTags({ tags: ['a', ' b ', 2024, true, null, { x: 1 }] })).toEqual(['a', 'b']);
  });

  it('TAG-11: one leading # is removed', () => {
    expect(frontmatterTags({ tags: ['#a', 'b'] })).toEqual(['a', 'b']);
  });

  it('TAG-11/12: empties and values containing a space are dropped, so "tag1, tag2" gives nothing', () => {
    expect(frontmatterTags({ tags: 'tag1, tag2' })).toEqual([]);
    expect(frontmatterTags({ tags: ['', '  ', 'two words', 'ok'] })).toEqual(['ok']);
  });

  it('TAG-11: the key matches /^tags$/i, so Tags counts and tag does not', () => {
    expect(frontmatterTags({ Tags: ['x'] })).toEqual(['x']);
    expect(frontmatterTags({ tag: ['x'] })).toEqual([]);
  });

  it('TAG-11: no other validation: c++ and 2024 as strings are kept', () => {
    expect(frontmatterTags({ tags: ['c++', '2024'] })).toEqual(['c++', '2024']);
  });

  it('PROP-20: no frontmatter (null) gives no tags', () => {
    expect(frontmatterTags(null)).toEqual([]);
  });
});

describe('tag identity and nesting (TAG-20..22)', () => {
  it('TAG-20: normalizeTag lower-cases and drops one leading # and one trailing /', () => {
    expect(normalizeTag('#Inbox/To-Read/')).toBe('inbox/to-read');
  });

  it('TAG-20: tags match case-insensitively', () => {
    expect(tagMatches('#TAG', 'tag')).toBe(true);
    expect(tagMatches('tag', '#Tag')).toBe(true);
  });

  it('TAG-21: a query matches the tag and tags nested below it', () => {
    expect(tagMatches('inbox', 'inbox')).toBe(true);
    expect(tagMatches('inbox/to-read', 'inbox')).toBe(true);
    expect(tagMatches('Inbox/To-Read/Later', '#inbox/to-read')).toBe(true);
  });

  it('TAG-21: nesting is on whole / segments from the start: inbox does not match inboxes or work/inbox', () => {
    expect(tagMatches('inboxes', 'inbox')).toBe(false);
    expect(tagMatches('myjob/work', 'work')).toBe(false);
    expect(tagMatches('inbox', 'inbox/to-read')).toBe(false);
  });

  it('TAG-21: an empty query matches nothing', () => {
    expect(tagMatches('a', '#')).toBe(false);
  });

  it('TAG-22: tagWithParents gives each parent prefix, outermost first, casing kept', () => {
    expect(tagWithParents('a/b/c')).toEqual(['a', 'a/b', 'a/b/c']);
    expect(tagWithParents('#Work/Q3/')).toEqual(['Work', 'Work/Q3']);
    expect(tagWithParents('solo')).toEqual(['solo']);
  });
});
