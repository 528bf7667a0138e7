/**
 * @module
 * Browser code, part 1: building elements, calling the API with the CSRF header, the page router,
 * the pending badge and diff rendering. Plain JavaScript served inside `/app.js` (see app-js.ts).
 *
 * Security: every piece of data reaches the page through `textContent` or an attribute set with
 * `setAttribute`; `innerHTML` is never used. (Written without backticks or `${`, so it can live in a
 * raw template string here.)
 */

export const APP_CORE = String.raw`
var state = { csrf: null, flash: null, filters: { client: '', kind: '', note: '' } };

function el(tag, attrs, children) {
  var node = document.createElement(tag);
  var a = attrs || {};
  Object.keys(a).forEach(function (k) {
    var v = a[k];
    if (v === null || v === undefined || v === false) return;
    if (k === 'text') node.textContent = String(v);
    else if (k === 'class') node.className = v;
    else if (k.slice(0, 2) === 'on') node.addEventListener(k.slice(2), v);
    else if (v === true) node.setAttribute(k, '');
    else node.setAttribute(k, String(v));
  });
  (children || []).forEach(function (c) {
    if (c === null || c === undefined || c === false) return;
    node.appendChild(typeof c === 'string' ? document.createTextNode(c) : c);
  });
  return node;
}

function plural(n, word) { return n + ' ' + word + (n === 1 ? '' : 's'); }

function when(iso) {
  var d = new Date(iso);
  return isNaN(d.getTime()) ? iso : d.toLocaleString();
}

async function api(method, path, body) {
  var init = { method: method, headers: { Accept: 'application/json' }, credentials: 'same-origin' };
  if (method !== 'GET') {
    init.headers['Content-Type'] = 'application/json';
    init.headers['X-CSRF-Token'] = state.csrf || '';
    init.body = JSON.stringify(body || {});
  }
  var res = await fetch('/api/' + path, init);
  var data = null;
  try { data = await res.json(); } catch (e) { data = null; }
  if (res.status === 401) { location.href = '/'; throw new Error('Signed out.'); }
  if (!res.ok) {
    var err = new Error(data && data.error ? data.error.message : 'The console answered ' + res.status + '.');
    err.code = data && data.error ? data.error.code : 'http_' + res.status;
    throw err;
  }
  return data;
}

function say(text) { document.getElementById('status').textContent = text; }

/** A message shown after an action: inside the card with id 'target', or at the top of the page. */
function flash(kind, lines, target) { state.flash = { kind: kind, lines: lines, target: target || null }; }

function flashBox(f) {
  var box = el('div', { class: 'flash ' + f.kind, role: f.kind === 'error' ? 'alert' : 'status', tabindex: '-1' });
  f.lines.forEach(function (line, i) { if (i > 0) box.appendChild(el('br')); box.appendChild(document.createTextNode(line)); });
  return box;
}

/** Puts the pending flash into its card (or 'top'), focused so keyboard users land on it. */
function showFlash(top) {
  var f = state.flash;
  state.flash = null;
  if (!f) return;
  var card = f.target ? document.querySelector('[data-id="' + CSS.escape(f.target) + '"]') : null;
  var box = flashBox(f);
  if (card) card.appendChild(box); else top.insertBefore(box, top.firstChild);
  box.focus();
}

function failed(err, target) { flash('error', [err.message], target); }

/** A button that asks for a second press before doing something that cannot be taken back. */
function confirmButton(label, confirmLabel, action, cls) {
  var armed = false;
  var timer = null;
  var button = el('button', { type: 'button', class: cls || null, text: label });
  button.addEventListener('click', function () {
    if (!armed) {
      armed = true;
      button.textContent = confirmLabel;
      timer = setTimeout(function () { armed = false; button.textContent = label; }, 6000);
      return;
    }
    clearTimeout(timer);
    armed = false;
    button.textContent = label;
    action();
  });
  return button;
}

async function refreshSession() {
  var s = await api('GET', 'session');
  if (s.csrf) state.csrf = s.csrf;
  document.getElementById('vault').textContent = 'Vault: ' + s.vault;
  setBadge(s.pending);
}

function setBadge(n) {
  document.getElementById('pending-count').textContent = String(n);
  document.getElementById('pending-badge').className = n > 0 ? 'badge' : 'badge none';
}

var PAGES = {};
var TITLES = { pending: 'Pending changes', activity: 'Agent activity', access: 'Access for agents', connect: 'Connect a client' };

/** Draws the page named in the address (#/pending …); 'focus' moves keyboard focus to its heading. */
async function show(focus) {
  var m = /^#\/(\w+)/.exec(location.hash);
  var page = m && PAGES[m[1]] ? m[1] : 'pending';
  document.querySelectorAll('nav a[data-page]').forEach(function (a) {
    if (a.getAttribute('data-page') === page) a.setAttribute('aria-current', 'page'); else a.removeAttribute('aria-current');
  });
  document.title = TITLES[page] + ' — Noted MCP console';
  var main = document.getElementById('main');
  var heading = el('h1', { tabindex: '-1', text: TITLES[page] });
  var body = el('div', { 'aria-busy': 'true' }, [el('p', { text: 'Loading…' })]);
  main.replaceChildren(heading, body);
  if (focus) heading.focus();
  try {
    var content = await PAGES[page]();
    body.replaceChildren(content);
  } catch (err) {
    body.replaceChildren(flashBox({ kind: 'error', lines: [err.message] }));
  }
  body.removeAttribute('aria-busy');
  showFlash(body);
  refreshSession().catch(function () {});
}

/** After an action: the message, then the page drawn again from the server's state. */
async function reload() { await show(false); }

/** The lines of text of a hunk, with the changed words marked by ins/del. */
function hunkPre(h) {
  var pre = el('pre', { class: 'diff' });
  h.before.forEach(function (line) { pre.appendChild(el('span', { class: 'ctx', text: line + '\n' })); });
  h.words.forEach(function (w) {
    pre.appendChild(el(w.kind === 'added' ? 'ins' : w.kind === 'removed' ? 'del' : 'span', { text: w.text }));
  });
  pre.appendChild(document.createTextNode('\n'));
  h.after.forEach(function (line) { pre.appendChild(el('span', { class: 'ctx', text: line + '\n' })); });
  return pre;
}

function lineRange(start, count) {
  if (count === 0) return 'after line ' + (start - 1);
  return count === 1 ? 'line ' + start : 'lines ' + start + '–' + (start + count - 1);
}

function hunkTitle(h, total) {
  return 'Hunk ' + h.index + ' of ' + total + ': ' + lineRange(h.baseStart, h.baseCount) + ' → ' + lineRange(h.newStart, h.newCount);
}

/** A diff without choices (activity, create, delete). */
function diffNode(diff) {
  if (diff.kind === 'create') {
    return el('div', {}, [el('p', { text: 'A new note with this text:' }), el('pre', { class: 'diff' }, [el('ins', { text: diff.text })])]);
  }
  if (diff.kind === 'delete') {
    return el('div', {}, [el('p', { text: 'Deletes the note (approved deletions go to the trash). Its text:' }), el('pre', { class: 'diff' }, [el('del', { text: diff.text })])]);
  }
  if (diff.kind === 'unavailable') return el('p', { class: 'flash warn', text: diff.reason });
  if (diff.hunks.length === 0) return el('p', { text: 'The text stays the same.' });
  return el('div', {}, diff.hunks.map(function (h) {
    return el('div', {}, [el('p', { class: 'meta', text: hunkTitle(h, diff.hunks.length) }), hunkPre(h)]);
  }));
}
`;
