/**
 * @module
 * A CLI's input and output for tests: the environment given, stdout and stderr collected.
 */
import type { CliIo } from '../../src/cli/io.js';

export function captureIo(env: NodeJS.ProcessEnv = {}): { io: CliIo; out: () => string; err: () => string } {
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
