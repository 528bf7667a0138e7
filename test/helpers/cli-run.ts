/**
 * @module
 * Runs a CLI command in-process (`journalCommand`, `undoCommand`, …) with a CliIo of the test's
 * choosing, and collects what it printed.
 */
import type { CliIo, ExitCode } from '../../src/cli/io.js';

export interface CliRun {
  readonly code: number;
  readonly out: string;
  readonly err: string;
}

/** `command(argv)` with `env` as the whole environment (the test names every variable it wants). */
export async function runCommand(
  command: (argv: readonly string[], io: CliIo) => Promise<ExitCode>,
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
): Promise<CliRun> {
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
  const code = await command(argv, io);
  return { code, out, err };
}
