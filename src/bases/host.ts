/**
 * @module
 * What the evaluator asks of the vault, as plain data: the facts of a file, how a link resolves, which
 * notes link to a file, the clock. The index answers it for the server (access/bases-host.ts), a test
 * answers it with rows made in the test; the policy is applied by whoever answers, so a hidden file is
 * simply not there.
 */
import type { MomentFn } from './dates.js';

/** A link a file holds: as written (its path part), its display text, and the file it resolves to. */
export interface FileLink {
  readonly target: string;
  readonly display: string | null;
  readonly resolved: string | null;
  readonly embed: boolean;
}

/** One file of the vault: a note or an attachment. Lists are read lazily, only when asked. */
export interface FileFacts {
  /** Vault-relative path with `/`, e.g. `Books/Dune.md`. */
  readonly path: string;
  readonly size: number;
  readonly mtimeMs: number;
  readonly ctimeMs: number;
  /** The top-level frontmatter properties as parsed (empty for attachments). */
  properties(): Readonly<Record<string, unknown>>;
  /** Tags from the frontmatter and the text, without `#`. */
  tags(): readonly string[];
  /** Every link (frontmatter and text) and embed, in order. */
  links(): readonly FileLink[];
}

export interface BasesHost {
  /** A file agents may see, by exact path; null otherwise. */
  file(path: string): FileFacts | null;
  /** The path a link text written in `from` resolves to (visible files only), or null. */
  resolve(linkText: string, from: string): string | null;
  /** Paths of the visible notes holding a link to `path`. */
  backlinks(path: string): readonly string[];
  /** Milliseconds since the epoch. */
  now(): number;
  readonly moment: MomentFn;
}
