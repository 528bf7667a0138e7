/**
 * @module
 * Browser code, part 5: the Access page. The vault's folders with the access agents have there and a
 * rule to choose for each; the policy file's text to edit directly (comments kept). A file that cannot
 * be used is shown with its text, the line in error marked, and never replaced by something more
 * open: the owner fixes the text, or starts from what could be read of it, everything else hidden.
 */

export const APP_ACCESS = String.raw`
function levelSelect(levels, current, inheritLabel, label) {
  var options = [];
  if (inheritLabel !== null) options.push(el('option', { value: '', selected: current === null, text: inheritLabel }));
  levels.forEach(function (l) { options.push(el('option', { value: l, selected: l === current, text: l })); });
  return el('select', { 'aria-label': label }, options);
}

/** How the policy compares folder names: case, "\", a trailing "/" and Unicode form do not count. */
function folderKey(folder) {
  var k = folder.split('\\').join('/').replace(/\/+$/, '');
  return k.normalize('NFC').toLowerCase().normalize('NFC');
}

/** A message next to a form, replacing the previous one; the form keeps what was typed. */
function formMessage(place, kind, lines) {
  place.replaceChildren(messageBox(kind, lines));
  place.firstChild.focus();
}

/**
 * The lines of two texts as a diff the page draws (removed and added lines between unchanged ones):
 * a longest common subsequence of lines, which is plenty for a policy file.
 */
function textDiff(before, after) {
  var a = before === '' ? [] : before.replace(/\n$/, '').split('\n');
  var b = after === '' ? [] : after.replace(/\n$/, '').split('\n');
  var n = a.length, m = b.length;
  var lcs = [];
  for (var i = 0; i <= n; i++) { lcs.push(new Array(m + 1).fill(0)); }
  for (i = n - 1; i >= 0; i--) for (var j = m - 1; j >= 0; j--) lcs[i][j] = a[i] === b[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
  var out = [];
  var line = function (kind, o, nn, text) { return { kind: kind, old: o, new: nn, pieces: [{ text: text, changed: false }] }; };
  i = 0; j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) { out.push(line('context', i + 1, j + 1, a[i])); i++; j++; }
    else if (j < m && (i === n || lcs[i][j + 1] >= lcs[i + 1][j])) { out.push(line('added', null, j + 1, b[j])); j++; }
    else { out.push(line('removed', i + 1, null, a[i])); i++; }
  }
  return out;
}

/** Shows what saving changes in .noted/mcp-policy.yaml, and saves only when the owner confirms. */
function askSave(before, after, save) {
  var lines = textDiff(before, after);
  var changed = lines.filter(function (l) { return l.kind !== 'context'; }).length;
  if (changed === 0) { say('Nothing to save: the policy file would stay the same.'); return; }
  confirmStep({
    title: 'Save .noted/mcp-policy.yaml?',
    lines: [el('p', { text: 'Saving changes the file like this (' + plural(lines.filter(function (l) { return l.kind === 'added'; }).length, 'line') + ' added, ' + plural(lines.filter(function (l) { return l.kind === 'removed'; }).length, 'line') + ' removed); agents get the new access with their next request.' }), el('div', { class: 'policy-diff' }, [diffTable(lines, 'What saving changes in the policy file')])],
    confirm: 'Save',
    act: save,
  });
}

/** Unsaved edits on the Access page: leaving asks first (another page of the console, or the tab). */
function accessDirty() {
  if (route().page !== 'access') return false;
  var changedRow = document.querySelector('.rules li.changed, .rules .changed-default');
  var area = document.getElementById('policy-text');
  return !!changedRow || !!(area && area.value !== area.getAttribute('data-saved'));
}

async function saveWith(scope, place, path, body) {
  var saved = false;
  await busy(scope, async function () {
    try {
      await api('PUT', path, body);
      saved = true;
    } catch (err) { formMessage(place, 'error', [err.message]); }
  });
  if (saved) {
    notify('ok', ['Saved .noted/mcp-policy.yaml. Agents get the new access with their next request.']);
    await reload();
  }
}

/** The rules form: the default and a rule for each folder, from 'rules' (folder key → access). */
function rulesForm(data, def, rules, note) {
  var form = el('div', { class: 'rules' });
  if (note) form.appendChild(note);
  form.appendChild(el('p', { text: 'Each folder shows the access agents have there now. A rule applies to the folder and everything inside it; the most specific rule wins.' }));
  var defSelect = levelSelect(data.levels, def, null, 'Access everywhere else (default)');
  form.appendChild(el('div', { class: 'actions' }, [el('label', { class: 'check' }, ['Everywhere else (default): ', defSelect])]));
  var rows = [];
  var list = el('ul', { class: 'folders', 'aria-label': 'Folders' });
  var folders = data.folders.slice();
  var known = {};
  folders.forEach(function (f) { known[folderKey(f.folder)] = true; });
  Object.keys(rules).forEach(function (k) {
    if (!known[k]) folders.push({ folder: rules[k].folder, access: null, rule: null, onDisk: false });
  });
  folders.forEach(function (f) {
    var depth = f.folder.split('/').length - 1;
    var name = f.folder.split('/').pop();
    var start = rules[folderKey(f.folder)] ? rules[folderKey(f.folder)].access : null;
    var effective = f.access === null ? 'now: closed (policy file unusable)' : 'now: ' + f.access;
    var select = levelSelect(data.levels, start, 'no rule of its own', 'Rule for ' + f.folder);
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
    select.addEventListener('change', function () { row.classList.toggle('changed', (select.value || null) !== start); });
    rows.push(select);
    list.appendChild(row);
  });
  if (folders.length === 0) form.appendChild(el('p', { class: 'empty', text: 'The vault has no folders yet, so the default applies to every note.' }));
  form.appendChild(list);
  if (data.truncated) form.appendChild(el('p', { class: 'meta', text: 'Only the first folders are listed.' }));
  var place = el('div');
  var save = el('button', { type: 'button', text: 'Save policy' });
  defSelect.addEventListener('change', function () { defSelect.parentNode.classList.toggle('changed-default', defSelect.value !== def); });
  save.addEventListener('click', async function () {
    var chosen = rows.filter(function (s) { return s.value; }).map(function (s) { return { folder: s.getAttribute('data-folder'), access: s.value }; });
    var body = { etag: data.etag, default: defSelect.value, folders: chosen };
    try {
      var p = await api('POST', 'access/preview', body);
      askSave(p.before, p.after, function () { saveWith(form, place, 'access', body); });
    } catch (err) { formMessage(place, 'error', [err.message]); }
  });
  form.appendChild(place);
  form.appendChild(el('div', { class: 'actions' }, [save]));
  return form;
}

/** The file's text, numbered, with the line the error names marked. */
function policyText(text, badLine) {
  var pre = el('pre', { class: 'policy-text', 'aria-label': 'The policy file as it is' });
  text.split('\n').forEach(function (line, i, all) {
    if (i === all.length - 1 && line === '') return;
    var bad = i + 1 === badLine;
    pre.appendChild(el('span', { class: bad ? 'line bad-line' : 'line', 'data-n': String(i + 1) }, [
      bad ? el('span', { class: 'sr', text: 'The error is on this line: ' }) : null, line + '\n',
    ]));
  });
  return pre;
}

function textEditor(data, label) {
  var box = el('div', { class: 'text-editor' });
  var area = el('textarea', { id: 'policy-text', rows: String(Math.min(20, Math.max(6, (data.file.text || '').split('\n').length + 1))), spellcheck: 'false' });
  area.value = data.file.text || '';
  area.setAttribute('data-saved', area.value);
  var place = el('div');
  box.appendChild(el('label', { for: 'policy-text', text: label }));
  box.appendChild(area);
  box.appendChild(place);
  box.appendChild(el('div', { class: 'actions' }, [el('button', { type: 'button', text: 'Save text', onclick: function () {
    var text = area.value;
    askSave(data.file.text || '', text, function () { saveWith(box, place, 'access/text', { etag: data.etag, text: text }); });
  } })]));
  return box;
}

function legend(data) {
  var dl = el('dl', { class: 'levels' });
  data.levels.forEach(function (l) { dl.appendChild(el('dt', { text: l })); dl.appendChild(el('dd', { text: data.meaning[l] })); });
  return el('div', {}, [el('h2', { text: 'What the levels mean' }), dl]);
}

function invalidPolicy(data) {
  var root = el('div');
  root.appendChild(el('div', { class: 'flash error', role: 'alert' }, [
    el('strong', { text: 'The policy file cannot be used, so agents can read and change nothing until it is fixed.' }),
    el('br'), document.createTextNode(data.file.error),
  ]));
  if (data.file.text !== null) {
    root.appendChild(el('h2', { text: 'The file as it is' }));
    root.appendChild(policyText(data.file.text, data.file.errorLine));
    root.appendChild(el('h2', { text: 'Fix the text' }));
    root.appendChild(textEditor(data, 'Policy file text'));
  }
  root.appendChild(el('h2', { text: 'Or start from what could be read' }));
  var s = data.salvage;
  root.appendChild(el('p', { text: 'The rules that could be read are kept; everything that could not is hidden from agents. You can change the rules before saving, but not open anything more than this until it is saved.' }));
  if (s.notes.length) root.appendChild(el('ul', { class: 'salvage-notes' }, s.notes.map(function (n) { return el('li', { text: n }); })));
  var place = el('div');
  root.appendChild(place);
  root.appendChild(el('div', { class: 'actions' }, [el('button', { type: 'button', text: 'Start from what could be read', onclick: function (ev) {
    ev.currentTarget.parentNode.remove();
    var rules = {};
    s.folders.forEach(function (r) { rules[folderKey(r.folder)] = r; });
    place.replaceChildren(rulesForm(data, s.default, rules, null));
    place.querySelector('select').focus();
  } })]));
  root.appendChild(legend(data));
  return root;
}

PAGES.access = async function () {
  var data = await api('GET', 'access');
  if (data.file.error) return invalidPolicy(data);
  var root = el('div');
  if (!data.file.exists) {
    root.appendChild(el('p', { text: 'There is no policy file yet, so agents may read and change every note. Saving creates .noted/mcp-policy.yaml.' }));
  }
  var rules = {};
  data.folders.forEach(function (f) { if (f.rule) rules[folderKey(f.folder)] = { folder: f.folder, access: f.rule }; });
  root.appendChild(rulesForm(data, data.default, rules, null));
  root.appendChild(el('p', { class: 'meta', text: 'Saving the form writes the file anew, without comments. To keep comments, edit the text below.' }));
  var details = el('details', { class: 'as-text' }, [el('summary', { text: 'Edit the file as text' })]);
  details.appendChild(textEditor(data, 'Policy file text'));
  root.appendChild(details);
  root.appendChild(legend(data));
  return root;
};
`;
