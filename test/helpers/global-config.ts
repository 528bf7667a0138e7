/**
 * @module
 * Global setup: every test run gets a configuration folder of its own (`$XDG_CONFIG_HOME`, inherited by
 * the test workers and every server they spawn), so that no test writes a journal key or anchor into
 * the user's real `~/.config/noted-mcp`. Removed when the run ends.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export default function setup(): () => void {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'noted-test-config-'));
  process.env.XDG_CONFIG_HOME = dir;
  return () => fs.rmSync(dir, { recursive: true, force: true });
}
