/**
 * @module
 * `noted-mcp journal [list|show ENTRY|verify]`: the owner's view of what agents changed (SPEC 6).
 * `list` groups changes by session, newest first; `show` prints one entry and its diff; `verify`
 * checks the chain, the authentication, the anchor and the stored texts, and names the first entry
 * that does not verify (exit 1), or says what this machine cannot check (exit 1 too).
 */
import { JOURNAL_KINDS, type JournalKind } from '../journal/entry.js';
import { Journal, type JournalFilters } from '../journal/journal.js';
import { megabytes } from '../journal/usage.js';
import { normalizeNoteName } from '../vault/names.js';
import { journalLimit } from './config.js';
import { type CliIo, type ExitCode, usageError } from './io.js';
import { cliJournalKey, failure, openCliVault, parseFlags, parseLimit } from './journal-args.js';
import { describeEntry, entryDiff, listLines } from './journal-format.js';

export const JOURNAL_USAGE = `Usage: noted-mcp journal [list] [options]
       noted-mcp journal show ENTRY [--words] [options]
       noted-mcp journal verify [options]
       noted-mcp journal prune --before DATE [--dry-run] [options]

The journal records every change an agent made to a note, before it was made (SPEC 6). When a
server stopped between recording a change and writing the note, its next start adds an entry of
kind not_applied naming that change: it never happened, and neither entry can be undone.

  list           changes grouped by session, newest first (the default)
  show ENTRY     one entry and the diff of its change
  verify         check the hash chain, each entry's authentication with your journal key, the
                 anchored end and every stored text; exit 1 naming the first entry that does
                 not verify, or saying what cannot be verified on this machine
  prune          free room: remove the stored texts of changes made before DATE (their
                 entries stay; those changes can no longer be undone); only a journal
                 that verifies is pruned

Stored texts may take up to journalMaxMB in <vault>/.noted/config.json (default 1024,
0 for no limit; NOTED_MCP_JOURNAL_MAX_MB overrides it); past it, agents' changes are
refused until the journal is pruned. list and verify show the usage.

Options:
  --notes-dir DIR, --vault DIR   the vault folder (else $NOTED_VAULT, else $NOTES_VAULT, else ~/notes)
  --session ID                   list: only this session's changes
  --client NAME                  list: only changes by a client calling itself NAME
  --kind KIND                    list: only ${JOURNAL_KINDS.join(', ')}
  --note NAME                    list: only changes to this note
  --group ID                     list: only the changes of one operation
  --limit N                      list: at most N changes (default 100)
  --words                        show: mark changed words as [-old-]{+new+} instead of a line diff
  --before DATE                  prune: YYYY-MM-DD (UTC) or an ISO time
  --dry-run                      prune: say what would be removed, remove nothing
  -h, --help                     show this help

Undo a change with: noted-mcp undo ENTRY (see noted-mcp undo --help)
`;

const DEFAULT_LIMIT = 100;
const LIST_FLAGS = ['--session', '--client', '--kind', '--note', '--group', '--limit'];

export async function journalCommand(argv: readonly string[], io: CliIo): Promise<ExitCode> {
  const flags = parseFlags(
    argv,
    ['--notes-dir', '--before', ...LIST_FLAGS],
    ['--help', '--words', '--dry-run'],
  );
  if (flags.switches.has('--help')) {
    io.stdout(JOURNAL_USAGE);
    return 0;
  }
  const errors = [...flags.errors];
  const [sub = 'list', ...rest] = flags.positionals;
  if (!['list', 'show', 'verify', 'prune'].includes(sub)) errors.push(`unknown journal command "${sub}"`);
  if (sub === 'show' && rest.length === 0) errors.push('journal show needs an ENTRY id');
  const extra = sub === 'show' ? rest.slice(1) : rest;
  if (extra.length > 0) errors.push(`unexpected argument "${extra[0]}"`);
  if (sub !== 'list') {
    for (const flag of LIST_FLAGS)
      if (flags.values.has(flag)) errors.push(`${flag} only applies to journal list`);
  }
  if (sub !== 'show' && flags.switches.has('--words')) errors.push('--words only applies to journal show');
  const before = pruneBefore(sub, flags, errors);
  const filters = listFilters(flags.values, errors);
  if (errors.length > 0) {
    return usageError(io, 'journal', errors);
  }
  try {
    const vault = openCliVault(flags.values.get('--notes-dir'), io);
    // Reading the journal never makes a key: on a machine without one, verify says so.
    const journal = new Journal(vault, { now: () => new Date(), key: cliJournalKey(io, { create: false }) });
    const usage = () => usageLine(journal, io, vault.stateDir);
    if (sub === 'verify') return verify(journal, io, usage);
    if (sub === 'prune') return prune(journal, before as string, flags.switches.has('--dry-run'), io, usage);
    if (sub === 'show') return show(journal, rest[0] as string, flags.switches.has('--words'), io);
    // The name's rules were checked above; its ending is the vault's (`.md` or `.html`).
    const note = filters.note === undefined ? {} : { note: normalizeNoteName(filters.note, vault.ending) };
    return list(journal, { ...filters, ...note }, io, usage);
  } catch (err) {
    return failure(io, err);
  }
}

function listFilters(values: Map<string, string>, errors: string[]): JournalFilters {
  const kind = values.get('--kind');
  if (kind !== undefined && !(JOURNAL_KINDS as readonly string[]).includes(kind)) {
    errors.push(`--kind takes one of ${JOURNAL_KINDS.join(', ')} (got "${kind}")`);
  }
  const note = values.get('--note');
  if (note !== undefined) {
    try {
      normalizeNoteName(note, '.md');
    } catch (err) {
      errors.push(`--note: ${(err as Error).message}`);
    }
  }
  const limit = parseLimit(values.get('--limit'), errors);
  const session = values.get('--session');
  const client = values.get('--client');
  const group = values.get('--group');
  return {
    ...(session === undefined ? {} : { session }),
    ...(client === undefined ? {} : { client }),
    ...(kind === undefined ? {} : { kind: kind as JournalKind }),
    ...(note === undefined ? {} : { note }),
    ...(group === undefined ? {} : { group }),
    limit: limit ?? DEFAULT_LIMIT,
  };
}

function list(journal: Journal, filters: JournalFilters, io: CliIo, usage: () => string): ExitCode {
  const limit = filters.limit ?? DEFAULT_LIMIT;
  const found = journal.list({ ...filters, limit: limit + 1 });
  const shown = found.slice(0, limit);
  const filtered = Object.keys(filters).some((k) => k !== 'limit');
  if (shown.length === 0) {
    io.stdout(
      filtered ? 'No journal entries match.\n' : 'The journal is empty: no agent has changed a note.\n',
    );
    return 0;
  }
  const voided = new Map<string, string>();
  for (const e of journal.list({ kind: 'not_applied' })) voided.set(e.voids as string, e.id);
  io.stdout(listLines(shown, voided).join('\n'));
  io.stdout('\n');
  if (found.length > limit) {
    const newest = limit === 1 ? 'the newest change' : `the newest ${limit} changes`;
    io.stdout(`\nShowing ${newest}; pass --limit N to see more.\n`);
  }
  io.stdout(`\n${usage()}\n`);
  return 0;
}

function show(journal: Journal, id: string, words: boolean, io: CliIo): ExitCode {
  const entry = journal.get(id);
  if (entry === null) {
    io.stderr(
      `noted-mcp: no journal entry has the id "${id}". Run "noted-mcp journal list" to see entry ids.\n`,
    );
    return 1;
  }
  const later = journal.entries(entry.time.slice(0, 10));
  const voidedBy = (id: string) => later.find((e) => e.voids === id);
  // An undo that was recorded but never made did not undo anything.
  const undoneBy = later.find((e) => e.undoOf === entry.id && voidedBy(e.id) === undefined);
  io.stdout(`${describeEntry(entry, undoneBy, voidedBy(entry.id)).join('\n')}\n\n`);
  if (entry.kind === 'not_applied') {
    io.stdout(`Nothing changed: this entry only records that entry ${entry.voids} never happened.\n`);
    return 0;
  }
  io.stdout(entryDiff(journal, entry, words));
  return 0;
}

function verify(journal: Journal, io: CliIo, usage: () => string): ExitCode {
  const result = journal.verify();
  if (result.ok) {
    const { authentication: auth } = result;
    const proven = [
      `hash chain intact`,
      ...(auth.checked > 0 ? [`${auth.checked} authenticated with this machine's key ${auth.keyId}`] : []),
      ...(auth.anchored ? ['end anchored'] : []),
      `${plural(auth.texts, 'stored text')} checked`,
    ];
    io.stdout(`intact: ${plural(result.entries, 'entry', 'entries')} (${proven.join(', ')})\n${usage()}\n`);
    if (result.unverified === null) return 0;
    io.stdout(`not fully verifiable here: ${result.unverified}\n`);
    return 1;
  }
  const { file, line, id } = result.brokenAt;
  const which = id === undefined ? '' : ` (entry ${id})`;
  const intact = result.entries === 1 ? '1 entry before it is' : `${result.entries} entries before it are`;
  io.stderr(`broken: ${file} line ${line}${which}: ${result.reason}.\n${intact} intact.\n`);
  return 1;
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** The `--before` of prune as an ISO time (a date is its UTC midnight), with problems in `errors`. */
function pruneBefore(sub: string, flags: { values: Map<string, string> }, errors: string[]): string | null {
  const raw = flags.values.get('--before');
  if (sub !== 'prune') {
    if (raw !== undefined) errors.push('--before only applies to journal prune');
    return null;
  }
  if (raw === undefined) {
    errors.push('journal prune needs --before DATE: the changes made before it lose their stored texts');
    return null;
  }
  const time = Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(raw) ? `${raw}T00:00:00Z` : raw);
  if (Number.isNaN(time)) {
    errors.push(`--before takes a date (YYYY-MM-DD) or an ISO time (got "${raw}")`);
    return null;
  }
  return new Date(time).toISOString();
}

function prune(journal: Journal, before: string, dryRun: boolean, io: CliIo, usage: () => string): ExitCode {
  const r = journal.prune(before, dryRun);
  const which = r.beforeSeq <= 1 ? 'no change' : `the changes before entry ${r.beforeSeq}`;
  if (r.texts === 0) {
    io.stdout(
      `Nothing to prune: no stored text is needed only by changes made before ${before}.\n${usage()}\n`,
    );
    return 0;
  }
  const what = `${plural(r.texts, 'stored text')} (${megabytes(r.bytes)}) needed only by ${which}`;
  io.stdout(
    dryRun
      ? `Would remove ${what}; nothing was removed (dry run).\n`
      : `Removed ${what}. Their entries stay in the journal; those changes can no longer be undone.\n`,
  );
  io.stdout(`${usage()}\n`);
  return 0;
}

/** `Stored texts: 12.3 MB of 1,024 MB (journalMaxMB)` for the journal's command outputs. */
function usageLine(journal: Journal, io: CliIo, stateDir: string): string {
  const problems: string[] = [];
  const limit = journalLimit(io.env, stateDir, problems);
  const used = megabytes(journal.usage().storedBytes);
  if (problems.length > 0) return `Stored texts: ${used} (the limit cannot be read: ${problems.join('; ')})`;
  return `Stored texts: ${used} of ${limit === null ? 'no limit' : `${megabytes(limit)} allowed (journalMaxMB)`}`;
}
