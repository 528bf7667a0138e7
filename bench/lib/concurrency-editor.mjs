/**
 * @module bench/lib/concurrency-editor
 * The "person with an editor" of the concurrency run, as its own process so that it truly races the
 * servers: for a bounded time it reads a shared note from disk, changes it, and writes it back the way
 * editors do — through a temporary file renamed over the note (hidden like vim's or gedit's, or a
 * visible `name.md.tmp`), or in place with a plain truncate-and-write, sometimes keeping the size the
 * same. It takes no lock: editors do not know the server's locks.
 *
 * Run as `node concurrency-editor.mjs '<json>'` with `{vault, names, count, seed, durationMs, out,
 * pauseMs: [min, max]}`. Writes one JSON line per edit to `out` when done (base and new etag, the new
 * text, the mode, and the times around the read and the write) and prints a one-line summary.
 */
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';
import { appendToLog, etagOf, freshText, revEdit, token, wellFormed } from './concurrency-notes.mjs';
import { deriveSeed, mulberry32 } from './random.mjs';

/**
 * Milliseconds of the machine's monotonic clock (CLOCK_MONOTONIC on Linux), with sub-millisecond
 * precision: one clock for every process, so the editor's times and the agents' compare. Not
 * `performance.timeOrigin + performance.now()`: each process sets its timeOrigin from two clocks read
 * one after the other at its start, so a process started on a loaded machine can be off by however
 * long it waited between the two reads — a CI run under load once judged three editor-over-agent
 * races as writes whose times did not overlap.
 */
export function nowMs() {
  return Number(process.hrtime.bigint()) / 1e6;
}

const MODES = [
  ['atomic-hidden', 0.35],
  ['atomic-visible', 0.1],
  ['in-place', 0.35],
  ['in-place-same-size', 0.2],
];

function pickMode(rand) {
  let r = rand();
  for (const [mode, weight] of MODES) {
    if (r < weight) return mode;
    r -= weight;
  }
  return MODES[0][0];
}

/** One read-change-write of `name`; returns its record. */
function editOnce(vault, name, mode, tok, index, count) {
  const abs = path.join(vault, ...name.split('/'));
  const t0 = nowMs();
  const base = fs.readFileSync(abs, 'utf8');
  let text;
  if (!wellFormed(base)) text = freshText(index, count, tok);
  else if (mode === 'in-place-same-size') text = revEdit(base, tok).text;
  else text = appendToLog(base, `- ${tok} typed in an editor #edited`);
  const t1 = nowMs();
  if (mode === 'atomic-hidden' || mode === 'atomic-visible') {
    const tmp =
      mode === 'atomic-hidden'
        ? path.join(path.dirname(abs), `.${path.basename(abs)}.${tok}.swp`)
        : `${abs}.tmp`;
    fs.writeFileSync(tmp, text);
    fs.renameSync(tmp, abs);
  } else {
    fs.writeFileSync(abs, text);
  }
  const t2 = nowMs();
  return {
    note: name,
    mode,
    base: etagOf(base),
    next: etagOf(text),
    text,
    readAt: t0,
    readDone: t1,
    wroteAt: t2,
  };
}

/** Edits for `durationMs`; returns the records. */
export async function runEditor({ vault, names, count, seed, durationMs, pauseMs }) {
  const rand = mulberry32(deriveSeed(seed, 'direct-editor'));
  const records = [];
  const end = nowMs() + durationMs;
  let seq = 0;
  while (nowMs() < end) {
    const index = Math.floor(rand() * names.length);
    const name = names[index];
    const mode = pickMode(rand);
    seq++;
    records.push(editOnce(vault, name, mode, token('ded', seq), index, count));
    const [lo, hi] = pauseMs;
    await sleep(lo + Math.floor(rand() * (hi - lo + 1)));
  }
  return records;
}

const isMain =
  process.argv[1] !== undefined && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href;
if (isMain) {
  const options = JSON.parse(process.argv[2] ?? '{}');
  const records = await runEditor(options);
  fs.writeFileSync(options.out, records.map((r) => `${JSON.stringify(r)}\n`).join(''));
  process.stdout.write(`${JSON.stringify({ edits: records.length })}\n`);
}
