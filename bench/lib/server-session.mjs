/**
 * @module bench/lib/server-session
 * Starts the built server as a child process through the SDK's stdio client transport,
 * connects a real MCP `Client`, and exposes what the benchmark needs around it: the child's
 * pid, its memory from /proc, the tail of its stderr, and a guaranteed kill.
 */

import { readFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { benchConfigHome } from './config-home.mjs';

/** Pids of server children still alive, killed on any exit of the bench process. */
const live = new Set();

/** Sends SIGKILL to every server child this process started and has not closed. */
export function killAllServers() {
  for (const pid of live) killPid(pid);
  live.clear();
}

/** VmHWM (peak RSS) and VmRSS of a process in bytes, from /proc/<pid>/status; null off Linux. */
export function readMemory(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (key) => {
      const m = status.match(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm'));
      return m ? Number(m[1]) * 1024 : null;
    };
    return { peakRss: kb('VmHWM'), rss: kb('VmRSS') };
  } catch {
    return null;
  }
}

/**
 * Live (non-zombie) child processes of pid with their peak RSS: memory the server spends in
 * helper processes, which its own VmHWM does not count. Zombies are counted separately.
 */
export function childProcesses(pid) {
  let pids = [];
  try {
    pids = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
  } catch {
    return { live: 0, zombies: 0, peakRss: 0 };
  }
  let live = 0;
  let zombies = 0;
  let peakRss = 0;
  for (const child of pids) {
    try {
      const status = readFileSync(`/proc/${child}/status`, 'utf8');
      if (/^State:\s+Z/m.test(status)) {
        zombies++;
        continue;
      }
      live++;
      peakRss += readMemory(child)?.peakRss ?? 0;
    } catch {
      // Exited meanwhile.
    }
  }
  return { live, zombies, peakRss };
}

/**
 * Spawns `node <serverPath> --notes-dir <vault>` and connects a Client.
 * `startedAt` is taken just before the spawn, so callers time from spawn. `nodeArgs` go to node
 * before the script (`--cpu-prof`, for one).
 */
export async function startServer({ serverPath, vault, connectTimeoutMs, nodeArgs = [] }) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...nodeArgs, serverPath, '--notes-dir', vault],
    stderr: 'pipe',
    env: { NOTED_MCP_CONFIG_DIR: benchConfigHome() },
  });
  const tail = [];
  let partial = '';
  transport.stderr?.on('data', (chunk) => {
    const lines = (partial + chunk.toString('utf8')).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      tail.push(line);
      if (tail.length > 40) tail.shift();
    }
  });
  const stderrTail = () => [...tail, partial].filter((l) => l !== '').join('\n');
  const client = new Client({ name: 'noted-bench', version: '1.0.0' });
  let pid = null;
  // Register the pid as soon as the child exists, so a failed handshake leaves nothing running.
  const start = transport.start.bind(transport);
  transport.start = async () => {
    await start();
    pid = transport.pid;
    if (pid) live.add(pid);
  };
  const startedAt = performance.now();
  try {
    await client.connect(transport, { timeout: connectTimeoutMs });
  } catch (err) {
    if (pid) killPid(pid);
    live.delete(pid);
    err.stderrTail = stderrTail();
    throw err;
  }
  const connectedAt = performance.now();

  return {
    client,
    pid,
    startedAt,
    connectedAt,
    stderrTail,
    isAlive: () => isAlive(pid),
    /** Closes the client (stdin end, then SIGTERM, then SIGKILL) and returns shutdown ms. */
    async close() {
      const t = performance.now();
      try {
        await client.close();
      } finally {
        if (pid && isAlive(pid)) killPid(pid);
        live.delete(pid);
      }
      return performance.now() - t;
    },
  };
}

function killPid(pid) {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
