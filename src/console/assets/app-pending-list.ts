/**
 * @module
 * Browser code: the list of changed notes on the Pending page (SPEC 9.4) — a folder tree in the order
 * the changes came, each note a link to its card with its counts and marks, a filter by name, and how
 * many were viewed ("3 of 12 viewed").
 */

// biome-ignore lint/complexity/noUselessStringRaw: raw keeps any backslash added later verbatim for the browser
export const APP_PENDING_LIST = String.raw`
function folderOf(note) { var i = note.lastIndexOf('/'); return i < 0 ? '' : note.slice(0, i + 1); }
function baseName(note) { return note.slice(note.lastIndexOf('/') + 1); }

function viewedCount(changes) { return changes.filter(function (c) { return state.viewed[c.id]; }).length; }

function updateViewedCount() {
  var out = document.getElementById('viewed-count');
  if (out && state.pending) out.textContent = viewedCount(state.pending.changes) + ' of ' + state.pending.changes.length + ' viewed';
}

function goToCard(id) {
  var card = document.querySelector('article[data-id="' + CSS.escape(id) + '"]');
  if (card) { card.scrollIntoView({ block: 'start' }); card.querySelector('h2').focus({ preventScroll: true }); }
}

/**
 * The list of changed notes as a folder tree (folders in the order their first change came), each
 * note a link to its card (on its page), with counts and marks; a filter narrows it by name; the
 * summary says how many were viewed.
 */
function fileList(changes, page) {
  var tree = el('div', { class: 'file-tree' });
  var folders = {};
  var order = [];
  changes.forEach(function (c) {
    var dir = folderOf(c.note);
    if (!folders[dir]) { folders[dir] = []; order.push(dir); }
    folders[dir].push(c);
  });
  order.forEach(function (dir) {
    var list = el('ol', { class: 'files' });
    folders[dir].forEach(function (c) {
      var p = pageOf(c.id);
      var link = el('a', { href: '#/pending?page=' + p + '&change=' + encodeURIComponent(c.id), 'data-file': c.id, title: c.note }, [
        el('span', { class: 'kind-letter k-' + c.kind, title: KIND_TITLE[c.kind], text: KIND_LETTER[c.kind] }),
        el('span', { class: 'sr', text: KIND_TITLE[c.kind] + ': ' }),
        marked('span', { class: 'file-name' }, baseName(c.note)),
      ]);
      link.addEventListener('click', function (ev) {
        if (p !== page) return;
        ev.preventDefault();
        goToCard(c.id);
      });
      list.appendChild(el('li', { class: (p === page ? 'here' : '') + (state.viewed[c.id] ? ' viewed' : ''), 'data-file-item': c.id, 'data-note': c.note.toLowerCase() }, [
        link, counts(c), outdatedBadge(c),
        el('span', { class: 'viewed-mark', title: 'Viewed', 'aria-label': 'viewed', hidden: !state.viewed[c.id], text: '✓' }),
      ]));
    });
    tree.appendChild(el('div', { class: 'folder', 'data-folder': dir }, [
      dir ? nameNode('p', { class: 'folder-head' }, dir) : el('p', { class: 'folder-head', text: '(top folder)' }), list,
    ]));
  });
  var filter = el('input', { type: 'search', class: 'file-filter', placeholder: 'Filter by name', 'aria-label': 'Filter the changed notes by name' });
  var none = el('p', { class: 'meta', hidden: true, text: 'No changed note matches.' });
  filter.addEventListener('input', function () {
    var q = filter.value.trim().toLowerCase();
    tree.querySelectorAll('li[data-file-item]').forEach(function (li) { li.hidden = q !== '' && li.getAttribute('data-note').indexOf(q) < 0; });
    var any = false;
    tree.querySelectorAll('.folder').forEach(function (f) {
      var shown = f.querySelector('li[data-file-item]:not([hidden])') !== null;
      f.hidden = !shown;
      any = any || shown;
    });
    none.hidden = any;
  });
  var box = el('details', { class: 'files-box', open: WIDE.matches }, [
    el('summary', {}, ['Changed notes (' + changes.length + ') · ', el('span', { id: 'viewed-count', text: viewedCount(changes) + ' of ' + changes.length + ' viewed' })]),
    changes.length > 1 ? filter : null, none, tree,
  ]);
  return box;
}
`;
