/**
 * @module
 * Browser code: the confirmation every irreversible or bulk action asks for (SPEC 9.4, "no irreversible
 * action from a slip"). A modal dialog says exactly what will happen, counted from the list the action
 * is then given (never read again): the second click of a double-click, a repeated key or an Enter held
 * down cannot confirm it, because
 * - focus starts on Cancel, and a key that repeats (held down) is ignored inside the dialog;
 * - the confirming button ignores input for `ARM_MS` after the dialog opens, and a press that began
 *   before then (the mouse went down earlier) does not count;
 * - the dialog is placed so its confirming button is not where the click that opened it landed.
 * The buttons that open it keep their label, so nothing widens under the pointer.
 */

// biome-ignore lint/complexity/noUselessStringRaw: raw keeps any backslash added later verbatim for the browser
export const APP_CONFIRM = String.raw`
var ARM_MS = 700;
var lastPointer = null;
document.addEventListener('pointerdown', function (ev) { lastPointer = { x: ev.clientX, y: ev.clientY }; }, true);
document.addEventListener('keydown', function () { lastPointer = null; }, true);

/**
 * Asks before doing something that cannot be taken back. 'o': title, lines (what will happen, with
 * the counts), confirm (the confirming button's label), danger (a red button), and act(), called once
 * on confirmation with nothing read again: whatever it acts on was fixed when the dialog was opened.
 */
function confirmStep(o) {
  var opened = Date.now();
  var pressedAt = 0;
  var dialog = el('dialog', { class: 'confirm', 'aria-labelledby': 'confirm-title' });
  var cancel = el('button', { type: 'button', class: 'quiet', text: 'Cancel' });
  var go = el('button', { type: 'button', class: 'confirm-go' + (o.danger ? ' danger' : ''), text: o.confirm, disabled: true });
  var body = el('div', { class: 'confirm-body' }, (o.lines || []).map(function (line) { return typeof line === 'string' ? el('p', { text: line }) : line; }));
  dialog.append(el('h2', { id: 'confirm-title', text: o.title }), body, el('div', { class: 'confirm-actions' }, [cancel, go]));
  var done = false;
  function close() { if (dialog.open) dialog.close(); dialog.remove(); }
  cancel.addEventListener('click', function () { close(); });
  dialog.addEventListener('cancel', function () { dialog.remove(); });
  // A held key repeats: never let a repeat press a button here.
  dialog.addEventListener('keydown', function (ev) { if (ev.repeat) { ev.preventDefault(); ev.stopPropagation(); } }, true);
  go.addEventListener('pointerdown', function () { pressedAt = Date.now(); });
  go.addEventListener('click', function (ev) {
    var now = Date.now();
    // A click counts only when the press began after the button was armed (ev.detail 0: a key press).
    if (done || now - opened < ARM_MS || (ev.detail > 0 && pressedAt - opened < ARM_MS)) return;
    done = true;
    close();
    o.act();
  });
  document.body.appendChild(dialog);
  dialog.showModal();
  cancel.focus();
  // Keep the confirming button away from where the opening click landed.
  if (lastPointer) {
    var r = go.getBoundingClientRect();
    var near = function () { r = go.getBoundingClientRect(); return lastPointer.x >= r.left - 24 && lastPointer.x <= r.right + 24 && lastPointer.y >= r.top - 24 && lastPointer.y <= r.bottom + 24; };
    if (near()) dialog.classList.add('confirm-low');
    if (near()) { dialog.classList.remove('confirm-low'); dialog.classList.add('confirm-high'); }
  }
  setTimeout(function () { if (!done) { go.disabled = false; go.classList.add('armed'); } }, ARM_MS);
  return dialog;
}

/**
 * The former two-press button, kept for code written against it: a button with a fixed label that
 * asks through 'confirmStep' ('confirmLabel', a text or a function giving it, is what the dialog says).
 */
function confirmButton(label, confirmLabel, action, cls) {
  var button = el('button', { type: 'button', class: cls || null, text: label });
  button.addEventListener('click', function () {
    confirmStep({
      title: label + '?',
      lines: [(typeof confirmLabel === 'function' ? confirmLabel() : confirmLabel).replace(/^Press again to /, 'This will ')],
      confirm: label,
      danger: /danger/.test(cls || ''),
      act: function () { action(button); },
    });
  });
  return button;
}

/** A list of names for a confirmation: the first few, and how many more. */
function namesList(names, max) {
  var shown = names.slice(0, max || 8);
  var list = el('ul', { class: 'confirm-names' }, shown.map(function (n) { return marked('li', {}, n); }));
  if (names.length > shown.length) list.appendChild(el('li', { class: 'meta', text: 'and ' + (names.length - shown.length) + ' more' }));
  return list;
}
`;
