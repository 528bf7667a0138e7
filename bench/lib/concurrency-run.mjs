/**
 * @module bench/lib/concurrency-run
 * The whole concurrency run, shared by `test/reliability/concurrency.test.ts` and
 * `bench/soak-concurrency.mjs`: several server processes on one vault, agents writing the same notes
 * through each, a separate process editing the same files on disk, all for a bounded time; then the
 * checks — no lost update, one valid journal chain with one entry per successful agent write, and an
 * index equal to a fresh rebuild. Returns figures and the problems found, grouped by check; it asserts
 * nothing itself.
 *
 * `spawn(name)` starts one server on the vault and resolves to `{name, call(tool, args), close(),
 * stderr()}`; `call` resolves to `{structured, isError}`.
 */
import { spawn as spawnChild, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { runAgents } from './concurrency-agents.mjs';
import { checkHistory, checkJournal, readJournal } from './concurrency-check.mjs';
import { nowMs } from './concurrency-editor.mjs';
import { compareAnswers, compareIndexFiles, indexAnswers } from './concurrency-index.mjs';
import { etagOf, initialText, scratchNames, sharedNames } from './concurrency-notes.mjs';

const EDITOR_SCRIPT = path.join(path.dirname(fileURLToPath(import.meta.url)), 'concurrency-editor.mjs');

/** Server stderr that means something went wrong underneath (SQLite contention, a damaged file). */
const BAD_STDERR = /error|corrupt|malformed|locked|SQLITE_/i;

/** Writes the starting notes into `vault`; returns note → starting etag (null: absent). */
export function writeInitialVault(vault, { notes, scratch }) {
  const initial = new Map();
  for (const [i, name] of sharedNames(notes).entries()) {
    const abs = path.join(vault, ...name.split('/'));
    fs.mkdirSync(path.dirname(abs), { recursive: true });
    const text = initialText(i, notes);
    fs.writeFileSync(abs, text);
    initial.set(name, etagOf(text));
  }
  for (const name of scratchNames(scratch)) initial.set(name, null);
  return initial;
}

/** Every note file on disk (not below a hidden folder): name → {text, size, mtimeMs}. */
export function diskNotes(vault) {
  const out = new Map();
  const walk = (dir, rel) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (entry.name.startsWith('.')) continue;
      const abs = path.join(dir, entry.name);
      const name = rel === '' ? entry.name : `${rel}/${entry.name}`;
      if (entry.isDirectory()) walk(abs, name);
      else if (entry.isFile() && entry.name.endsWith('.md')) {
        const st = fs.statSync(abs);
        out.set(name, { text: fs.readFileSync(abs, 'utf8'), size: st.size, mtimeMs: st.mtimeMs });
      }
    }
  };
  walk(vault, '');
  return out;
}

function runEditorProcess(options) {
  return new Promise((resolve, reject) => {
    const child = spawnChild(process.execPath, [EDITOR_SCRIPT, JSON.stringify(options)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (d) => {
      err += d;
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) {
        reject(new Error(`the editor process exited with ${code}: ${err}`));
        return;
      }
      const text = fs.readFileSync(options.out, 'utf8');
      resolve(
        text
          .split('\n')
          .filter((l) => l !== '')
          .map((l) => JSON.parse(l)),
      );
    });
  });
}

/**
 * Asks `server` until its list_notes shows every note file with the size and time it has on disk (the
 * watcher has reported the last direct edits and the index has taken them). Returns the ms it took,
 * or null when `limitMs` passed first.
 */
async function settle(server, disk, limitMs) {
  const started = nowMs();
  const want = [...disk.entries()]
    .map(([name, f]) => `${name} ${f.size} ${new Date(Math.floor(f.mtimeMs)).toISOString()}`)
    .sort()
    .join('\n');
  for (;;) {
    const r = await server.call('list_notes', { limit: 500 });
    const got = (r.structured?.notes ?? [])
      .map((n) => `${n.name} ${n.sizeBytes} ${n.modified}`)
      .sort()
      .join('\n');
    if (got === want) return nowMs() - started;
    if (nowMs() - started > limitMs) return null;
    await sleep(50);
  }
}

/** The latest tokens of each note (its `rev` and its last two log tokens), to search for. */
function latestTokens(disk) {
  const tokens = new Set();
  for (const { text } of disk.values()) {
    const found = text.match(/\b(?:a\d\d|ded|ini)\d{6}\b/g) ?? [];
    for (const t of found.slice(0, 1)) tokens.add(t);
    for (const t of found.slice(-2)) tokens.add(t);
  }
  return [...tokens].sort();
}

function indexFiles(vault) {
  const state = path.join(fs.realpathSync(vault), '.noted');
  return ['index.sqlite', 'index.sqlite-wal', 'index.sqlite-shm'].map((f) => path.join(state, f));
}

/**
 * Runs everything and checks it. Options: `vault` (an empty folder), `serverPath` (the built server,
 * for the journal CLI), `spawn`, `servers`, `workers` (per server), `notes` (shared), `scratch`,
 * `seed`, `durationMs`, `pauseMs` ([min, max] between the editor's edits), `settleLimitMs`, `log`.
 */
export async function runConcurrency(options) {
  const { vault, serverPath, spawn, servers, workers, notes, scratch, seed, durationMs } = options;
  const log = options.log ?? (() => {});
  const problems = { agents: [], history: [], journal: [], index: [], servers: [] };
  const initial = writeInitialVault(vault, { notes, scratch });
  const shared = sharedNames(notes);
  const scratchList = scratchNames(scratch);

  const live = [];
  try {
    for (let i = 0; i < servers; i++) live.push(await spawn(`agent-${i}`));
    log(`${servers} servers started; writing for ${durationMs} ms`);
    const work = os.tmpdir();
    const editorOut = path.join(fs.mkdtempSync(path.join(work, 'noted-conc-editor-')), 'edits.jsonl');
    const [agents, direct] = await Promise.all([
      runAgents({ servers: live, workers, shared, scratch: scratchList, seed, durationMs }),
      runEditorProcess({
        vault,
        names: shared,
        count: notes,
        seed,
        durationMs,
        out: editorOut,
        pauseMs: options.pauseMs ?? [2, 30],
      }),
    ]);
    fs.rmSync(path.dirname(editorOut), { recursive: true, force: true });
    problems.agents.push(...agents.problems);
    log(`${agents.records.length} agent calls, ${direct.length} direct edits`);

    // The files as the run left them, and each live server's view once its index has caught up.
    const disk = diskNotes(vault);
    const final = new Map([...initial.keys()].map((n) => [n, disk.has(n) ? etagOf(disk.get(n).text) : null]));
    const settleMs = [];
    for (const server of live) {
      const ms = await settle(server, disk, options.settleLimitMs ?? 10_000);
      if (ms === null)
        problems.index.push({
          kind: 'not-settled',
          detail: `${server.name} never listed the files as they are`,
        });
      settleMs.push(ms);
    }
    const tokens = latestTokens(disk);
    const questions = { notes: [...shared, ...scratchList.filter((n) => disk.has(n))], tokens };
    const liveAnswers = [];
    for (const server of live) liveAnswers.push(await indexAnswers(server.call, questions));
    for (const server of live) {
      const err = server.stderr?.() ?? '';
      if (BAD_STDERR.test(err))
        problems.servers.push({ kind: 'stderr', detail: `${server.name}: ${err.slice(0, 2000)}` });
    }
    await Promise.all(live.splice(0).map((s) => s.close()));

    // One journal chain, one entry per successful agent write.
    const verify = spawnSync(process.execPath, [serverPath, 'journal', 'verify', '--notes-dir', vault], {
      encoding: 'utf8',
      input: '',
      timeout: 60_000,
    });
    if (verify.status !== 0) {
      problems.journal.push({
        kind: 'verify',
        detail: `journal verify exited ${verify.status}: ${verify.stdout}${verify.stderr}`,
      });
    }
    const journal = checkJournal(readJournal(fs.realpathSync(vault)), agents.records);
    problems.journal.push(...journal.problems);

    // A fresh index from the same files, compared with the live one.
    const keep = fs.mkdtempSync(path.join(work, 'noted-conc-index-'));
    const [dbFile, ...sidecars] = indexFiles(vault);
    const liveCopy = path.join(keep, 'index.sqlite');
    fs.copyFileSync(dbFile, liveCopy);
    for (const f of sidecars) if (fs.existsSync(f)) fs.copyFileSync(f, path.join(keep, path.basename(f)));
    for (const f of [dbFile, ...sidecars]) fs.rmSync(f, { force: true });
    const fresh = await spawn('fresh-rebuild');
    let freshAnswers;
    try {
      freshAnswers = await indexAnswers(fresh.call, questions);
    } finally {
      await fresh.close();
    }
    for (const [i, answers] of liveAnswers.entries()) {
      for (const d of compareAnswers(answers, freshAnswers)) {
        problems.index.push({
          kind: 'answer',
          detail: `agent-${i} ${d.question}: live ${d.live} / fresh ${d.fresh}`,
        });
      }
    }
    const tables = compareIndexFiles(liveCopy, dbFile);
    for (const d of tables.differences) {
      problems.index.push({
        kind: 'table',
        detail: `${d.table}: ${d.count} rows differ; live only ${JSON.stringify(d.onlyLive)}; fresh only ${JSON.stringify(d.onlyFresh)}`,
      });
    }
    fs.rmSync(keep, { recursive: true, force: true });

    // No lost update.
    const history = checkHistory({ initial, final, agent: agents.records, direct, texts: agents.texts });
    problems.history.push(...history.problems);

    const calls = agents.records;
    const writesOk = calls.filter((r) => r.op !== 'read' && r.outcome === 'ok');
    const figures = {
      servers,
      workersPerServer: workers,
      notes,
      scratch,
      durationMs,
      agentCalls: calls.length,
      reads: calls.filter((r) => r.op === 'read').length,
      writesApplied: writesOk.length,
      writesByOp: countBy(writesOk, (r) => r.op),
      conflicts: calls.filter((r) => r.outcome === 'conflict').length,
      otherRefusals: countBy(
        calls.filter((r) => r.outcome === 'error'),
        (r) => r.code,
      ),
      directEdits: direct.length,
      directByMode: countBy(direct, (d) => d.mode),
      editorOverAgent: history.races.editorOverAgent.length,
      agentOverEditor: history.races.agentOverEditor.filter((r) => !r.torn).length,
      agentOverTornSave: history.races.agentOverEditor.filter((r) => r.torn).length,
      tornBases: history.tornBases,
      lostUpdates: problems.history.filter((p) => p.kind === 'lost-update').length,
      journalEntries: journal.entries,
      journalNotApplied: journal.notApplied,
      journalVerify: verify.status === 0 ? 'ok' : `exit ${verify.status}`,
      indexRows: tables.rows,
      indexTerms: tables.terms,
      indexMismatches: problems.index.length,
      settleMs,
      questionsCompared: Object.keys(freshAnswers).length,
    };
    return { figures, problems, races: history.races };
  } finally {
    await Promise.all(live.map((s) => s.close().catch(() => undefined)));
  }
}

function countBy(items, key) {
  const out = {};
  for (const item of items) {
    const k = key(item);
    out[k] = (out[k] ?? 0) + 1;
  }
  return out;
}
