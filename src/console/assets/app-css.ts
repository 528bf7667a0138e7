/**
 * @module
 * The console's style sheet, served as `/app.css`: the page frame and the common controls here, the
 * review view (diffs, cards, the list of changed notes) in app-css-review.ts. Works at phone width
 * (everything wraps; only long diff lines wrap inside their cell) and shows keyboard focus plainly.
 */
import { DECISIONS_CSS } from './app-css-decisions.js';
import { REVIEW_CSS } from './app-css-review.js';
import { TRUST_CSS } from './app-css-trust.js';

const BASE_CSS = `
:root { color-scheme: light dark; --fg: #1c1c1c; --bg: #fbfbfa; --panel: #f1f1ee; --muted: #5c5c5c; --line: #d0d0cc;
  --accent: #1a5fb4; --ins-bg: #d7f5dd; --ins-fg: #0b4a1a; --del-bg: #fbdcdc; --del-fg: #7a0f0f;
  --add-line: #e9f8ec; --del-line: #fcebeb; --ins-strong: #a6e5b4; --del-strong: #f3b1b1;
  --warn-bg: #fff1c2; --warn-fg: #6b4e00; --err-bg: #fde2e2; --ok-bg: #dff3e4; }
@media (prefers-color-scheme: dark) {
  :root { --fg: #e8e8e6; --bg: #1b1c1e; --panel: #24262a; --muted: #a8a8a8; --line: #44464a; --accent: #78aeed;
    --ins-bg: #153d22; --ins-fg: #bdf0c8; --del-bg: #4a1d1d; --del-fg: #ffcaca;
    --add-line: #15281b; --del-line: #2e1818; --ins-strong: #21633a; --del-strong: #7a2a2a;
    --warn-bg: #4a3d10; --warn-fg: #ffe08a; --err-bg: #4a1d1d; --ok-bg: #153d22; }
}
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); background: var(--bg); }
main { max-width: 84rem; margin: 0 auto; padding: 0 1rem 4rem; }
main:focus, h1:focus { outline: none; }
h1 { font-size: 1.5rem; margin: 1rem 0; }
h2 { font-size: 1.15rem; margin: 0 0 .25rem; overflow-wrap: anywhere; }
a { color: var(--accent); }
:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
.skip { position: absolute; left: -999px; top: 0; background: var(--bg); padding: .5rem; }
.skip:focus { left: .5rem; }
.top { display: flex; flex-wrap: wrap; align-items: center; gap: .5rem 1rem; padding: .5rem 1rem; border-bottom: 1px solid var(--line); }
.brand { font-weight: 700; }
nav ul { display: flex; flex-wrap: wrap; gap: .25rem .75rem; list-style: none; margin: 0; padding: 0; }
nav a { display: inline-block; padding: .35rem .5rem; border-radius: .3rem; text-decoration: none; }
nav a[aria-current="page"] { background: var(--accent); color: var(--bg); }
#logout { margin-left: auto; }
.badge { display: inline-block; min-width: 1.5em; padding: 0 .4em; border-radius: 1em; background: var(--del-fg); color: var(--bg); font-size: .85em; text-align: center; }
.badge.none { background: var(--muted); }
.sr { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
.vault { max-width: 84rem; margin: .5rem auto 0; padding: 0 1rem; color: var(--muted); font-size: .9rem; overflow-wrap: anywhere; }
.status { max-width: 84rem; margin: .25rem auto; padding: 0 1rem; min-height: 1.5em; }
.offline { max-width: 84rem; margin: .5rem auto; padding: .6rem 1rem; background: var(--err-bg); border-radius: .4rem; display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: center; }
.offline[hidden] { display: none; }
.offline p { margin: 0; flex: 1 1 20rem; }
.loading { color: var(--muted); }
button, select, input, textarea { font: inherit; }
button { min-height: 2.5rem; padding: .3rem .9rem; border: 1px solid var(--accent); border-radius: .35rem; background: var(--accent); color: var(--bg); cursor: pointer; }
button.quiet { background: transparent; color: var(--accent); }
button.small { min-height: 2rem; padding: .1rem .6rem; font-size: .9rem; }
button.danger { background: var(--del-fg); border-color: var(--del-fg); }
button:disabled { opacity: .5; cursor: not-allowed; }
[aria-busy="true"] { cursor: progress; }
select, input[type="text"], input[type="password"], textarea { min-height: 2.5rem; padding: .25rem .5rem; border: 1px solid var(--line); border-radius: .35rem; background: var(--bg); color: var(--fg); max-width: 100%; }
textarea { width: 100%; font: .9rem/1.45 ui-monospace, "SF Mono", Menlo, Consolas, monospace; }
.actions { display: flex; flex-wrap: wrap; gap: .5rem; margin: .75rem 0; align-items: center; }
.card { border: 1px solid var(--line); border-radius: .5rem; padding: .75rem 1rem; margin: 1rem 0; }
.meta { color: var(--muted); font-size: .9rem; margin: 0 0 .5rem; overflow-wrap: anywhere; }
.unverified { font-style: italic; }
.flash { padding: .6rem .9rem; border-radius: .4rem; margin: .75rem 0; white-space: pre-wrap; overflow-wrap: anywhere; }
.flash.ok { background: var(--ok-bg); }
.flash.error { background: var(--err-bg); }
.flash.warn { background: var(--warn-bg); }
.empty { padding: 1.5rem 1rem; border: 1px dashed var(--line); border-radius: .5rem; color: var(--muted); }
.empty-title { font-size: 1.15rem; color: var(--fg); margin-top: 0; }
label.check { display: inline-flex; gap: .4rem; align-items: center; min-height: 2.25rem; }
.filters { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: end; }
.filters label { display: flex; flex-direction: column; font-size: .9rem; }
pre.snippet { margin: .25rem 0 .75rem; padding: .5rem .75rem; border: 1px solid var(--line); border-radius: .35rem; white-space: pre-wrap; overflow-wrap: anywhere; font: .9rem/1.45 ui-monospace, "SF Mono", Menlo, Consolas, monospace; }
ul.folders { list-style: none; margin: 0; padding: 0; }
ul.folders > li { display: flex; flex-wrap: wrap; gap: .25rem 1rem; align-items: center; justify-content: space-between; border-top: 1px solid var(--line); padding: .35rem 0; }
.folder-name { overflow-wrap: anywhere; }
.effective { color: var(--muted); font-size: .9rem; }
.changed .folder-name::after { content: " (unsaved)"; color: var(--del-fg); font-size: .85rem; }
dl.levels dt { font-weight: 600; }
dl.levels dd { margin: 0 0 .5rem 1rem; }
pre.policy-text { margin: .25rem 0 1rem; padding: .5rem 0; border: 1px solid var(--line); border-radius: .35rem; white-space: pre-wrap; overflow-wrap: anywhere; font: .9rem/1.45 ui-monospace, "SF Mono", Menlo, Consolas, monospace; }
pre.policy-text .line { display: block; padding: 0 .75rem 0 3.5em; text-indent: -2.75em; }
pre.policy-text .line::before { content: attr(data-n); display: inline-block; width: 2em; margin-right: .75em; text-align: right; color: var(--muted); user-select: none; }
pre.policy-text .bad-line { background: var(--err-bg); outline: 2px solid var(--del-fg); }
.salvage-notes { color: var(--muted); }
details.as-text summary { cursor: pointer; color: var(--accent); margin: 1rem 0 .5rem; }
.login { max-width: 40rem; }
.login form { display: flex; flex-wrap: wrap; gap: .5rem; align-items: center; }
@media (max-width: 40rem) {
  body { font-size: 15px; }
  #logout { margin-left: 0; }
  main { padding: 0 .6rem 3rem; }
  .card { padding: .6rem; }
}
`;

const CSS = BASE_CSS + REVIEW_CSS + TRUST_CSS + DECISIONS_CSS;

export function appCss(): string {
  return CSS;
}
