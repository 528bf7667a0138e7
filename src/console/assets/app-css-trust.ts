/**
 * @module
 * Styles of issue 30's review parts: the confirmation dialog (placed away from the click that opened
 * it), hidden characters drawn as marks, decided cards folded in place, the folder tree of changed
 * notes, the bars that load more of a long hunk or more hunks, and the list of shortcuts.
 */

export const TRUST_CSS = `
dialog.confirm, dialog.shortcuts { max-width: min(34rem, calc(100vw - 2rem)); border: 1px solid var(--line); border-radius: .6rem; padding: 1rem 1.25rem; background: var(--bg); color: var(--fg); }
dialog::backdrop { background: rgb(0 0 0 / .45); }
dialog.confirm.confirm-low { margin-bottom: 1rem; margin-top: auto; }
dialog.confirm.confirm-high { margin-top: 1rem; margin-bottom: auto; }
.confirm-actions { display: flex; justify-content: space-between; gap: 1rem; margin-top: 1rem; }
.confirm-go:not(.armed) { opacity: .5; }
ul.confirm-names { margin: .25rem 0 .5rem; padding-left: 1.25rem; max-height: 12rem; overflow: auto; overflow-wrap: break-word; }
.hidden-char { display: inline-block; padding: 0 .15em; margin: 0 .05em; border: 1px dashed var(--del-fg); border-radius: .2rem; color: var(--del-fg); background: var(--warn-bg); font: 700 .75em/1.3 ui-monospace, monospace; white-space: nowrap; }
.tag.hidden-tag { background: var(--warn-bg); color: var(--warn-fg); }
article.decided { opacity: .85; }
article.decided .decided-tag { background: var(--ok-bg); }
ol.files li.decided a { text-decoration: line-through; color: var(--muted); }
.file-filter { width: 100%; margin: .5rem 0 .25rem; padding: .3rem .5rem; border: 1px solid var(--line); border-radius: .3rem; background: var(--bg); color: var(--fg); }
.file-tree .folder-head { margin: .5rem 0 0; font: 600 .85rem/1.3 ui-monospace, monospace; color: var(--muted); overflow-wrap: break-word; }
.file-tree ol.files { margin-top: .2rem; }
.file-tree [hidden], .files-box [hidden] { display: none; }
.file-tree ol.files li { padding-left: .6rem; }
ol.files li a, .file-name, .note-name { overflow-wrap: break-word; word-break: normal; hyphens: none; }
.more-bar { display: flex; flex-wrap: wrap; align-items: center; gap: .4rem .75rem; margin: .35rem 0; padding: .3rem .6rem; border: 1px solid var(--warn-fg); border-radius: .35rem; background: var(--warn-bg); }
.more-bar .meta { margin: 0; color: var(--warn-fg); }
.hunks-more[hidden] { display: none; }
.hunk-select { display: flex; flex-wrap: wrap; gap: .25rem .5rem; align-items: center; }
dl.shortcut-list { display: grid; grid-template-columns: auto 1fr; gap: .3rem 1rem; margin: .5rem 0; }
dl.shortcut-list dd { margin: 0; }
.copied { color: var(--ins-fg); font-weight: 600; margin-left: .5rem; }
.policy-diff { max-height: 50vh; overflow: auto; }
kbd { display: inline-block; min-width: 1.4em; padding: 0 .35em; border: 1px solid var(--line); border-bottom-width: 2px; border-radius: .25rem; font: .9rem ui-monospace, monospace; text-align: center; }
`;
