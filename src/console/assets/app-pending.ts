/**
 * @module
 * Browser code, part 3: the Pending changes page, as comfortable as reviewing a pull request. A list
 * of the changed notes with their line counts; the changes in pages of 20, their diffs fetched in one
 * request; each a card that folds away and can be marked viewed; hunks to leave out; an "outdated"
 * mark as soon as a note changes under a change (checked every few seconds and on return to the tab);
 * approve, reject, approve all and reject all. What the owner chose (hunks left out, viewed) is kept
 * for this tab, so drawing the page again never loses it, and Approve all applies exactly that.
 *
 * Issue 30 (SPEC 9.4): a decided card folds in place and focus moves to the next undecided one; Reject,
 * Reject all and Approve all ask through `confirmStep` with the exact list they then act on; an Approve
 * says how many hunks it would apply unseen; names show their hidden characters; a refusal is one plain
 * sentence per kind, naming the notes (`refusalLines`); the list of changed notes is a folder tree
 * with a filter and says how many were viewed.
 */

export const APP_PENDING = String.raw`
var PAGE_SIZE = 20;
var KIND_TITLE = { create: 'New note', update: 'Change', delete: 'Deletion' };
var KIND_LETTER = { create: 'A', update: 'M', delete: 'D' };
var WIDE = window.matchMedia('(min-width: 64rem)');

function saveChoices() { remember('drops', state.drops); remember('viewed', state.viewed); remember('hunks', state.hunks); }

/** Forgets choices about changes that are no longer pending. */
function pruneChoices(ids) {
  var live = {};
  ids.forEach(function (id) { live[id] = true; });
  Object.keys(state.drops).forEach(function (id) { if (!live[id]) delete state.drops[id]; });
  Object.keys(state.viewed).forEach(function (id) { if (!live[id]) delete state.viewed[id]; });
  Object.keys(state.hunks).forEach(function (id) { if (!live[id]) delete state.hunks[id]; });
  saveChoices();
}

function dropped(id) { return state.drops[id] || []; }

/** The hunks to keep of a change whose card was drawn (its hunk numbers are remembered then), or null for all. */
function keptHunks(id) {
  var gone = dropped(id);
  if (gone.length === 0 || !state.hunks[id]) return null;
  return state.hunks[id].filter(function (n) { return gone.indexOf(n) < 0; });
}

function askedBy(c) {
  return el('p', { class: 'meta' }, [
    'Asked by ', el('strong', { text: c.client }), ' ', el('span', { class: 'unverified', text: '(self-declared name, unverified)' }),
    ' with ' + c.tool + ' at ' + when(c.createdAt) + ' · session ' + c.session,
  ]);
}

function counts(c) {
  return el('span', { class: 'counts' }, [
    el('span', { class: 'plus', text: '+' + c.added }), ' ', el('span', { class: 'minus', text: '−' + c.removed }),
    el('span', { class: 'sr', text: ' (' + plural(c.added, 'line') + ' added, ' + plural(c.removed, 'line') + ' removed)' }),
  ]);
}

function outdatedBadge(c) {
  return el('span', { class: 'tag outdated', title: c.outdated ? 'Outdated: ' + c.outdated : null, hidden: !c.outdated, text: 'Outdated' });
}

function pageOf(id) {
  var i = state.pending.changes.findIndex(function (c) { return c.id === id; });
  return i < 0 ? 1 : Math.floor(i / PAGE_SIZE) + 1;
}

function pager(page, pages, total) {
  if (pages <= 1) return null;
  var from = (page - 1) * PAGE_SIZE + 1;
  var to = Math.min(total, page * PAGE_SIZE);
  return el('nav', { class: 'pager', 'aria-label': 'Pages of changes' }, [
    page > 1 ? el('a', { href: '#/pending?page=' + (page - 1), rel: 'prev', text: '← Previous' }) : null,
    el('span', { text: 'Changes ' + from + '–' + to + ' of ' + total + ' (page ' + page + ' of ' + pages + ')' }),
    page < pages ? el('a', { href: '#/pending?page=' + (page + 1), rel: 'next', text: 'Next →' }) : null,
  ]);
}

function viewSwitch() {
  var group = el('fieldset', { class: 'switch' }, [el('legend', { class: 'sr', text: 'Diff view' })]);
  [['unified', 'Unified'], ['split', 'Split']].forEach(function (v) {
    var input = el('input', { type: 'radio', name: 'view', value: v[0], checked: viewMode() === v[0], disabled: v[0] === 'split' && NARROW.matches });
    input.addEventListener('change', function () { state.view = v[0]; remember('view', v[0]); reload(); });
    group.appendChild(el('label', { class: 'check', title: v[0] === 'split' && NARROW.matches ? 'Split needs a wider window' : null }, [input, v[1]]));
  });
  return el('div', { class: 'view-switch' }, [el('span', { class: 'meta', text: 'View:' }), group]);
}

/**
 * The Approve button's label: what it would apply, and how much of that was not drawn yet
 * ("Approve 3 hunks, 2 not yet shown"), so nothing is approved unseen without saying so.
 */
function approveLabel(kept, total, unseen) {
  if (kept === 0) return 'Approve (keep at least one hunk)';
  if (!unseen) return kept === total ? 'Approve' : 'Approve ' + kept + ' of ' + total;
  return 'Approve ' + (kept === total ? plural(total, 'hunk') : kept + ' of ' + total + ' hunks') + ', ' + unseen + ' not yet shown';
}

/** Hunks (kept ones) of a card not drawn in full yet, and lines of a new or deleted note not drawn yet. */
function unseenOf(card, c, total) {
  var node = card.querySelector('.hunks');
  if (node) {
    var gone = dropped(c.id);
    var whole = {};
    node.querySelectorAll('fieldset.hunk:not([data-partial])').forEach(function (f) { whole[f.getAttribute('data-hunk-box')] = true; });
    var n = 0;
    for (var i = 1; i <= total; i++) if (!whole[String(i)] && gone.indexOf(i) < 0) n++;
    return n;
  }
  var whole = card.querySelector('[data-lines-left]');
  return whole ? Number(whole.getAttribute('data-lines-left')) : 0;
}

/** The hunks of an update with a Keep box each; the boxes remember their state for this tab. */
function hunkChooser(card, c, diff, approveButton) {
  var total = diff.hunkCount;
  var update = function () {
    var kept = total - dropped(c.id).length;
    approveButton.disabled = kept === 0 || !!c.outdated;
    approveButton.textContent = approveLabel(kept, total, unseenOf(card, c, total));
  };
  var setBox = function (box, index, keep) {
    box.checked = keep;
    box.closest('fieldset').classList.toggle('dropped', !keep);
  };
  // One hunk is approved or rejected as the whole change: nothing to leave out.
  var node = hunksNode(diff, c.id, total === 1 ? null : function (h, title) {
    var box = el('input', { type: 'checkbox', checked: dropped(c.id).indexOf(h.index) < 0, 'data-hunk': String(h.index) });
    box.addEventListener('change', function () {
      var rest = dropped(c.id).filter(function (n) { return n !== h.index; });
      if (!box.checked) rest.push(h.index);
      state.drops[c.id] = rest;
      if (rest.length === 0) delete state.drops[c.id];
      saveChoices();
      setBox(box, h.index, box.checked);
      update();
    });
    return el('label', { class: 'check' }, [box, 'Keep ' + title]);
  }, function () {
    node.querySelectorAll('input[data-hunk]').forEach(function (box) {
      var n = Number(box.getAttribute('data-hunk'));
      setBox(box, n, dropped(c.id).indexOf(n) < 0);
    });
    update();
  });
  dropped(c.id).forEach(function (n) {
    var set = node.querySelector('[data-hunk-box="' + n + '"]');
    if (set) set.classList.add('dropped');
  });
  // Keep all or none of the hunks at once, the ones not drawn yet included.
  var all = function (keep) {
    if (keep) delete state.drops[c.id];
    else state.drops[c.id] = Array.from({ length: total }, function (_, i) { return i + 1; });
    saveChoices();
    node.querySelectorAll('input[data-hunk]').forEach(function (box) { setBox(box, Number(box.getAttribute('data-hunk')), keep); });
    update();
  };
  var wrap = el('div', {}, [
    total > 1 ? el('p', { class: 'meta hunk-select' }, [
      'Uncheck a hunk to leave it out when you approve. ',
      el('button', { type: 'button', class: 'quiet small', text: 'Keep all ' + total + ' hunks', onclick: function () { all(true); } }), ' ',
      el('button', { type: 'button', class: 'quiet small', text: 'Keep none', onclick: function () { all(false); } }),
    ]) : null,
    node,
  ]);
  setTimeout(update, 0);
  update();
  return wrap;
}

function setViewed(card, c, on) {
  if (on) state.viewed[c.id] = true; else delete state.viewed[c.id];
  saveChoices();
  setFolded(card, c, on);
  var item = document.querySelector('[data-file-item="' + CSS.escape(c.id) + '"]');
  if (item) { item.classList.toggle('viewed', on); item.querySelector('.viewed-mark').hidden = !on; }
  updateViewedCount();
}

function setFolded(card, c, folded) {
  state.folded[c.id] = folded;
  card.classList.toggle('folded', folded);
  var fold = card.querySelector('button.fold');
  fold.setAttribute('aria-expanded', String(!folded));
  fold.textContent = folded ? '▸' : '▾';
  card.querySelector('.card-body').hidden = folded;
}

function changeCard(c, detail) {
  var card = el('article', { class: 'card change', 'data-id': c.id, 'data-note': c.note, 'aria-labelledby': 'h-' + c.id });
  var fold = el('button', { type: 'button', class: 'fold quiet', 'aria-controls': 'b-' + c.id, 'aria-label': 'Show or hide the change to ' + c.note });
  var viewed = el('input', { type: 'checkbox', checked: !!state.viewed[c.id] });
  card.appendChild(el('header', { class: 'card-head' }, [
    fold,
    el('h2', { id: 'h-' + c.id, tabindex: '-1' }, [KIND_TITLE[c.kind] + ': ', nameNode('span', { class: 'note-name' }, c.note)]),
    counts(c), outdatedBadge(c),
    c.hidden && c.hidden.length ? el('span', { class: 'tag hidden-tag', title: 'Holds invisible characters', text: 'Invisible characters' }) : null,
    el('label', { class: 'check viewed' }, [viewed, 'Viewed']),
  ]));
  var body = el('div', { class: 'card-body', id: 'b-' + c.id });
  card.appendChild(body);
  body.appendChild(askedBy(c));
  var warning = hiddenWarning(c.hidden);
  if (warning) body.appendChild(warning);
  var groupLine = noteGroupLine(c);
  if (groupLine) body.appendChild(groupLine);
  body.appendChild(el('p', { class: 'flash warn outdated-why', hidden: !c.outdated, text: c.outdated ? 'Outdated: ' + c.outdated + '. Approving is refused while the note differs from what the agent saw; reject this change, or let the agent redo it on the current text.' : '' }));
  var approveButton = el('button', { type: 'button', class: 'approve', text: 'Approve', disabled: !!c.outdated });
  if (detail.error) {
    body.appendChild(messageBox('error', [refusalSentence(detail.error, c.note)]));
  } else if (detail.diff.kind === 'update' && detail.diff.hunkCount > 0) {
    body.appendChild(hunkChooser(card, c, detail.diff, approveButton));
    if (detail.merge) body.appendChild(mergeSection(card, c, detail.merge, detail.diff));
  } else {
    body.appendChild(detail.diff.kind === 'update' ? el('p', { text: 'The text stays the same.' }) : wholeNode(detail.diff, c.id, function () { wholeLabel(card, approveButton); }));
    wholeLabel(card, approveButton);
  }
  approveButton.addEventListener('click', function () { approveChange(card, c, keptHunks(c.id)); });
  body.appendChild(el('div', { class: 'actions' }, [
    approveButton,
    reasonInput(c),
    el('button', { type: 'button', class: 'quiet reject', text: 'Reject', onclick: function () { askReject(card, c); } }),
  ]));
  fold.addEventListener('click', function () { if (card.classList.contains('change')) setFolded(card, c, !card.classList.contains('folded')); else { body.hidden = !body.hidden; fold.textContent = body.hidden ? '▸' : '▾'; } });
  viewed.addEventListener('change', function () { setViewed(card, c, viewed.checked); });
  var folded = state.folded[c.id];
  setFolded(card, c, folded === undefined ? !!state.viewed[c.id] : folded);
  return card;
}

/** A new or deleted note's Approve: says how many of its lines were not drawn yet. */
function wholeLabel(card, button) {
  var left = unseenOf(card, null, 0);
  button.textContent = left > 0 ? 'Approve, ' + plural(left, 'line') + ' not yet shown' : 'Approve';
}

function damagedCard(d) {
  var c = { id: d.id, note: 'an unreadable change', client: 'an unknown client' };
  var card = el('article', { class: 'card change damaged', 'data-id': d.id }, [
    el('header', { class: 'card-head' }, [el('button', { type: 'button', class: 'fold quiet', 'aria-hidden': 'true', tabindex: '-1' }), el('h2', { tabindex: '-1', text: 'Unreadable change ' + d.id })]),
  ]);
  var body = el('div', { class: 'card-body' }, [el('p', { text: d.reason })]);
  body.appendChild(el('div', { class: 'actions' }, [el('button', { type: 'button', class: 'quiet reject', text: 'Reject', onclick: function () { askReject(card, c); } })]));
  card.appendChild(body);
  return card;
}

/** What Approve all would do now: every listed change as its card shows it, outdated ones left. */
function approvalPlan() {
  var changes = state.pending.changes.slice();
  var ready = changes.filter(function (c) { return !c.outdated; });
  var partial = ready.filter(function (c) { return keptHunks(c.id) !== null; }).length;
  return {
    changes: ready,
    choices: ready.map(function (c) {
      var keep = keptHunks(c.id);
      return keep ? { id: c.id, keep: keep } : { id: c.id };
    }),
    lines: [
      'Approve ' + plural(ready.length, 'change') + ' as the cards show them' + (partial ? ' (' + partial + ' with hunks left out)' : '') + ': each note is written now.',
      namesList(ready.map(function (c) { return c.note; })),
    ].concat(changes.length > ready.length ? [plural(changes.length - ready.length, 'outdated change') + ' stay pending.'] : [])
      .concat(changes.length > PAGE_SIZE ? ['This includes changes on other pages of the list, as their cards would show them (every hunk kept unless you left some out).'] : []),
  };
}

function askApproveAll() {
  var plan = approvalPlan();
  if (plan.choices.length === 0) { say('Nothing to approve: every change listed is outdated.'); return; }
  confirmStep({ title: 'Approve all ' + plural(plan.choices.length, 'change') + '?', lines: plan.lines, confirm: 'Approve ' + plural(plan.choices.length, 'change'), act: function () { approveEverything(plan); } });
}

function askRejectAll() {
  var changes = state.pending.changes.slice();
  confirmStep({
    title: 'Reject all ' + plural(changes.length, 'change') + '?',
    lines: ['Reject ' + plural(changes.length, 'change') + ': no note is touched, and the agents\u2019 texts are taken off the list.', namesList(changes.map(function (c) { return c.note; }))],
    confirm: 'Reject ' + plural(changes.length, 'change'),
    danger: true,
    act: function () { rejectEverything(changes); },
  });
}

async function approveEverything(plan) {
  var notes = {};
  plan.changes.forEach(function (c) { notes[c.id] = c.note; });
  await busy(document.getElementById('main'), async function () {
    try {
      var r = await api('POST', 'pending-all/approve', { changes: plan.choices });
      var refused = r.outcomes.filter(function (o) { return !o.ok; }).map(function (o) { return { note: o.note || notes[o.id], code: o.error.code, message: o.error.message }; });
      var lines = ['Approved ' + (r.outcomes.length - refused.length) + ' of ' + plural(r.outcomes.length, 'change') + '.'].concat(refusalLines(refused));
      if (r.stillPending > 0) lines.push(plural(r.stillPending, 'change') + ' still waiting.');
      notify(refused.length ? 'warn' : 'ok', lines);
    } catch (err) { notify('error', [refusalSentence(err, null)]); }
  });
  await reload();
}

async function rejectEverything(changes) {
  var notes = {};
  changes.forEach(function (c) { notes[c.id] = c.note; });
  await busy(document.getElementById('main'), async function () {
    try {
      var r = await api('POST', 'pending-all/reject', { ids: changes.map(function (c) { return c.id; }) });
      var lines = ['Rejected ' + plural(r.rejected.length, 'change') + '; no note was touched. They are kept under Rejected for 30 days.'];
      lines = lines.concat(refusalLines(r.missing.map(function (id) { return { note: notes[id], code: 'not_found' }; })));
      if (r.stillPending > 0) lines.push(plural(r.stillPending, 'change') + ' still waiting (arrived meanwhile, or unreadable).');
      notify(r.missing.length ? 'warn' : 'ok', lines);
    } catch (err) { notify('error', [refusalSentence(err, null)]); }
  });
  await reload();
}

function emptyPending(damaged) {
  return el('div', { class: 'empty' }, [
    el('p', { class: 'empty-title', text: 'Nothing is waiting for review.' }),
    el('p', {}, ['When an agent changes a note in a folder whose access is ', el('strong', { text: 'staged' }),
      ', the change waits here until you approve or reject it. Choose staged folders on the ',
      el('a', { href: '#/access', text: 'Access' }), ' page.']),
  ].concat(damaged.map(damagedCard)));
}

PAGES.pending = async function (params) {
  var data = await api('GET', 'pending');
  state.pending = data;
  setBadge(data.changes.length + data.damaged.length);
  pruneChoices(data.changes.map(function (c) { return c.id; }));
  if (data.changes.length === 0) return withRejected(emptyPending(data.damaged), data.rejected);
  var pages = Math.max(1, Math.ceil(data.changes.length / PAGE_SIZE));
  var page = Math.min(pages, Math.max(1, Number(params.get('page')) || 1));
  var slice = data.changes.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);
  var details = (await api('GET', 'pending/details?ids=' + slice.map(function (c) { return encodeURIComponent(c.id); }).join(','))).details;
  var cards = el('div', { class: 'cards' });
  var top = pager(page, pages, data.changes.length);
  if (top) cards.appendChild(top);
  if (page === 1) data.damaged.forEach(function (d) { cards.appendChild(damagedCard(d)); });
  slice.forEach(function (c, i) {
    var d = details[i] || { error: { message: 'The change could not be loaded.' } };
    if (d.diff && d.diff.kind === 'update') state.hunks[c.id] = Array.from({ length: d.diff.hunkCount }, function (_, k) { return k + 1; });
    // The list's facts are a moment older than the diff's; the diff's are the latest.
    cards.appendChild(changeCard(d.change ? Object.assign({}, c, d.change) : c, d));
  });
  var bottom = pager(page, pages, data.changes.length);
  if (bottom) cards.appendChild(bottom);
  var root = el('div', { class: 'review' }, [
    el('p', { text: plural(data.changes.length, 'change') + ' waiting, oldest first. Approving writes the note; it is refused, with nothing written, when the note changed since the agent saw it.' }),
    el('div', { class: 'toolbar' }, [
      viewSwitch(),
      el('button', { type: 'button', class: 'quiet', text: 'Fold all', onclick: function () { foldAll(true); } }),
      el('button', { type: 'button', class: 'quiet', text: 'Unfold all', onclick: function () { foldAll(false); } }),
      el('span', { class: 'spacer' }),
      el('button', { type: 'button', class: 'approve-all', text: 'Approve all', onclick: askApproveAll }),
      el('button', { type: 'button', class: 'danger reject-all', text: 'Reject all', onclick: askRejectAll }),
      el('button', { type: 'button', class: 'quiet small', text: 'Shortcuts (?)', onclick: function () { showShortcuts(); } }),
    ]),
    el('div', { id: 'arrivals', class: 'arrivals', role: 'status', hidden: true }),
    el('div', { class: 'review-layout' }, [fileList(data.changes, page), cards]),
  ]);
  var target = params.get('change');
  if (target) setTimeout(function () { goToCard(target); }, 0);
  return withRejected(root, data.rejected);
};

function foldAll(folded) {
  state.pending.changes.forEach(function (c) { state.folded[c.id] = folded; });
  document.querySelectorAll('article.change').forEach(function (card) {
    var c = state.pending.changes.find(function (x) { return x.id === card.getAttribute('data-id'); });
    if (c) setFolded(card, c, folded);
  });
}

/**
 * Every few seconds on the Pending page (and on return to the tab): the badge, the outdated marks of
 * the cards shown, and a note when changes arrived or were decided elsewhere, without drawing the page
 * again under the owner's hands.
 */
`;
