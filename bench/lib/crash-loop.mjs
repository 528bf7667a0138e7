/**
 * @module bench/lib/crash-loop
 * The crash-safety loop shared by `test/reliability/crash.test.ts` (200 kills) and
 * `bench/soak-crash.mjs` (thousands): it starts the built server on a fresh vault, drives writes
 * through a real MCP client over stdio (create, update, edit, delete, restore, move, and staged
 * changes approved with `noted-mcp review approve` in a child process), and SIGKILLs the server (and
 * a running approval) at seeded moments, most of them in the middle of a call. After every kill it
 * restarts the server and checks, from outside:
 *
 * - every note's text is one of the versions it could have — its text before or after the call in
 *   flight, nothing torn, nothing empty — and no other file appeared (temporary files are counted);
 * - the journal's hash chain verifies, and every note's latest journal entry matches its file: the
 *   after-text when applied, the before-text when a `not_applied` entry (written by the server's
 *   start-up check) says it never was — an entry recorded but neither written nor noted is a failure;
 * - `list_notes` lists exactly the `.md` files on disk (no temporary file), and, every few kills and
 *   at the end, a search for each version's unique word finds exactly the notes holding it.
 *
 * Every call that was not killed must succeed and leave exactly its expected text (after a crash the
 * server must work normally: no stuck lock, no stale index). Choices come from a seeded PRNG; the exact
 * moment a kill lands still depends on timing, so outcomes are counted, and the invariants must hold
 * for all of them.
 */

import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import {
  checkJournalAgainstFiles,
  etagOf,
  JournalReader,
  makeVault,
  readDisk,
  SLOTS,
  STAGED,
  stateTemps,
  textMaker,
  tokenOf,
  trashListing,
} from './crash-vault.mjs';
import { deriveSeed, mulberry32, randInt } from './random.mjs';

/**
 * Runs the loop until `kills` kills or `timeLimitMs`, whichever comes first.
 *
 * @param {object} o
 * @param {string} o.serverPath   the built server, `dist-mcp/index.cjs`
 * @param {string} o.vaultDir     an empty folder for the vault
 * @param {number} o.seed
 * @param {number} o.kills
 * @param {number} o.timeLimitMs  stop starting new kills after this long
 * @param {(journalDir: string) => {ok: boolean, entries: number, reason?: string}} [o.verifyJournal]
 *   the journal's own verify, called after every kill; without it only the CLI verifies
 * @param {number} [o.cliVerifyEvery]  run `noted-mcp journal verify` after every Nth kill (and at the end)
 * @param {number} [o.indexCheckEvery] search for every version's word after every Nth kill (and at the end)
 * @param {(line: string) => void} [o.log]
 */
export async function runCrashLoop(o) {
  const loop = new CrashLoop(o);
  try {
    await loop.run();
  } catch (err) {
    if (loop.stats.failures.length === 0) loop.fail(`the loop stopped: ${err.stack ?? err}`);
  } finally {
    await loop.shutdown();
  }
  return loop.report();
}

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
const STARTUP_KILL_SHARE = 0.06;

class CrashLoop {
  constructor(o) {
    this.o = { cliVerifyEvery: 50, indexCheckEvery: 10, log: () => {}, ...o };
    this.rand = mulberry32(deriveSeed(o.seed, 'crash-loop'));
    this.texts = textMaker(mulberry32(deriveSeed(o.seed, 'crash-texts')));
    this.journal = new JournalReader(o.vaultDir);
    /** name → text of every note on disk, exact between kills. */
    this.cur = makeVault(o.vaultDir, this.texts);
    /** Staged changes whose id we know: { id, note, before, after } (null = no note). */
    this.pending = [];
    this.latency = new Map();
    this.server = null;
    this.stats = {
      kills: 0,
      startupKills: 0,
      midCall: 0,
      idle: 0,
      outcomes: { beforeJournal: 0, notApplied: 0, applied: 0 },
      byOp: {},
      notAppliedDetected: 0,
      notAppliedByServer: 0,
      opsCompleted: 0,
      approvalsRefused: 0,
      /** Temporary files of atomic writes found right after a kill, and still there after the restart. */
      tempFilesAfterKill: 0,
      tempFilesAfterRestart: 0,
      /** Temporary files left in `.noted/` (journal blobs, staged changes, locks) at the end. */
      stateTempFiles: 0,
      restartMs: [],
      cliVerifies: 0,
      indexChecks: 0,
      journalEntries: 0,
      failures: [],
    };
  }

  log(line) {
    this.o.log(line);
  }

  fail(message) {
    this.stats.failures.push(`kill ${this.stats.kills}: ${message}`);
  }

  report() {
    return { ...this.stats, journalEntries: this.journal.entries.length };
  }

  async run() {
    const started = performance.now();
    await this.restart();
    this.check(null);
    while (this.stats.kills < this.o.kills && this.stats.failures.length === 0) {
      if (performance.now() - started > this.o.timeLimitMs) {
        this.log(`time limit reached after ${this.stats.kills} kills`);
        break;
      }
      const before = randInt(this.rand, 0, 2);
      for (let i = 0; i < before && this.stats.failures.length === 0; i++)
        await this.runOp(this.chooseOp(), null);
      if (this.stats.failures.length > 0) break;
      const victim = this.chooseOp();
      const seqBefore = this.journal.lastSeq();
      const killed = await this.runOp(victim, this.rand() * 1.25);
      this.stats.kills++;
      this.stats.byOp[victim.kind] ??= { kills: 0, midCall: 0, notApplied: 0 };
      const perOp = this.stats.byOp[victim.kind];
      perOp.kills++;
      if (killed.midCall) {
        this.stats.midCall++;
        perOp.midCall++;
      } else this.stats.idle++;
      await this.waitForExit();
      this.stats.tempFilesAfterKill += readDisk(this.o.vaultDir).temps.length;
      // Sometimes the restart is killed too: in the index scan, in the journal's start-up check, or before.
      if (this.rand() < STARTUP_KILL_SHARE && this.stats.kills < this.o.kills) await this.killDuringStartup();
      await this.restart();
      await this.checkAfterKill(killed.midCall ? victim : null, seqBefore, perOp);
      if (this.stats.kills % 20 === 0 && this.stats.failures.length === 0) await this.clearPending();
      if (this.stats.kills % 25 === 0) {
        const st = this.stats;
        this.log(
          `${st.kills} kills (${st.midCall} mid-call), ${st.opsCompleted} calls completed, not-applied detected ${st.notAppliedDetected}`,
        );
      }
    }
    if (this.stats.failures.length === 0 && this.server !== null) await this.finalCheck();
    this.stats.stateTempFiles = stateTemps(this.o.vaultDir);
  }

  async shutdown() {
    if (this.server !== null) {
      const { client } = this.server;
      this.server = null;
      await client.close().catch(() => {});
    }
    for (const child of this.children ?? []) child.kill('SIGKILL');
  }

  // --- The server ------------------------------------------------------------------------------

  /** Starts the server and connects; with `killAfterMs`, kills it that long after spawning. */
  async start(killAfterMs) {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [this.o.serverPath, '--notes-dir', this.o.vaultDir],
      stderr: 'pipe',
    });
    const tail = [];
    transport.stderr?.on('data', (chunk) => {
      tail.push(chunk.toString('utf8'));
      if (tail.length > 20) tail.shift();
    });
    const client = new Client({ name: 'crash-harness', version: '1.0.0' });
    const server = { client, transport, pid: null, stderr: () => tail.join('') };
    const start = transport.start.bind(transport);
    transport.start = async () => {
      await start();
      server.pid = transport.pid;
      if (killAfterMs !== undefined) setTimeout(() => killPid(server.pid), killAfterMs);
    };
    const t0 = performance.now();
    try {
      await client.connect(transport, { timeout: 60_000 });
    } catch (err) {
      killPid(server.pid);
      err.stderrTail = server.stderr();
      throw err;
    }
    return { server, ms: performance.now() - t0 };
  }

  /** Starts the server after a kill; it must come up (a crash must never keep it from starting). */
  async restart() {
    try {
      const { server, ms } = await this.start();
      this.server = server;
      this.stats.restartMs.push(ms);
    } catch (err) {
      this.fail(`the server did not start after the kill: ${err.message}\n${err.stderrTail ?? ''}`);
      throw err;
    }
  }

  /** A kill while the server starts up: in its index scan or its journal check, or before. */
  async killDuringStartup() {
    const restarts = sorted(this.stats.restartMs);
    const at = this.rand() * (restarts[Math.floor(restarts.length / 2)] ?? 300);
    this.stats.kills++;
    this.stats.startupKills++;
    try {
      const { server } = await this.start(at);
      this.server = server; // the handshake finished first: the kill lands on an idle server
    } catch {
      // Killed before the handshake finished.
    }
    await this.waitForExit();
  }

  /** Drops every staged change (an owner's `review reject --all`), so the 200-change limit is never hit. */
  async clearPending() {
    const { code, stdout, stderr } = await this.cli(['review', 'reject', '--all']);
    if (code !== 0) this.fail(`review reject --all exited ${code}: ${stdout}${stderr}`);
    this.pending = [];
  }

  async waitForExit() {
    const server = this.server;
    if (server === null) return;
    for (let i = 0; i < 2500 && server.transport.pid !== null; i++) await sleep(2);
    await server.client.close().catch(() => {});
    this.server = null;
  }

  // --- Operations ------------------------------------------------------------------------------

  /** Picks an operation that the current state allows, by weight. */
  chooseOp() {
    const ops = [];
    const rwNames = [...this.cur.keys()].filter((n) => !n.startsWith('staged/'));
    const slotFree = (k) => !this.cur.has(`inbox/n${k}.md`) && !this.cur.has(`archive/n${k}.md`);
    const other = (name) =>
      name.startsWith('inbox/') ? name.replace('inbox/', 'archive/') : name.replace('archive/', 'inbox/');
    const pick = (items) => items[Math.floor(this.rand() * items.length)];
    if (rwNames.length > 0) {
      ops.push(['update', () => this.opUpdate(pick(rwNames))]);
      ops.push(['edit', () => this.opEdit(pick(rwNames))]);
      ops.push(['delete', () => this.opDelete(pick(rwNames))]);
      const movable = rwNames.filter((n) => !this.cur.has(other(n)));
      if (movable.length > 0)
        ops.push([
          'move',
          () => {
            const n = pick(movable);
            return this.opMove(n, other(n));
          },
        ]);
    }
    const free = [...Array(SLOTS).keys()].filter(slotFree);
    if (free.length > 0) ops.push(['create', () => this.opCreate(`inbox/n${pick(free)}.md`)]);
    const trash = trashListing(this.o.vaultDir);
    const restorable = [...trash.keys()].filter(
      (n) => !n.startsWith('staged/') && slotFree(Number(/n(\d+)\.md$/.exec(n)[1])),
    );
    if (restorable.length > 0)
      ops.push([
        'restore',
        () => {
          const n = pick(restorable);
          return this.opRestore(n, trash.get(n));
        },
      ]);
    ops.push(['stage', () => this.opStage(`staged/s${randInt(this.rand, 0, STAGED - 1)}.md`)]);
    if (this.pending.length > 0) ops.push(['approve', () => this.opApprove(this.pending[0])]);
    const total = ops.reduce((sum, [kind]) => sum + OP_WEIGHTS[kind], 0);
    let r = this.rand() * total;
    for (const [kind, make] of ops) {
      r -= OP_WEIGHTS[kind];
      if (r < 0) return make();
    }
    return ops.at(-1)[1]();
  }

  /** `changes`: the notes the call changes, name → [before, after] (null = no note). */
  op(kind, changes, call) {
    return { kind, changes: new Map(Object.entries(changes)), call };
  }

  opUpdate(name) {
    const before = this.cur.get(name);
    const after = this.texts.text(path.basename(name, '.md'));
    return this.op('update', { [name]: [before, after] }, () =>
      this.tool('update_note', { name, content: after, expected_etag: etagOf(before) }),
    );
  }

  opEdit(name) {
    const before = this.cur.get(name);
    const old = tokenOf(before);
    const next = this.texts.token();
    const after = before.replace(`token ${old}`, `token ${next}`);
    return this.op('edit', { [name]: [before, after] }, () =>
      this.tool('edit_note', {
        name,
        operation: 'replace',
        old_text: `token ${old}`,
        new_text: `token ${next}`,
        expected_etag: etagOf(before),
      }),
    );
  }

  opCreate(name) {
    const after = this.texts.text(path.basename(name, '.md'));
    return this.op('create', { [name]: [null, after] }, () =>
      this.tool('create_note', { name, content: after }),
    );
  }

  opDelete(name) {
    const before = this.cur.get(name);
    return this.op('delete', { [name]: [before, null] }, () =>
      this.tool('delete_note', { name, expected_etag: etagOf(before) }),
    );
  }

  opRestore(name, copies) {
    // The latest deletion of the name comes back; any text in the trash under it is a whole version.
    const texts = new Set(copies.map((file) => fs.readFileSync(file, 'utf8')));
    return this.op('restore', { [name]: [null, texts] }, () => this.tool('restore_note', { name }));
  }

  opMove(from, to) {
    const text = this.cur.get(from);
    return this.op('move', { [from]: [text, null], [to]: [null, text] }, () =>
      this.tool('move_note', { name: from, new_name: to, expected_etag: etagOf(text) }),
    );
  }

  /** An agent's write in the staged folder: kept for review, the note untouched. */
  opStage(name) {
    const before = this.cur.get(name) ?? null;
    let after;
    let call;
    if (before === null) {
      after = this.texts.text(path.basename(name, '.md'));
      call = () => this.tool('create_note', { name, content: after });
    } else if (this.rand() < 0.2) {
      after = null;
      call = () => this.tool('delete_note', { name, expected_etag: etagOf(before) });
    } else {
      after = this.texts.text(path.basename(name, '.md'));
      call = () => this.tool('update_note', { name, content: after, expected_etag: etagOf(before) });
    }
    return this.op('stage', {}, async () => {
      const result = await call();
      if (!result.isError) {
        if (result.data?.staged !== true)
          throw new Error(`a write in the staged folder was not staged: ${result.text}`);
        this.pending.push({ id: result.data.pendingId, note: name, before, after });
      }
      return result;
    });
  }

  /** The owner approves the oldest staged change with `noted-mcp review approve ID`. */
  opApprove(change) {
    const current = this.cur.get(change.note) ?? null;
    // Approved only while the note is still what the agent saw; otherwise refused, nothing written.
    const applies = current === change.before;
    return this.op('approve', { [change.note]: [current, applies ? change.after : current] }, async () => {
      this.pending.shift();
      const { code, stdout, stderr } = await this.cli(['review', 'approve', change.id]);
      if (code !== (applies ? 0 : 1)) {
        return {
          isError: true,
          text: `review approve exited ${code}, expected ${applies ? 0 : 1}: ${stdout}${stderr}`,
        };
      }
      if (!applies) this.stats.approvalsRefused++;
      return { isError: false, text: `review approve ${change.id} exited ${code}: ${stdout}${stderr}` };
    });
  }

  async tool(name, args) {
    const raw = await this.server.client.callTool({ name, arguments: args });
    const text = (raw.content ?? []).map((c) => c.text ?? '').join('\n');
    return { isError: raw.isError === true, data: raw.structuredContent, text };
  }

  /** Runs a CLI command of the built server to completion (or until killed). */
  cli(args) {
    return new Promise((resolve) => {
      const child = spawn(process.execPath, [this.o.serverPath, ...args, '--notes-dir', this.o.vaultDir], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      this.children = new Set([...(this.children ?? []), child]);
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (c) => {
        stdout += c;
      });
      child.stderr.on('data', (c) => {
        stderr += c;
      });
      child.on('close', (code, signal) => {
        this.children.delete(child);
        resolve({ code, signal, stdout, stderr });
      });
    });
  }

  /**
   * Runs one operation. With `frac` null it must complete, and the notes must then hold exactly
   * their after-texts. Otherwise a SIGKILL goes to the server (and a running CLI child) `frac` times
   * the operation's typical duration after it starts; returns whether the call was still running.
   */
  async runOp(op, frac) {
    const t0 = performance.now();
    if (frac === null) {
      let result;
      try {
        result = await op.call();
      } catch (err) {
        this.fail(`${op.kind} threw: ${err.message}\n${this.server?.stderr() ?? ''}`);
        return { midCall: false };
      }
      this.noteLatency(op.kind, performance.now() - t0);
      if (result.isError) {
        this.fail(`${op.kind} of ${[...op.changes.keys()].join(', ')} failed: ${result.text}`);
        return { midCall: false };
      }
      this.stats.opsCompleted++;
      this.settle(op, result);
      return { midCall: false };
    }
    const delay = frac * this.typicalLatency(op.kind);
    let finished = false;
    let killTimer;
    const killed = new Promise((resolve) => {
      killTimer = setTimeout(() => {
        killPid(this.server?.pid);
        for (const child of this.children ?? []) child.kill('SIGKILL');
        resolve();
      }, delay);
    });
    const call = op
      .call()
      .then((result) => {
        finished = true;
        return result;
      })
      .catch(() => null);
    await Promise.race([killed, call]);
    const midCall = !finished;
    if (finished) {
      const ms = performance.now() - t0;
      await killed; // the kill still comes, on an idle server
      const result = await call;
      if (result === null || result.isError) {
        this.fail(`${op.kind} of ${[...op.changes.keys()].join(', ')} failed: ${result?.text ?? 'threw'}`);
      } else {
        this.stats.opsCompleted++;
        this.noteLatency(op.kind, ms);
        this.settle(op, result);
      }
    }
    clearTimeout(killTimer);
    // Cut short, the call may have left its notes on either side.
    return { midCall };
  }

  /** After a completed call: its notes hold exactly their after-texts. */
  settle(op) {
    const disk = readDisk(this.o.vaultDir);
    for (const [name, [, after]] of op.changes) {
      const text = disk.notes.get(name) ?? null;
      const ok = after instanceof Set ? after.has(text) : text === after;
      if (!ok)
        this.fail(`after a completed ${op.kind}, "${name}" ${describe(text)} instead of its after-text`);
    }
    this.cur = disk.notes;
  }

  noteLatency(kind, ms) {
    const list = this.latency.get(kind) ?? [];
    list.push(ms);
    if (list.length > 21) list.shift();
    this.latency.set(kind, list);
  }

  typicalLatency(kind) {
    const list = this.latency.get(kind);
    if (list === undefined || list.length === 0) return kind === 'approve' ? 400 : 40;
    return sorted(list)[Math.floor(list.length / 2)];
  }

  // --- Checks ----------------------------------------------------------------------------------

  /**
   * The notes on disk against what they may be; the journal's chain and its agreement with the files.
   * `victim` is the operation the kill hit (null: none). Returns what is on disk.
   */
  check(victim) {
    const disk = readDisk(this.o.vaultDir);
    const names = new Set([...this.cur.keys(), ...disk.notes.keys(), ...(victim?.changes.keys() ?? [])]);
    for (const name of names) {
      const text = disk.notes.get(name) ?? null;
      const allowed = new Set([this.cur.get(name) ?? null]);
      const change = victim?.changes.get(name);
      if (change !== undefined) {
        for (const side of change) {
          if (side instanceof Set) for (const t of side) allowed.add(t);
          else allowed.add(side);
        }
      }
      if (!allowed.has(text)) {
        this.fail(
          `"${name}" ${describe(text)}, which is none of its possible versions (${[...allowed].map(describe).join('; ')})`,
        );
      }
    }
    if (disk.other.length > 0) this.fail(`unexpected files in the vault: ${disk.other.join(', ')}`);
    this.stats.tempFilesAfterRestart += disk.temps.length;

    const fresh = this.journal.update();
    if (this.o.verifyJournal) {
      const v = this.o.verifyJournal(this.journal.dir);
      if (!v.ok) this.fail(`journal verify: ${v.reason} at ${JSON.stringify(v.brokenAt)}`);
    }
    const { problems } = checkJournalAgainstFiles(this.journal.entries, disk.notes);
    for (const p of problems) this.fail(`journal against files: ${p}`);
    // Written by the start-up check (tool `startup`); a server that finds its own write failed says so itself.
    const notApplied = fresh.filter((e) => e.kind === 'not_applied');
    this.stats.notAppliedDetected += notApplied.filter((e) => e.tool === 'startup').length;
    this.stats.notAppliedByServer += notApplied.filter((e) => e.tool !== 'startup').length;
    this.cur = disk.notes;
    return { disk, fresh };
  }

  /** `victim`: the call the kill cut short, or null when it had finished (its notes are settled). */
  async checkAfterKill(victim, seqBefore, perOp) {
    const { fresh } = this.check(victim);
    // What happened to the call in flight: nothing recorded, recorded but never written, or written.
    const notes = new Set(victim?.changes.keys() ?? []);
    const mine = this.journal.entries.filter(
      (e) => e.seq > seqBefore && e.kind !== 'not_applied' && notes.has(e.note),
    );
    const voided = new Set(
      fresh.filter((e) => e.kind === 'not_applied' && e.tool === 'startup').map((e) => e.voids),
    );
    if (notes.size > 0) {
      if (mine.length === 0) this.stats.outcomes.beforeJournal++;
      else if (mine.some((e) => voided.has(e.id))) {
        this.stats.outcomes.notApplied++;
        perOp.notApplied++;
      } else this.stats.outcomes.applied++;
    }
    if (this.stats.kills % this.o.cliVerifyEvery === 0) await this.cliVerify();
    await this.listNotesCheck();
    if (this.stats.kills % this.o.indexCheckEvery === 0) await this.searchCheck(victim);
  }

  async finalCheck() {
    this.check(null);
    await this.cliVerify();
    await this.listNotesCheck();
    await this.searchCheck(null);
  }

  async cliVerify() {
    const run = spawnSync(
      process.execPath,
      [this.o.serverPath, 'journal', 'verify', '--notes-dir', this.o.vaultDir],
      {
        encoding: 'utf8',
        timeout: 60_000,
      },
    );
    this.stats.cliVerifies++;
    if (run.status !== 0)
      this.fail(`noted-mcp journal verify exited ${run.status}: ${run.stdout}${run.stderr}`);
    else if (!/^intact: \d+ entries/.test(run.stdout))
      this.fail(`noted-mcp journal verify said: ${run.stdout}`);
  }

  /** list_notes lists exactly the notes on disk: none missing, no temporary or stale name. */
  async listNotesCheck() {
    const listed = [];
    let cursor;
    do {
      const r = await this.tool('list_notes', { limit: 500, ...(cursor ? { cursor } : {}) });
      if (r.isError) return this.fail(`list_notes failed: ${r.text}`);
      listed.push(...r.data.notes.map((n) => n.name));
      cursor = r.data.nextCursor;
    } while (cursor);
    const onDisk = [...this.cur.keys()].sort();
    if (JSON.stringify(listed.sort()) !== JSON.stringify(onDisk)) {
      this.fail(`list_notes after start-up: ${JSON.stringify(listed)}; on disk: ${JSON.stringify(onDisk)}`);
    }
  }

  /**
   * The index against the files: a search for each note's unique word finds exactly the notes that
   * hold it; the words of the call in flight that are on no note any more find nothing.
   */
  async searchCheck(victim) {
    this.stats.indexChecks++;
    const holders = new Map();
    for (const [name, text] of this.cur) {
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
      const r = await this.tool('search_notes', { query: token, limit: 50 });
      if (r.isError) return this.fail(`search_notes "${token}" failed: ${r.text}`);
      const found = r.data.results.map((x) => x.name).sort();
      if (JSON.stringify(found) !== JSON.stringify(names.sort())) {
        this.fail(
          `search for "${token}" found ${JSON.stringify(found)}; the notes holding it: ${JSON.stringify(names)}`,
        );
      }
    }
  }
}

function killPid(pid) {
  if (!pid) return;
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

function sorted(list) {
  return [...list].sort((a, b) => a - b);
}

function describe(text) {
  if (text instanceof Set) return [...text].map(describe).join(' or ');
  if (text === null) return 'is absent';
  if (text === '') return 'is EMPTY';
  return `holds ${text.length} chars (token ${tokenOf(text) ?? 'none'})`;
}
