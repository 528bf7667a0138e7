/**
 * @module
 * What each tool really does, and why its annotations say so (issue 18: annotations must be
 * honest). tools.test.ts checks every served tool against this table and writes it into the
 * contract snapshot, so a tool added or changed later must say here what it does before the
 * contract passes.
 *
 * - `reads`: the tool changes nothing anywhere (readOnlyHint true). The text says what it reads,
 *   and for a read that could be mistaken for a write, why it is not one.
 * - `writes`: what the tool changes (readOnlyHint false).
 * - `destroys`: what existing text or file it removes or rewrites (destructiveHint true), or
 *   `false` with `additive` saying why it only adds.
 * - `repeats`: why a second identical call has no further effect (idempotentHint true), or false.
 */

export type Effects =
  | { readonly reads: string }
  | {
      readonly writes: string;
      readonly destroys: string | false;
      readonly additive?: string;
      readonly repeats: string | false;
    };

/** The annotations an entry stands for. */
export function hintsOf(effects: Effects): {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
} {
  if ('reads' in effects) return { readOnlyHint: true, destructiveHint: false, idempotentHint: true };
  return {
    readOnlyHint: false,
    destructiveHint: effects.destroys !== false,
    idempotentHint: effects.repeats !== false,
  };
}

const LISTS = 'Reads the index and the files; writes nothing.';
const REWRITES_BLOCK =
  "The note's generated workflow block (summary, log, json) is rendered afresh: text edited inside it is replaced.";

export const EFFECTS: Record<string, Effects> = {
  get_vault_info: {
    reads: 'Reads the index, the policy, the pending changes and the journal (verifying it); writes nothing.',
  },
  list_notes: { reads: LISTS },
  list_changes: {
    reads:
      "Reads the index's change feed; the index records changes as it catches up with the files, whoever calls, so a call adds none.",
  },
  export_notes: { reads: 'Reads the selected notes and the index; writes nothing.' },
  read_note: { reads: 'Reads one note.' },
  get_note_outline: { reads: 'Reads one note and its links in the index.' },
  search_notes: { reads: LISTS },
  list_tasks: { reads: LISTS },
  get_backlinks: { reads: LISTS },
  get_outgoing_links: { reads: LISTS },
  list_tags: { reads: LISTS },
  list_by_tag: { reads: LISTS },
  get_properties: { reads: 'Reads one note and .obsidian/types.json.' },
  query_notes: { reads: LISTS },
  list_bases: { reads: 'Reads the .base files and the notes holding ```base blocks, and parses them.' },
  query_base: {
    reads: 'Reads one base and evaluates one of its views over the index; computes, writes nothing.',
  },
  create_note: {
    writes: 'Creates a note, from a template note when asked (or stages its creation in a staged folder).',
    destroys: false,
    additive: 'Refused with already_exists when the note exists; a derived name takes the next free one.',
    repeats: false,
  },
  update_note: {
    writes: 'Overwrites a note, or appends to it.',
    destroys: 'Without append, the stored text is replaced by the new one.',
    repeats: false,
  },
  edit_note: {
    writes: 'Changes part of a note: its text, a section, its start, its properties or its tags.',
    destroys:
      'replace and replace_section remove or rewrite existing text; set_properties (null) and remove_tags remove properties and tags.',
    repeats: false,
  },
  delete_note: {
    writes: 'Moves a note to the trash.',
    destroys: 'The note leaves the vault (restorable from the trash until the retention period ends).',
    repeats: false,
  },
  list_trash: {
    reads:
      'Lists deletions. Deletions past the retention period are left out here and purged on start and on a timer, never by this call.',
  },
  restore_note: {
    writes: 'Puts a trashed note back at its original path.',
    destroys: false,
    additive: 'Refused with already_exists when a note is at that path again; nothing is overwritten.',
    repeats: false,
  },
  move_note: {
    writes: 'Moves or renames a note and rewrites the links to it.',
    destroys: 'The note leaves its old path, and links inside other notes are rewritten.',
    repeats: false,
  },
  move_notes: {
    writes: 'Moves or renames several notes and rewrites the links to them.',
    destroys: 'Each note leaves its old path, and links inside other notes are rewritten.',
    repeats: false,
  },
  delete_notes: {
    writes: 'Moves several notes to the trash.',
    destroys: 'The notes leave the vault (restorable from the trash until the retention period ends).',
    repeats: false,
  },
  list_folders: { reads: 'Reads the folder tree and the index; writes nothing.' },
  create_folder: {
    writes: 'Creates a folder and its parents.',
    destroys: false,
    additive: 'Only creates folders; refused when a file is in the way.',
    repeats: 'A folder that exists already is left as it is (created: false).',
  },
  move_folder: {
    writes: 'Moves a folder with its notes and attachments and rewrites the links to them.',
    destroys: 'Everything moved leaves its old path, and links inside other notes are rewritten.',
    repeats: false,
  },
  delete_folder: {
    writes: 'Removes an empty folder.',
    destroys: 'The folder (and its empty sub-folders) is removed.',
    repeats: false,
  },
  create_agent_workflow: {
    writes: 'Creates a workflow note.',
    destroys: false,
    additive: 'Refused with already_exists when the note exists.',
    repeats: false,
  },
  append_agent_event: {
    writes: "Adds an event to a workflow note's log.",
    destroys: REWRITES_BLOCK,
    repeats: false,
  },
  advance_agent_state: {
    writes: "Moves a workflow note's state on.",
    destroys: REWRITES_BLOCK,
    repeats: false,
  },
  approve_agent_gate: {
    writes: 'Approves a gate of a workflow note.',
    destroys: REWRITES_BLOCK,
    repeats: false,
  },
  update_task: {
    writes: 'Changes one task line: its status character, its text, its due date.',
    destroys: 'text replaces what followed the checkbox, and due null removes the due date.',
    repeats:
      'Guarded by the etag: a second identical call finds the note changed (conflict) or, with the new etag, the line already as asked (changed: false).',
  },
  get_daily_note: {
    writes: "Creates the day's note from the daily template when create is true and it is missing.",
    destroys: false,
    additive: 'Never changes a note that exists: it is read and returned.',
    repeats: 'A second call finds the note (or its creation waiting for review) and creates nothing more.',
  },
  list_attachments: { reads: LISTS },
  list_links: { reads: LISTS },
  read_attachment: { reads: 'Reads one attachment (nothing for a file offered as a resource link).' },
  reject_agent_gate: {
    writes: 'Rejects a gate of a workflow note.',
    destroys: REWRITES_BLOCK,
    repeats: false,
  },
};
