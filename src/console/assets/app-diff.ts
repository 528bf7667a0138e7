/**
 * @module
 * Browser code, part 2: diffs drawn like a code review. Numbered lines with a +/− gutter, in a
 * unified or a split (side by side) view; the changed words marked inside a changed line, the words
 * taken out on the removed line and the words put in on the added line; unchanged lines between hunks
 * folded away and shown on request; long new or deleted notes shown in part, the rest on request.
 * Line numbers are drawn by the style sheet from data-n, so copying a diff copies only its text.
 */

export const APP_DIFF = String.raw`
var NARROW = window.matchMedia('(max-width: 48rem)');
var EXPAND_STEP = 20;
var MAX_FETCH = 5000;
/** Lines of a long hunk loaded by one press; hunks of a change drawn by one press. */
var HUNK_STEP = 1000;
var HUNK_PAGE = 20;
var HUNKS_PAGE = 200;

/** The view in effect: split needs room for two columns of text. */
function viewMode() { return state.view === 'split' && !NARROW.matches ? 'split' : 'unified'; }

function codeCell(line, side) {
  var td = el('td', { class: 'code' });
  line.pieces.forEach(function (p) {
    if (!p.changed) appendMarked(td, p.text);
    else td.appendChild(marked(side === 'removed' ? 'del' : 'ins', {}, p.text));
  });
  if (line.pieces.length === 0 || (line.pieces.length === 1 && line.pieces[0].text === '')) td.appendChild(document.createTextNode('\u200b'));
  return td;
}

var SIGN = { context: ' ', removed: '−', added: '+' };
var SR_SIGN = { context: '', removed: 'removed: ', added: 'added: ' };
var ROW_CLASS = { context: 'ctx', removed: 'del', added: 'add' };

function num(n) { return el('td', { class: 'num', 'data-n': n === null ? '' : String(n), 'aria-hidden': 'true' }); }

function signCell(kind) {
  return el('td', { class: 'sign', 'aria-hidden': 'true', text: SIGN[kind] });
}

function unifiedRow(line) {
  var code = codeCell(line, line.kind);
  if (SR_SIGN[line.kind]) code.insertBefore(el('span', { class: 'sr', text: SR_SIGN[line.kind] }), code.firstChild);
  return el('tr', { class: ROW_CLASS[line.kind] }, [num(line.old), num(line.new), signCell(line.kind), code]);
}

function splitHalf(line, side) {
  if (!line) return [el('td', { class: 'num empty', 'aria-hidden': 'true' }), el('td', { class: 'code empty' })];
  var kind = line.kind === 'context' ? 'ctx' : ROW_CLASS[line.kind];
  var code = codeCell(line, line.kind);
  code.className = 'code ' + kind;
  if (SR_SIGN[line.kind]) code.insertBefore(el('span', { class: 'sr', text: SR_SIGN[line.kind] }), code.firstChild);
  var n = num(side === 'old' ? line.old : line.new);
  n.className = 'num ' + kind;
  return [n, code];
}

/** Lines side by side: unchanged lines on both sides, each run of removed lines beside the added run after it. */
function splitRows(lines) {
  var rows = [];
  var i = 0;
  while (i < lines.length) {
    var line = lines[i];
    if (line.kind === 'context') { rows.push(el('tr', {}, splitHalf(line, 'old').concat(splitHalf(line, 'new')))); i++; continue; }
    var removed = [];
    var added = [];
    while (i < lines.length && lines[i].kind === 'removed') removed.push(lines[i++]);
    while (i < lines.length && lines[i].kind === 'added') added.push(lines[i++]);
    for (var k = 0; k < Math.max(removed.length, added.length); k++) {
      rows.push(el('tr', {}, splitHalf(removed[k], 'old').concat(splitHalf(added[k], 'new'))));
    }
  }
  return rows;
}

function diffTable(lines, label) {
  var mode = viewMode();
  var table = el('table', { class: 'diff ' + mode, 'aria-label': label || null });
  var cols = mode === 'split' ? ['num', 'code', 'num', 'code'] : ['num', 'num', 'sign', 'code'];
  table.appendChild(el('colgroup', {}, cols.map(function (c) { return el('col', { class: c }); })));
  var body = el('tbody');
  (mode === 'split' ? splitRows(lines) : lines.map(unifiedRow)).forEach(function (r) { body.appendChild(r); });
  table.appendChild(body);
  return table;
}

function lineRange(start, count) {
  if (count === 0) return 'after line ' + (start - 1);
  return count === 1 ? 'line ' + start : 'lines ' + start + '–' + (start + count - 1);
}

function hunkTitle(h, total) {
  return 'hunk ' + h.index + ' of ' + total + ': ' + lineRange(h.baseStart, h.baseCount) + ' → ' + lineRange(h.newStart, h.newCount);
}

/**
 * Unchanged lines folded away between two hunks (or before the first, after the last): a line saying
 * how many, with buttons that fetch and show them, the ones nearest a hunk first.
 */
function gapBlock(changeId, from, to, offset, nearEnd) {
  var hidden = { from: from, to: to };
  var box = el('div', { class: 'gap' });
  var shown = el('div');
  var bar = el('div', { class: 'gap-bar' });
  box.append(nearEnd ? shown : bar, nearEnd ? bar : shown);
  function draw() {
    var n = hidden.to - hidden.from + 1;
    bar.replaceChildren();
    if (n <= 0) { bar.remove(); return; }
    bar.appendChild(el('span', { class: 'meta', text: '⋯ ' + plural(n, 'unchanged line') + ' hidden' }));
    if (n > EXPAND_STEP) bar.appendChild(el('button', { type: 'button', class: 'quiet small', text: 'Show ' + EXPAND_STEP + ' more', onclick: function () { reveal(EXPAND_STEP); } }));
    var all = n > MAX_FETCH ? 'Show ' + MAX_FETCH + ' more' : n === 1 ? 'Show it' : 'Show all ' + n;
    bar.appendChild(el('button', { type: 'button', class: 'quiet small', text: all, onclick: function () { reveal(Math.min(n, MAX_FETCH)); } }));
  }
  async function reveal(count) {
    var start = nearEnd ? hidden.to - count + 1 : hidden.from;
    await busy(box, async function () {
      try {
        var r = await api('GET', 'pending/' + encodeURIComponent(changeId) + '/lines?side=base&from=' + start + '&count=' + count);
        var lines = r.lines.map(function (text, i) {
          return { kind: 'context', old: start + i, new: start + i + offset, pieces: [{ text: text, changed: false }] };
        });
        var table = diffTable(lines, 'Unchanged lines ' + start + '–' + (start + lines.length - 1));
        if (nearEnd) { shown.insertBefore(table, shown.firstChild); hidden.to = start - 1; }
        else { shown.appendChild(table); hidden.from = start + lines.length; }
      } catch (err) { box.appendChild(messageBox('error', [err.message])); }
    });
    draw();
  }
  draw();
  return box;
}

function capital(text) { return text.charAt(0).toUpperCase() + text.slice(1); }

/** Fetches 'count' lines from line 'from' of hunk 'h' (a page at most each time). */
async function fetchHunkLines(changeId, h, from, count) {
  var r = await api('GET', 'pending/' + encodeURIComponent(changeId) + '/hunk-lines?hunk=' + h.index + '&from=' + from + '&count=' + Math.min(count, MAX_FETCH));
  return r.lines;
}

/**
 * One hunk in its box: the lines the server sent, in order, and when the hunk has more (a long hunk),
 * a bar inside the box that loads the rest of this hunk in place. What is drawn is what the data says:
 * a line of a hunk is never drawn from anything else. 'onShown' is called when the hunk is whole.
 */
function hunkBox(h, total, changeId, decorate, onShown) {
  var box = el('fieldset', { class: 'hunk', 'data-hunk-box': String(h.index) });
  var title = hunkTitle(h, total);
  box.appendChild(el('legend', {}, [decorate ? decorate(h, title) : el('span', { class: 'meta', text: capital(title) })]));
  box.appendChild(diffTable(h.lines, capital(title)));
  var shown = h.lines.length;
  if (!changeId || shown >= h.totalLines) return box;
  box.setAttribute('data-partial', 'true');
  var bar = el('div', { class: 'more-bar hunk-more' });
  box.appendChild(bar);
  async function more(count) {
    await busy(bar, async function () {
      try {
        var want = count;
        while (want > 0 && shown < h.totalLines) {
          var lines = await fetchHunkLines(changeId, h, shown + 1, want);
          if (lines.length === 0) break;
          box.insertBefore(diffTable(lines, capital(title) + ', lines ' + (shown + 1) + '–' + (shown + lines.length)), bar);
          shown += lines.length;
          want -= lines.length;
        }
      } catch (err) { bar.appendChild(messageBox('error', [err.message])); }
    });
    draw();
  }
  function draw() {
    var left = h.totalLines - shown;
    bar.replaceChildren();
    if (left <= 0) {
      bar.remove();
      box.removeAttribute('data-partial');
      if (onShown) onShown();
      return;
    }
    bar.appendChild(el('span', { class: 'meta', text: shown + ' of the ' + h.totalLines + ' lines of this hunk are shown; ' + plural(left, 'more line') + ' of it below, not shown yet.' }));
    if (left > HUNK_STEP) bar.appendChild(el('button', { type: 'button', class: 'quiet small', text: 'Show ' + HUNK_STEP + ' more of this hunk', onclick: function () { more(HUNK_STEP); } }));
    bar.appendChild(el('button', { type: 'button', class: 'quiet small show-hunk', text: 'Show all ' + left + ' left of this hunk', onclick: function () { more(left); } }));
  }
  draw();
  return box;
}

/**
 * The hunks of an update, each in its own box ('decorate' adds a checkbox to its legend, or null),
 * with the unchanged lines between them folded. The first hunks come with the change; a bar after
 * them loads the next ones in place. 'changeId' null: no lines can be fetched (activity, which is
 * sent whole). 'onShown' is called whenever more of the change was drawn.
 */
function hunksNode(diff, changeId, decorate, onShown) {
  var root = el('div', { class: 'hunks' });
  var total = diff.hunkCount || diff.hunks.length;
  var prevEnd = 0;
  var drawn = 0;
  var moreBar = el('div', { class: 'more-bar hunks-more' });
  root.appendChild(moreBar);
  function add(h) {
    if (changeId && h.baseFrom - 1 >= prevEnd + 1) root.insertBefore(gapBlock(changeId, prevEnd + 1, h.baseFrom - 1, h.newStart - h.baseStart, true), moreBar);
    root.insertBefore(hunkBox(h, total, changeId, decorate, onShown), moreBar);
    prevEnd = h.baseTo;
    drawn = h.index;
    if (changeId && h.index === total && prevEnd < diff.baseLines) {
      var offset = h.newStart + h.newCount - (h.baseStart + h.baseCount);
      root.insertBefore(gapBlock(changeId, prevEnd + 1, diff.baseLines, offset, false), moreBar);
    }
  }
  async function more(count) {
    await busy(moreBar, async function () {
      try {
        var want = count;
        while (want > 0 && drawn < total) {
          var r = await api('GET', 'pending/' + encodeURIComponent(changeId) + '/hunks?from=' + (drawn + 1) + '&count=' + Math.min(want, HUNKS_PAGE));
          if (r.hunks.length === 0) break;
          r.hunks.forEach(add);
          want -= r.hunks.length;
        }
      } catch (err) { moreBar.appendChild(messageBox('error', [err.message])); }
    });
    drawMore();
    if (onShown) onShown();
  }
  function drawMore() {
    var left = total - drawn;
    moreBar.replaceChildren();
    if (left <= 0 || !changeId) { moreBar.hidden = true; return; }
    moreBar.appendChild(el('span', { class: 'meta', text: plural(left, 'more hunk') + ' of this change not shown yet (hunks ' + (drawn + 1) + '–' + total + ').' }));
    if (left > HUNK_PAGE) bar2(HUNK_PAGE, 'Show the next ' + HUNK_PAGE + ' hunks');
    bar2(left, left === 1 ? 'Show it' : 'Show all ' + left);
  }
  function bar2(n, label) { moreBar.appendChild(el('button', { type: 'button', class: 'quiet small show-hunks', text: label, onclick: function () { more(n); } })); }
  diff.hunks.forEach(add);
  drawMore();
  return root;
}

/** A new or deleted note: its lines, the first ones at once and the rest on request. */
function wholeNode(diff, changeId, onShown) {
  var created = diff.kind === 'create';
  var root = el('div', {}, [el('p', { class: 'meta', text: created ? 'A new note, ' + plural(diff.totalLines, 'line') + ':' : 'Deletes the note (an approved deletion goes to the trash). Its ' + plural(diff.totalLines, 'line') + ':' })]);
  root.appendChild(diffTable(diff.lines, created ? 'New note' : 'Deleted note'));
  var next = diff.lines.length + 1;
  var left = function () { root.setAttribute('data-lines-left', String(Math.max(0, diff.totalLines - next + 1))); if (onShown) onShown(); };
  if (changeId) root.setAttribute('data-lines-left', String(Math.max(0, diff.totalLines - next + 1)));
  if (changeId && next <= diff.totalLines) {
    var more = el('div', { class: 'gap-bar' });
    var button = el('button', { type: 'button', class: 'quiet small' });
    var label = function () { var left = diff.totalLines - next + 1; button.textContent = left > MAX_FETCH ? 'Show ' + MAX_FETCH + ' more lines' : 'Show the remaining ' + plural(left, 'line'); };
    label();
    button.addEventListener('click', function () {
      busy(more, async function () {
        try {
          var r = await api('GET', 'pending/' + encodeURIComponent(changeId) + '/lines?side=' + (created ? 'new' : 'base') + '&from=' + next + '&count=' + MAX_FETCH);
          var lines = r.lines.map(function (text, i) {
            var n = next + i;
            return { kind: created ? 'added' : 'removed', old: created ? null : n, new: created ? n : null, pieces: [{ text: text, changed: false }] };
          });
          root.insertBefore(diffTable(lines), more);
          next += lines.length;
          left();
          if (next > diff.totalLines) more.remove(); else label();
        } catch (err) { more.appendChild(messageBox('error', [err.message])); }
      });
    });
    more.appendChild(button);
    root.appendChild(more);
  }
  return root;
}

/** A diff without choices (agent activity). */
function diffNode(diff) {
  if (diff.kind === 'unavailable') return el('p', { class: 'flash warn', text: diff.reason });
  if (diff.kind === 'create' || diff.kind === 'delete') return wholeNode(diff, null);
  if (diff.hunks.length === 0) return el('p', { text: 'The text stays the same.' });
  return hunksNode(diff, null, null, null);
}
`;
