/**
 * @module
 * `noted-mcp undo ENTRY | --session ID | --group ID`: puts notes back to what they were before an
 * agent's change (SPEC 6.3). Prints each change's outcome; exits 1 when any was refused.
 */
import { randomUUID } from 'node:crypto';
import { Journal } from '../journal/journal.js';
import type { UndoResult } from '../journal/undo.js';
import type { UndoTarget } from '../journal/undo-journal.js';
import { type CliIo, type ExitCode, usageError } from './io.js';
import { cliJournalKey, failure, openCliVault, parseFlags } from './journal-args.js';

export const UNDO_USAGE = `Usage: noted-mcp undo ENTRY [options]
       noted-mcp undo --session ID [options]
       noted-mcp undo --group ID [options]

Puts a note back to the text it had before an agent's change, recorded in the journal
(see noted-mcp journal list). Refused, with the note untouched, when the note changed since
the agent wrote it. A change is undone once; an undo is not undone; a created note goes to
the trash. Every undo is itself recorded in the journal.

  ENTRY          one change, by its entry id
  --session ID   every change of one session, newest first
  --group ID     every change of one operation, all together or none

Options:
  --notes-dir DIR, --vault DIR   the vault folder (else $NOTED_VAULT, else $NOTES_VAULT, else ~/notes)
  -h, --help                     show this help
`;

/** How the command line appears in the journal's client column; self-declared like any client's. */
const CLI_CLIENT = 'noted-mcp-cli';

export async function undoCommand(argv: readonly string[], io: CliIo): Promise<ExitCode> {
  const flags = parseFlags(argv, ['--notes-dir', '--session', '--group'], ['--help']);
  if (flags.switches.has('--help')) {
    io.stdout(UNDO_USAGE);
    return 0;
  }
  const errors = [...flags.errors];
  const session = flags.values.get('--session');
  const group = flags.values.get('--group');
  const [entry, ...extra] = flags.positionals;
  const targets = [entry, session, group].filter((t) => t !== undefined).length;
  if (targets === 0) errors.push('say what to undo: an ENTRY id, --session ID or --group ID');
  if (targets > 1) errors.push('give only one of ENTRY, --session ID and --group ID');
  if (extra.length > 0) errors.push(`unexpected argument "${extra[0]}"`);
  if (errors.length > 0) {
    return usageError(io, 'undo', errors);
  }
  const target: UndoTarget =
    entry !== undefined ? { entry } : session !== undefined ? { session } : { group: group as string };
  try {
    const vault = openCliVault(flags.values.get('--notes-dir'), io);
    const journal = new Journal(vault, {
      now: () => new Date(),
      key: cliJournalKey(io, { create: 'first use' }),
    });
    const result = await journal.undo(target, {
      session: `cli-${randomUUID()}`,
      client: CLI_CLIENT,
      owner: true,
    });
    return report(result, target, io);
  } catch (err) {
    return failure(io, err);
  }
}

function report(result: UndoResult, target: UndoTarget, io: CliIo): ExitCode {
  if (result.outcomes.length === 0) {
    const what = 'session' in target ? `session ${target.session}` : 'the target';
    io.stdout(`Nothing to undo: every change of ${what} was already undone.\n`);
    return 0;
  }
  let refused = 0;
  for (const o of result.outcomes) {
    if (o.outcome === 'undone') {
      io.stdout(`undone   ${o.note}  (entry ${o.entry}; recorded as ${o.undoEntry})\n`);
    } else {
      refused++;
      io.stdout(`refused  ${o.note}  (entry ${o.entry}): ${o.reason}\n`);
    }
  }
  const undone = result.outcomes.length - refused;
  io.stdout(`${plural(undone, 'change')} undone, ${refused} refused.\n`);
  return refused > 0 ? 1 : 0;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
