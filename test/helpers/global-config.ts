/**
 * @module
 * Global setup: every test run gets a configuration folder of its own (`$NOTED_MCP_CONFIG_DIR`,
 * inherited by the test workers and every server they spawn), so that no test writes a journal key or
 * anchor into the user's real `~/.config/noted-mcp`. (Not `$XDG_CONFIG_HOME`: other programs the tests
 * configure, Claude Desktop's file, go by that one.) Removed when the run ends.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export default function setup(): () => void {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'noted-test-config-'));
  process.env.NOTED_MCP_CONFIG_DIR = dir;
  return () => fs.rmSync(dir, { recursive: true, force: true });
}
