/**
 * @module
 * Browser code, part 3b: the owner's decisions beyond approve (SPEC 9.4), kept apart from the review
 * page's drawing so both can change on their own. Rejected changes listed under "Rejected" (kept 30
 * days, with their diff) and put back with one action; a reason for a rejection; the changes to one note
 * grouped, each card saying what approving it does to the others; an outdated change merged onto the
 * owner's later edits, the hunks that overlap them shown with both texts and never applied; and the
 * owner's own decisions shown as "you" in Agent activity.
 */

// biome-ignore lint/complexity/noUselessStringRaw: raw keeps any backslash added later verbatim for the browser
export const APP_DECISIONS = String.raw`
/** "Change 1 of 2 to this note…": where a change stands among the changes to its note, and what approving it outdates. */
function noteGroupLine(c) {
  var g = c.group;
  if (!g || g.count < 2) return null;
  var byId = {};
  state.pending.changes.forEach(function (x) { byId[x.id] = x; });
  var above = 0, below = 0;
  g.outdates.forEach(function (id) {
    var other = byId[id];
    if (other && other.group && other.group.position < g.position) above++; else below++;
  });
  var what = [];
  if (below) what.push(below === 1 ? 'the change below' : 'the ' + below + ' changes below');
  if (above) what.push(above === 1 ? 'the change above' : 'the ' + above + ' changes above');
  var text = 'Change ' + g.position + ' of ' + g.count + ' to this note, oldest first. ' +
    (what.length ? 'Approving this outdates ' + what.join(' and ') + ' (their hunks that do not touch it can still be merged).'
      : 'The other changes to this note are outdated already.');
  return el('p', { class: 'meta note-group', 'data-group-line': c.id, text: text });
}

/** The optional reason kept with a rejection. */
function reasonInput(c) {
  return el('input', { type: 'text', class: 'reason', maxlength: '500', placeholder: 'Reason (optional)', 'aria-label': 'Reason for rejecting the change to ' + c.note });
}

function reasonOf(card) {
  var input = card && card.querySelector('input.reason');
  return input ? input.value.trim() : '';
}

/**
 * An outdated update whose note the owner edited: the hunks that apply cleanly onto the note now are
 * approved with the boxes above; those that overlap the owner's edits are shown with both texts and
 * never applied.
 */
function mergeSection(card, c, merge, diff) {
  var clean = merge.hunks.filter(function (h) { return !h.conflict; }).map(function (h) { return h.index; });
  var conflicts = merge.hunks.filter(function (h) { return h.conflict; });
  var box = el('section', { class: 'merge', 'aria-label': 'Merge onto the later edits' });
  var why = card.querySelector('.outdated-why');
  if (why && c.outdated) why.textContent = 'Outdated: ' + c.outdated + '. Approve stays off, but the hunks that do not touch those edits can still be merged onto the note as it is now (below); the ones that do are shown with both texts and never applied.';
  box.appendChild(el('p', { text: clean.length === 0
    ? 'Every hunk of this change overlaps edits made to the note after the agent read it, so none can be applied. Reject it, or let the agent redo it on the current text.'
    : plural(clean.length, 'hunk') + ' of ' + merge.hunks.length + ' apply cleanly onto the note as it is now' +
      (conflicts.length ? '; ' + plural(conflicts.length, 'hunk') + ' overlap' + (conflicts.length === 1 ? 's' : '') + ' later edits and ' + (conflicts.length === 1 ? 'is' : 'are') + ' not applied (both texts below).' : '.') }));
  conflicts.forEach(function (m) {
    var set = card.querySelector('[data-hunk-box="' + m.index + '"]');
    if (set) {
      set.classList.add('conflict');
      var keep = set.querySelector('input[data-hunk]');
      if (keep) { keep.checked = false; keep.disabled = true; }
    }
    var h = diff.hunks.find(function (x) { return x.index === m.index; });
    var theirs = h ? h.lines.filter(function (l) { return l.kind !== 'context'; }) : [];
    var ours = m.ours.lines.map(function (text, i) {
      return { kind: 'context', old: m.ours.start + i, new: m.ours.start + i, pieces: [{ text: text, changed: false }] };
    });
    box.appendChild(el('div', { class: 'conflict-pair', 'data-conflict': String(m.index) }, [
      el('p', { class: 'meta', text: 'Hunk ' + m.index + ' overlaps the later edits: not applied.' }),
      el('p', { class: 'meta', text: 'The agent’s change:' }), diffTable(theirs, 'The agent’s change, hunk ' + m.index),
      el('p', { class: 'meta', text: ours.length ? 'The note now, from line ' + m.ours.start + ':' : 'The note now: those lines were removed.' }),
      ours.length ? diffTable(ours, 'The note now, hunk ' + m.index) : null,
    ]));
  });
  if (clean.length === 0) return box;
  var button = el('button', { type: 'button', class: 'merge-approve' });
  var kept = function () { var gone = dropped(c.id); return clean.filter(function (n) { return gone.indexOf(n) < 0; }); };
  var label = function () {
    var k = kept().length;
    button.textContent = k === 0 ? 'Merge (keep at least one clean hunk)' : 'Merge ' + plural(k, 'clean hunk') + ' onto the note as it is now';
    button.disabled = k === 0;
  };
  card.addEventListener('change', function (ev) { if (ev.target && ev.target.hasAttribute('data-hunk')) label(); });
  label();
  button.addEventListener('click', async function () {
    await busy(card, async function () {
      try {
        var r = await api('POST', 'pending/' + encodeURIComponent(c.id) + '/approve', { keep: kept(), onto: merge.onto });
        var h = r.result.hunks;
        settleCard(card, c, 'ok', ['Approved: ' + r.result.note + ' updated with ' + h.kept.length + ' of ' + h.total + ' hunks, merged onto the later edits.']);
      } catch (err) {
        if (err.code === 'not_found') settleCard(card, c, 'warn', [refusalSentence(err, c.note)]);
        else showInCard(card, 'error', [refusalSentence(err, c.note)]);
      }
    });
  });
  box.appendChild(el('div', { class: 'actions' }, [button]));
  return box;
}

/** One rejected change: what it was, who asked, your reason, its diff on request, and Put back. */
function rejectedItem(r) {
  var item = el('li', { class: 'rejected-item', 'data-rejected': r.id });
  var diffBox = el('div', { class: 'entry-diff', hidden: true });
  var toggle = el('button', { type: 'button', class: 'quiet small', text: 'Show diff', 'aria-expanded': 'false' });
  toggle.addEventListener('click', async function () {
    var open = toggle.getAttribute('aria-expanded') === 'true';
    toggle.setAttribute('aria-expanded', String(!open));
    toggle.textContent = open ? 'Show diff' : 'Hide diff';
    diffBox.hidden = open;
    if (!open && !diffBox.firstChild) {
      try { diffBox.appendChild(diffNode((await api('GET', 'rejected/' + encodeURIComponent(r.id))).diff)); }
      catch (err) { diffBox.appendChild(messageBox('error', [err.message])); }
    }
  });
  var putBack = el('button', { type: 'button', class: 'small put-back', text: 'Put back to pending' });
  putBack.addEventListener('click', async function () {
    await busy(item, async function () {
      try {
        await api('POST', 'rejected/' + encodeURIComponent(r.id) + '/put-back');
        notify('ok', ['Put back: the change to ' + r.note + ' is waiting for review again.']);
      } catch (err) { failed(err); }
    });
    await reload();
  });
  item.appendChild(el('div', { class: 'entry-line' }, [
    el('span', { class: 'kind', text: KIND_TITLE[r.kind] }), el('span', { class: 'note-name', text: r.note }),
    el('span', { class: 'meta', text: 'by ' + r.client + ' (self-declared) · rejected ' + when(r.rejectedAt) + ' · kept until ' + when(r.keptUntil) }),
    toggle, putBack,
  ]));
  if (r.reason) item.appendChild(el('p', { class: 'meta', text: 'Your reason: ' + r.reason }));
  item.appendChild(diffBox);
  return item;
}

/**
 * The rejected changes still kept, under a folded "Rejected (n)": the list is asked for when it is
 * opened, so drawing the review page costs no request more. It stays open across redraws in this tab.
 */
function rejectedSection(count) {
  var list = el('ul', { class: 'rejected-list' });
  var box = el('details', { class: 'rejected-box' }, [
    el('summary', { text: 'Rejected (' + count + '), kept 30 days' }),
    el('p', { class: 'meta', text: count ? 'A rejected change is kept here with its text, its hunks, its agent and your reason, and can be put back to pending. After 30 days it is removed.'
      : 'Nothing was rejected in the last 30 days. A change you reject is kept here for 30 days and can be put back.' }),
    list,
  ]);
  var load = async function () {
    try {
      var data = await api('GET', 'rejected');
      list.replaceChildren.apply(list, data.changes.map(rejectedItem));
      box.querySelector('summary').textContent = 'Rejected (' + data.changes.length + '), kept 30 days';
    } catch (err) { list.replaceChildren(el('li', {}, [messageBox('error', [err.message])])); }
  };
  box.addEventListener('toggle', function () {
    state.rejectedOpen = box.open;
    if (box.open) load();
  });
  if (state.rejectedOpen && count) box.open = true;
  return box;
}

/**
 * After rejections decided in place (the page is not drawn again): the Rejected count goes up by n,
 * and an open list is asked for again.
 */
function rejectedGrew(n) {
  var box = document.querySelector('details.rejected-box');
  if (!box || n <= 0) return;
  var summary = box.querySelector('summary');
  var m = /\((\d+)\)/.exec(summary.textContent);
  summary.textContent = 'Rejected (' + ((m ? Number(m[1]) : 0) + n) + '), kept 30 days';
  if (box.open) box.dispatchEvent(new Event('toggle'));
}

/** Adds the Rejected section to a drawn Pending page. */
function withRejected(root, count) {
  root.appendChild(rejectedSection(count || 0));
  return root;
}

var DECISION_WORDS = { approve: 'you approved', reject: 'you rejected', put_back: 'you put back', undo: 'you undid' };

/** The kind of an activity entry, or "you …" for the owner's decision it records. */
function kindLabel(e) {
  if (!e.decision) return el('span', { class: 'kind', text: e.kind });
  var words = DECISION_WORDS[e.decision.action] || 'you';
  var h = e.decision.hunks;
  if (e.decision.action === 'approve' && h && h.kept.length < h.total) words += ' ' + h.kept.length + ' of ' + h.total + ' hunks';
  if (e.decision.merged) words += ' (merged)';
  return el('span', { class: 'kind you', title: e.decision.reason ? 'Your reason: ' + e.decision.reason : null, text: words });
}

/** A session of the owner's own undos is "You"; an agent's is its self-declared name. */
function sessionTitle(s) {
  if (s.owner) return 'You (undo from the console or the command line)';
  return s.client === null ? 'Unnamed client' : s.client;
}
`;
