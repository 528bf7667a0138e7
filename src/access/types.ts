/**
 * @module
 * What the access gate answers: plain data, shaped for the tools above it (SPEC section 10).
 */
import type { JsonValue } from '../markdown/frontmatter/frontmatter.js';

/** One agent connection: who asked (self-declared, unverified) and which server run or HTTP session. */
export interface AgentSession {
  readonly id: string;
  /** The client's self-declared name, when it gave one. */
  clientName(): string | undefined;
  /** For one call: the folder its writes must stay in (`in_folder`, SPEC 12.5). */
  readonly inFolder?: string;
  /** For one call: the folder its writes must be directly in (`exact_folder`, SPEC 17.1). */
  readonly exactFolder?: string;
  /** For one call: folders its writes must stay out of (`not_in_folders`, SPEC 17.1). */
  readonly notInFolders?: readonly string[];
}

export interface NoteSummary {
  readonly name: string;
  /** The note's id (SPEC 17.3): it names the note through moves; absent only while it is not indexed yet. */
  readonly id?: string;
  /** The obsidian://open link that opens the note in Obsidian (SPEC 17.4). */
  readonly uri?: string;
  readonly title: string;
  readonly modified: string;
  readonly sizeBytes: number;
  /** Words in the body as Obsidian counts them (SPEC 17.4). */
  readonly words: number;
  /** ISO 8601: frontmatter `created` when a date, else the file's birth time (SPEC 17.4). */
  readonly created: string;
}

export interface NoteListPage {
  readonly notes: NoteSummary[];
  /** True when more notes follow; `nextCursor` reads them. */
  readonly more: boolean;
  readonly nextCursor?: string;
}

export interface NoteContent {
  readonly schemaVersion: 2;
  readonly name: string;
  /** The note's id (SPEC 17.3): it names the note through moves; absent only while it is not indexed yet. */
  readonly id?: string;
  /** The vault's note format (SPEC 11.2): an HTML note has no frontmatter and its body is the HTML. */
  readonly format: 'markdown' | 'html';
  readonly frontmatter: Record<string, JsonValue> | null;
  readonly frontmatterRaw: string;
  readonly frontmatterError?: string;
  /**
   * Present only when the file is not valid UTF-8: its bad bytes are shown as U+FFFD, so
   * `frontmatterRaw + body` is not the stored text (SPEC 2.1 holds only for UTF-8 notes).
   */
  readonly encodingError?: string;
  readonly body: string;
  /**
   * An HTML note's plain text (SPEC 11.2), for the text a model reads before the HTML; absent for
   * Markdown and for a page of a paged read. Not part of structuredContent.
   */
  readonly plainText?: string;
  readonly etag: string;
  /** The obsidian://open link that opens the note in Obsidian (SPEC 17.4). */
  readonly uri: string;
  readonly modified: string;
  readonly sizeBytes: number;
  /** Present when only a part was asked for (`section` or `block`): `body` is that part alone. */
  readonly partial?: true;
  /** The part's lines in the note, `[from, to]`, 1-based and inclusive. */
  readonly lines?: [number, number];
  /** The heading of the section returned, as `## Risks`. */
  readonly section?: string;
  /** The id of the block returned. */
  readonly block?: string;
  /** Present when the body was cut to a page: read on from `nextOffset`. */
  readonly truncated?: boolean;
  readonly offset?: number;
  readonly nextOffset?: number;
  readonly totalChars?: number;
}

export interface WriteResult {
  readonly name: string;
  /** The note's id (SPEC 17.3): it names the note through moves; absent only while it is not indexed yet. */
  readonly id?: string;
  readonly etag: string;
  readonly modified: string;
  readonly created?: boolean;
  /** False when the new text equals the stored text, so nothing was written. */
  readonly changed?: boolean;
}

export interface SearchHit {
  readonly name: string;
  /** The note's id (SPEC 17.3): it names the note through moves; absent only while it is not indexed yet. */
  readonly id?: string;
  /** The obsidian://open link that opens the note in Obsidian (SPEC 17.4). */
  readonly uri: string;
  readonly title: string;
  readonly score: number;
  readonly excerpt: string;
  readonly modified: string;
  readonly words: number;
  readonly created: string;
  /** Where the hit matched: `title`, `tags`, `body`, `file`, `path`, `property:KEY`, `task`, `line`, `block`, `section`. */
  readonly matched: string[];
  /** The lines where line:, block:, section: and task…: matched (1-based, inclusive), at most 20. */
  readonly lines?: { scope: 'line' | 'block' | 'section' | 'task'; from: number; to: number }[];
}

export interface SearchResult {
  readonly results: SearchHit[];
  readonly total: number;
  readonly more: boolean;
  readonly nextCursor?: string;
}

export interface DeleteResult {
  readonly name: string;
  /** The note's id (SPEC 17.3), as it was before the deletion. */
  readonly id?: string;
  readonly trashId: string;
}

export interface RestoreResult {
  readonly name: string;
  /** The restored note's id (SPEC 17.3): a new one, as for any note the index meets anew. */
  readonly id?: string;
  readonly etag: string;
  readonly trashId: string;
  /**
   * Set when the note was deleted before the vault was converted: its name then. It was restored
   * converted, and `losses` says what its new format could not hold (empty when nothing).
   */
  readonly deletedAs?: string;
  readonly losses?: readonly string[];
}

/** A write in a staged folder: computed and kept for the owner's review, not applied (SPEC 5.1). */
export interface StagedResult {
  readonly staged: true;
  readonly pendingId: string;
  readonly note: string;
  readonly kind: 'create' | 'update' | 'delete';
}
