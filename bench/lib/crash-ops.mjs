/**
 * @module bench/lib/crash-ops
 * The calls of the crash loop (crash-loop.mjs): each picks a note the current state allows and says
 * which notes it changes, from which text to which (`changes`: name → [before, after], null for no
 * note, a Set when several texts are possible), and makes the call through the loop's client or CLI.
 */

import fs from 'node:fs';
import path from 'node:path';
import { etagOf, SLOTS, STAGED, tokenOf, trashListing } from './crash-vault.mjs';
import { randInt } from './random.mjs';

/** How often each kind of call is picked, among those the state allows. */
const OP_WEIGHTS = {
  update: 18,
  edit: 18,
  create: 8,
  delete: 10,
  restore: 8,
  move: 12,
  stage: 12,
  approve: 10,
};

/** Picks an operation that the current state allows, by weight. */
export function chooseOp(loop) {
  const ops = [];
  const rwNames = [...loop.cur.keys()].filter((n) => !n.startsWith('staged/'));
  const slotFree = (k) => !loop.cur.has(`inbox/n${k}.md`) && !loop.cur.has(`archive/n${k}.md`);
  const other = (name) =>
    name.startsWith('inbox/') ? name.replace('inbox/', 'archive/') : name.replace('archive/', 'inbox/');
  const pick = (items) => items[Math.floor(loop.rand() * items.length)];
  if (rwNames.length > 0) {
    ops.push(['update', () => opUpdate(loop, pick(rwNames))]);
    ops.push(['edit', () => opEdit(loop, pick(rwNames))]);
    ops.push(['delete', () => opDelete(loop, pick(rwNames))]);
    const movable = rwNames.filter((n) => !loop.cur.has(other(n)));
    if (movable.length > 0)
      ops.push([
        'move',
        () => {
          const n = pick(movable);
          return opMove(loop, n, other(n));
        },
      ]);
  }
  const free = [...Array(SLOTS).keys()].filter(slotFree);
  if (free.length > 0) ops.push(['create', () => opCreate(loop, `inbox/n${pick(free)}.md`)]);
  const trash = trashListing(loop.o.vaultDir);
  const restorable = [...trash.keys()].filter(
    (n) => !n.startsWith('staged/') && slotFree(Number(/n(\d+)\.md$/.exec(n)[1])),
  );
  if (restorable.length > 0)
    ops.push([
      'restore',
      () => {
        const n = pick(restorable);
        return opRestore(loop, n, trash.get(n));
      },
    ]);
  ops.push(['stage', () => opStage(loop, `staged/s${randInt(loop.rand, 0, STAGED - 1)}.md`)]);
  if (loop.pending.length > 0) ops.push(['approve', () => opApprove(loop, loop.pending[0])]);
  const total = ops.reduce((sum, [kind]) => sum + OP_WEIGHTS[kind], 0);
  let r = loop.rand() * total;
  for (const [kind, make] of ops) {
    r -= OP_WEIGHTS[kind];
    if (r < 0) return make();
  }
  return ops.at(-1)[1]();
}

/** `changes`: the notes the call changes, name → [before, after] (null = no note). */
function op(kind, changes, call) {
  return { kind, changes: new Map(Object.entries(changes)), call };
}

function opUpdate(loop, name) {
  const before = loop.cur.get(name);
  const after = loop.texts.text(path.basename(name, '.md'));
  return op('update', { [name]: [before, after] }, () =>
    loop.tool('update_note', { name, content: after, expected_etag: etagOf(before) }),
  );
}

function opEdit(loop, name) {
  const before = loop.cur.get(name);
  const old = tokenOf(before);
  const next = loop.texts.token();
  const after = before.replace(`token ${old}`, `token ${next}`);
  return op('edit', { [name]: [before, after] }, () =>
    loop.tool('edit_note', {
      name,
      operation: 'replace',
      old_text: `token ${old}`,
      new_text: `token ${next}`,
      expected_etag: etagOf(before),
    }),
  );
}

function opCreate(loop, name) {
  const after = loop.texts.text(path.basename(name, '.md'));
  return op('create', { [name]: [null, after] }, () => loop.tool('create_note', { name, content: after }));
}

function opDelete(loop, name) {
  const before = loop.cur.get(name);
  return op('delete', { [name]: [before, null] }, () =>
    loop.tool('delete_note', { name, expected_etag: etagOf(before) }),
  );
}

function opRestore(loop, name, copies) {
  // The latest deletion of the name comes back; any text in the trash under it is a whole version.
  const texts = new Set(copies.map((file) => fs.readFileSync(file, 'utf8')));
  return op('restore', { [name]: [null, texts] }, () => loop.tool('restore_note', { name }));
}

function opMove(loop, from, to) {
  const text = loop.cur.get(from);
  return op('move', { [from]: [text, null], [to]: [null, text] }, () =>
    loop.tool('move_note', { name: from, new_name: to, expected_etag: etagOf(text) }),
  );
}

/** An agent's write in the staged folder: kept for review, the note untouched. */
function opStage(loop, name) {
  const before = loop.cur.get(name) ?? null;
  let after;
  let call;
  if (before === null) {
    after = loop.texts.text(path.basename(name, '.md'));
    call = () => loop.tool('create_note', { name, content: after });
  } else if (loop.rand() < 0.2) {
    after = null;
    call = () => loop.tool('delete_note', { name, expected_etag: etagOf(before) });
  } else {
    after = loop.texts.text(path.basename(name, '.md'));
    call = () => loop.tool('update_note', { name, content: after, expected_etag: etagOf(before) });
  }
  return op('stage', {}, async () => {
    const result = await call();
    // A creation already waiting (one this loop staged, perhaps in a call a kill cut short) is not
    // staged twice: the refusal names the note, and nothing is written.
    if (
      before === null &&
      result.isError &&
      result.data?.code === 'already_exists' &&
      result.data?.name === name
    ) {
      loop.stats.stagedCreatesRefused++;
      return { isError: false, text: result.text };
    }
    if (!result.isError) {
      if (result.data?.staged !== true)
        throw new Error(`a write in the staged folder was not staged: ${result.text}`);
      loop.pending.push({ id: result.data.pendingId, note: name, before, after });
    }
    return result;
  });
}

/** The owner approves the oldest staged change with `noted-mcp review approve ID`. */
function opApprove(loop, change) {
  const current = loop.cur.get(change.note) ?? null;
  // Approved only while the note is still what the agent saw; otherwise refused, nothing written.
  const applies = current === change.before;
  return op('approve', { [change.note]: [current, applies ? change.after : current] }, async () => {
    loop.pending.shift();
    const { code, stdout, stderr } = await loop.cli(['review', 'approve', change.id]);
    if (code !== (applies ? 0 : 1)) {
      return {
        isError: true,
        text: `review approve exited ${code}, expected ${applies ? 0 : 1}: ${stdout}${stderr}`,
      };
    }
    if (!applies) loop.stats.approvalsRefused++;
    return { isError: false, text: `review approve ${change.id} exited ${code}: ${stdout}${stderr}` };
  });
}
