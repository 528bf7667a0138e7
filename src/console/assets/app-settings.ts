/**
 * @module
 * Browser code, part 3: the Access page (folder tree, effective levels, rule editing), the Connect a
 * client page (snippets with copy buttons, the Claude Desktop install), sign-out and start-up.
 */

export const APP_SETTINGS = String.raw`
function levelSelect(levels, current, inheritLabel, label) {
  var options = [];
  if (inheritLabel !== null) options.push(el('option', { value: '', selected: current === null, text: inheritLabel }));
  levels.forEach(function (l) { options.push(el('option', { value: l, selected: l === current, text: l })); });
  return el('select', { 'aria-label': label }, options);
}

PAGES.access = async function () {
  var data = await api('GET', 'access');
  var root = el('div');
  if (data.file.error) {
    root.appendChild(el('div', { class: 'flash error', role: 'alert' }, [
      el('strong', { text: 'The policy file on disk cannot be used, so agents can read and change nothing until it is fixed or replaced.' }),
      el('br'), document.createTextNode(data.file.error),
    ]));
    if (data.file.text !== null) {
      root.appendChild(el('p', { text: 'The file as it is now (saving below replaces it):' }));
      root.appendChild(el('pre', { class: 'diff', text: data.file.text }));
    }
  } else if (!data.file.exists) {
    root.appendChild(el('p', { text: 'There is no policy file yet, so agents may read and change every note. Saving creates .noted/mcp-policy.yaml.' }));
  }
  root.appendChild(el('p', { text: 'Each folder shows the access agents have there now. A rule applies to the folder and everything inside it; the most specific rule wins.' }));
  var def = levelSelect(data.levels, data.default, null, 'Access everywhere else (default)');
  root.appendChild(el('div', { class: 'actions' }, [el('label', { class: 'check' }, ['Everywhere else (default): ', def])]));
  var rows = [];
  var list = el('ul', { class: 'folders', 'aria-label': 'Folders' });
  data.folders.forEach(function (f) {
    var depth = f.folder.split('/').length - 1;
    var name = f.folder.split('/').pop();
    var effective = f.access === null ? 'closed (policy file invalid)' : 'now: ' + f.access;
    var select = levelSelect(data.levels, f.rule, 'no rule of its own', 'Rule for ' + f.folder);
    select.setAttribute('data-folder', f.folder);
    var row = el('li', { 'data-folder': f.folder }, [
      el('span', { class: 'folder-name' }, [
        el('span', { 'aria-hidden': 'true', text: '· '.repeat(depth) }), el('span', { text: name + '/' }),
        el('span', { class: 'sr', text: ' (' + f.folder + ')' }),
        f.onDisk ? null : el('span', { class: 'meta', text: ' (not on disk)' }),
      ]),
      el('span', { class: 'effective', text: effective }),
      select,
    ]);
    select.addEventListener('change', function () { row.classList.toggle('changed', (select.value || null) !== f.rule); });
    rows.push(select);
    list.appendChild(row);
  });
  if (data.folders.length === 0) root.appendChild(el('p', { text: 'The vault has no folders yet.' }));
  root.appendChild(list);
  if (data.truncated) root.appendChild(el('p', { class: 'meta', text: 'Only the first folders are listed.' }));
  var save = el('button', { type: 'button', text: 'Save policy' });
  save.addEventListener('click', async function () {
    var folders = rows.filter(function (s) { return s.value; }).map(function (s) { return { folder: s.getAttribute('data-folder'), access: s.value }; });
    try {
      await api('PUT', 'access', { etag: data.etag, default: def.value, folders: folders });
      flash('ok', ['Saved .noted/mcp-policy.yaml. Agents get the new access with their next request.']);
    } catch (err) { failed(err); }
    await reload();
  });
  root.appendChild(el('div', { class: 'actions' }, [save]));
  var legend = el('dl', { class: 'levels' });
  data.levels.forEach(function (l) { legend.appendChild(el('dt', { text: l })); legend.appendChild(el('dd', { text: data.meaning[l] })); });
  root.appendChild(el('h2', { text: 'What the levels mean' }));
  root.appendChild(legend);
  return root;
};

async function copyText(text, pre) {
  try {
    await navigator.clipboard.writeText(text);
    say('Copied to the clipboard.');
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
    var pre = el('pre', { class: 'diff', id: 'snippet-' + c.client, text: c.text });
    root.appendChild(el('section', { class: 'card', 'aria-labelledby': 'c-' + c.client }, [
      el('h2', { id: 'c-' + c.client, text: c.client }),
      el('p', { class: 'meta', text: c.notes }),
      pre,
      el('button', { type: 'button', text: 'Copy', 'aria-label': 'Copy the ' + c.client + ' configuration', onclick: function () { copyText(c.text, pre); } }),
    ]));
  });
  if (data.install.claudeDesktop) {
    var card = el('section', { class: 'card', 'data-id': 'install' }, [
      el('h2', { text: 'Install into Claude Desktop' }),
      el('p', { text: 'Adds this server to claude_desktop_config.json, keeping every other entry; the previous file is saved as .bak. A file that is not valid JSON is left alone.' }),
    ]);
    card.appendChild(el('button', { type: 'button', text: 'Install into Claude Desktop', onclick: async function () {
      try {
        var r = await api('POST', 'connect/install-claude-desktop');
        flash(r.ok ? 'ok' : 'error', r.message.trim().split('\n'), 'install');
      } catch (err) { failed(err, 'install'); }
      await reload();
    } }));
    root.appendChild(card);
  }
  return root;
};

document.addEventListener('DOMContentLoaded', function () {
  document.getElementById('logout').addEventListener('click', async function () {
    try { await fetch('/logout', { method: 'POST', headers: { 'X-CSRF-Token': state.csrf || '' }, credentials: 'same-origin' }); } catch (e) { /* shown below */ }
    location.href = '/';
  });
  window.addEventListener('hashchange', function () { show(true); });
  refreshSession().then(function () { return show(false); }, function (err) { say(err.message); });
  setInterval(function () { refreshSession().catch(function () {}); }, 15000);
});
`;
