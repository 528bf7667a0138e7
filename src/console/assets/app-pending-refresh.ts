/**
 * @module
 * Browser code: the Pending page kept current without drawing it again (SPEC 9.4): every few seconds
 * the list is asked for, a change that became outdated is marked (an update drawn again in place with
 * its merge section), and changes that arrived or were decided elsewhere are announced, so the
 * reviewer keeps their place.
 */

// biome-ignore lint/complexity/noUselessStringRaw: raw keeps any backslash added later verbatim for the browser
export const APP_PENDING_REFRESH = String.raw`
/** Draws a card again from fresh details (its merge section, its facts), in place and still open. */
async function redrawCard(card, c) {
  try {
    var d = (await api('GET', 'pending/details?ids=' + encodeURIComponent(c.id))).details[0];
    if (!d || !d.change || !card.isConnected) return;
    var fresh = changeCard(Object.assign({}, c, d.change), d);
    card.replaceWith(fresh);
  } catch (err) { /* the next refresh tries again; the card keeps its outdated note meanwhile */ }
}

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
    // An update outdated now can still be merged onto the later edits: its card is drawn again in place,
    // with the merge section, keeping the reviewer where they are.
    if (c.outdated && c.kind === 'update') redrawCard(card, was);
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
