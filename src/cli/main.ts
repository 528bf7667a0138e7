/**
 * @module
 * The entry point: the only reader of argv and the environment. Dispatches to a command, or runs
 * as an index parser thread when started as one.
 */
import path from 'node:path';
import { isParserThread, runParserThread } from '../index/sync/parser-pool.js';
import { configCommand } from './config-command.js';
import { convertCommand } from './convert-command.js';
import { doctorCommand } from './doctor-command.js';
import { installCommand } from './install-command.js';
import type { CliIo, ExitCode } from './io.js';
import { journalCommand } from './journal-command.js';
import { reviewCommand } from './review-command.js';
import { serveCommand } from './serve.js';
import { uiCommand } from './ui-command.js';
import { undoCommand } from './undo-command.js';

type Command = (argv: readonly string[], io: CliIo) => Promise<ExitCode>;

/** Subcommands by name; anything else is an argument of `serve`, the default. */
const COMMANDS: Record<string, Command> = {
  serve: serveCommand,
  journal: journalCommand,
  undo: undoCommand,
  review: reviewCommand,
  config: configCommand,
  install: installCommand,
  ui: uiCommand,
  doctor: doctorCommand,
  convert: convertCommand,
};

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const io: CliIo = {
    env: process.env,
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    script: process.argv[1] ? path.resolve(process.argv[1]) : 'noted-mcp',
    isTty: process.stdin.isTTY === true,
  };
  const first = argv[0];
  const command = first !== undefined && first in COMMANDS ? (COMMANDS[first] as Command) : serveCommand;
  const rest = first !== undefined && first in COMMANDS ? argv.slice(1) : argv;
  quietOnClosedPipe(command === serveCommand || command === uiCommand);
  const code = await command(rest, io);
  process.exitCode = code;
  // stdout may still be flushing to a pipe; exit once it has.
  process.stdout.write('', () => process.exit(code));
}

/**
 * A reader that stops early (`noted-mcp journal show X | head`) closes the pipe, and the next write
 * fails with EPIPE. That is the reader's choice, not a failure: a command stops quietly, as command
 * line tools do, instead of dying with a stack trace. A server keeps going: over stdio a closed
 * stdout means the client is gone, and the closing stdin that comes with it stops the server in
 * order (index and journal closed), which exiting here would cut short.
 */
function quietOnClosedPipe(serving: boolean): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EPIPE') throw err;
      if (!serving) process.exit(typeof process.exitCode === 'number' ? process.exitCode : 0);
    });
  }
}

if (isParserThread()) {
  runParserThread();
} else {
  main().catch((err: unknown) => {
    process.stderr.write(`noted-mcp: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  });
}
