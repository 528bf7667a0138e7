/**
 * @module
 * Styles of the review view: the list of changed notes beside the changes (above them on a phone),
 * the cards, and the diffs — numbered lines with a +/− gutter, unified or side by side, the changed
 * words marked with a stronger colour and an underline so they do not rely on colour alone.
 */

export const REVIEW_CSS = `
.toolbar { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: center; margin: .75rem 0; }
.toolbar .spacer { flex: 1 1 auto; }
.view-switch { display: flex; align-items: center; gap: .5rem; }
.view-switch .meta { margin: 0; }
fieldset.switch { display: inline-flex; gap: .75rem; border: 0; margin: 0; padding: 0; }
.arrivals { padding: .5rem .9rem; border-radius: .4rem; background: var(--warn-bg); margin: .5rem 0; }
.arrivals[hidden] { display: none; }
.review-layout { display: grid; grid-template-columns: minmax(0, 1fr); gap: 0 1.25rem; }
@media (min-width: 64rem) {
  .review-layout { grid-template-columns: 17rem minmax(0, 1fr); align-items: start; }
  .files-box { position: sticky; top: .5rem; max-height: calc(100vh - 1rem); overflow: auto; }
}
.files-box { border: 1px solid var(--line); border-radius: .5rem; padding: .5rem .75rem; margin: 1rem 0; background: var(--panel); }
.files-box summary { cursor: pointer; font-weight: 600; }
ol.files { list-style: none; margin: .5rem 0 0; padding: 0; font-size: .9rem; }
ol.files li { display: flex; flex-wrap: wrap; align-items: baseline; gap: 0 .4rem; padding: .2rem 0; border-top: 1px solid var(--line); }
ol.files li a { flex: 1 1 8rem; min-width: 0; overflow-wrap: break-word; text-decoration: none; }
ol.files li.here a { font-weight: 600; }
ol.files li.viewed a { color: var(--muted); }
.viewed-mark { color: var(--ins-fg); font-weight: 700; }
.kind-letter { display: inline-block; width: 1.3em; margin-right: .3em; text-align: center; border-radius: .25rem; font: 700 .75rem/1.4 ui-monospace, monospace; color: var(--bg); background: var(--muted); }
.kind-letter.k-create { background: var(--ins-fg); }
.kind-letter.k-delete { background: var(--del-fg); }
.counts { font: .85rem ui-monospace, monospace; white-space: nowrap; }
.counts .plus { color: var(--ins-fg); }
.counts .minus { color: var(--del-fg); }
.tag { display: inline-block; padding: 0 .45em; border-radius: .3rem; font-size: .8rem; font-weight: 600; }
.tag[hidden] { display: none; }
.tag.outdated { background: var(--warn-bg); color: var(--warn-fg); border: 1px solid var(--warn-fg); }
.pager { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: center; justify-content: space-between; margin: 1rem 0; }
.card.change { padding: 0; overflow: hidden; }
.card-head { display: flex; flex-wrap: wrap; align-items: center; gap: .25rem .75rem; padding: .5rem .75rem; background: var(--panel); border-bottom: 1px solid var(--line); }
.card.folded .card-head { border-bottom: 0; }
.card-head h2 { flex: 1 1 12rem; margin: 0; font-size: 1rem; }
.card-head h2:focus { outline: none; }
.card-head .viewed { margin-left: auto; font-size: .9rem; }
button.fold { min-height: 2rem; min-width: 2rem; padding: 0; border: 0; font-size: 1rem; }
.card-body { padding: .5rem .75rem; }
.card.folded.viewed-card { opacity: .8; }
fieldset.hunk { border: 1px solid var(--line); border-radius: .35rem; margin: .5rem 0; padding: 0; min-width: 0; overflow: hidden; }
fieldset.hunk legend { margin-left: .5rem; padding: 0 .25rem; font-size: .9rem; }
fieldset.hunk.dropped table { opacity: .4; }
fieldset.hunk.dropped legend::after { content: " — left out"; color: var(--del-fg); }
table.diff { width: 100%; border-collapse: collapse; table-layout: fixed; font: .85rem/1.5 ui-monospace, "SF Mono", Menlo, Consolas, monospace; }
table.diff col.num { width: 3.6em; }
table.diff col.sign { width: 1.4em; }
table.diff td { padding: 0 .4rem; vertical-align: top; }
table.diff td.num { color: var(--muted); text-align: right; user-select: none; font-size: .8rem; border-right: 1px solid var(--line); }
table.diff td.num::before { content: attr(data-n); }
table.diff td.sign { user-select: none; text-align: center; color: var(--muted); }
table.diff td.code { white-space: pre-wrap; overflow-wrap: anywhere; }
table.diff tr.del td, table.diff td.del { background: var(--del-line); }
table.diff tr.add td, table.diff td.add { background: var(--add-line); }
table.diff tr.del td.sign { color: var(--del-fg); font-weight: 700; }
table.diff tr.add td.sign { color: var(--ins-fg); font-weight: 700; }
table.diff td.empty { background: var(--panel); }
table.diff ins { background: var(--ins-strong); color: inherit; text-decoration: none; border-bottom: 2px solid var(--ins-fg); border-radius: .15rem; }
table.diff del { background: var(--del-strong); color: inherit; text-decoration: none; border-bottom: 2px solid var(--del-fg); border-radius: .15rem; }
table.diff.split td.code { border-right: 1px solid var(--line); }
.gap { margin: .25rem 0; }
.gap-bar { display: flex; flex-wrap: wrap; align-items: center; gap: .25rem .75rem; padding: .15rem .6rem; border: 1px dashed var(--line); border-radius: .35rem; background: var(--panel); }
.gap-bar .meta { margin: 0; }
ul.entries { list-style: none; margin: 0; padding: 0; }
ul.entries > li { border-top: 1px solid var(--line); padding: .5rem 0; }
ul.entries.members { margin: .25rem 0 0 1rem; }
ul.entries.members > li { padding: .3rem 0; }
li.operation { border-left: 3px solid var(--accent); padding-left: .6rem !important; }
li.chain-break { background: var(--err-bg); outline: 2px solid var(--del-fg); padding: .5rem !important; border-radius: .35rem; }
li.untrusted { opacity: .75; }
.break-note { margin: .25rem 0; }
.entry-line { display: flex; flex-wrap: wrap; gap: .25rem .75rem; align-items: center; }
.entry-diff { margin-top: .4rem; }
.kind { font-size: .8rem; padding: 0 .45em; border: 1px solid var(--line); border-radius: .3rem; }
.note-name { font-weight: 600; overflow-wrap: break-word; }
.integrity { padding: .6rem .9rem; border-radius: .4rem; margin: 0 0 1rem; }
.integrity p { margin: 0 0 .4rem; }
.integrity.ok { background: var(--ok-bg); }
.integrity.broken { background: var(--err-bg); }
@media (max-width: 40rem) {
  table.diff col.num { width: 2.7em; }
  table.diff col.sign { width: 1.1em; }
  table.diff td { padding: 0 .25rem; }
  .toolbar { gap: .5rem; }
}
`;
