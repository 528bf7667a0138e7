/**
 * @module
 * What the console's API works with, and the shape of its routes. The entry point (`cli/ui-command.ts`)
 * supplies what only it may know: the journal hook for approvals (the CLI's own), the client
 * configuration snippets and the Claude Desktop installer.
 */
import type { Journal } from '../journal/journal.js';
import type { JournalKeyState } from '../journal/journal-key.js';
import type { OnApprovedWrite, OnDecision } from '../staging/approve.js';
import type { PendingStore } from '../staging/pending-store.js';
import type { RejectedStore } from '../staging/rejected-store.js';
import type { Vault } from '../vault/vault.js';
import type { PendingFacts } from './pending-facts.js';

/** One client's ready-to-paste configuration (`noted-mcp config CLIENT`). */
export interface ClientSnippet {
  readonly client: string;
  readonly text: string;
  /** Where to paste it. */
  readonly notes: string;
}

export interface InstallOutcome {
  readonly ok: boolean;
  readonly message: string;
}

export interface ConsoleDeps {
  readonly vault: Vault;
  /** The user's journal key (journal-key.ts), read by the entry point: the console verifies and undoes. */
  readonly journalKey: JournalKeyState;
  /** Builds the hook called before each approved write: the journal's recorder, as the CLI uses. */
  readonly recordApprovedWrite: (vault: Vault) => OnApprovedWrite;
  /** Builds the hook called before each rejection or put-back: the journal's recorder, as the CLI uses. */
  readonly recordDecision?: (vault: Vault) => OnDecision;
  readonly clients: () => readonly ClientSnippet[];
  /** Merges this server into Claude Desktop's configuration; absent when not offered. */
  readonly installClaudeDesktop?: () => Promise<InstallOutcome>;
  readonly now?: () => Date;
}

export interface ApiContext {
  readonly deps: ConsoleDeps;
  readonly vault: Vault;
  readonly store: PendingStore;
  /** Rejected changes, kept 30 days. */
  readonly rejected: RejectedStore;
  /** Line counts and outdated marks of pending changes, kept between listings. */
  readonly facts: PendingFacts;
  readonly journal: Journal;
  readonly now: () => Date;
  /** Who undoes, in the journal: this console run (a self-declared name, like any client's). */
  readonly actor: { readonly session: string; readonly client: string; readonly owner: true };
}

export interface ApiRequest {
  readonly params: Readonly<Record<string, string>>;
  readonly query: URLSearchParams;
  readonly body: unknown;
}

export interface Route {
  readonly method: 'GET' | 'POST' | 'PUT';
  /** Below `/api/`, e.g. `pending/:id/approve`. */
  readonly path: string;
  readonly handle: (ctx: ApiContext, req: ApiRequest) => unknown | Promise<unknown>;
}

/** A field of a JSON body object, or undefined. */
export function field(body: unknown, name: string): unknown {
  return body !== null && typeof body === 'object' && !Array.isArray(body)
    ? (body as Record<string, unknown>)[name]
    : undefined;
}
