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

/** The view in effect: split needs room for two columns of text. */
function viewMode() { return state.view === 'split' && !NARROW.matches ? 'split' : 'unified'; }

function codeCell(line, side) {
  var td = el('td', { class: 'code' });
  line.pieces.forEach(function (p) {
    if (!p.changed) td.appendChild(document.createTextNode(p.text));
    else td.appendChild(el(side === 'removed' ? 'del' : 'ins', { text: p.text }));
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

function firstOld(h) {
  var olds = h.lines.filter(function (l) { return l.old !== null; }).map(function (l) { return l.old; });
  return olds.length ? Math.min.apply(null, olds) : h.baseStart;
}

function lastOld(h) {
  var olds = h.lines.filter(function (l) { return l.old !== null; }).map(function (l) { return l.old; });
  return olds.length ? Math.max.apply(null, olds) : h.baseStart - 1;
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

/**
 * The hunks of an update, each in its own box ('decorate' adds a checkbox to its legend, or null),
 * with the unchanged lines between them folded. 'changeId' null: no lines can be fetched (activity).
 */
function hunksNode(diff, changeId, decorate) {
  var root = el('div', { class: 'hunks' });
  var total = diff.hunks.length;
  var prevEnd = 0;
  diff.hunks.forEach(function (h, i) {
    var start = firstOld(h);
    if (changeId && start - 1 >= prevEnd + 1) root.appendChild(gapBlock(changeId, prevEnd + 1, start - 1, h.newStart - h.baseStart, true));
    var box = el('fieldset', { class: 'hunk', 'data-hunk-box': String(h.index) });
    var title = hunkTitle(h, total);
    box.appendChild(el('legend', {}, [decorate ? decorate(h, title) : el('span', { class: 'meta', text: title.charAt(0).toUpperCase() + title.slice(1) })]));
    box.appendChild(diffTable(h.lines, title));
    if (h.omitted > 0) box.appendChild(el('p', { class: 'meta', text: plural(h.omitted, 'more line') + ' of this hunk are not shown here: it is too long. It is applied whole or not at all; noted-mcp review show ' + (changeId || '') + ' prints all of it.' }));
    root.appendChild(box);
    prevEnd = lastOld(h);
    if (changeId && i === total - 1 && prevEnd < diff.baseLines) {
      var offset = h.newStart + h.newCount - (h.baseStart + h.baseCount);
      root.appendChild(gapBlock(changeId, prevEnd + 1, diff.baseLines, offset, false));
    }
  });
  return root;
}

/** A new or deleted note: its lines, the first ones at once and the rest on request. */
function wholeNode(diff, changeId) {
  var created = diff.kind === 'create';
  var root = el('div', {}, [el('p', { class: 'meta', text: created ? 'A new note, ' + plural(diff.totalLines, 'line') + ':' : 'Deletes the note (an approved deletion goes to the trash). Its ' + plural(diff.totalLines, 'line') + ':' })]);
  root.appendChild(diffTable(diff.lines, created ? 'New note' : 'Deleted note'));
  var next = diff.lines.length + 1;
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
  return hunksNode(diff, null, null);
}
`;
