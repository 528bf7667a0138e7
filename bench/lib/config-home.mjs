/**
 * @module bench/lib/config-home
 * The servers a benchmark starts keep their journal key and anchors (SPEC 6.2) in a configuration
 * folder of the benchmark's own, not in the user's `~/.config/noted-mcp`: the first call makes a
 * temporary folder, sets `NOTED_MCP_CONFIG_DIR` to it for this process and the children it starts, and
 * removes it when the process exits. Inside a test run (vitest) it is the run's own folder, which the
 * tests' global setup made (test/helpers/global-config.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

let home;

/** The benchmark's `NOTED_MCP_CONFIG_DIR`, made on first use. */
export function benchConfigHome() {
  if (process.env.VITEST && process.env.NOTED_MCP_CONFIG_DIR) return process.env.NOTED_MCP_CONFIG_DIR;
  if (home === undefined) {
    home = mkdtempSync(join(tmpdir(), 'noted-bench-config-'));
    process.env.NOTED_MCP_CONFIG_DIR = home;
    process.on('exit', () => rmSync(home, { recursive: true, force: true }));
  }
  return home;
}
