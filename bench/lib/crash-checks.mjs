/**
 * @module bench/lib/crash-checks
 * The checks of the crash loop (crash-loop.mjs), from outside the server: the notes on disk against
 * the versions they may have, the journal's chain and its agreement with the files, `list_notes`
 * against the files, and a search for every version's unique word.
 */

import { spawnSync } from 'node:child_process';
import { checkJournalAgainstFiles, readDisk, tokenOf } from './crash-vault.mjs';

/** After a completed call: its notes hold exactly their after-texts. */
export function settle(loop, op, result) {
  const disk = readDisk(loop.o.vaultDir);
  for (const [name, [before, after]] of op.changes) {
    const text = disk.notes.get(name) ?? null;
    const ok = after instanceof Set ? after.has(text) : text === after;
    if (!ok) {
      loop.fail(
        `after a completed ${op.kind}, "${name}" ${describe(text)} instead of its after-text (${describe(after)}; before: ${describe(before)}); the call answered: ${result?.text ?? ''}`,
      );
    }
  }
  loop.cur = disk.notes;
}

/**
 * The notes on disk against what they may be; the journal's chain and its agreement with the files.
 * `victim` is the operation the kill hit (null: none). Returns what is on disk.
 */
export function check(loop, victim) {
  const disk = readDisk(loop.o.vaultDir);
  const names = new Set([...loop.cur.keys(), ...disk.notes.keys(), ...(victim?.changes.keys() ?? [])]);
  for (const name of names) {
    const text = disk.notes.get(name) ?? null;
    const allowed = new Set([loop.cur.get(name) ?? null]);
    const change = victim?.changes.get(name);
    if (change !== undefined) {
      for (const side of change) {
        if (side instanceof Set) for (const t of side) allowed.add(t);
        else allowed.add(side);
      }
    }
    if (!allowed.has(text)) {
      loop.fail(
        `"${name}" ${describe(text)}, which is none of its possible versions (${[...allowed].map(describe).join('; ')})`,
      );
    }
  }
  if (disk.other.length > 0) loop.fail(`unexpected files in the vault: ${disk.other.join(', ')}`);
  loop.stats.tempFilesAfterRestart += disk.temps.length;

  const fresh = loop.journal.update();
  if (loop.o.verifyJournal) {
    const v = loop.o.verifyJournal(loop.journal.dir);
    if (!v.ok) loop.fail(`journal verify: ${v.reason} at ${JSON.stringify(v.brokenAt)}`);
  }
  const { problems } = checkJournalAgainstFiles(loop.journal.entries, disk.notes);
  for (const p of problems) loop.fail(`journal against files: ${p}`);
  // Written by the start-up check (tool `startup`); a server that finds its own write failed says so itself.
  const notApplied = fresh.filter((e) => e.kind === 'not_applied');
  loop.stats.notAppliedDetected += notApplied.filter((e) => e.tool === 'startup').length;
  loop.stats.notAppliedByServer += notApplied.filter((e) => e.tool !== 'startup').length;
  loop.cur = disk.notes;
  return { disk, fresh };
}

/**
 * `victim`: the call the kill cut short, or null when it had finished (its notes are settled).
 * Returns what the cut-short call had done to its notes: `beforeJournal`, `notApplied`, `applied`,
 * or null (no call cut short, or one that changes no note).
 */
export async function checkAfterKill(loop, victim, seqBefore, perOp) {
  const { fresh } = check(loop, victim);
  // What happened to the call in flight: nothing recorded, recorded but never written, or written.
  const notes = new Set(victim?.changes.keys() ?? []);
  const mine = loop.journal.entries.filter(
    (e) => e.seq > seqBefore && e.kind !== 'not_applied' && notes.has(e.note),
  );
  const voided = new Set(
    fresh.filter((e) => e.kind === 'not_applied' && e.tool === 'startup').map((e) => e.voids),
  );
  let outcome = null;
  if (notes.size > 0) {
    outcome =
      mine.length === 0 ? 'beforeJournal' : mine.some((e) => voided.has(e.id)) ? 'notApplied' : 'applied';
    loop.stats.outcomes[outcome]++;
    if (outcome === 'notApplied') perOp.notApplied++;
  }
  if (loop.stats.kills % loop.o.cliVerifyEvery === 0) await cliVerify(loop);
  await listNotesCheck(loop);
  if (loop.stats.kills % loop.o.indexCheckEvery === 0) await searchCheck(loop, victim);
  return outcome;
}

export async function finalCheck(loop) {
  check(loop, null);
  await cliVerify(loop);
  await listNotesCheck(loop);
  await searchCheck(loop, null);
}

async function cliVerify(loop) {
  const run = spawnSync(
    process.execPath,
    [loop.o.serverPath, 'journal', 'verify', '--notes-dir', loop.o.vaultDir],
    {
      encoding: 'utf8',
      timeout: 60_000,
    },
  );
  loop.stats.cliVerifies++;
  if (run.status !== 0)
    loop.fail(`noted-mcp journal verify exited ${run.status}: ${run.stdout}${run.stderr}`);
  else if (!/^intact: \d+ entries/.test(run.stdout))
    loop.fail(`noted-mcp journal verify said: ${run.stdout}`);
}

/** list_notes lists exactly the notes on disk: none missing, no temporary or stale name. */
async function listNotesCheck(loop) {
  const listed = [];
  let cursor;
  do {
    const r = await loop.tool('list_notes', { limit: 500, ...(cursor ? { cursor } : {}) });
    if (r.isError) return loop.fail(`list_notes failed: ${r.text}`);
    listed.push(...r.data.notes.map((n) => n.name));
    cursor = r.data.nextCursor;
  } while (cursor);
  const onDisk = [...loop.cur.keys()].sort();
  if (JSON.stringify(listed.sort()) !== JSON.stringify(onDisk)) {
    loop.fail(`list_notes after start-up: ${JSON.stringify(listed)}; on disk: ${JSON.stringify(onDisk)}`);
  }
}

/**
 * The index against the files: a search for each note's unique word finds exactly the notes that
 * hold it; the words of the call in flight that are on no note any more find nothing.
 */
async function searchCheck(loop, victim) {
  loop.stats.indexChecks++;
  const holders = new Map();
  for (const [name, text] of loop.cur) {
    const token = tokenOf(text);
    holders.set(token, [...(holders.get(token) ?? []), name]);
  }
  for (const change of victim?.changes.values() ?? []) {
    for (const side of change) {
      for (const t of side instanceof Set ? side : [side]) {
        const token = t === null ? null : tokenOf(t);
        if (token !== null && !holders.has(token)) holders.set(token, []);
      }
    }
  }
  for (const [token, names] of holders) {
    const r = await loop.tool('search_notes', { query: token, max_results: 50 });
    if (r.isError) return loop.fail(`search_notes "${token}" failed: ${r.text}`);
    const found = r.data.results.map((x) => x.name).sort();
    if (JSON.stringify(found) !== JSON.stringify(names.sort())) {
      loop.fail(
        `search for "${token}" found ${JSON.stringify(found)}; the notes holding it: ${JSON.stringify(names)}`,
      );
    }
  }
}

/** A text as a failure message shows it. */
export function describe(text) {
  if (text instanceof Set) return [...text].map(describe).join(' or ');
  if (text === null) return 'is absent';
  if (text === '') return 'is EMPTY';
  return `holds ${text.length} chars (token ${tokenOf(text) ?? 'none'})`;
}
