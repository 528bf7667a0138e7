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
 * for all of them. The calls are in crash-ops.mjs, the checks in crash-checks.mjs.
 */

import { spawn } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { benchConfigHome } from './config-home.mjs';
import { check, checkAfterKill, finalCheck, settle } from './crash-checks.mjs';
import { chooseOp } from './crash-ops.mjs';
import { JournalReader, makeVault, readDisk, stateTemps, textMaker } from './crash-vault.mjs';
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
    /** Per kind of call, where in it (as a fraction of its usual duration) kills should aim. */
    this.aim = new Map();
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
      /** Staged creations refused because one of the note was already waiting for review. */
      stagedCreatesRefused: 0,
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
      const killed = await this.runOp(victim, this.killMoment(victim.kind));
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
      const outcome = await this.checkAfterKill(killed.midCall ? victim : null, seqBefore, perOp);
      this.aimAt(victim.kind, outcome);
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
      env: { NOTED_MCP_CONFIG_DIR: benchConfigHome() },
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

  chooseOp() {
    return chooseOp(this);
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

  /**
   * When to kill, as a fraction of the call's usual duration: half the time anywhere in 0–1.25, half
   * the time near where this kind of call last had its journal entry recorded but its note not yet
   * written (that window is a small part of a call, and where it lies depends on the machine).
   */
  killMoment(kind) {
    if (this.rand() < 0.5) return this.rand() * 1.25;
    return Math.max(0, (this.aim.get(kind) ?? 0.7) + (this.rand() - 0.5) * 0.3);
  }

  /** Moves the aim of a kind of call later when a kill came before its journal entry, earlier when after its write. */
  aimAt(kind, outcome) {
    const aim = this.aim.get(kind) ?? 0.7;
    const step = outcome === 'beforeJournal' ? 0.03 : outcome === 'applied' ? -0.03 : 0;
    this.aim.set(kind, Math.min(1.2, Math.max(0.05, aim + step)));
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

  settle(op, result) {
    settle(this, op, result);
  }

  check(victim) {
    return check(this, victim);
  }

  checkAfterKill(victim, seqBefore, perOp) {
    return checkAfterKill(this, victim, seqBefore, perOp);
  }

  finalCheck() {
    return finalCheck(this);
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
