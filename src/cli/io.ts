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
