/**
 * @module
 * Which entries an undo takes together (SPEC 6.3): one change (never one part of an operation of
 * several), a group whole, or a session's changes by operation, newest first; entries that changed
 * nothing (never made, a `not_applied` note) left out.
 */
import { NotedError } from '../common/errors.js';
import { changesNothing, type JournalEntry } from './entry.js';
import type { UndoJournal, UndoTarget } from './undo-journal.js';

/** The sets of entries to undo together, newest first; each set's entries newest first. */
export function unitsOf(journal: UndoJournal, target: UndoTarget): JournalEntry[][] {
  if ('entry' in target) {
    const entry = journal.get(target.entry);
    if (entry === null) {
      throw new NotedError(
        'not_found',
        `No journal entry has the id "${target.entry}". Run "noted-mcp journal list" to see entry ids.`,
      );
    }
    refusePartOfOperation(journal, entry);
    return [[entry]];
  }
  const all = journal.entries();
  const voided = voidedEntries(all);
  if ('group' in target) {
    const members = all.filter((e) => e.group === target.group).reverse();
    if (members.length === 0) {
      throw new NotedError(
        'not_found',
        `No journal entry belongs to the group "${target.group}". Run "noted-mcp journal list" to see groups.`,
      );
    }
    return [withoutNeverApplied(members, voided)];
  }
  const mine = all.filter((e) => e.session === target.session);
  if (mine.length === 0) {
    throw new NotedError(
      'not_found',
      `The session "${target.session}" made no recorded change. Run "noted-mcp journal list" to see sessions.`,
    );
  }
  // An undo that was recorded but never made undid nothing.
  const undone = new Set(all.flatMap((e) => (e.undoOf === undefined || voided.has(e.id) ? [] : [e.undoOf])));
  const units = new Map<string, JournalEntry[]>();
  for (const e of mine.slice().reverse()) {
    if (changesNothing(e) || voided.has(e.id)) continue;
    const key = e.group === undefined ? `entry:${e.id}` : `group:${e.group}`;
    units.set(key, [...(units.get(key) ?? []), e]);
  }
  // Map order is first insertion, and entries were visited newest first: units come newest first.
  // A unit with nothing left to undo is skipped; a group only partly undone stays, and is refused.
  return [...units.values()].filter((unit) => unit.some((e) => e.kind !== 'undo' && !undone.has(e.id)));
}

/**
 * One change of an operation of several (a move: the note and the links to it; a batch) is undone
 * with the others or not at all: undone alone, it would leave links pointing at a note that moved
 * back, or half a batch. The console refuses the same.
 */
function refusePartOfOperation(journal: UndoJournal, entry: JournalEntry): void {
  if (entry.group === undefined) return;
  const members = journal.entries().filter((e) => e.group === entry.group && !changesNothing(e));
  if (members.length <= 1) return;
  throw new NotedError(
    'conflict',
    `Entry ${entry.id} is one of the ${members.length} changes of one ${entry.tool} operation (group ${entry.group}), which are undone together or not at all, so that no link is left pointing at a note that moved back. Nothing was undone. Undo the whole operation with: noted-mcp undo --group ${entry.group}`,
    { group: entry.group, committed: false },
  );
}

/** Each entry recorded but never made, and the `not_applied` entry that says so. */
export function voidedEntries(entries: readonly JournalEntry[]): Map<string, string> {
  const voided = new Map<string, string>();
  for (const e of entries) if (e.voids !== undefined) voided.set(e.voids, e.id);
  return voided;
}

/**
 * A group without the entries that changed nothing: never made, or a `not_applied` note. When nothing
 * else is left, the whole group stays, so that each entry is refused with its reason.
 */
function withoutNeverApplied(unit: JournalEntry[], voided: Map<string, string>): JournalEntry[] {
  const made = unit.filter((e) => !changesNothing(e) && !voided.has(e.id));
  return made.length === 0 ? unit : made;
}
