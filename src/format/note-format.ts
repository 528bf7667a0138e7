/**
 * @module
 * A note format (SPEC 11): how the notes of a vault are stored, read and written. The gate, the index
 * and the tools ask the vault's format (`formatOf(vault)`) and never look at a file ending
 * themselves. Two implementations: Markdown (`markdown-format.ts`) and HTML (`html-format.ts`).
 */
import type { NoteEnding } from '../common/note-ending.js';
import type { JsonValue } from '../markdown/frontmatter/frontmatter.js';
import type { LinksRewritten, NewLinkpath } from '../markdown/link-rewrite.js';
import type { FormatName } from '../vault/format-name.js';

/** The kinds of links a note can hold: `html` is an `<a href>` (or `<img src>`) of an HTML note. */
export type LinkKind = 'wikilink' | 'markdown' | 'frontmatter' | 'html';

/** One link of a note as written; the index resolves it when asked. */
export interface ReadLink {
  readonly kind: LinkKind;
  readonly raw: string;
  readonly linkpath: string;
  readonly heading: string | null;
  readonly block: string | null;
  readonly alias: string | null;
  readonly embed: boolean;
  /** 1-based line in the stored text. */
  readonly line: number;
  /** The dotted frontmatter key of a frontmatter link (`related.0`), else null. */
  readonly property: string | null;
}

/** A checkbox task: `status` is the character between the brackets (`x` or a space in HTML). */
export interface ReadTask {
  readonly line: number;
  readonly status: string;
  readonly text: string;
  readonly due: string | null;
}

/** What the index needs from one stored note, before it folds names and keys. */
export interface NoteReading {
  readonly title: string;
  /** Tags without `#`, in the order the note gives them (frontmatter first), repeats allowed. */
  readonly tags: string[];
  readonly links: ReadLink[];
  readonly tasks: ReadTask[];
  readonly aliases: string[];
  /** Top-level frontmatter properties; null when there are none (always in an HTML note). */
  readonly properties: Record<string, JsonValue> | null;
  /** The text full-text search reads: the body, without markup where the format has markup. */
  readonly searchText: string;
}

/** A stored note split the way read_note shows it (SPEC 2.1, 11.2). */
export interface NoteView {
  readonly frontmatter: Record<string, JsonValue> | null;
  readonly frontmatterRaw: string;
  readonly frontmatterError?: string;
  /** What follows the frontmatter (the stored HTML in an HTML note). `frontmatterRaw + body` is the text. */
  readonly body: string;
  /**
   * Text shown to the model before `body`, when the body alone is not what a model reads best:
   * an HTML note's plain text (SPEC 11.2). Undefined for Markdown.
   */
  readonly plainText?: string;
}

/** An operation a format does not support, and why (the message of a `not_supported` answer). */
export type Unsupported = string | null;

export interface NoteFormat {
  readonly name: FormatName;
  /** The file ending of its notes: `.md` or `.html`. */
  readonly ending: NoteEnding;
  /** The MIME type of a note read as a resource (SPEC 9.2). */
  readonly mimeType: 'text/markdown' | 'text/html';
  /** Everything the index keeps about a note. Pure; runs on parser threads. */
  read(name: string, text: string): NoteReading;
  /** The note as read_note shows it. */
  view(text: string): NoteView;
  /**
   * The text a search excerpt around `terms` is cut from (the body, without markup; for a large
   * HTML note, only the part around the first term).
   */
  excerptText(text: string, terms: readonly string[]): string;
  /**
   * The text search operators that look inside a note (`content:`, `line:`, `block:`, `section:`,
   * regexes) scan, as Markdown: the stored note in Markdown, an HTML note's Markdown rendition (what
   * `noted-mcp convert --to markdown` would write), so headings, blocks and list items keep their
   * Obsidian meaning in both formats.
   */
  scanText(text: string): string;
  /**
   * Content a client sent (Markdown or HTML) as this format stores it: in a Markdown vault HTML is
   * sanitized and converted to Markdown (SPEC 2.7); in an HTML vault Markdown is rendered and HTML
   * sanitized (SPEC 11.3).
   */
  incoming(content: string): string;
  /**
   * A template note filled in with an agent's title and content, as this format may store it: as it
   * is in Markdown, sanitized in HTML (the title is the agent's text).
   */
  filledTemplate(text: string): string;
  /** The stored text with `addition` (already `incoming`) appended after a rule, the stored text kept. */
  appended(stored: string, addition: string): string;
  /**
   * Adds a title and tags given beside the content of a new note: frontmatter in Markdown, a heading
   * and a line of `#tags` in HTML.
   */
  withCreateFields(text: string, fields: { title?: string; tags?: readonly string[] }): string;
  /** Why an edit operation cannot be applied to this format's notes, or null when it can. */
  unsupportedEdit(operation: string): Unsupported;
  /**
   * What an edit of the stored text introduced that a stored note may not hold (a script, an event
   * handler, a `javascript:` URL…): empty when the edit is acceptable. Markdown holds anything.
   */
  unsafeAdditions(before: string, after: string): string[];
  /** Offers every link of the note to `decide` and writes the new linkpaths in (moves, SPEC 11.1). */
  rewriteLinks(text: string, decide: NewLinkpath): LinksRewritten;
}
