/**
 * @module
 * Agent activity in the console (SPEC 6): the journal's sessions newest first, filtered by client,
 * kind and note; each change's diff on demand; undo of one change or a whole session through
 * `Journal.undo`, which refuses (and says why) when the note changed since; and the chain's integrity.
 */
import { JOURNAL_KINDS, type JournalEntry, type JournalKind } from '../journal/entry.js';
import type { ApiContext, Route } from './context.js';
import { field } from './context.js';
import { type DiffView, diffView } from './diff-view.js';
import { ConsoleError } from './http-util.js';

/** The page shows at most this many entries (the newest matching ones). */
export const MAX_ACTIVITY_ENTRIES = 1000;

interface EntryView {
  readonly id: string;
  readonly time: string;
  readonly tool: string;
  readonly note: string;
  readonly kind: JournalKind;
  readonly group: string | null;
  readonly undoOf: string | null;
  /** The undo entry that undid this change, if any. */
  readonly undoneBy: string | null;
  /** For kind `not_applied`: the entry that was recorded but never made. */
  readonly voids: string | null;
  /** The `not_applied` entry saying this change was recorded but never made, if it was not. */
  readonly notAppliedBy: string | null;
  /** Whether the console offers Undo: not for an undo, a change undone or never made, or a `not_applied`. */
  readonly undoable: boolean;
}

interface SessionView {
  readonly session: string;
  readonly client: string | null;
  readonly firstTime: string;
  readonly lastTime: string;
  readonly entries: EntryView[];
}

function activity(ctx: ApiContext, query: URLSearchParams) {
  const client = query.get('client') || undefined;
  const kindText = query.get('kind') || undefined;
  const noteText = (query.get('note') ?? '').trim().toLowerCase();
  if (kindText !== undefined && !(JOURNAL_KINDS as readonly string[]).includes(kindText)) {
    throw new ConsoleError(400, 'validation_error', `Unknown kind "${kindText}".`);
  }
  const all = ctx.journal.entries();
  const voidedBy = new Map<string, string>();
  for (const e of all) if (e.voids !== undefined) voidedBy.set(e.voids, e.id);
  const undoneBy = new Map<string, string>();
  const clients = new Set<string>();
  for (const e of all) {
    // An undo recorded but never made undid nothing.
    if (e.undoOf !== undefined && !voidedBy.has(e.id)) undoneBy.set(e.undoOf, e.id);
    if (e.client !== null) clients.add(e.client);
  }
  const sessions = new Map<string, SessionView>();
  let shown = 0;
  let truncated = false;
  // Newest first; a session's place is that of its newest matching change.
  for (let i = all.length - 1; i >= 0; i--) {
    const e = all[i] as JournalEntry;
    if (client !== undefined && e.client !== client) continue;
    if (kindText !== undefined && e.kind !== kindText) continue;
    if (noteText !== '' && !e.note.toLowerCase().includes(noteText)) continue;
    if (shown >= MAX_ACTIVITY_ENTRIES) {
      truncated = true;
      break;
    }
    shown++;
    let session = sessions.get(e.session);
    if (session === undefined) {
      session = { session: e.session, client: e.client, firstTime: e.time, lastTime: e.time, entries: [] };
      sessions.set(e.session, session);
    }
    (session as { firstTime: string }).firstTime = e.time;
    session.entries.push({
      id: e.id,
      time: e.time,
      tool: e.tool,
      note: e.note,
      kind: e.kind,
      group: e.group ?? null,
      undoOf: e.undoOf ?? null,
      undoneBy: undoneBy.get(e.id) ?? null,
      voids: e.voids ?? null,
      notAppliedBy: voidedBy.get(e.id) ?? null,
      undoable: e.kind !== 'undo' && e.kind !== 'not_applied' && !undoneBy.has(e.id) && !voidedBy.has(e.id),
    });
  }
  return {
    integrity: ctx.journal.verify(),
    clients: [...clients].sort(),
    kinds: JOURNAL_KINDS,
    sessions: [...sessions.values()],
    truncated,
  };
}

function entryDiff(ctx: ApiContext, id: string): { entry: JournalEntry; diff: DiffView } {
  const entry = ctx.journal.get(id);
  if (entry === null) throw new ConsoleError(404, 'not_found', `No journal entry has the id "${id}".`);
  const text = (sha: string | null, stored: boolean): string | null | undefined => {
    if (sha === null) return null;
    return stored ? (ctx.journal.textOf(sha) ?? undefined) : undefined;
  };
  const before = text(entry.beforeSha256, entry.beforeStored);
  const after = text(entry.afterSha256, entry.afterStored);
  if (before === undefined || after === undefined) {
    return {
      entry,
      diff: {
        kind: 'unavailable',
        reason:
          'A text of this change is not in the journal (over 5 MB, recorded by hash only, or its stored copy is missing or damaged).',
      },
    };
  }
  return { entry, diff: diffView(before, after) };
}

function stringField(body: unknown, name: string): string {
  const value = field(body, name);
  if (typeof value !== 'string' || value === '') {
    throw new ConsoleError(400, 'validation_error', `"${name}" must be given.`);
  }
  return value;
}

export const ACTIVITY_ROUTES: readonly Route[] = [
  { method: 'GET', path: 'activity', handle: (ctx, { query }) => activity(ctx, query) },
  {
    method: 'GET',
    path: 'activity/entries/:id',
    handle: (ctx, { params }) => entryDiff(ctx, params.id as string),
  },
  {
    method: 'POST',
    path: 'activity/undo',
    handle: (ctx, { body }) => ctx.journal.undo({ entry: stringField(body, 'entry') }, ctx.actor),
  },
  {
    method: 'POST',
    path: 'activity/undo-session',
    handle: (ctx, { body }) => ctx.journal.undo({ session: stringField(body, 'session') }, ctx.actor),
  },
];
