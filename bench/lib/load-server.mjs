/**
 * @module bench/lib/load-server
 * The built server as a person runs it over Streamable HTTP: `node dist-mcp/index.cjs --transport
 * http --port 0 --notes-dir VAULT` in a child process, its token taken from the vault's token file
 * (`<vault>/.noted/mcp-http-token`, made on the first start), its memory read from /proc.
 *
 * Heap figures come from Node's own diagnostic report (`--report-on-signal`): SIGUSR2 makes the
 * server write a JSON report whose `javascriptHeap` holds V8's heap statistics. Nothing is forced
 * inside the server (no GC call, no extra code path); `usedMemory` therefore includes garbage not
 * yet collected.
 */

import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

import { benchConfigHome } from './config-home.mjs';

export { generateVault, MANIFEST_NAME } from '../generate-vault.mjs';

/** The token file, relative to the vault (see src/cli/serve-http.ts, TOKEN_FILE). */
export const TOKEN_FILE = ['.noted', 'mcp-http-token'];

/** Only what the server needs from the environment: no token variable, so the token file is used. */
function serverEnv() {
  const env = {};
  for (const key of ['PATH', 'HOME', 'LANG', 'LC_ALL', 'TZ', 'TMPDIR']) {
    if (process.env[key] !== undefined) env[key] = process.env[key];
  }
  env.NOTED_MCP_CONFIG_DIR = benchConfigHome();
  return env;
}

/** VmRSS, VmHWM and RssAnon of a process in bytes, from /proc/<pid>/status; null when unreadable. */
export function procMemory(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (key) => {
      const m = status.match(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm'));
      return m ? Number(m[1]) * 1024 : null;
    };
    return { rss: kb('VmRSS'), peakRss: kb('VmHWM'), rssAnon: kb('RssAnon') };
  } catch {
    return null;
  }
}

let clockTicks;

/** CPU seconds (user + system, all threads) a process has used, from /proc/<pid>/stat; null off Linux. */
export function procCpuSeconds(pid) {
  try {
    // The command name (field 2) may hold spaces; the fields after it are counted from its ')'.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    clockTicks ??= Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;
    return (Number(fields[11]) + Number(fields[12])) / clockTicks;
  } catch {
    return null;
  }
}

/**
 * One line of V8's `--trace-gc`, e.g.
 * `[11859:0x2033ff90]  427 ms: Mark-Compact 26.8 (55.9) -> 15.9 (52.7) MB, …`:
 * the isolate, whether it was a full collection, and the heap used before and after, in bytes.
 */
export function parseGcLine(line) {
  const m =
    /^\[\d+:(0x[0-9a-f]+)\]\s+[\d.]+ ms: ([A-Za-z-]+)(?: \([a-z]+\))? ([\d.]+) \([\d.]+\) -> ([\d.]+) \([\d.]+\) MB/.exec(
      line,
    );
  if (m === null) return null;
  return {
    isolate: m[1],
    full: m[2] === 'Mark-Compact',
    before: Number(m[3]) * MiB,
    after: Number(m[4]) * MiB,
  };
}

const MiB = 1024 * 1024;

/**
 * Starts the server and resolves once it listens (it indexes the vault before that).
 * @param {{ serverPath: string, vault: string, startTimeoutMs?: number, heapReports?: boolean }} options
 *   heapReports: start Node with `--report-on-signal`, so `heap()` can ask for V8's heap statistics.
 */
export async function startHttpServerProcess({
  serverPath,
  vault,
  startTimeoutMs = 120_000,
  heapReports = false,
  traceGc = false,
  nodeArgs: extraNodeArgs = [],
}) {
  const reportDir = heapReports ? mkdtempSync(join(tmpdir(), 'noted-load-report-')) : null;
  const nodeArgs = [
    ...(heapReports
      ? [
          '--report-on-signal',
          '--report-signal=SIGUSR2',
          '--report-compact',
          `--report-directory=${reportDir}`,
        ]
      : []),
    ...(traceGc ? ['--trace-gc'] : []),
    ...extraNodeArgs,
  ];
  const child = spawn(
    process.execPath,
    [...nodeArgs, serverPath, '--transport', 'http', '--port', '0', '--notes-dir', vault],
    { cwd: tmpdir(), env: serverEnv(), stdio: ['ignore', traceGc ? 'pipe' : 'ignore', 'pipe'] },
  );
  /** Full (mark-compact) collections of the main thread, as V8 reports them with --trace-gc. */
  const fullGcs = [];
  if (traceGc) {
    let partial = '';
    let mainIsolate = null;
    child.stdout.on('data', (chunk) => {
      const lines = (partial + chunk.toString('utf8')).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) {
        const gc = parseGcLine(line);
        if (gc === null) continue;
        mainIsolate ??= gc.isolate; // the main thread starts first; parser workers come later
        if (gc.isolate === mainIsolate && gc.full) fullGcs.push({ at: performance.now(), ...gc });
      }
    });
  }
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr += chunk.toString('utf8');
    if (stderr.length > 200_000) stderr = stderr.slice(-100_000);
  });
  let exitCode;
  const exited = new Promise((resolve) =>
    child.on('exit', (code, signal) => {
      exitCode = code ?? signal;
      resolve(exitCode);
    }),
  );
  const cleanup = () => {
    if (reportDir) rmSync(reportDir, { recursive: true, force: true });
  };

  let url;
  try {
    url = await new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`the server did not listen within ${startTimeoutMs} ms:\n${stderr}`)),
        startTimeoutMs,
      );
      const onData = () => {
        const m = /Endpoint: (\S+)/.exec(stderr);
        if (m && stderr.includes('Ctrl+C')) {
          clearTimeout(timer);
          child.stderr.off('data', onData);
          resolve(m[1]);
        }
      };
      child.stderr.on('data', onData);
      void exited.then((code) => {
        clearTimeout(timer);
        reject(new Error(`the server exited (${code}) before listening:\n${stderr}`));
      });
    });
  } catch (err) {
    child.kill('SIGKILL');
    cleanup();
    throw err;
  }
  const token = readFileSync(join(vault, ...TOKEN_FILE), 'utf8').trim();
  const pid = child.pid;

  return {
    pid,
    url,
    token,
    stderr: () => stderr,
    alive: () => exitCode === undefined,
    memory: () => procMemory(pid),
    cpuSeconds: () => procCpuSeconds(pid),
    /** Full collections seen so far (traceGc only): `{ at, before, after }`, heap sizes in bytes. */
    fullGcs: () => [...fullGcs],
    /**
     * V8's heap statistics from a diagnostic report (heapReports only), in bytes:
     * `{ used, total }` (`usedMemory`, `totalMemory` of the report's `javascriptHeap`).
     */
    async heap(timeoutMs = 10_000) {
      if (!reportDir) throw new Error('heap() needs heapReports: true');
      const before = new Set(readdirSync(reportDir));
      child.kill('SIGUSR2');
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        const made = readdirSync(reportDir).find((f) => !before.has(f) && f.endsWith('.json'));
        if (made) {
          try {
            const report = JSON.parse(readFileSync(join(reportDir, made), 'utf8'));
            rmSync(join(reportDir, made), { force: true });
            const heap = report.javascriptHeap;
            return { used: heap.usedMemory, total: heap.totalMemory };
          } catch {
            // Still being written.
          }
        }
        await sleep(20);
      }
      throw new Error(`no diagnostic report within ${timeoutMs} ms`);
    },
    /** SIGTERM (the server closes its sessions and the index), SIGKILL after `graceMs`; the exit code. */
    async stop(graceMs = 10_000) {
      if (exitCode === undefined) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
        await exited;
        clearTimeout(timer);
      }
      cleanup();
      return exitCode;
    },
  };
}
