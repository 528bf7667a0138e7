/**
 * @module
 * Browser code: refusals in plain sentences (SPEC 9.4). A change decided in another tab, an outdated
 * note or a name taken meanwhile is said in one sentence naming the note and what to do, never with a
 * raw change id or a terminal command; a bulk action's refusals are one sentence per kind, naming the
 * notes, not one line per change.
 */

export const APP_REFUSALS = String.raw`
/** A refusal of the console as one plain sentence naming the note and what to do: no ids, no commands. */
function refusalSentence(err, note) {
  var name = note || 'this change';
  if (err.code === 'not_found') return 'The change to ' + name + ' was already decided elsewhere (in another tab or window, or in a terminal), so nothing was done here; it is no longer waiting.';
  if (err.code === 'conflict') return 'Not approved: ' + name + ' was changed since the agent saw it, and approving would overwrite that edit, so nothing was written. Reject this change, or ask the agent to make it again on the current text.';
  if (err.code === 'already_exists') return 'Not approved: a note named ' + name + ' exists now, and approving would replace it, so nothing was written. Rename or remove that note, or reject this change.';
  if (err.code === 'offline') return err.message;
  return 'Nothing was done to ' + name + ': ' + plainMessage(err.message);
}

/** A server message without raw change ids or terminal commands (the page says what to do instead). */
function plainMessage(text) {
  return text.replace(/\bChange "?\d{8}-\d{6}-\d{3}-[0-9a-f]{6}"?/g, 'The change').replace(/"?\d{8}-\d{6}-\d{3}-[0-9a-f]{6}"?/g, 'this change')
    .split(/(?<=\.)\s+/).filter(function (s) { return !/noted-mcp|--\w/.test(s); }).join(' ');
}

/**
 * The refusals of a bulk action, one sentence per kind, each naming its notes: "3 changes were
 * already decided elsewhere: a.md, b.md, c.md", never one line per change with its id.
 */
function refusalLines(refused) {
  var byKind = {};
  refused.forEach(function (o) { var k = o.code === 'not_found' || o.code === 'conflict' || o.code === 'already_exists' ? o.code : 'other'; (byKind[k] = byKind[k] || []).push(o); });
  var names = function (list) { var n = list.map(function (o) { return o.note || 'a change'; }); return n.slice(0, 6).join(', ') + (n.length > 6 ? ' and ' + (n.length - 6) + ' more' : ''); };
  var lines = [];
  if (byKind.not_found) lines.push(plural(byKind.not_found.length, 'change was', 'changes were') + ' already decided elsewhere (another tab or window, or a terminal), so nothing was done to them: ' + names(byKind.not_found) + '.');
  if (byKind.conflict) lines.push(plural(byKind.conflict.length, 'change was', 'changes were') + ' not approved because the note changed since the agent saw it: ' + names(byKind.conflict) + '. Reject them, or ask the agent to make them again on the current text.');
  if (byKind.already_exists) lines.push(plural(byKind.already_exists.length, 'new note was', 'new notes were') + ' not approved because a note of that name exists now: ' + names(byKind.already_exists) + '. Rename or remove those notes, or reject the changes.');
  if (byKind.other) {
    var reasons = {};
    byKind.other.forEach(function (o) { var r = plainMessage(o.message || ''); (reasons[r] = reasons[r] || []).push(o); });
    Object.keys(reasons).forEach(function (r) { lines.push('Nothing was done to ' + names(reasons[r]) + ': ' + r); });
  }
  return lines;
}
`;
