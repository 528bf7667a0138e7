/**
 * @module
 * A CLI's input and output for tests: the environment given, stdout and stderr collected.
 */
import type { CliIo } from '../../src/cli/io.js';

/**
 * `env` is the command's whole environment; by default only the run's configuration folder (the
 * global setup's), so a command that makes a journal key never writes one into the real home.
 */
export function captureIo(
  env: NodeJS.ProcessEnv = { NOTED_MCP_CONFIG_DIR: process.env.NOTED_MCP_CONFIG_DIR },
): { io: CliIo; out: () => string; err: () => string } {
  let out = '';
  let err = '';
  const io: CliIo = {
    env,
    stdout: (t) => {
      out += t;
    },
    stderr: (t) => {
      err += t;
    },
    script: 'noted-mcp',
    isTty: false,
  };
  return { io, out: () => out, err: () => err };
}
