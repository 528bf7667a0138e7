/**
 * @module
 * Browser code, part 6: the Connect a client page (snippets with copy buttons, the Claude Desktop
 * install), sign-out, and start-up: the page is drawn, then kept current — the pending count and the
 * Pending page's outdated marks every 10 seconds and on return to the tab.
 */

export const APP_CONNECT = String.raw`
var CLIENT_TITLES = { 'claude-code': 'Claude Code', 'claude-desktop': 'Claude Desktop', vscode: 'VS Code', codex: 'Codex', cursor: 'Cursor' };

function clientTitle(slug) { return CLIENT_TITLES[slug] || slug; }

/** Copies a snippet and says so next to the button pressed (and to screen readers). */
async function copyText(text, pre, beside) {
  try {
    await navigator.clipboard.writeText(text);
    say('Copied to the clipboard.');
    if (beside) {
      beside.textContent = 'Copied';
      clearTimeout(beside.timer);
      beside.timer = setTimeout(function () { beside.textContent = ''; }, 4000);
    }
  } catch (err) {
    var range = document.createRange();
    range.selectNodeContents(pre);
    var sel = window.getSelection();
    sel.removeAllRanges();
    sel.addRange(range);
    say('Copying was not allowed; the text is selected, press Ctrl+C (or ⌘C).');
  }
}

PAGES.connect = async function () {
  var data = await api('GET', 'connect');
  var root = el('div', {}, [el('p', { text: 'Paste one of these into your AI client; each starts this server on this vault over stdio.' })]);
  data.clients.forEach(function (c) {
    var pre = el('pre', { class: 'snippet', id: 'snippet-' + c.client, text: c.text });
    var copied = el('span', { class: 'copied', 'aria-hidden': 'true' });
    root.appendChild(el('section', { class: 'card', 'aria-labelledby': 'c-' + c.client }, [
      el('h2', { id: 'c-' + c.client, text: clientTitle(c.client) }),
      el('p', { class: 'meta', text: c.notes }),
      pre,
      el('div', { class: 'actions' }, [
        el('button', { type: 'button', text: 'Copy', 'aria-label': 'Copy the ' + clientTitle(c.client) + ' configuration', onclick: function () { copyText(c.text, pre, copied); } }),
        copied,
      ]),
    ]));
  });
  if (data.install.claudeDesktop) {
    var card = el('section', { class: 'card', 'data-id': 'install' }, [
      el('h2', { text: 'Install into Claude Desktop' }),
      el('p', { text: 'Adds this server to claude_desktop_config.json, keeping every other entry; the previous file is saved as .bak. A file that is not valid JSON is left alone.' }),
    ]);
    card.appendChild(el('button', { type: 'button', text: 'Install into Claude Desktop', onclick: function () {
      busy(card, async function () {
        try {
          var r = await api('POST', 'connect/install-claude-desktop');
          notify(r.ok ? 'ok' : 'error', r.message.trim().split('\n'), 'install');
        } catch (err) { failed(err, 'install'); }
      }).then(reload);
    } }));
    root.appendChild(card);
  }
  return root;
};

var shownHash = location.hash;

function askLeave(target) {
  confirmStep({
    title: 'Leave without saving?',
    lines: ['The access rules on this page were changed and not saved. Leaving now loses those changes; stay to save them.'],
    confirm: 'Leave without saving',
    danger: true,
    act: function () { state.leaving = true; location.hash = target; },
  });
}

// A link to another page of the console, pressed with unsaved edits on the Access page: ask first.
document.addEventListener('click', function (ev) {
  var a = ev.target && ev.target.closest ? ev.target.closest('a[href^="#/"]') : null;
  if (!a || state.leaving || !accessDirty() || a.getAttribute('href').indexOf('#/access') === 0) return;
  ev.preventDefault();
  askLeave(a.getAttribute('href'));
});

/** Another page of the console, unless the Access page has unsaved edits the owner wants to keep. */
function leaveGuard() {
  var target = location.hash;
  // Back or forward in the browser's history: the address changed already, put it back and ask.
  if (!state.leaving && accessDirty() && shownHash.indexOf('#/access') === 0 && target.indexOf('#/access') !== 0) {
    history.replaceState(null, '', shownHash);
    askLeave(target);
    return;
  }
  state.leaving = false;
  shownHash = target;
  show(true);
}

function keepCurrent() {
  var tick = function () {
    if (document.hidden) return;
    (route().page === 'pending' ? refreshPending() : refreshSession()).catch(function () {});
  };
  setInterval(tick, 10000);
  document.addEventListener('visibilitychange', tick);
  window.addEventListener('focus', tick);
  NARROW.addEventListener('change', function () { if (state.view === 'split') reload(); });
}

document.addEventListener('DOMContentLoaded', function () {
  document.getElementById('logout').addEventListener('click', async function () {
    try { await fetch('/logout', { method: 'POST', headers: { 'X-CSRF-Token': state.csrf || '' }, credentials: 'same-origin' }); } catch (e) { /* the sign-in page says the rest */ }
    location.href = '/';
  });
  window.addEventListener('hashchange', leaveGuard);
  window.addEventListener('beforeunload', function (ev) { if (accessDirty()) { ev.preventDefault(); ev.returnValue = ''; } });
  refreshSession().then(function () { return show(false); }, function (err) {
    document.getElementById('main').replaceChildren(el('h1', { text: 'The console cannot start' }), messageBox('error', [err.message]));
  });
  keepCurrent();
});
`;
