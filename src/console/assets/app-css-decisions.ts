/**
 * @module
 * The styles of the owner's decisions (app-decisions.ts): the Rejected list, the note-group line, the
 * merge onto later edits with its conflicts, and "you" in Agent activity.
 */
export const DECISIONS_CSS = `
.note-group { border-left: 3px solid var(--accent); padding-left: .5rem; }
input.reason { flex: 1 1 12rem; min-width: 0; }
section.merge { border: 1px solid var(--warn-fg); border-radius: .35rem; padding: .5rem .75rem; margin: .5rem 0; background: var(--bg); }
fieldset.hunk.conflict { border-color: var(--del-fg); border-width: 2px; }
fieldset.hunk.conflict legend::after { content: " — overlaps later edits, not applied"; color: var(--del-fg); }
.conflict-pair { border-top: 1px solid var(--line); padding-top: .4rem; margin-top: .4rem; min-width: 0; overflow-x: auto; }
details.rejected-box { margin: 1.5rem 0; border: 1px solid var(--line); border-radius: .5rem; padding: .5rem .75rem; }
details.rejected-box summary { cursor: pointer; font-weight: 600; }
ul.rejected-list { list-style: none; margin: 0; padding: 0; }
li.rejected-item { border-top: 1px solid var(--line); padding: .4rem 0; }
.kind.you { background: var(--ok-bg); color: var(--fg); border-radius: .3rem; padding: 0 .35rem; font-weight: 600; }
`;
