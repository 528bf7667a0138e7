/**
 * @module
 * `noted-mcp convert --to markdown|html [--dry-run]`: converts a vault between the formats in place
 * (SPEC 11.5). Progress on stderr; Ctrl-C stops after the note being converted, and running the
 * command again continues where it stopped.
 */
import { randomUUID } from 'node:crypto';
import { type ConvertReport, convertVault } from '../access/convert.js';
import { Journal } from '../journal/journal.js';
import { FORMAT_NAMES, type FormatName } from '../vault/format-name.js';
import { type CliIo, type ExitCode, usageError } from './io.js';
import { cliJournalKey, failure, openCliVault, parseFlags } from './journal-args.js';

export const CONVERT_USAGE = `Usage: noted-mcp convert --to markdown|html [options]

Converts every note of the vault in place, to Markdown (.md) or HTML (.html) notes: one atomic
write per note keeping its file times, links rewritten to the new endings, tags, tasks,
headings, lists, emphasis, code and tables kept. The run is one group in the journal, so
"noted-mcp undo --group ID" puts the notes back. While it runs, every server on the vault
answers writes with "busy" and reads go on. Stopped (Ctrl-C, a crash), it continues where it
stopped when started again.

Options:
  --to FORMAT                    markdown or html
  --dry-run                      list what would change and what would be lost; write nothing
  --notes-dir DIR, --vault DIR   the vault folder (else $NOTED_VAULT, else $NOTES_VAULT, else ~/notes)
  -h, --help                     show this help
`;

/** Notes named for each kind of loss; the rest are counted. */
const LOSS_EXAMPLES = 10;
/** Progress lines at most this often. */
const PROGRESS_EVERY_MS = 1000;

export async function convertCommand(argv: readonly string[], io: CliIo): Promise<ExitCode> {
  const flags = parseFlags(argv, ['--notes-dir', '--to'], ['--help', '--dry-run']);
  if (flags.switches.has('--help')) {
    io.stdout(CONVERT_USAGE);
    return 0;
  }
  const errors = [...flags.errors];
  const to = flags.values.get('--to');
  if (to === undefined) errors.push('say which format to convert to: --to markdown or --to html');
  else if (!(FORMAT_NAMES as readonly string[]).includes(to)) {
    errors.push(`--to takes markdown or html (got "${to}")`);
  }
  if (flags.positionals.length > 0) errors.push(`unexpected argument "${flags.positionals[0]}"`);
  if (errors.length > 0) return usageError(io, 'convert', errors);
  const dryRun = flags.switches.has('--dry-run');

  let stop = false;
  const onSignal = () => {
    if (stop) return;
    stop = true;
    io.stderr('noted-mcp: stopping after the note being converted…\n');
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    const vault = openCliVault(flags.values.get('--notes-dir'), io);
    const journal = new Journal(vault, {
      now: () => new Date(),
      key: cliJournalKey(io, { create: 'first use' }),
    });
    let last = 0;
    const report = await convertVault(vault, journal, {
      to: to as FormatName,
      dryRun,
      session: `cli-${randomUUID()}`,
      stopRequested: () => stop,
      progress: (done, total) => {
        const now = Date.now();
        if (now - last < PROGRESS_EVERY_MS && done < total) return;
        last = now;
        io.stderr(`noted-mcp: converted ${done} of ${total} notes\n`);
      },
    });
    return dryRun ? printPlan(report, io) : printResult(report, io);
  } catch (err) {
    return failure(io, err);
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

function printPlan(report: ConvertReport, io: CliIo): ExitCode {
  io.stdout(
    `Dry run: ${report.converted.length} of ${report.total} notes would be converted to ${report.to}; nothing was written.\n`,
  );
  for (const c of report.converted) io.stdout(`would convert  ${c.from} → ${c.to}\n`);
  printLosses(report, io, 'What would be lost');
  printSkipped(report, io, 'would be left as it is');
  return report.skipped.length > 0 ? 1 : 0;
}

/** Each kind of loss once, with the notes it concerns (a line number is the note's own). */
function printLosses(report: ConvertReport, io: CliIo, heading: string): void {
  const byKind = new Map<string, string[]>();
  for (const c of report.converted) {
    for (const loss of c.losses) {
      const line = /^line (\d+): /.exec(loss);
      const kind = line === null ? loss : loss.slice(line[0].length);
      const where = line === null ? c.from : `${c.from}:${line[1]}`;
      byKind.set(kind, [...(byKind.get(kind) ?? []), where]);
    }
  }
  if (byKind.size === 0) return;
  io.stdout(`\n${heading}:\n`);
  for (const [kind, notes] of byKind) {
    const shown = notes.slice(0, LOSS_EXAMPLES).join(', ');
    const more = notes.length > LOSS_EXAMPLES ? ` and ${notes.length - LOSS_EXAMPLES} more` : '';
    io.stdout(`  - ${kind} (${notes.length}): ${shown}${more}\n`);
  }
}

function printResult(report: ConvertReport, io: CliIo): ExitCode {
  const resumed = report.resumed ? ' (continuing the conversion that was stopped)' : '';
  io.stdout(`Converted ${report.converted.length} of ${report.total} notes to ${report.to}${resumed}.\n`);
  printLosses(report, io, 'What the new format could not keep');
  printSkipped(report, io, 'left as it is');
  if (report.stopped) {
    io.stdout('Stopped before the last note. Run the same command again to continue.\n');
    return 1;
  }
  if (report.group !== null) {
    io.stdout(
      `Journal group ${report.group}: "noted-mcp undo --group ${report.group}" undoes the conversion.\n`,
    );
  }
  return report.skipped.length > 0 ? 1 : 0;
}

function printSkipped(report: ConvertReport, io: CliIo, what: string): void {
  for (const s of report.skipped) io.stdout(`${what}: ${s.name}: ${s.reason}\n`);
}
