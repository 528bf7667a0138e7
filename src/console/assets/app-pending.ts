/**
 * @module
 * Browser code, part 3: the Pending changes page, as comfortable as reviewing a pull request. A list
 * of the changed notes with their line counts; the changes in pages of 20, their diffs fetched in one
 * request; each a card that folds away and can be marked viewed; hunks to leave out; an "outdated"
 * mark as soon as a note changes under a change (checked every few seconds and on return to the tab);
 * approve, reject, approve all and reject all. What the owner chose (hunks left out, viewed) is kept
 * for this tab, so drawing the page again never loses it, and Approve all applies exactly that.
 */

// biome-ignore lint/complexity/noUselessStringRaw: raw keeps any backslash added later verbatim for the browser
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

/** The list of changed notes: each a link to its card (on its page), with counts and marks. */
function fileList(changes, page) {
  var list = el('ol', { class: 'files' });
  changes.forEach(function (c) {
    var p = pageOf(c.id);
    var link = el('a', { href: '#/pending?page=' + p + '&change=' + encodeURIComponent(c.id), 'data-file': c.id }, [
      el('span', { class: 'kind-letter k-' + c.kind, title: KIND_TITLE[c.kind], text: KIND_LETTER[c.kind] }),
      el('span', { class: 'sr', text: KIND_TITLE[c.kind] + ': ' }),
      el('span', { class: 'file-name', text: c.note }),
    ]);
    link.addEventListener('click', function (ev) {
      if (p !== page) return;
      ev.preventDefault();
      var card = document.querySelector('article.change[data-id="' + CSS.escape(c.id) + '"]');
      if (card) { card.scrollIntoView({ block: 'start' }); card.querySelector('h2').focus(); }
    });
    list.appendChild(el('li', { class: (p === page ? 'here' : '') + (state.viewed[c.id] ? ' viewed' : ''), 'data-file-item': c.id }, [
      link, counts(c), outdatedBadge(c),
      el('span', { class: 'viewed-mark', title: 'Viewed', 'aria-label': 'viewed', hidden: !state.viewed[c.id], text: '✓' }),
    ]));
  });
  var box = el('details', { class: 'files-box', open: WIDE.matches }, [
    el('summary', { text: 'Changed notes (' + changes.length + ')' }), list,
  ]);
  return box;
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

function approveLabel(kept, total) {
  return kept === total ? 'Approve' : kept === 0 ? 'Approve (keep at least one hunk)' : 'Approve ' + kept + ' of ' + total;
}

async function approveChange(card, c, keep) {
  await busy(card, async function () {
    try {
      var r = await api('POST', 'pending/' + encodeURIComponent(c.id) + '/approve', keep ? { keep: keep } : {});
      var h = r.result.hunks;
      var what = r.result.outcome === 'created' ? 'created' : r.result.outcome === 'trashed' ? 'moved to the trash'
        : r.result.outcome === 'unchanged' ? 'left as it was (the kept hunks change nothing)'
        : 'updated' + (h && h.kept.length < h.total ? ' (' + h.kept.length + ' of ' + h.total + ' hunks applied)' : '');
      notify('ok', ['Approved: ' + r.result.note + ' ' + what + '.']);
    } catch (err) { failed(err, c.id); }
  });
  await reload();
}

async function rejectChange(card, id, note) {
  await busy(card, async function () {
    try {
      await api('POST', 'pending/' + encodeURIComponent(id) + '/reject', { reason: reasonOf(card) });
      notify('ok', ['Rejected the change' + (note ? ' to ' + note : '') + '; the note was not touched.' + (note ? ' It is kept under Rejected for 30 days, where Put back returns it.' : '')]);
    } catch (err) { failed(err, id); }
  });
  await reload();
}

/** The hunks of an update with a Keep box each; the boxes remember their state for this tab. */
function hunkChooser(c, diff, approveButton) {
  var total = diff.hunks.length;
  var update = function () {
    var kept = total - dropped(c.id).length;
    approveButton.disabled = kept === 0 || !!c.outdated;
    approveButton.textContent = approveLabel(kept, total);
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
      box.closest('fieldset').classList.toggle('dropped', !box.checked);
      update();
    });
    return el('label', { class: 'check' }, [box, 'Keep ' + title]);
  });
  dropped(c.id).forEach(function (n) {
    var set = node.querySelector('[data-hunk-box="' + n + '"]');
    if (set) set.classList.add('dropped');
  });
  update();
  return node;
}

function setViewed(card, c, on) {
  if (on) state.viewed[c.id] = true; else delete state.viewed[c.id];
  saveChoices();
  setFolded(card, c, on);
  var item = document.querySelector('[data-file-item="' + CSS.escape(c.id) + '"]');
  if (item) { item.classList.toggle('viewed', on); item.querySelector('.viewed-mark').hidden = !on; }
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
    el('h2', { id: 'h-' + c.id, tabindex: '-1' }, [KIND_TITLE[c.kind] + ': ', el('span', { class: 'note-name', text: c.note })]),
    counts(c), outdatedBadge(c),
    el('label', { class: 'check viewed' }, [viewed, 'Viewed']),
  ]));
  var body = el('div', { class: 'card-body', id: 'b-' + c.id });
  card.appendChild(body);
  body.appendChild(askedBy(c));
  var groupLine = noteGroupLine(c);
  if (groupLine) body.appendChild(groupLine);
  body.appendChild(el('p', { class: 'flash warn outdated-why', hidden: !c.outdated, text: c.outdated ? 'Outdated: ' + c.outdated + '. Approving is refused while the note differs from what the agent saw; reject this change, or let the agent redo it on the current text.' : '' }));
  var approveButton = el('button', { type: 'button', class: 'approve', text: 'Approve', disabled: !!c.outdated });
  if (detail.error) {
    body.appendChild(messageBox('error', [detail.error.message]));
  } else if (detail.diff.kind === 'update' && detail.diff.hunks.length > 0) {
    if (detail.diff.hunks.length > 1) body.appendChild(el('p', { class: 'meta', text: 'Uncheck a hunk to leave it out when you approve.' }));
    body.appendChild(hunkChooser(c, detail.diff, approveButton));
    if (detail.merge) body.appendChild(mergeSection(card, c, detail.merge, detail.diff));
  } else {
    body.appendChild(detail.diff.kind === 'update' ? el('p', { text: 'The text stays the same.' }) : wholeNode(detail.diff, c.id));
  }
  approveButton.addEventListener('click', function () { approveChange(card, c, keptHunks(c.id)); });
  body.appendChild(el('div', { class: 'actions' }, [
    approveButton,
    reasonInput(c),
    el('button', { type: 'button', class: 'quiet', text: 'Reject', onclick: function () { rejectChange(card, c.id, c.note); } }),
  ]));
  fold.addEventListener('click', function () { setFolded(card, c, !card.classList.contains('folded')); });
  viewed.addEventListener('change', function () { setViewed(card, c, viewed.checked); });
  var folded = state.folded[c.id];
  setFolded(card, c, folded === undefined ? !!state.viewed[c.id] : folded);
  return card;
}

function damagedCard(d) {
  var card = el('article', { class: 'card', 'data-id': d.id }, [
    el('h2', { text: 'Unreadable change ' + d.id }), el('p', { text: d.reason }),
  ]);
  card.appendChild(el('button', { type: 'button', class: 'quiet', text: 'Reject', onclick: function () { rejectChange(card, d.id, null); } }));
  return card;
}

/** What Approve all would do now: every listed change as its card shows it, outdated ones left. */
function approvalPlan() {
  var changes = state.pending.changes;
  var ready = changes.filter(function (c) { return !c.outdated; });
  var partial = ready.filter(function (c) { return keptHunks(c.id) !== null; }).length;
  return {
    choices: ready.map(function (c) {
      var keep = keptHunks(c.id);
      return keep ? { id: c.id, keep: keep } : { id: c.id };
    }),
    label: 'Press again to approve all ' + ready.length + ' as shown' +
      (partial ? ' (' + partial + ' with hunks left out)' : '') +
      (changes.length > ready.length ? '; ' + (changes.length - ready.length) + ' outdated stay pending' : ''),
  };
}

async function approveEverything(button) {
  var plan = approvalPlan();
  await busy(document.getElementById('main'), async function () {
    try {
      var r = await api('POST', 'pending-all/approve', { changes: plan.choices });
      var refused = r.outcomes.filter(function (o) { return !o.ok; });
      var lines = ['Approved ' + (r.outcomes.length - refused.length) + ' of ' + plural(r.outcomes.length, 'change') + '.'];
      refused.forEach(function (o) { lines.push('Refused ' + (o.note || o.id) + ': ' + o.error.message); });
      if (r.stillPending > 0) lines.push(plural(r.stillPending, 'change') + ' still waiting.');
      notify(refused.length ? 'warn' : 'ok', lines);
    } catch (err) { failed(err); }
  });
  await reload();
}

async function rejectEverything() {
  var ids = state.pending.changes.map(function (c) { return c.id; });
  await busy(document.getElementById('main'), async function () {
    try {
      var r = await api('POST', 'pending-all/reject', { ids: ids });
      var lines = ['Rejected ' + plural(r.rejected.length, 'change') + '; no note was touched. They are kept under Rejected for 30 days.'];
      if (r.stillPending > 0) lines.push(plural(r.stillPending, 'change') + ' still waiting (arrived meanwhile, or unreadable).');
      notify('ok', lines);
    } catch (err) { failed(err); }
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
    if (d.diff && d.diff.kind === 'update') state.hunks[c.id] = d.diff.hunks.map(function (h) { return h.index; });
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
      confirmButton('Approve all', function () { return approvalPlan().label; }, approveEverything),
      confirmButton('Reject all', 'Press again to reject all ' + data.changes.length, rejectEverything, 'danger'),
    ]),
    el('div', { id: 'arrivals', class: 'arrivals', role: 'status', hidden: true }),
    el('div', { class: 'review-layout' }, [fileList(data.changes, page), cards]),
  ]);
  var target = params.get('change');
  if (target) setTimeout(function () {
    var card = document.querySelector('article.change[data-id="' + CSS.escape(target) + '"]');
    if (card) { card.scrollIntoView({ block: 'start' }); card.querySelector('h2').focus(); }
  }, 0);
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
async function refreshPending() {
  if (route().page !== 'pending' || !state.pending || document.hidden) return;
  var data = await api('GET', 'pending');
  setBadge(data.changes.length + data.damaged.length);
  var known = {};
  state.pending.changes.forEach(function (c) { known[c.id] = c; });
  var now = {};
  data.changes.forEach(function (c) { now[c.id] = c; });
  data.changes.forEach(function (c) {
    var was = known[c.id];
    if (!was || was.outdated === c.outdated) return;
    was.outdated = c.outdated;
    document.querySelectorAll('[data-file-item="' + CSS.escape(c.id) + '"] .outdated, article.change[data-id="' + CSS.escape(c.id) + '"] .outdated').forEach(function (tag) {
      tag.hidden = !c.outdated;
      tag.title = c.outdated ? 'Outdated: ' + c.outdated : '';
    });
    var card = document.querySelector('article.change[data-id="' + CSS.escape(c.id) + '"]');
    if (!card) return;
    var why = card.querySelector('.outdated-why');
    why.hidden = !c.outdated;
    why.textContent = c.outdated ? 'Outdated: ' + c.outdated + '. Approving is refused while the note differs from what the agent saw; reject this change, or let the agent redo it on the current text.' : '';
    var approveButton = card.querySelector('button.approve');
    if (approveButton) approveButton.disabled = !!c.outdated || keptHunks(c.id) !== null && keptHunks(c.id).length === 0;
  });
  var arrived = data.changes.filter(function (c) { return !known[c.id]; }).length;
  var gone = state.pending.changes.filter(function (c) { return !now[c.id]; }).length;
  var box = document.getElementById('arrivals');
  if (!box) return;
  box.replaceChildren();
  box.hidden = arrived === 0 && gone === 0;
  if (box.hidden) return;
  var parts = [];
  if (arrived) parts.push(plural(arrived, 'new change') + ' arrived');
  if (gone) parts.push(plural(gone, 'change') + ' decided elsewhere');
  box.appendChild(el('span', { text: parts.join(', ') + ' since this list was drawn. Approve all covers only the changes shown. ' }));
  box.appendChild(el('button', { type: 'button', class: 'quiet small', text: 'Show the current list', onclick: function () { reload(); } }));
}
`;
