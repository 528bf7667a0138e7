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

/**
 * A CliIo that collects stdout and stderr. `env` is the command's whole environment; by default only
 * the run's configuration folder (the global setup's), so a command that makes a journal key never
 * writes one into the real home.
 */
export function captureIo(
  env: NodeJS.ProcessEnv = { NOTED_MCP_CONFIG_DIR: process.env.NOTED_MCP_CONFIG_DIR },
): {
  io: CliIo;
  out: () => string;
  err: () => string;
} {
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

/** `command(argv)` with `env` as the whole environment (the test names every variable it wants). */
export async function runCommand(
  command: (argv: readonly string[], io: CliIo) => Promise<ExitCode>,
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
): Promise<CliRun> {
  const captured = captureIo(env);
  const code = await command(argv, captured.io);
  return { code, out: captured.out(), err: captured.err() };
}
