/**
 * @module bench/lib/concurrency-check
 * The checks of the concurrency run, over what the agents and the direct editor recorded.
 *
 * No lost update. Every write names the version it was based on and the version it made; every
 * version is a different text (each write adds a token no other write uses), so each version was made
 * by exactly one write. A history without lost updates is then one path from the starting text to the
 * final file: each version other than the final one is the base of exactly one later write. A write
 * applied on a version other than the one it was based on leaves a version nobody wrote on (its
 * branch ends before the final file) — the checker names each such lost version, the write that
 * overwrote it, and whose race it was:
 * - agent over agent: the servers let two writes on the same version through. Always a failure.
 * - the editor over an agent: the editor read the note before the agent's write and wrote after it.
 *   Editors take no lock; that race is theirs (counted, not a server failure). Checked to be possible
 *   from the times: the editor's read came before the agent's answer, its write after the call began.
 * - an agent over the editor: the editor wrote while the server was between its version check and its
 *   rename. Counted apart; the caller decides what it may be.
 * A successful agent write must also have produced exactly the text asked for (the etag the server
 * answered equals the etag of the edit applied here to the base text).
 *
 * An in-place save (truncate, then write) passes through an empty file. A reader that comes in
 * between sees that empty version, and a write based on it is a write on a version that did exist:
 * each in-place save is modelled as two steps (its base → "torn", "torn" → its text), and a write
 * based on an empty text (or a prefix of the save's text) seen while the save was under way is based
 * on that save's torn step. When such a write wins, the save's own bytes went to the file the rename
 * replaced: counted with the races as `torn`.
 *
 * Scratch notes (created and deleted by agents only) must follow the same rule, with "absent" as a
 * state every deletion leads to and every creation starts from.
 */
import fs from 'node:fs';
import path from 'node:path';

const ABSENT = 'absent';

/**
 * @param {object} input
 * @param {Map<string, string | null>} input.initial note → starting etag, or null when absent
 * @param {Map<string, string | null>} input.final note → etag of the file at the end, or null
 * @param {object[]} input.agent the agents' records (concurrency-agents.mjs)
 * @param {object[]} input.direct the editor's records (concurrency-editor.mjs)
 */
export function checkHistory({ initial, final, agent, direct, texts = new Map() }) {
  const problems = [];
  const races = { editorOverAgent: [], agentOverEditor: [] };
  const writes = [];
  for (const r of agent) {
    if (r.outcome !== 'ok' || r.op === 'read') continue;
    if (r.op !== 'delete' && r.result !== r.expected) {
      problems.push({
        kind: 'wrong-text',
        detail: `${r.who} ${r.tool} (${r.op}) on ${r.note}: the server answered ${r.result}, the edit applied to the base gives ${r.expected}`,
      });
    }
    writes.push({
      by: 'agent',
      who: r.who,
      op: r.op,
      note: r.note,
      base: r.op === 'create' ? ABSENT : r.base,
      baseText: texts.get(r.base),
      baseSeen: r.baseSeen,
      next: r.op === 'delete' ? ABSENT : r.result,
      from: r.sent,
      to: r.answered,
    });
  }
  const saves = [];
  direct.forEach((d, i) => {
    const save = { by: 'editor', who: 'editor', op: d.mode, note: d.note, from: d.readDone, to: d.wroteAt };
    if (!d.mode.startsWith('in-place')) {
      writes.push({ ...save, base: d.base, next: d.next, from: d.readAt });
      return;
    }
    const torn = `torn:${i}`;
    writes.push({ ...save, op: `${d.mode} (truncate)`, base: d.base, next: torn, from: d.readAt });
    writes.push({ ...save, base: torn, next: d.next });
    saves.push({ torn, note: d.note, text: d.text, from: d.readDone, to: d.wroteAt });
  });
  // A write based on a torn in-place save is based on that save's "torn" step.
  const known = new Set([...initial.values(), ...writes.map((w) => w.next)]);
  let tornBases = 0;
  for (const w of writes) {
    if (w.by !== 'agent' || w.base === ABSENT || known.has(w.base) || typeof w.baseText !== 'string')
      continue;
    const [seenFrom, seenTo] = w.baseSeen ?? [w.from, w.from];
    const save = saves.find(
      (sv) =>
        sv.note === w.note &&
        sv.text.startsWith(w.baseText) &&
        sv.text !== w.baseText &&
        sv.from <= seenTo &&
        sv.to >= seenFrom,
    );
    if (save !== undefined) {
      w.base = save.torn;
      tornBases++;
    }
  }
  const notes = new Set([...initial.keys(), ...final.keys()]);
  for (const w of writes) notes.add(w.note);
  const perNote = new Map();
  for (const note of notes) {
    const own = writes.filter((w) => w.note === note);
    perNote.set(note, own.length);
    checkNote(note, initial.get(note) ?? null, final.get(note) ?? null, own, problems, races);
  }
  return { problems, races, writes: writes.length, perNote, tornBases };
}

function checkNote(note, start, end, writes, problems, races) {
  const startNode = start ?? ABSENT;
  const endNode = end ?? ABSENT;
  // Each present version is made by exactly one write (or is the starting text).
  const madeBy = new Map();
  for (const w of writes) {
    if (w.next === ABSENT) continue;
    if (madeBy.has(w.next) || w.next === startNode) {
      problems.push({ kind: 'duplicate-version', detail: `${note}: two writes made ${w.next}` });
    }
    madeBy.set(w.next, w);
  }
  const children = new Map();
  for (const w of writes) {
    if (w.base !== ABSENT && w.base !== startNode && !madeBy.has(w.base)) {
      problems.push({
        kind: 'unknown-base',
        detail: `${note}: ${w.who} ${w.op} succeeded on ${w.base}, a version no write made`,
      });
      continue;
    }
    const list = children.get(w.base) ?? [];
    list.push(w);
    children.set(w.base, list);
  }
  if (endNode !== ABSENT && endNode !== startNode && !madeBy.has(endNode)) {
    problems.push({
      kind: 'unknown-final',
      detail: `${note}: the final file ${endNode} was made by no recorded write`,
    });
    return;
  }
  // "absent" may be left once for each time it was reached.
  const creates = (children.get(ABSENT) ?? []).length;
  const deletes = writes.filter((w) => w.next === ABSENT).length;
  const reachedAbsent = deletes + (startNode === ABSENT ? 1 : 0);
  const leftAbsent = reachedAbsent - (endNode === ABSENT ? 1 : 0);
  if (creates !== leftAbsent) {
    problems.push({
      kind: 'lost-update',
      detail: `${note}: ${creates} creations but the note became absent ${reachedAbsent} times (ends ${endNode === ABSENT ? 'absent' : 'present'})`,
    });
  }
  if (startNode === ABSENT || deletes > 0 || creates > 0) {
    // Created and deleted by agents only: every version but the final one has exactly one successor.
    for (const [version, w] of [...madeBy.entries(), [startNode, null]]) {
      if (version === ABSENT || version === endNode) continue;
      const next = children.get(version) ?? [];
      if (next.length !== 1) {
        problems.push({
          kind: 'lost-update',
          detail: `${note}: version ${version}${w ? ` (by ${w.who} ${w.op})` : ''} is the base of ${next.length} writes`,
        });
      }
    }
    if (endNode !== ABSENT && (children.get(endNode) ?? []).length > 0) {
      problems.push({
        kind: 'lost-update',
        detail: `${note}: the final version is the base of a later write`,
      });
    }
    return;
  }
  // Never absent: the history is the path from the final version back to the start.
  const onPath = new Set([startNode]);
  for (let v = endNode; v !== startNode; ) {
    const w = madeBy.get(v);
    if (onPath.has(v) || w === undefined) {
      problems.push({
        kind: 'broken-history',
        detail: `${note}: the final version does not lead back to the start`,
      });
      return;
    }
    onPath.add(v);
    v = w.base;
  }
  for (const [version, w] of madeBy) {
    if (onPath.has(version)) continue;
    if ((children.get(version) ?? []).length > 0) continue; // a later version of its branch is reported
    // A branch that ends before the final file: find where it left the path and who won there.
    const lost = [w];
    let fork = w.base;
    while (!onPath.has(fork)) {
      const up = madeBy.get(fork);
      if (up === undefined || lost.includes(up)) break; // an unknown base is reported above
      lost.unshift(up);
      fork = up.base;
    }
    if (!onPath.has(fork)) continue;
    const first = lost[0];
    const winner = (children.get(fork) ?? []).find((c) => onPath.has(c.next));
    classify(note, fork, first, lost, winner, problems, races);
  }
}

function classify(note, fork, first, lost, winner, problems, races) {
  const names = lost.map((l) => `${l.who} ${l.op}`).join(' → ');
  if (winner === undefined) {
    problems.push({
      kind: 'lost-update',
      detail: `${note}: ${names} lost, and no write continued from ${fork}`,
    });
    return;
  }
  const detail = `${note}: ${names} (based on ${fork.slice(0, 18)}…) lost; ${winner.who} ${winner.op} wrote on the same version`;
  if (winner.by === 'editor' && first.by === 'agent') {
    // The editor read `fork` before the agent's write was applied, and wrote after it.
    const possible = winner.from < first.to && winner.to > first.from;
    if (possible) races.editorOverAgent.push({ note, lost: lost.length, detail });
    else problems.push({ kind: 'lost-update', detail: `${detail} — but their times do not overlap` });
    return;
  }
  if (winner.by === 'agent' && first.by === 'editor') {
    // The save's write began before the agent's answer (so before its rename) and ended after the
    // agent's call began (so it could come after the server's version check).
    const torn = fork.startsWith('torn:');
    const possible = torn || (first.from < winner.to && first.to > winner.from);
    if (!possible) {
      problems.push({ kind: 'lost-update', detail: `${detail} — but their times do not overlap` });
      return;
    }
    races.agentOverEditor.push({ note, lost: lost.length, torn, detail });
    return;
  }
  problems.push({ kind: 'lost-update', detail });
}

/** The entries of a vault's journal, in chain order. */
export function readJournal(vault) {
  const dir = path.join(vault, '.noted', 'journal');
  if (!fs.existsSync(dir)) return [];
  const files = fs
    .readdirSync(dir)
    .filter((f) => /^\d{4}-\d{2}-\d{2}\.jsonl$/.test(f))
    .sort();
  const entries = [];
  for (const f of files) {
    for (const line of fs.readFileSync(path.join(dir, f), 'utf8').split('\n')) {
      if (line.trim() !== '') entries.push(JSON.parse(line));
    }
  }
  return entries;
}

/**
 * One journal entry for each successful agent write, no more and no fewer: the same note, the same
 * text before (the version it was based on) and after; seqs 1…N without a gap. A change the server
 * recorded and then did not make (the note changed on disk between its check and its write, so the
 * agent was refused) must be voided by a `not_applied` entry and match that refused call.
 */
export function checkJournal(entries, agent) {
  const problems = [];
  entries.forEach((e, i) => {
    if (e.seq !== i + 1) problems.push({ kind: 'journal-seq', detail: `entry ${i + 1} has seq ${e.seq}` });
  });
  const hex = (etag) => (etag === null ? null : etag.replace(/^sha256:/, ''));
  const key = (note, before, after) => `${note} ${before} → ${after}`;
  const wanted = new Map();
  const refused = new Map();
  let writes = 0;
  for (const r of agent) {
    if (r.op === 'read' || r.outcome === 'error') continue;
    const k = key(
      r.note,
      r.op === 'create' ? null : hex(r.base),
      r.op === 'delete' ? null : hex(r.outcome === 'ok' ? r.result : r.expected),
    );
    const into = r.outcome === 'ok' ? wanted : refused;
    into.set(k, (into.get(k) ?? 0) + 1);
    if (r.outcome === 'ok') writes++;
  }
  const voided = new Set(entries.filter((e) => e.kind === 'not_applied').map((e) => e.voids));
  const seen = new Set();
  let notApplied = 0;
  for (const e of entries) {
    if (e.kind === 'not_applied') {
      notApplied++;
      if (!seen.has(e.voids)) {
        problems.push({ kind: 'journal-voids', detail: `seq ${e.seq} voids ${e.voids}, no earlier entry` });
      }
      continue;
    }
    seen.add(e.id);
    const k = key(e.note, e.beforeSha256, e.afterSha256);
    const from = voided.has(e.id) ? refused : wanted;
    const left = from.get(k) ?? 0;
    if (left === 0) {
      problems.push({
        kind: 'journal-extra',
        detail: `seq ${e.seq}: ${e.tool} ${k} is no ${voided.has(e.id) ? 'refused' : 'successful'} write`,
      });
    } else from.set(k, left - 1);
  }
  for (const [k, left] of wanted) {
    if (left > 0)
      problems.push({
        kind: 'journal-missing',
        detail: `${left} successful write(s) ${k} not in the journal`,
      });
  }
  return { problems, entries: entries.length, writes, notApplied };
}
