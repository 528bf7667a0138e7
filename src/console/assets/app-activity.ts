/**
 * @module
 * Browser code, part 4: the Agent activity page. Sessions newest first; each change with its diff on
 * demand and Undo; an operation that changed several notes at once (a move and the links it rewrote, a
 * batch) shown as one, with "Undo this operation" and no Undo for its parts; the journal's integrity
 * at the top, the entry where its chain breaks marked, and no undo offered at or after it.
 */

// biome-ignore lint/complexity/noUselessStringRaw: raw keeps any backslash added later verbatim for the browser
export const APP_ACTIVITY = String.raw`
function undoLines(result) {
  if (result.outcomes.length === 0) return { kind: 'ok', lines: ['Nothing to undo: every change was already undone.'] };
  var refused = 0;
  var lines = result.outcomes.map(function (o) {
    if (o.outcome === 'undone') return 'Undone: ' + o.note + '.';
    refused++;
    return 'Refused: ' + o.note + ': ' + o.reason;
  });
  var done = result.outcomes.length - refused;
  lines.unshift((refused ? 'Undone ' : 'Undone: ') + done + ' of ' + plural(result.outcomes.length, 'change') + '.');
  return { kind: refused ? 'warn' : 'ok', lines: lines };
}

async function undo(scope, path, body, target) {
  await busy(scope, async function () {
    try {
      var u = undoLines(await api('POST', path, body));
      notify(u.kind, u.lines, target);
    } catch (err) { failed(err, target); }
  });
  await reload();
}

function diffToggle(e) {
  var diffBox = el('div', { id: 'd-' + e.id, class: 'entry-diff', hidden: true });
  var toggle = el('button', { type: 'button', class: 'quiet small', text: 'Show diff', 'aria-expanded': 'false', 'aria-controls': 'd-' + e.id });
  toggle.addEventListener('click', async function () {
    var open = toggle.getAttribute('aria-expanded') === 'true';
    toggle.setAttribute('aria-expanded', String(!open));
    toggle.textContent = open ? 'Show diff' : 'Hide diff';
    diffBox.hidden = open;
    if (!open && !diffBox.firstChild) {
      try { diffBox.appendChild(diffNode((await api('GET', 'activity/entries/' + encodeURIComponent(e.id))).diff)); }
      catch (err) { diffBox.appendChild(messageBox('error', [err.message])); }
    }
  });
  return { toggle: toggle, box: diffBox };
}

/** One change; 'alone' false inside an operation, whose parts are not undone one by one. */
function entryItem(e, alone, integrity) {
  var classes = ['entry'];
  if (e.chainBreak) classes.push('chain-break');
  if (!e.verified) classes.push('untrusted');
  var item = el('li', { class: classes.join(' '), 'data-id': e.id });
  var d = diffToggle(e);
  var control = null;
  if (e.kind === 'undo') control = el('span', { class: 'meta', text: 'an undo (not undone in turn)' });
  else if (e.kind === 'not_applied') control = el('span', { class: 'meta', text: 'found at start-up: change ' + e.voids + ' was recorded but never applied' });
  else if (e.notAppliedBy) control = el('span', { class: 'meta', text: 'never applied (recorded, not written): nothing to undo' });
  else if (e.undoneBy) control = el('span', { class: 'meta', text: 'undone' });
  else if (alone && e.undoable) control = el('button', { type: 'button', class: 'quiet small', text: 'Undo', onclick: function () {
    confirmStep({
      title: 'Undo this change?',
      lines: [el('p', {}, ['Undo the ' + e.kind + ' of ', marked('strong', {}, e.note), ' (' + e.tool + ', ' + when(e.time) + '): the note goes back to what it was before. An undo cannot be undone here.'])],
      confirm: 'Undo 1 change',
      danger: true,
      act: function () { undo(item, 'activity/undo', { entry: e.id }, e.id); },
    });
  } });
  item.appendChild(el('div', { class: 'entry-line' }, [
    kindLabel(e), marked('span', { class: 'note-name' }, e.note),
    el('span', { class: 'meta', text: e.tool + ' · ' + when(e.time) }), d.toggle, control,
  ]));
  if (e.chainBreak) {
    item.appendChild(el('p', { class: 'break-note' }, [el('strong', { text: 'The chain breaks here: ' }), integrity.reason + '. Nothing from here on can be undone in the console.']));
  } else if (!e.verified) {
    item.appendChild(el('p', { class: 'meta', text: 'Not proven: ' + (integrity.ok ? 'this entry carries no code of the journal key here' : integrity.scope === 'vault' ? 'the journal does not verify as a whole' : 'after the break in the chain') + ', so not undone here.' }));
  }
  item.appendChild(d.box);
  return item;
}

/** What an operation did, in words: a move names where from and where to. */
function operationTitle(op, members) {
  var notes = {};
  members.forEach(function (m) { notes[m.note] = true; });
  var count = plural(Object.keys(notes).length, 'note') + ' changed together';
  var deleted = members.filter(function (m) { return m.kind === 'delete'; });
  var created = members.filter(function (m) { return m.kind === 'create'; });
  if (deleted.length === 1 && created.length === 1) return op.tool + ': ' + deleted[0].note + ' → ' + created[0].note + ' (' + count + ')';
  return op.tool + ': ' + count;
}

function operationItem(op, members, integrity) {
  var item = el('li', { class: 'operation', 'data-group': op.group, 'data-id': 'op-' + op.group });
  var head = el('div', { class: 'entry-line' }, [
    el('span', { class: 'kind', text: 'operation' }),
    marked('span', { class: 'note-name' }, operationTitle(op, members)),
    el('span', { class: 'meta', text: when(members[0].time) }),
  ]);
  if (op.undoable) {
    head.appendChild(el('button', { type: 'button', class: 'quiet small', text: 'Undo this operation', onclick: function () {
      confirmStep({
        title: 'Undo this operation?',
        lines: ['Undo all ' + plural(members.length, 'change') + ' of this ' + op.tool + ' together:', namesList(members.map(function (m) { return m.note; })), 'An undo cannot be undone here.'],
        confirm: 'Undo ' + plural(members.length, 'change'),
        danger: true,
        act: function () { undo(item, 'activity/undo-group', { group: op.group }, 'op-' + op.group); },
      });
    } }));
  } else if (op.whyNot && op.whyNot !== 'nothing of it was made') {
    head.appendChild(el('span', { class: 'meta', text: op.whyNot === 'already undone' ? 'undone' : 'not undone here: ' + op.whyNot }));
  }
  item.appendChild(head);
  item.appendChild(el('p', { class: 'meta', text: 'Undone together or not at all (like noted-mcp undo --group ' + op.group + '), so no link is left pointing at a note that moved back.' }));
  item.appendChild(el('ul', { class: 'entries members' }, members.map(function (m) { return entryItem(m, false, integrity); })));
  return item;
}

function sessionCard(s, integrity) {
  var card = el('section', { class: 'card', 'data-id': s.session, 'aria-label': 'Session ' + s.session });
  card.appendChild(el('h2', { text: sessionTitle(s) }));
  card.appendChild(el('p', { class: 'meta' }, [
    el('span', { class: 'unverified', text: '(self-declared name, unverified)' }),
    ' · session ' + s.session + ' · ' + when(s.firstTime) + ' – ' + when(s.lastTime) + ' · ' + plural(s.entries.length, 'change'),
  ]));
  var plan = sessionUndoPlan(s);
  if (s.whyNot === null && plan.count > 0) {
    card.appendChild(el('div', { class: 'actions' }, [el('button', { type: 'button', class: 'danger', text: 'Undo this session', onclick: function () { askUndoSession(card, s, plan); } })]));
  } else if (!integrity.ok && /chain is broken/.test(s.whyNot)) {
    card.appendChild(el('p', { class: 'meta', text: 'Undo this session is not offered: ' + s.whyNot }));
  }
  var list = el('ul', { class: 'entries' });
  var drawn = {};
  s.entries.forEach(function (e) {
    var op = e.group ? s.operations[e.group] : null;
    if (!op) { list.appendChild(entryItem(e, true, integrity)); return; }
    if (drawn[e.group]) return;
    drawn[e.group] = true;
    list.appendChild(operationItem(op, s.entries.filter(function (m) { return m.group === e.group; }), integrity));
  });
  card.appendChild(list);
  return card;
}

/**
 * What "Undo this session" undoes: the changes shown on its card (under the filter in effect), each
 * change that can be undone alone and each operation whole; the list the confirmation counts is the
 * list sent, and the server undoes those and nothing else.
 */
function sessionUndoPlan(s) {
  var entries = [];
  var groups = [];
  var notes = [];
  var count = 0;
  s.entries.forEach(function (e) {
    var op = e.group ? s.operations[e.group] : null;
    if (op) {
      if (op.undoable && groups.indexOf(e.group) < 0) { groups.push(e.group); count += op.entries; }
      if (op.undoable) notes.push(e.note);
    } else if (e.undoable && !e.undoneBy) { entries.push(e.id); notes.push(e.note); count++; }
  });
  return { entries: entries, groups: groups, notes: notes, count: count };
}

function askUndoSession(card, s, plan) {
  var f = state.filters;
  var filtered = !!(f.client || f.kind || f.note);
  confirmStep({
    title: 'Undo ' + plural(plan.count, 'change') + ' of this session?',
    lines: [
      'Undo the ' + plural(plan.count, 'change') + ' shown here' + (filtered ? ', under the filter in effect' : '') + ':',
      namesList(plan.notes),
      filtered ? 'Changes of this session the filter hides are not undone.' : 'Every change of this session that can still be undone is among them.',
      'An undo cannot be undone here.',
    ],
    confirm: 'Undo ' + plural(plan.count, 'change'),
    danger: true,
    act: function () { undo(card, 'activity/undo-shown', { session: s.session, entries: plan.entries, groups: plan.groups }, s.session); },
  });
}

function entriesText(n) { return n === 1 ? '1 entry' : n + ' entries'; }

function integrityNode(v) {
  if (v.ok && v.unverified) return el('p', { class: 'integrity broken', role: 'status', text: 'Journal intact as far as this machine can tell: ' + entriesText(v.entries) + '. ' + v.unverified });
  if (v.ok) return el('p', { class: 'integrity ok', text: 'Journal intact: ' + entriesText(v.entries) + ', hash chain verified' + (v.authentication && v.authentication.checked > 0 ? ', entries authenticated with your journal key' : '') + '.' });
  var at = v.brokenAt.file + ' line ' + v.brokenAt.line + (v.brokenAt.id ? ' (entry ' + v.brokenAt.id + ')' : '');
  var box = el('div', { class: 'integrity broken', role: 'alert' }, [
    el('p', { text: 'Journal broken at ' + at + ': ' + v.reason + '. The ' + entriesText(v.entries) + ' before it are intact; nothing at or after that place can be undone here. Run noted-mcp journal verify for the details.' }),
  ]);
  if (v.brokenAt.id) {
    box.appendChild(el('button', { type: 'button', class: 'quiet small', text: 'Show where it breaks', onclick: function () {
      var here = document.querySelector('li[data-id="' + CSS.escape(v.brokenAt.id) + '"]');
      if (here) { here.scrollIntoView({ block: 'center' }); here.setAttribute('tabindex', '-1'); here.focus(); }
      else say('That entry is not among the changes shown; clear the filters to see it.');
    } }));
  }
  return box;
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
  var filtered = !!(f.client || f.kind || f.note);
  var root = el('div', {}, [integrityNode(data.integrity)]);
  if (data.sessions.length === 0 && !filtered) {
    root.appendChild(el('div', { class: 'empty' }, [
      el('p', { class: 'empty-title', text: 'No agent has changed a note yet.' }),
      el('p', { text: 'Every change an agent makes is recorded here before it is made, by session, with its diff and an Undo.' }),
    ]));
    return root;
  }
  root.appendChild(filterForm(data));
  if (data.sessions.length === 0) root.appendChild(el('p', { class: 'empty', text: 'No agent changes match these filters.' }));
  if (data.truncated) root.appendChild(el('p', { class: 'meta', text: 'Only the newest matching changes are shown; narrow the filter to see older ones.' }));
  data.sessions.forEach(function (s) { root.appendChild(sessionCard(s, data.integrity)); });
  return root;
};
`;
