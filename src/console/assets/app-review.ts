/**
 * @module
 * Browser code, part 2: the Pending changes page (approve, reject, hunks to drop, approve all, reject
 * all) and the Agent activity page (sessions, diffs on demand, undo, the journal's integrity).
 */

// biome-ignore lint/complexity/noUselessStringRaw: raw keeps any backslash added later verbatim for the browser
export const APP_REVIEW = String.raw`
function askedBy(c) {
  return el('p', { class: 'meta' }, [
    'Asked by ', el('strong', { text: c.client }), ' ', el('span', { class: 'unverified', text: '(self-declared name, unverified)' }),
    ' with ' + c.tool + ' at ' + when(c.createdAt) + ' · session ' + c.session,
  ]);
}

var KIND_TITLE = { create: 'New note', update: 'Change', delete: 'Deletion' };

async function approveChange(id, keep) {
  try {
    var r = await api('POST', 'pending/' + encodeURIComponent(id) + '/approve', keep ? { keep: keep } : {});
    var h = r.result.hunks;
    var what = r.result.outcome === 'created' ? 'created' : r.result.outcome === 'trashed' ? 'moved to the trash'
      : r.result.outcome === 'unchanged' ? 'left as it was (the kept hunks change nothing)'
      : 'updated' + (h && h.kept.length < h.total ? ' (' + h.kept.length + ' of ' + h.total + ' hunks applied)' : '');
    flash('ok', ['Approved: ' + r.result.note + ' ' + what + '.']);
  } catch (err) { failed(err, id); }
  await reload();
}

async function rejectChange(id) {
  try {
    var r = await api('POST', 'pending/' + encodeURIComponent(id) + '/reject');
    flash('ok', ['Rejected the change' + (r.result.note ? ' to ' + r.result.note : '') + '; the note was not touched.']);
  } catch (err) { failed(err, id); }
  await reload();
}

function hunkChooser(change, diff, approveButton) {
  var total = diff.hunks.length;
  var boxes = [];
  var update = function () {
    var kept = boxes.filter(function (b) { return b.checked; }).length;
    approveButton.disabled = kept === 0;
    approveButton.textContent = kept === total ? 'Approve' : kept === 0 ? 'Approve (keep at least one hunk)' : 'Approve ' + kept + ' of ' + total;
  };
  var list = el('div', {}, diff.hunks.map(function (h) {
    var box = el('input', { type: 'checkbox', checked: true, 'data-hunk': String(h.index) });
    boxes.push(box);
    var set = el('fieldset', { class: 'hunk' }, [
      el('legend', {}, [el('label', { class: 'check' }, [box, 'Keep ' + hunkTitle(h, total).replace('Hunk', 'hunk')])]),
      hunkPre(h),
    ]);
    box.addEventListener('change', function () { set.classList.toggle('dropped', !box.checked); update(); });
    return set;
  }));
  approveButton.addEventListener('click', function () {
    var keep = boxes.filter(function (b) { return b.checked; }).map(function (b) { return Number(b.getAttribute('data-hunk')); });
    approveChange(change.id, keep.length === total ? null : keep);
  });
  update();
  return list;
}

async function changeCard(summary) {
  var card = el('article', { class: 'card change', 'data-id': summary.id, 'aria-labelledby': 'h-' + summary.id });
  card.appendChild(el('h2', { id: 'h-' + summary.id }, [KIND_TITLE[summary.kind] + ': ', el('span', { class: 'note-name', text: summary.note })]));
  card.appendChild(askedBy(summary));
  var approveButton = el('button', { type: 'button', text: 'Approve' });
  var detail;
  try { detail = await api('GET', 'pending/' + encodeURIComponent(summary.id)); } catch (err) {
    card.appendChild(el('p', { class: 'flash error', text: err.message }));
    return card;
  }
  if (detail.diff.kind === 'update' && detail.diff.hunks.length > 0) {
    card.appendChild(el('p', { text: 'Changed words are marked. Uncheck a hunk to drop it before approving.' }));
    card.appendChild(hunkChooser(summary, detail.diff, approveButton));
  } else {
    card.appendChild(diffNode(detail.diff));
    approveButton.addEventListener('click', function () { approveChange(summary.id, null); });
  }
  card.appendChild(el('div', { class: 'actions' }, [
    approveButton,
    el('button', { type: 'button', class: 'quiet', text: 'Reject', onclick: function () { rejectChange(summary.id); } }),
  ]));
  return card;
}

PAGES.pending = async function () {
  var data = await api('GET', 'pending');
  setBadge(data.changes.length);
  var root = el('div');
  if (data.changes.length === 0) root.appendChild(el('p', { text: 'No changes are waiting for review.' }));
  else {
    root.appendChild(el('p', { text: plural(data.changes.length, 'change') + ' waiting, oldest first. Approving writes the note; it is refused, with nothing written, when the note changed since the agent saw it.' }));
    root.appendChild(el('div', { class: 'actions' }, [
      el('button', { type: 'button', text: 'Approve all', onclick: approveEverything }),
      confirmButton('Reject all', 'Press again to reject all ' + data.changes.length, rejectEverything, 'danger'),
    ]));
  }
  data.damaged.forEach(function (d) {
    var card = el('article', { class: 'card', 'data-id': d.id }, [
      el('h2', { text: 'Unreadable change ' + d.id }), el('p', { text: d.reason }),
      el('button', { type: 'button', class: 'quiet', text: 'Reject', onclick: function () { rejectChange(d.id); } }),
    ]);
    root.appendChild(card);
  });
  var cards = await Promise.all(data.changes.map(changeCard));
  cards.forEach(function (c) { root.appendChild(c); });
  return root;
};

async function approveEverything() {
  try {
    var r = await api('POST', 'pending-all/approve');
    var refused = r.outcomes.filter(function (o) { return !o.ok; });
    var lines = ['Approved ' + (r.outcomes.length - refused.length) + ' of ' + plural(r.outcomes.length, 'change') + '.'];
    refused.forEach(function (o) { lines.push('Refused ' + o.note + ': ' + o.error.message); });
    flash(refused.length ? 'warn' : 'ok', lines);
  } catch (err) { failed(err); }
  await reload();
}

async function rejectEverything() {
  try {
    var r = await api('POST', 'pending-all/reject');
    flash('ok', ['Rejected ' + plural(r.rejected.length, 'change') + '; no note was touched.']);
  } catch (err) { failed(err); }
  await reload();
}

function undoLines(result) {
  if (result.outcomes.length === 0) return { kind: 'ok', lines: ['Nothing to undo: every change was already undone.'] };
  var refused = 0;
  var lines = result.outcomes.map(function (o) {
    if (o.outcome === 'undone') return 'Undone: ' + o.note + '.';
    refused++;
    return 'Refused: ' + o.note + ': ' + o.reason;
  });
  return { kind: refused ? 'warn' : 'ok', lines: lines };
}

async function undo(path, body, target) {
  try {
    var u = undoLines(await api('POST', path, body));
    flash(u.kind, u.lines, target);
  } catch (err) { failed(err, target); }
  await reload();
}

function entryItem(e) {
  var item = el('li', { 'data-id': e.id });
  var diffBox = el('div', { id: 'd-' + e.id, hidden: true });
  var toggle = el('button', { type: 'button', class: 'quiet', text: 'Show diff', 'aria-expanded': 'false', 'aria-controls': 'd-' + e.id });
  toggle.addEventListener('click', async function () {
    var open = toggle.getAttribute('aria-expanded') === 'true';
    toggle.setAttribute('aria-expanded', String(!open));
    toggle.textContent = open ? 'Show diff' : 'Hide diff';
    diffBox.hidden = open;
    if (!open && !diffBox.firstChild) {
      try { diffBox.appendChild(diffNode((await api('GET', 'activity/entries/' + encodeURIComponent(e.id))).diff)); }
      catch (err) { diffBox.appendChild(el('p', { class: 'flash error', text: err.message })); }
    }
  });
  var undoControl = e.kind === 'undo' ? el('span', { class: 'meta', text: 'an undo (not undone in turn)' })
    : e.kind === 'not_applied' ? el('span', { class: 'meta', text: 'found at start-up: change ' + e.voids + ' was recorded but never applied' })
    : e.notAppliedBy ? el('span', { class: 'meta', text: 'never applied (recorded, not written): nothing to undo' })
    : e.undoneBy ? el('span', { class: 'meta', text: 'undone' })
    : el('button', { type: 'button', class: 'quiet', text: 'Undo', onclick: function () { undo('activity/undo', { entry: e.id }, e.id); } });
  item.appendChild(el('div', { class: 'entry-line' }, [
    el('span', { class: 'kind', text: e.kind }), el('span', { class: 'note-name', text: e.note }),
    el('span', { class: 'meta', text: e.tool + ' · ' + when(e.time) }), toggle, undoControl,
  ]));
  item.appendChild(diffBox);
  return item;
}

function sessionCard(s) {
  var card = el('section', { class: 'card', 'data-id': s.session, 'aria-label': 'Session ' + s.session });
  card.appendChild(el('h2', { text: s.client === null ? 'Unnamed client' : s.client }));
  card.appendChild(el('p', { class: 'meta' }, [
    el('span', { class: 'unverified', text: '(self-declared name, unverified)' }),
    ' · session ' + s.session + ' · ' + when(s.firstTime) + ' – ' + when(s.lastTime) + ' · ' + plural(s.entries.length, 'change'),
  ]));
  var undoable = s.entries.some(function (e) { return e.undoable; });
  if (undoable) {
    card.appendChild(el('div', { class: 'actions' }, [confirmButton('Undo this session', 'Press again to undo every change of this session', function () {
      undo('activity/undo-session', { session: s.session }, s.session);
    }, 'danger')]));
  }
  card.appendChild(el('ul', { class: 'entries' }, s.entries.map(entryItem)));
  return card;
}

function entriesText(n) { return n === 1 ? '1 entry' : n + ' entries'; }

function integrityNode(v) {
  if (v.ok) return el('p', { class: 'integrity ok', text: 'Journal intact: ' + entriesText(v.entries) + ', hash chain verified.' });
  var at = v.brokenAt.file + ' line ' + v.brokenAt.line + (v.brokenAt.id ? ' (entry ' + v.brokenAt.id + ')' : '');
  return el('p', { class: 'integrity broken', role: 'alert', text: 'Journal broken at ' + at + ': ' + v.reason + '. ' + entriesText(v.entries) + ' before it are intact.' });
}

function filterForm(data) {
  var f = state.filters;
  var option = function (value, label, current) { return el('option', { value: value, selected: value === current, text: label }); };
  var client = el('select', { name: 'client' }, [option('', 'All clients', f.client)].concat(data.clients.map(function (c) { return option(c, c, f.client); })));
  var kind = el('select', { name: 'kind' }, [option('', 'All kinds', f.kind)].concat(data.kinds.map(function (k) { return option(k, k, f.kind); })));
  var note = el('input', { type: 'text', name: 'note', value: f.note, placeholder: 'part of a note name' });
  var form = el('form', { class: 'filters', role: 'search' }, [
    el('label', {}, ['Client', client]), el('label', {}, ['Kind', kind]), el('label', {}, ['Note', note]),
    el('button', { type: 'submit', text: 'Filter' }),
  ]);
  form.addEventListener('submit', function (ev) {
    ev.preventDefault();
    state.filters = { client: client.value, kind: kind.value, note: note.value.trim() };
    reload();
  });
  return form;
}

PAGES.activity = async function () {
  var f = state.filters;
  var q = new URLSearchParams();
  if (f.client) q.set('client', f.client);
  if (f.kind) q.set('kind', f.kind);
  if (f.note) q.set('note', f.note);
  var data = await api('GET', 'activity?' + q.toString());
  var root = el('div', {}, [integrityNode(data.integrity), filterForm(data)]);
  if (data.sessions.length === 0) root.appendChild(el('p', { text: 'No agent changes match.' }));
  if (data.truncated) root.appendChild(el('p', { class: 'meta', text: 'Only the newest matching changes are shown; narrow the filter to see older ones.' }));
  data.sessions.forEach(function (s) { root.appendChild(sessionCard(s)); });
  return root;
};
`;
