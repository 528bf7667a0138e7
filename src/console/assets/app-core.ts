/**
 * @module
 * Browser code, part 1: building elements, calling the API with the CSRF header, messages after an
 * action, buttons that wait for their request, the banner for a server that stopped, what this tab
 * remembers (sessionStorage), and the page router. Plain JavaScript served inside `/app.js` (see
 * app-js.ts).
 *
 * Security: every piece of data reaches the page through `textContent` or an attribute set with
 * `setAttribute`; `innerHTML` is never used. (Written without backticks or `${`, so it can live in a
 * raw template string here.)
 */

export const APP_CORE = String.raw`
var STORE_PREFIX = 'noted-console:';

function remembered(key, fallback) {
  try {
    var v = sessionStorage.getItem(STORE_PREFIX + key);
    return v === null ? fallback : JSON.parse(v);
  } catch (e) { return fallback; }
}

function remember(key, value) {
  try { sessionStorage.setItem(STORE_PREFIX + key, JSON.stringify(value)); } catch (e) { /* private mode: kept for this page only */ }
}

var state = {
  csrf: null,
  notices: [],
  filters: { client: '', kind: '', note: '' },
  view: remembered('view', 'unified'),
  pending: null,
  drops: remembered('drops', {}),
  viewed: remembered('viewed', {}),
  hunks: remembered('hunks', {}),
  folded: {},
  offline: false,
};

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

function plural(n, word, many) { return n + ' ' + (n === 1 ? word : (many || word + 's')); }

function when(iso) {
  var d = new Date(iso);
  return isNaN(d.getTime()) ? iso : d.toLocaleString();
}

var OFFLINE = 'The console is not answering: its server has stopped (or this computer is very busy). Start it again with noted-mcp ui in a terminal; this page then asks you to sign in again.';

async function api(method, path, body) {
  var init = { method: method, headers: { Accept: 'application/json' }, credentials: 'same-origin' };
  if (method !== 'GET') {
    init.headers['Content-Type'] = 'application/json';
    init.headers['X-CSRF-Token'] = state.csrf || '';
    init.body = JSON.stringify(body || {});
  }
  var res;
  try {
    res = await fetch('/api/' + path, init);
  } catch (e) {
    setOffline(true);
    var gone = new Error(OFFLINE);
    gone.code = 'offline';
    throw gone;
  }
  setOffline(false);
  var data = null;
  try { data = await res.json(); } catch (e) { data = null; }
  if (res.status === 401) { location.href = '/'; throw new Error('Signed out: sign in again.'); }
  if (!res.ok) {
    var err = new Error(data && data.error ? data.error.message : 'The console answered ' + res.status + '.');
    err.code = data && data.error ? data.error.code : 'http_' + res.status;
    throw err;
  }
  return data;
}

/** The banner for a console that stopped answering; it goes away by itself when the console answers. */
function setOffline(on) {
  if (state.offline === on) return;
  state.offline = on;
  var box = document.getElementById('offline');
  box.replaceChildren();
  if (on) {
    box.appendChild(el('p', { text: OFFLINE }));
    box.appendChild(el('button', { type: 'button', text: 'Try again', onclick: function () { reload(); } }));
  }
  box.hidden = !on;
}

function say(text) { document.getElementById('status').textContent = text; }

/** A message to show after the page is drawn again: inside the element with data-id 'target', or at the top. */
function notify(kind, lines, target) { state.notices.push({ kind: kind, lines: lines, target: target || null }); }

function messageBox(kind, lines) {
  var box = el('div', { class: 'flash ' + kind, role: kind === 'error' ? 'alert' : 'status', tabindex: '-1' });
  lines.forEach(function (line, i) { if (i > 0) box.appendChild(el('br')); box.appendChild(document.createTextNode(line)); });
  return box;
}

/** Puts the waiting messages in their places, and focuses the first, so keyboard users land on it. */
function showNotices(top) {
  var first = null;
  state.notices.splice(0).forEach(function (n) {
    var place = n.target ? document.querySelector('[data-id="' + CSS.escape(n.target) + '"]') : null;
    var box = messageBox(n.kind, n.lines);
    if (place) place.appendChild(box); else top.insertBefore(box, top.firstChild);
    first = first || box;
  });
  if (first) first.focus();
}

function failed(err, target) { notify('error', [err.message], target); }

/**
 * Runs an action with every control of 'scope' disabled until it ends, so a double click sends one
 * request and nothing else in the card can be pressed meanwhile.
 */
async function busy(scope, action) {
  if (scope.getAttribute('aria-busy') === 'true') return;
  var controls = Array.prototype.filter.call(scope.querySelectorAll('button, input, select, textarea'), function (c) { return !c.disabled; });
  scope.setAttribute('aria-busy', 'true');
  controls.forEach(function (c) { c.disabled = true; });
  try { await action(); } finally {
    scope.removeAttribute('aria-busy');
    controls.forEach(function (c) { c.disabled = false; });
  }
}

async function refreshSession() {
  var s = await api('GET', 'session');
  if (s.csrf) state.csrf = s.csrf;
  document.getElementById('vault').textContent = 'Vault: ' + s.vault;
  setBadge(s.pending);
  return s;
}

function setBadge(n) {
  document.getElementById('pending-count').textContent = String(n);
  document.getElementById('pending-badge').className = n > 0 ? 'badge' : 'badge none';
}

var PAGES = {};
var TITLES = { pending: 'Pending changes', activity: 'Agent activity', access: 'Access for agents', connect: 'Connect a client' };

/** The page and its parameters named in the address: #/pending?page=2 */
function route() {
  var m = /^#\/(\w+)(?:\?(.*))?$/.exec(location.hash);
  if (!m) return { page: location.hash === '' || location.hash === '#' ? 'pending' : null, params: new URLSearchParams() };
  return { page: PAGES[m[1]] ? m[1] : null, params: new URLSearchParams(m[2] || '') };
}

/** Draws the page named in the address; 'focus' moves keyboard focus to its heading. */
async function show(focus) {
  var r = route();
  document.querySelectorAll('nav a[data-page]').forEach(function (a) {
    if (a.getAttribute('data-page') === r.page) a.setAttribute('aria-current', 'page'); else a.removeAttribute('aria-current');
  });
  var main = document.getElementById('main');
  if (r.page === null) {
    document.title = 'No such page — Noted MCP console';
    main.replaceChildren(el('h1', { tabindex: '-1', text: 'There is no such page' }), el('p', {}, [
      'The address names a page the console does not have. Go to ', el('a', { href: '#/pending', text: 'Pending changes' }),
      ', ', el('a', { href: '#/activity', text: 'Agent activity' }), ', ', el('a', { href: '#/access', text: 'Access' }),
      ' or ', el('a', { href: '#/connect', text: 'Connect a client' }), '.',
    ]));
    return;
  }
  document.title = TITLES[r.page] + ' — Noted MCP console';
  var heading = el('h1', { tabindex: '-1', text: TITLES[r.page] });
  var body = el('div', { 'aria-busy': 'true' }, [el('p', { class: 'loading', text: 'Loading…' })]);
  main.replaceChildren(heading, body);
  if (focus) heading.focus();
  try {
    body.replaceChildren(await PAGES[r.page](r.params));
  } catch (err) {
    // A console that stopped is said once, in the banner at the top.
    var why = err.code === 'offline' ? 'This page could not be loaded.' : err.message;
    body.replaceChildren(messageBox('error', [why]), el('div', { class: 'actions' }, [
      el('button', { type: 'button', text: 'Try again', onclick: function () { reload(); } }),
    ]));
  }
  body.removeAttribute('aria-busy');
  showNotices(body);
  if (r.page !== 'pending') refreshSession().catch(function () {});
}

/** After an action: the messages, then the page drawn again from the server's state. */
async function reload() { await show(false); }
`;
