/**
 * @module
 * Agent activity in the console (SPEC 6): the journal's sessions newest first, filtered by client,
 * kind and note; each change's diff on demand; undo of one change, one operation (a move, a batch:
 * its `group`, as `noted-mcp undo --group`) or a whole session through `Journal.undo`, which refuses
 * (and says why) when a note changed since; and the chain's integrity. What the page may undo is
 * decided in activity-view.ts, and checked again here, since a request need not come from the page.
 */
import { JOURNAL_KINDS, type JournalEntry, type JournalKind } from '../journal/entry.js';
import type { UndoOutcome, UndoResult } from '../journal/undo.js';
import { type ActivityFilter, activitySessions, JournalFacts } from './activity-view.js';
import type { ApiContext, Route } from './context.js';
import { field } from './context.js';
import { type DiffView, diffView } from './diff-view.js';
import { ConsoleError } from './http-util.js';

function activity(ctx: ApiContext, query: URLSearchParams) {
  const client = query.get('client') || undefined;
  const kindText = query.get('kind') || undefined;
  const note = (query.get('note') ?? '').trim().toLowerCase() || undefined;
  if (kindText !== undefined && !(JOURNAL_KINDS as readonly string[]).includes(kindText)) {
    throw new ConsoleError(400, 'validation_error', `Unknown kind "${kindText}".`);
  }
  const facts = new JournalFacts(ctx.journal);
  const filter: ActivityFilter = {
    ...(client === undefined ? {} : { client }),
    ...(kindText === undefined ? {} : { kind: kindText as JournalKind }),
    ...(note === undefined ? {} : { note }),
  };
  const clients = new Set<string>();
  for (const e of facts.all) if (e.client !== null) clients.add(e.client);
  return {
    integrity: facts.integrity,
    clients: [...clients].sort(),
    kinds: JOURNAL_KINDS,
    ...activitySessions(facts, filter),
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

function refuse(why: string): never {
  throw new ConsoleError(409, 'conflict', `Not undone: ${why}`);
}

/**
 * A refused undo in one plain sentence for the page: why, and what to do, without naming commands or
 * entry ids (the journal's own reasons are worded for the terminal).
 */
export function plainRefusal(o: UndoOutcome): string {
  const note = `"${o.note}"`;
  switch (o.why) {
    case 'changed_since':
      return `${note} was changed after the agent wrote it, so undoing would lose those later changes; it was left as it is. Edit it by hand if you still want the agent's change gone.`;
    case 'gone':
      return `${note} no longer exists (it was deleted or moved since), so there is nothing to put back.`;
    case 'exists_again':
      return `A note exists at ${note} again, so the deleted version was not put back over it. Rename or delete that note, then undo again.`;
    case 'already_undone':
      return `This change to ${note} was already undone.`;
    case 'is_undo':
      return `This is itself an undo, and an undo is not undone. Ask the agent to make the change again if you want it back.`;
    case 'not_applied':
      return `This change to ${note} was recorded but never made, so there is nothing to undo.`;
    case 'decision':
      return `This is your decision on a staged change; it changed no note, so there is nothing to undo.`;
    case 'too_large':
      return `A text of this change to ${note} is over 5 MB and was kept by its fingerprint only, so it cannot be put back. Restore the note from a backup.`;
    case 'missing_text':
      return `The earlier text of ${note} is missing from the journal or damaged, so it cannot be put back. Restore the note from a backup.`;
    case 'unproven':
      return `The journal cannot prove this change to ${note} (its chain or its key does not check), so it is not undone here. Restore the note by hand if needed.`;
    case 'with_group':
      return `${note} was not undone: the changes of this operation are undone together or not at all, and another of its notes cannot be undone (see the line about it).`;
    default:
      return `${note} was not undone: ${o.reason ?? 'the undo failed'}`;
  }
}

/** The journal's undo result, each refusal worded for the page. */
async function plainly(result: Promise<UndoResult>): Promise<UndoResult> {
  const { outcomes } = await result;
  return { outcomes: outcomes.map((o) => (o.outcome === 'refused' ? { ...o, reason: plainRefusal(o) } : o)) };
}

/** One change alone: not past a broken chain, and not one note of an operation of several. */
function undoEntry(ctx: ApiContext, id: string) {
  const facts = new JournalFacts(ctx.journal);
  const entry = facts.all.find((e) => e.id === id);
  if (entry !== undefined) {
    const untrusted = facts.untrusted([entry]);
    if (untrusted !== null) refuse(untrusted);
    const members = facts.membersOf(entry);
    if (members.length > 0) {
      refuse(
        `this change is one of the ${members.length} changes of one ${entry.tool} operation, which are undone together or not at all, so that no link is left pointing at a note that moved back. Use "Undo this operation" on the operation instead.`,
      );
    }
  }
  return plainly(ctx.journal.undo({ entry: id }, ctx.actor));
}

function undoGroup(ctx: ApiContext, group: string) {
  const facts = new JournalFacts(ctx.journal);
  const untrusted = facts.untrusted(facts.group(group));
  if (untrusted !== null) refuse(untrusted);
  return plainly(ctx.journal.undo({ group }, ctx.actor));
}

function undoSession(ctx: ApiContext, session: string) {
  const facts = new JournalFacts(ctx.journal);
  const untrusted = facts.untrusted(facts.session(session));
  if (untrusted !== null) refuse(untrusted);
  return plainly(ctx.journal.undo({ session }, ctx.actor));
}

function idsField(body: unknown, name: string): string[] {
  const value = field(body, name) ?? [];
  if (
    !Array.isArray(value) ||
    value.length > 10_000 ||
    value.some((v) => typeof v !== 'string' || v === '')
  ) {
    throw new ConsoleError(400, 'validation_error', `"${name}" must list ids from the Activity page.`);
  }
  return [...new Set(value as string[])];
}

/**
 * "Undo this session" as the page shows it (SPEC 9.4): the listed changes (each one undone alone) and
 * operations (each undone whole), all of that session, newest first. Nothing of the session that is
 * not listed is undone, so a filtered card undoes what it shows and the count the owner confirmed.
 */
async function undoShown(ctx: ApiContext, body: unknown) {
  const session = stringField(body, 'session');
  const entries = idsField(body, 'entries');
  const groups = idsField(body, 'groups');
  if (entries.length + groups.length === 0) {
    throw new ConsoleError(400, 'validation_error', 'Nothing is listed to undo: list the changes shown.');
  }
  const facts = new JournalFacts(ctx.journal);
  const place = new Map(facts.all.map((e, i) => [e.id, i]));
  const units: { target: { entry: string } | { group: string }; at: number }[] = [];
  const listed: JournalEntry[] = [];
  for (const id of entries) {
    const e = facts.all.find((x) => x.id === id);
    if (e === undefined || e.session !== session)
      refuse('a change listed is not one of this session; show the page again and retry.');
    if (facts.membersOf(e as JournalEntry).length > 0)
      refuse(`the change to ${(e as JournalEntry).note} is part of an operation, which is undone whole.`);
    listed.push(e as JournalEntry);
    units.push({ target: { entry: id }, at: place.get(id) as number });
  }
  for (const group of groups) {
    const members = facts.group(group);
    if (members.length === 0 || members.some((m) => m.session !== session))
      refuse('an operation listed is not one of this session; show the page again and retry.');
    listed.push(...members);
    units.push({ target: { group }, at: Math.max(...members.map((m) => place.get(m.id) as number)) });
  }
  const untrusted = facts.untrusted(listed);
  if (untrusted !== null) refuse(untrusted);
  const outcomes = [];
  for (const unit of units.sort((a, b) => b.at - a.at)) {
    outcomes.push(...(await ctx.journal.undo(unit.target, ctx.actor)).outcomes);
  }
  return { outcomes };
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
    handle: (ctx, { body }) => undoEntry(ctx, stringField(body, 'entry')),
  },
  {
    method: 'POST',
    path: 'activity/undo-group',
    handle: (ctx, { body }) => undoGroup(ctx, stringField(body, 'group')),
  },
  {
    method: 'POST',
    path: 'activity/undo-session',
    handle: (ctx, { body }) => undoSession(ctx, stringField(body, 'session')),
  },
  { method: 'POST', path: 'activity/undo-shown', handle: (ctx, { body }) => undoShown(ctx, body) },
];
