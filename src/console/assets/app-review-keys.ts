/**
 * @module
 * Browser code: the Pending page without a mouse (SPEC 9.4, "a reviewer keeps their place"). `j` / `k`
 * move to the next / previous card, `a` approves the card in focus as it shows, `r` asks to reject it,
 * `v` marks it viewed (or not), `?` lists the shortcuts. A key held down does nothing more than one
 * press (repeats are ignored), and nothing happens while typing in a field or with a dialog open.
 */

// biome-ignore lint/complexity/noUselessStringRaw: raw keeps any backslash added later verbatim for the browser
export const APP_REVIEW_KEYS = String.raw`
var SHORTCUTS = [
  ['j', 'next change'], ['k', 'previous change'], ['a', 'approve the change in focus, as its card shows'],
  ['r', 'reject the change in focus (asks first)'], ['v', 'mark the change in focus viewed, or not'], ['?', 'this list'],
];

function showShortcuts() {
  var dialog = el('dialog', { class: 'shortcuts', 'aria-labelledby': 'shortcuts-title' });
  var close = el('button', { type: 'button', text: 'Close', onclick: function () { dialog.close(); dialog.remove(); } });
  dialog.append(
    el('h2', { id: 'shortcuts-title', text: 'Keyboard shortcuts' }),
    el('dl', { class: 'shortcut-list' }, SHORTCUTS.reduce(function (all, s) { return all.concat([el('dt', {}, [el('kbd', { text: s[0] })]), el('dd', { text: s[1] })]); }, [])),
    el('div', { class: 'confirm-actions' }, [close]),
  );
  dialog.addEventListener('close', function () { dialog.remove(); });
  document.body.appendChild(dialog);
  dialog.showModal();
  close.focus();
}

/** The card the keyboard acts on: the one holding focus, else the first one in view. */
function currentCard() {
  var active = document.activeElement && document.activeElement.closest ? document.activeElement.closest('article.card') : null;
  if (active) return active;
  var cards = document.querySelectorAll('article.card');
  for (var i = 0; i < cards.length; i++) if (cards[i].getBoundingClientRect().bottom > 0) return cards[i];
  return null;
}

function moveCard(step) {
  var cards = Array.prototype.slice.call(document.querySelectorAll('article.card'));
  if (cards.length === 0) return;
  var focused = document.activeElement && document.activeElement.closest ? document.activeElement.closest('article.card') : null;
  // From outside the cards, the first move lands on the card in view.
  var here = currentCard();
  var i = focused ? cards.indexOf(focused) + step : here ? cards.indexOf(here) : 0;
  var target = cards[Math.max(0, Math.min(cards.length - 1, i))];
  target.scrollIntoView({ block: 'start' });
  target.querySelector('h2').focus({ preventScroll: true });
}

document.addEventListener('keydown', function (ev) {
  if (route().page !== 'pending' || ev.repeat || ev.ctrlKey || ev.metaKey || ev.altKey) return;
  if (document.querySelector('dialog[open]')) return;
  var t = ev.target;
  if (t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName))) return;
  var card = currentCard();
  var live = card && card.classList.contains('change') ? card : null;
  if (ev.key === 'j') moveCard(1);
  else if (ev.key === 'k') moveCard(-1);
  else if (ev.key === '?') showShortcuts();
  else if (ev.key === 'a' && live) {
    var approve = live.querySelector('button.approve');
    if (!approve || approve.disabled) { say('This change cannot be approved now: ' + (approve ? approve.textContent : 'it has nothing to approve') + '.'); return; }
    if (live.querySelector('.card-body').hidden) setFolded(live, { id: live.getAttribute('data-id') }, false);
    approve.click();
  } else if (ev.key === 'r' && live) {
    var reject = live.querySelector('button.reject');
    if (reject && !reject.disabled) reject.click();
  } else if (ev.key === 'v' && live) {
    var box = live.querySelector('label.viewed input');
    if (box) box.click();
  } else return;
  ev.preventDefault();
});
`;
