/**
 * @module
 * Browser code: deciding one change on the Pending page (SPEC 9.4, "a reviewer keeps their place").
 * Approve and Reject (which asks first) fold the decided card where it is, say what happened on it,
 * and move focus to the next undecided card; the page is not drawn again, so it does not jump.
 */

export const APP_PENDING_DECIDE = String.raw`
/** The next card still waiting for a decision after 'card' (or before it, at the end), or null. */
function nextUndecided(card) {
  var cards = Array.prototype.slice.call(document.querySelectorAll('article.change'));
  var after = cards.filter(function (c) { return card.compareDocumentPosition(c) & Node.DOCUMENT_POSITION_FOLLOWING; });
  return after[0] || cards[cards.length - 1] || null;
}

/**
 * A decided card folds where it is, says what happened, and focus moves to the next undecided card:
 * the page is not drawn again, so the reviewer stays where they were.
 */
function settleCard(card, c, kind, lines) {
  card.classList.remove('change');
  card.classList.add('decided');
  var body = card.querySelector('.card-body');
  body.replaceChildren(messageBox(kind, lines));
  var head = card.querySelector('.card-head');
  head.querySelectorAll('label.viewed').forEach(function (l) { l.remove(); });
  head.appendChild(el('span', { class: 'tag decided-tag', text: kind === 'ok' ? (/^Rejected/.test(lines[0]) ? 'Rejected' : 'Approved') : 'Not waiting' }));
  var fold = card.querySelector('button.fold');
  fold.setAttribute('aria-expanded', 'false');
  fold.textContent = '▸';
  body.hidden = true;
  card.classList.add('folded');
  fold.onclick = null;
  var item = document.querySelector('[data-file-item="' + CSS.escape(c.id) + '"]');
  if (item) item.classList.add('decided');
  if (state.pending) state.pending.changes = state.pending.changes.filter(function (x) { return x.id !== c.id; });
  delete state.drops[c.id];
  saveChoices();
  updateViewedCount();
  var next = nextUndecided(card);
  if (next) next.querySelector('h2').focus();
  else say(lines[0] + ' Nothing else on this page is waiting.');
  refreshPending().catch(function () {});
}

async function approveChange(card, c, keep) {
  await busy(card, async function () {
    try {
      var r = await api('POST', 'pending/' + encodeURIComponent(c.id) + '/approve', keep ? { keep: keep } : {});
      var h = r.result.hunks;
      var what = r.result.outcome === 'created' ? 'created' : r.result.outcome === 'trashed' ? 'moved to the trash'
        : r.result.outcome === 'unchanged' ? 'left as it was (the kept hunks change nothing)'
        : 'updated' + (h && h.kept.length < h.total ? ' (' + h.kept.length + ' of ' + h.total + ' hunks applied)' : '');
      settleCard(card, c, 'ok', ['Approved: ' + r.result.note + ' ' + what + '.']);
    } catch (err) {
      if (err.code === 'not_found') settleCard(card, c, 'warn', [refusalSentence(err, c.note)]);
      else showInCard(card, 'error', [refusalSentence(err, c.note)]);
    }
  });
}

function showInCard(card, kind, lines) {
  card.querySelectorAll('.card-body > .flash.refusal').forEach(function (b) { b.remove(); });
  var box = messageBox(kind, lines);
  box.classList.add('refusal');
  var actions = card.querySelector('.card-body > .actions');
  card.querySelector('.card-body').insertBefore(box, actions);
  box.focus();
}

async function rejectChange(card, c) {
  await busy(card, async function () {
    try {
      await api('POST', 'pending/' + encodeURIComponent(c.id) + '/reject', { reason: reasonOf(card) });
      settleCard(card, c, 'ok', ['Rejected the change to ' + c.note + '; the note was not touched. It is kept under Rejected for 30 days, where Put back returns it.']);
      rejectedGrew(1);
    } catch (err) {
      if (err.code === 'not_found') settleCard(card, c, 'warn', [refusalSentence(err, c.note)]);
      else showInCard(card, 'error', [refusalSentence(err, c.note)]);
    }
  });
}

/** Reject asks first: a rejected change is gone from the list. */
function askReject(card, c) {
  confirmStep({
    title: 'Reject this change?',
    lines: [el('p', {}, ['Reject the change to ', marked('strong', {}, c.note), ' asked by ' + c.client + '? The note is not touched; the change is kept under Rejected for 30 days, where Put back returns it.'])],
    confirm: 'Reject the change',
    danger: true,
    act: function () { rejectChange(card, c); },
  });
}
`;
