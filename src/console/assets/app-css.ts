/**
 * @module
 * The console's style sheet, served as `/app.css`. Works at phone width (everything wraps, nothing
 * needs sideways scrolling but long diff lines) and shows keyboard focus plainly.
 */

const CSS = `
:root { color-scheme: light dark; --fg: #1c1c1c; --bg: #fbfbfa; --muted: #5c5c5c; --line: #d0d0cc;
  --accent: #1a5fb4; --ins-bg: #d7f5dd; --ins-fg: #0b4a1a; --del-bg: #fbdcdc; --del-fg: #7a0f0f;
  --warn-bg: #fff1c2; --err-bg: #fde2e2; --ok-bg: #dff3e4; }
@media (prefers-color-scheme: dark) {
  :root { --fg: #e8e8e6; --bg: #1b1c1e; --muted: #a8a8a8; --line: #44464a; --accent: #78aeed;
    --ins-bg: #153d22; --ins-fg: #bdf0c8; --del-bg: #4a1d1d; --del-fg: #ffcaca;
    --warn-bg: #4a3d10; --err-bg: #4a1d1d; --ok-bg: #153d22; }
}
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); background: var(--bg); }
main { max-width: 64rem; margin: 0 auto; padding: 0 1rem 4rem; }
h1 { font-size: 1.5rem; margin: 1rem 0; }
h2 { font-size: 1.15rem; margin: 0 0 .25rem; overflow-wrap: anywhere; }
a { color: var(--accent); }
:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
.top { display: flex; flex-wrap: wrap; align-items: center; gap: .5rem 1rem; padding: .5rem 1rem; border-bottom: 1px solid var(--line); }
.brand { font-weight: 700; }
nav ul { display: flex; flex-wrap: wrap; gap: .25rem .75rem; list-style: none; margin: 0; padding: 0; }
nav a { display: inline-block; padding: .35rem .5rem; border-radius: .3rem; text-decoration: none; }
nav a[aria-current="page"] { background: var(--accent); color: var(--bg); }
#logout { margin-left: auto; }
.badge { display: inline-block; min-width: 1.5em; padding: 0 .4em; border-radius: 1em; background: var(--del-fg); color: var(--bg); font-size: .85em; text-align: center; }
.badge.none { background: var(--muted); }
.sr { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
.vault { max-width: 64rem; margin: .5rem auto 0; padding: 0 1rem; color: var(--muted); font-size: .9rem; overflow-wrap: anywhere; }
.status { max-width: 64rem; margin: .25rem auto; padding: 0 1rem; min-height: 1.5em; }
button, select, input { font: inherit; }
button { min-height: 2.5rem; padding: .3rem .9rem; border: 1px solid var(--accent); border-radius: .35rem; background: var(--accent); color: var(--bg); cursor: pointer; }
button.quiet { background: transparent; color: var(--accent); }
button.danger { background: var(--del-fg); border-color: var(--del-fg); }
button:disabled { opacity: .5; cursor: not-allowed; }
select, input[type="text"], input[type="password"] { min-height: 2.5rem; padding: .25rem .5rem; border: 1px solid var(--line); border-radius: .35rem; background: var(--bg); color: var(--fg); max-width: 100%; }
.actions { display: flex; flex-wrap: wrap; gap: .5rem; margin: .75rem 0; align-items: center; }
.card { border: 1px solid var(--line); border-radius: .5rem; padding: .75rem 1rem; margin: 1rem 0; }
.meta { color: var(--muted); font-size: .9rem; margin: 0 0 .5rem; overflow-wrap: anywhere; }
.unverified { font-style: italic; }
.flash { padding: .6rem .9rem; border-radius: .4rem; margin: .75rem 0; white-space: pre-wrap; overflow-wrap: anywhere; }
.flash.ok { background: var(--ok-bg); }
.flash.error { background: var(--err-bg); }
.flash.warn { background: var(--warn-bg); }
pre.diff { margin: .25rem 0 .75rem; padding: .5rem .75rem; border: 1px solid var(--line); border-radius: .35rem; white-space: pre-wrap; overflow-wrap: anywhere; font: .9rem/1.45 ui-monospace, "SF Mono", Menlo, Consolas, monospace; }
pre.diff .ctx { color: var(--muted); }
ins { background: var(--ins-bg); color: var(--ins-fg); text-decoration: underline; }
del { background: var(--del-bg); color: var(--del-fg); text-decoration: line-through; }
fieldset.hunk { border: 1px solid var(--line); border-radius: .35rem; margin: .5rem 0; padding: .25rem .75rem; min-width: 0; }
fieldset.hunk.dropped pre { opacity: .45; }
fieldset.hunk legend { padding: 0 .25rem; }
label.check { display: inline-flex; gap: .4rem; align-items: center; min-height: 2.25rem; }
.filters { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: end; }
.filters label { display: flex; flex-direction: column; font-size: .9rem; }
ul.entries { list-style: none; margin: 0; padding: 0; }
ul.entries > li { border-top: 1px solid var(--line); padding: .5rem 0; }
.entry-line { display: flex; flex-wrap: wrap; gap: .25rem .75rem; align-items: center; }
.kind { font-size: .8rem; padding: 0 .45em; border: 1px solid var(--line); border-radius: .3rem; }
.note-name { font-weight: 600; overflow-wrap: anywhere; }
.integrity { padding: .6rem .9rem; border-radius: .4rem; }
.integrity.ok { background: var(--ok-bg); }
.integrity.broken { background: var(--err-bg); }
ul.folders { list-style: none; margin: 0; padding: 0; }
ul.folders > li { display: flex; flex-wrap: wrap; gap: .25rem 1rem; align-items: center; justify-content: space-between; border-top: 1px solid var(--line); padding: .35rem 0; }
.folder-name { overflow-wrap: anywhere; }
.effective { color: var(--muted); font-size: .9rem; }
.changed .folder-name::after { content: " (unsaved)"; color: var(--del-fg); font-size: .85rem; }
dl.levels dt { font-weight: 600; }
dl.levels dd { margin: 0 0 .5rem 1rem; }
.login form { display: flex; flex-wrap: wrap; gap: .5rem; align-items: center; }
@media (max-width: 40rem) {
  body { font-size: 15px; }
  #logout { margin-left: 0; }
  main { padding: 0 .6rem 3rem; }
  .card { padding: .6rem; }
}
`;

export function appCss(): string {
  return CSS;
}
