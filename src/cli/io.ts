/**
 * @module
 * What a command may touch of the process, passed in so commands run the same in tests.
 */

export interface CliIo {
  readonly env: NodeJS.ProcessEnv;
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /** The absolute path of the script being run (dist-mcp/index.cjs), for printed commands. */
  readonly script: string;
  readonly isTty: boolean;
}

export function quoteArg(s: string): string {
  return /^[\w./@:+=,-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/** A command's outcome: the process exit code (0 ok, 1 failure, 2 usage). */
export type ExitCode = 0 | 1 | 2;

/**
 * A usage error (exit 2): every problem on one line, and where the full usage is, instead of the
 * whole help, which buries the problem.
 *
 * @example
 * usageError(io, 'journal', ['unknown option --fast']) // noted-mcp journal: unknown option --fast
 * //                                                      See 'noted-mcp journal --help'.
 */
export function usageError(io: CliIo, command: string, problems: readonly string[]): 2 {
  const who = command === '' ? 'noted-mcp' : `noted-mcp ${command}`;
  io.stderr(`${who}: ${problems.join('; ')}\nSee '${who} --help'.\n`);
  return 2;
}
