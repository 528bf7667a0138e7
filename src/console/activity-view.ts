/**
 * @module
 * What the Agent activity page shows (SPEC 6): the journal's sessions newest first, each change with
 * what the console may do about it. Three rules decide what is offered:
 * - An operation that changed several notes at once (a move and the links it rewrote, a batch) shares
 *   a `group` and is shown and undone as one, like `noted-mcp undo --group`: undoing one of its notes
 *   alone would leave the others pointing at nothing.
 * - Entries at or after the place where the hash chain breaks cannot be trusted, so nothing there is
 *   undone; the entry where it breaks is marked.
 * - A change already undone, never made, or itself an undo is not undone (as `Journal.undo` decides).
 */
import { changesNothing, type JournalEntry, type JournalKind, type OwnerDecision } from '../journal/entry.js';
import type { Journal } from '../journal/journal.js';
import type { VerifyResult } from '../journal/verify.js';

/** The page shows at most this many entries (the newest matching ones). */
export const MAX_ACTIVITY_ENTRIES = 1000;

export interface EntryView {
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
  /** False at and after the place where the hash chain breaks. */
  readonly verified: boolean;
  /** True for the entry where the chain breaks. */
  readonly chainBreak: boolean;
  /** Whether the console offers Undo for this entry on its own (never for a member of an operation). */
  readonly undoable: boolean;
  /** The owner's decision this entry records (shown as "you"), or null for an agent's own change. */
  readonly decision: OwnerDecision | null;
}

export interface OperationView {
  readonly group: string;
  readonly tool: string;
  /** The notes it changed, with their entries (newest first). */
  readonly entries: number;
  readonly undoable: boolean;
  /** Why "Undo this operation" is not offered, when it is not. */
  readonly whyNot: string | null;
}

export interface SessionView {
  readonly session: string;
  readonly client: string | null;
  readonly firstTime: string;
  readonly lastTime: string;
  readonly entries: EntryView[];
  /** The operations of several notes among the entries, by group. */
  readonly operations: Record<string, OperationView>;
  /** Why "Undo this session" is not offered, when it is not (null: offered). */
  readonly whyNot: string | null;
  /** Every entry shown is the owner's own (undos from the console or the CLI): the session is "you". */
  readonly owner: boolean;
}

export interface ActivityFilter {
  readonly client?: string;
  readonly kind?: JournalKind;
  /** Part of a note's name, lower case. */
  readonly note?: string;
}

/** The journal's entries with what is known about each: trusted or not, undone or not, grouped. */
export class JournalFacts {
  readonly all: JournalEntry[];
  readonly integrity: VerifyResult;
  readonly #trusted: Set<string>;
  readonly #undoneBy = new Map<string, string>();
  readonly #voidedBy = new Map<string, string>();
  readonly #groups = new Map<string, JournalEntry[]>();
  readonly #sessions = new Map<string, JournalEntry[]>();
  readonly #operations = new Map<string, OperationView>();

  constructor(journal: Journal) {
    this.all = journal.entries();
    // Security: an entry is trusted only when its own code checks with this machine's key, in a journal
    // that does not fail as a whole (verify.ts); the chain alone proves nothing about who wrote it.
    const checked = new Set<string>();
    this.integrity = journal.verify({ checked });
    this.#trusted = new Set(
      this.all.slice(0, this.integrity.entries).flatMap((e) => (checked.has(e.hash) ? [e.id] : [])),
    );
    for (const e of this.all) if (e.voids !== undefined) this.#voidedBy.set(e.voids, e.id);
    for (const e of this.all) {
      // An undo recorded but never made undid nothing.
      if (e.undoOf !== undefined && !this.#voidedBy.has(e.id)) this.#undoneBy.set(e.undoOf, e.id);
      if (e.group !== undefined) pushTo(this.#groups, e.group, e);
      pushTo(this.#sessions, e.session, e);
    }
  }

  verified(e: JournalEntry): boolean {
    return this.#trusted.has(e.id);
  }

  /** The other entries of `e`'s operation, or none when it changed one note only. */
  membersOf(e: JournalEntry): JournalEntry[] {
    const members = e.group === undefined ? [] : (this.#groups.get(e.group) ?? []);
    return members.length > 1 ? members : [];
  }

  group(id: string): JournalEntry[] {
    return this.#groups.get(id) ?? [];
  }

  session(id: string): JournalEntry[] {
    return this.#sessions.get(id) ?? [];
  }

  /** Why the console does not undo these entries, or null when it may try. */
  untrusted(entries: readonly JournalEntry[]): string | null {
    if (entries.every((e) => this.verified(e))) return null;
    if (this.integrity.ok) {
      return "these entries are not authenticated by this machine's journal key (written on another machine, before the journal had a key, or added by someone without the key), so the console does not undo them. Run noted-mcp journal verify for details.";
    }
    const at = this.integrity.brokenAt;
    if (this.integrity.scope === 'vault') {
      return `the journal does not verify as a whole (${this.integrity.reason}), so the console undoes none of its entries. Restore those notes by hand if needed.`;
    }
    return `the journal's hash chain is broken (at ${at.file} line ${at.line}: ${this.integrity.reason}), and changes at or after that place cannot be trusted, so the console does not undo them. Restore those notes by hand if needed.`;
  }

  view(e: JournalEntry): EntryView {
    const verified = this.verified(e);
    const undoneBy = this.#undoneBy.get(e.id) ?? null;
    const notAppliedBy = this.#voidedBy.get(e.id) ?? null;
    return {
      id: e.id,
      time: e.time,
      tool: e.tool,
      note: e.note,
      kind: e.kind,
      group: e.group ?? null,
      undoOf: e.undoOf ?? null,
      undoneBy,
      voids: e.voids ?? null,
      notAppliedBy,
      verified,
      chainBreak: !this.integrity.ok && this.integrity.brokenAt.id === e.id,
      undoable: verified && this.#changed(e) && undoneBy === null && this.membersOf(e).length === 0,
      decision: e.decision ?? null,
    };
  }

  operation(group: string): OperationView {
    const known = this.#operations.get(group);
    if (known !== undefined) return known;
    const members = this.group(group);
    const made = members.filter((e) => this.#changed(e));
    const undone = made.filter((e) => this.#undoneBy.has(e.id));
    const whyNot =
      made.length === 0
        ? 'nothing of it was made'
        : undone.length === made.length
          ? 'already undone'
          : undone.length > 0
            ? `${undone.length} of its ${made.length} changes were undone one by one (noted-mcp undo ENTRY), so the rest cannot be undone as one operation`
            : this.untrusted(members);
    const view = {
      group,
      tool: (members[0] as JournalEntry).tool,
      entries: members.length,
      undoable: whyNot === null,
      whyNot,
    };
    this.#operations.set(group, view);
    return view;
  }

  /** Made, and not an undo or a note that a change was never made. */
  #changed(e: JournalEntry): boolean {
    return e.kind !== 'undo' && !changesNothing(e) && !this.#voidedBy.has(e.id);
  }
}

/** Sessions newest first, with the newest matching entries; an operation is shown whole. */
export function activitySessions(
  facts: JournalFacts,
  filter: ActivityFilter,
): { sessions: SessionView[]; truncated: boolean } {
  const matches = (e: JournalEntry) =>
    (filter.client === undefined || e.client === filter.client) &&
    (filter.kind === undefined || e.kind === filter.kind) &&
    (filter.note === undefined || e.note.toLowerCase().includes(filter.note));
  const shownGroups = new Set<string>();
  for (const e of facts.all) if (e.group !== undefined && matches(e)) shownGroups.add(e.group);
  const sessions = new Map<string, SessionView>();
  let shown = 0;
  let truncated = false;
  // Newest first; a session's place is that of its newest shown change.
  for (let i = facts.all.length - 1; i >= 0; i--) {
    const e = facts.all[i] as JournalEntry;
    if (!matches(e) && !(e.group !== undefined && shownGroups.has(e.group))) continue;
    if (shown >= MAX_ACTIVITY_ENTRIES) {
      truncated = true;
      break;
    }
    shown++;
    let session = sessions.get(e.session);
    if (session === undefined) {
      session = {
        session: e.session,
        client: e.client,
        firstTime: e.time,
        lastTime: e.time,
        entries: [],
        operations: {},
        whyNot: null,
        owner: false,
      };
      sessions.set(e.session, session);
    }
    (session as { firstTime: string }).firstTime = e.time;
    session.entries.push(facts.view(e));
    if (facts.membersOf(e).length > 0 && e.group !== undefined) {
      session.operations[e.group] ??= facts.operation(e.group);
    }
  }
  const views = [...sessions.values()].map((s) => ({
    ...s,
    whyNot: sessionWhyNot(facts, s),
    owner: s.entries.every((e) => e.decision !== null && e.kind === 'undo'),
  }));
  return { sessions: views, truncated };
}

/** Why "Undo this session" is not offered; the filter does not matter, the whole session is undone. */
function sessionWhyNot(facts: JournalFacts, s: SessionView): string | null {
  const all = facts.session(s.session);
  const untrusted = facts.untrusted(all);
  if (untrusted !== null) return untrusted;
  const open = all.some((e) =>
    facts.membersOf(e).length > 0 ? facts.operation(e.group as string).undoable : facts.view(e).undoable,
  );
  return open ? null : 'nothing of this session is left to undo';
}

function pushTo(map: Map<string, JournalEntry[]>, key: string, e: JournalEntry): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [e]);
  else list.push(e);
}
