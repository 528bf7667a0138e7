/**
 * @module
 * The entry point: the only reader of argv and the environment. Dispatches to a command, or runs
 * as an index parser thread when started as one.
 */
import path from 'node:path';
import { isParserThread, runParserThread } from '../index/parser-pool.js';
import { configCommand } from './config-command.js';
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
  const code = await command(rest, io);
  process.exitCode = code;
  // stdout may still be flushing to a pipe; exit once it has.
  process.stdout.write('', () => process.exit(code));
}

if (isParserThread()) {
  runParserThread();
} else {
  main().catch((err: unknown) => {
    process.stderr.write(`noted-mcp: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  });
}
