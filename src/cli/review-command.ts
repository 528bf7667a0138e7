/**
 * @module
 * `noted-mcp review`: the vault owner looks at the changes agents staged (SPEC 5.2) and approves or
 * rejects them. Texts and names written by agents are printed with control characters made visible,
 * so a staged note cannot drive the owner's terminal.
 * Every approved write is journaled first, under the session and client of the agent that asked,
 * so `noted-mcp undo --session` puts back approved changes too.
 */
import fs from 'node:fs';
import { NotedError } from '../common/errors.js';
import { Journal } from '../journal/journal.js';
import type { JournalKeyState } from '../journal/journal-key.js';
import {
  approve,
  approveAll,
  type OnApprovedWrite,
  type OnDecision,
  putBack,
  reject,
  rejectAll,
} from '../staging/approve.js';
import { type Hunk, hunksOf } from '../staging/hunks.js';
import { PendingStore } from '../staging/pending-store.js';
import { KEEP_REJECTED_DAYS, RejectedStore } from '../staging/rejected-store.js';
import type { PendingChange, PendingSummary } from '../staging/types.js';
import { wordDiff } from '../staging/word-diff.js';
import { ANYWHERE } from '../vault/checked-folder.js';
import { quoteName } from '../vault/names.js';
import { Vault } from '../vault/vault.js';
import type { ParsedArgs } from './args.js';
import { vaultDirFrom } from './config.js';
import { type CliIo, type ExitCode, usageError } from './io.js';
import { cliJournalKey } from './journal-args.js';

export interface ReviewDeps {
  /** Builds the hook called before each approved write: the journal's recorder once it exists. */
  readonly recordApprovedWrite: (vault: Vault) => OnApprovedWrite;
  /** Builds the hook called before each rejection or put-back: the journal's recorder. */
  readonly recordDecision?: (vault: Vault) => OnDecision;
  readonly now?: () => Date;
}

/**
 * Records each approved write in the vault's journal before it is made (SPEC 5.2, 6.1), with the
 * user's journal key (`key` is asked for when the first approval needs it).
 */
export function journalApprovedWrites(key: () => JournalKeyState, now: () => Date = () => new Date()) {
  return (vault: Vault): OnApprovedWrite => {
    const journal = new Journal(vault, { now, key: key() });
    return (info) => {
      const { session, client, tool } = info.change;
      const hunks = info.hunks ?? null;
      const entry = journal.record({
        session,
        client,
        tool,
        note: info.note,
        kind: info.kind,
        before: info.before,
        after: info.after,
        decision: {
          by: 'owner',
          action: 'approve',
          pending: info.change.id,
          ...(hunks === null ? {} : { hunks: { total: hunks.total, kept: [...hunks.kept] } }),
          ...(info.merged === true ? { merged: true } : {}),
        },
      });
      return (now) => {
        journal.voidEntries([{ entry, now }]);
      };
    };
  };
}

/**
 * Records the owner's rejections and put-backs in the vault's journal (SPEC 9.4): an entry of kind
 * `decision` under the agent's session, client and tool, whose before and after are the note as it is
 * (the decision changes no note).
 */
export function journalDecisions(key: () => JournalKeyState, now: () => Date = () => new Date()) {
  return (vault: Vault): OnDecision => {
    const journal = new Journal(vault, { now, key: key() });
    return ({ change, action, reason }) => {
      const current = vault.read(change.note, ANYWHERE)?.bytes ?? null;
      journal.record({
        session: change.session,
        client: change.client,
        tool: change.tool,
        note: change.note,
        kind: 'decision',
        before: current,
        after: current,
        decision: {
          by: 'owner',
          action,
          pending: change.id,
          ...(reason === null ? {} : { reason }),
        },
      });
    };
  };
}

export const REVIEW_USAGE = `Usage: noted-mcp review [list] [options]
       noted-mcp review show ID
       noted-mcp review approve ID [--keep 1,3]
       noted-mcp review approve --all
       noted-mcp review reject ID [--reason TEXT]
       noted-mcp review reject --all [--reason TEXT]
       noted-mcp review rejected
       noted-mcp review put-back ID

Shows the changes agents made in staged folders (see .noted/mcp-policy.yaml), which wait for your
approval, and approves or rejects them. Approving writes the note (a deletion goes to the trash); it is
refused, and nothing written, when the note changed since the agent saw it.

Commands:
  list                  the pending changes, oldest first (the default)
  show ID               one change as a diff: [-removed-] and {+added+} words, numbered hunks
  approve ID            write the change
  approve ID --keep N,M apply only these hunks of an update (numbers from "show")
  approve --all         approve every pending change, oldest first, each on its own
  reject ID             reject the change; the note is not touched. The change is kept for
                        ${KEEP_REJECTED_DAYS} days under "rejected" (--reason says why, kept with it)
  reject --all          reject every pending change (each kept the same way)
  rejected              the rejected changes still kept, newest first
  put-back ID           return a rejected change to pending, under its own id

Every approval, rejection and put-back is recorded in the journal as your decision.

Options:
  --notes-dir DIR, --vault DIR   the vault folder (else $NOTED_VAULT, else $NOTES_VAULT, else ~/notes)
  -h, --help                     show this help
`;

type Action = 'list' | 'show' | 'approve' | 'reject' | 'rejected' | 'put-back';

interface ReviewArgs {
  readonly action: Action;
  readonly id?: string;
  readonly all: boolean;
  readonly keep?: number[];
  readonly reason?: string;
  readonly notesDir?: string;
  readonly help: boolean;
  readonly errors: string[];
}

export function createReviewCommand(deps: ReviewDeps) {
  return async (argv: readonly string[], io: CliIo): Promise<ExitCode> => {
    const args = parseReviewArgs(argv);
    if (args.help) {
      io.stdout(REVIEW_USAGE);
      return 0;
    }
    if (args.errors.length > 0) {
      return usageError(io, 'review', args.errors);
    }
    const parsed: ParsedArgs = {
      help: false,
      version: false,
      positionals: [],
      errors: [],
      ...(args.notesDir === undefined ? {} : { notesDir: args.notesDir }),
    };
    const { dir, source } = vaultDirFrom(parsed, io.env);
    // Review never creates a vault: a mistyped folder should be reported, not made.
    if (!fs.existsSync(dir)) {
      io.stderr(`noted-mcp review: there is no vault at ${dir} (from ${source}); pass --notes-dir DIR.\n`);
      return 1;
    }
    let vault: Vault;
    try {
      vault = Vault.open(dir);
    } catch (err) {
      io.stderr(`noted-mcp review: cannot open the vault ${dir}: ${(err as Error).message}\n`);
      return 1;
    }
    const store = new PendingStore(vault, deps.now);
    const rejected = new RejectedStore(vault, deps.now);
    const now = deps.now ?? (() => new Date());
    const decided = (): { keep: RejectedStore; reason: string | null; onDecision?: OnDecision } => ({
      keep: rejected,
      reason: args.reason ?? null,
      ...(deps.recordDecision === undefined ? {} : { onDecision: deps.recordDecision(vault) }),
    });
    try {
      switch (args.action) {
        case 'list':
          return list(store, vault, io);
        case 'show':
          return show(store.get(args.id as string), io);
        case 'approve': {
          const onWrite = deps.recordApprovedWrite(vault);
          const { onDecision } = decided();
          if (args.all) return await approveEverything(vault, store, onWrite, now, io, onDecision);
          const result = await approve(vault, store, args.id as string, {
            onWrite,
            ...(onDecision === undefined ? {} : { onDecision }),
            now,
            ...(args.keep === undefined ? {} : { keep: args.keep }),
          });
          io.stdout(`${describeApproval(result)}\n`);
          return 0;
        }
        case 'reject': {
          const kept = `kept for ${KEEP_REJECTED_DAYS} days (noted-mcp review rejected; put back with noted-mcp review put-back ID)`;
          if (args.all) {
            const all = rejectAll(store, decided());
            io.stdout(
              all.length === 0
                ? 'No changes are waiting for review.\n'
                : `Rejected ${plural(all.length, 'change')}; no note was touched. ${all.length === 1 ? 'It is' : 'They are'} ${kept}.\n`,
            );
            reportDamaged(store, io);
            return 0;
          }
          const { id, note } = reject(store, args.id as string, decided());
          io.stdout(
            `Rejected ${id}${note === null ? '' : ` (${quoteName(note)})`}; the note was not touched.${note === null ? '' : ` It is ${kept}.`}\n`,
          );
          return 0;
        }
        case 'rejected':
          return listRejected(rejected, io);
        case 'put-back': {
          const { id, note } = putBack(store, rejected, args.id as string, {
            ...(deps.recordDecision === undefined ? {} : { onDecision: deps.recordDecision(vault) }),
          });
          io.stdout(
            `Put ${id} (${quoteName(note)}) back to pending; review it with: noted-mcp review show ${id}\n`,
          );
          return 0;
        }
      }
    } catch (err) {
      if (!(err instanceof NotedError)) throw err;
      io.stderr(`noted-mcp review: ${err.message}\n`);
      return 1;
    }
  };
}

/** The `review` subcommand as registered in `main.ts`. */
export const reviewCommand = (argv: readonly string[], io: CliIo): Promise<ExitCode> =>
  createReviewCommand({
    recordApprovedWrite: journalApprovedWrites(() => cliJournalKey(io, { create: 'first use' })),
    recordDecision: journalDecisions(() => cliJournalKey(io, { create: 'first use' })),
  })(argv, io);

export function parseReviewArgs(argv: readonly string[]): ReviewArgs {
  const errors: string[] = [];
  const positionals: string[] = [];
  let notesDir: string | undefined;
  let keepText: string | undefined;
  let reason: string | undefined;
  let all = false;
  let help = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const flag = eq === -1 ? arg : arg.slice(0, eq);
    const value = (): string | undefined => {
      if (eq !== -1) return arg.slice(eq + 1);
      const next = argv[i + 1];
      if (next === undefined || next.startsWith('--')) {
        errors.push(`${flag} needs a value`);
        return undefined;
      }
      i++;
      return next;
    };
    if (flag === '--notes-dir' || flag === '--vault') {
      const v = value();
      if (v !== undefined && v.trim() === '') errors.push(`${flag} needs a folder path`);
      else if (v !== undefined) notesDir = v;
    } else if (flag === '--keep') keepText = value();
    else if (flag === '--reason') reason = value();
    else if (flag === '--all') all = true;
    else if (flag === '--help' || flag === '-h') help = true;
    else if (arg.startsWith('-')) errors.push(`unknown option ${flag}`);
    else positionals.push(arg);
  }
  const [first, id, ...extra] = positionals;
  const action = (first ?? 'list') as Action;
  if (!['list', 'show', 'approve', 'reject', 'rejected', 'put-back'].includes(action)) {
    errors.push(`unknown review command "${first}"; use list, show, approve, reject, rejected or put-back`);
  } else if (action === 'rejected') {
    if (all) errors.push('--all goes with approve or reject, not rejected');
    if (id !== undefined) errors.push('rejected takes no id');
  } else if (action === 'put-back') {
    if (all) errors.push('--all goes with approve or reject, not put-back');
    if (id === undefined)
      errors.push('put-back needs the id of a rejected change (see "noted-mcp review rejected")');
  } else if (action === 'list' || action === 'show') {
    if (all) errors.push(`--all goes with approve or reject, not ${action}`);
    if (action === 'show' && id === undefined)
      errors.push('show needs the id of a change (see "noted-mcp review list")');
    if (action === 'list' && id !== undefined)
      errors.push(`list takes no id (to see one change: noted-mcp review show ${id})`);
  } else if (all && id !== undefined) {
    errors.push(`give either an id or --all to ${action}, not both`);
  } else if (!all && id === undefined) {
    errors.push(`${action} needs the id of a change, or --all (see "noted-mcp review list")`);
  }
  if (extra.length > 0) errors.push(`unexpected argument "${extra[0]}"`);
  if (reason !== undefined && action !== 'reject') errors.push('--reason goes with reject');
  let keep: number[] | undefined;
  if (keepText !== undefined) {
    if (action !== 'approve' || all) errors.push('--keep goes with "approve ID" (one change, not --all)');
    const parts = keepText.split(',').map((p) => p.trim());
    if (parts.some((p) => !/^[1-9]\d*$/.test(p))) {
      errors.push(`--keep takes hunk numbers separated by commas, like --keep 1,3 (got "${keepText}")`);
    } else keep = parts.map(Number);
  }
  return {
    action,
    all,
    help,
    errors,
    ...(id === undefined ? {} : { id }),
    ...(keep === undefined ? {} : { keep }),
    ...(reason === undefined ? {} : { reason }),
    ...(notesDir === undefined ? {} : { notesDir }),
  };
}

function listRejected(rejected: RejectedStore, io: CliIo): ExitCode {
  const kept = rejected.list();
  if (kept.length === 0) {
    io.stdout(
      `No rejected change is kept (they are kept ${KEEP_REJECTED_DAYS} days after you reject them).\n`,
    );
    return 0;
  }
  io.stdout(`${plural(kept.length, 'rejected change')} kept, newest first:\n\n`);
  for (const change of kept) {
    io.stdout(
      `${headline(change)}\n    rejected ${change.rejectedAt}${change.reason === null ? '' : ` because ${quoteName(change.reason)}`}, kept until ${change.keptUntil}\n    ${askedBy(change)}\n`,
    );
  }
  io.stdout('\nPut one back to pending: noted-mcp review put-back ID\n');
  return 0;
}

function list(store: PendingStore, vault: Vault, io: CliIo): ExitCode {
  const changes = store.list();
  if (changes.length === 0) io.stdout(`No changes are waiting for review in ${vault.root}.\n`);
  else {
    io.stdout(`${plural(changes.length, 'change')} waiting for review in ${vault.root}, oldest first:\n\n`);
    for (const change of changes) io.stdout(`${headline(change)}\n    ${askedBy(change)}\n`);
    io.stdout(
      '\nSee one: noted-mcp review show ID · approve: noted-mcp review approve ID · reject: noted-mcp review reject ID\n',
    );
  }
  reportDamaged(store, io);
  return 0;
}

function show(change: PendingChange, io: CliIo): ExitCode {
  const out = [headline(change), askedBy(change), ''];
  if (change.kind === 'create') {
    out.push('Creates a new note with this text:', ...prefixed('+ ', change.newText as string));
  } else if (change.kind === 'delete') {
    out.push(
      'Deletes the note (approving moves it to the trash). Its text when the agent saw it:',
      ...prefixed('- ', change.baseText as string),
    );
  } else {
    const hunks = hunksOf(change.baseText as string, change.newText as string);
    if (hunks.length === 0) out.push('The text stays the same.');
    else {
      out.push(
        `${plural(hunks.length, 'hunk')}; words marked [-removed-] and {+added+}. Approve only some with: noted-mcp review approve ${change.id} --keep ${hunks.length > 2 ? '1,3' : '1'}`,
      );
      for (const hunk of hunks) out.push('', ...renderHunk(hunk, hunks.length));
    }
  }
  io.stdout(`${out.join('\n')}\n`);
  return 0;
}

function renderHunk(hunk: Hunk, total: number): string[] {
  const lines = (start: number, count: number) =>
    count === 0
      ? `after line ${start - 1}`
      : count === 1
        ? `line ${start}`
        : `lines ${start}–${start + count - 1}`;
  const out = [
    `Hunk ${hunk.index} of ${total}: ${lines(hunk.baseStart, hunk.baseCount)} → ${lines(hunk.newStart, hunk.newCount)}`,
  ];
  for (const line of hunk.before) out.push(`    ${visible(line)}`);
  // Markers close at each line break, so every printed line reads on its own.
  let marked = '';
  for (const piece of wordDiff(hunk.removed.join('\n'), hunk.added.join('\n'))) {
    const [open, close] =
      piece.kind === 'same' ? ['', ''] : piece.kind === 'removed' ? ['[-', '-]'] : ['{+', '+}'];
    marked += visible(piece.text, true)
      .split('\n')
      .map((part) => (part === '' ? '' : `${open}${part}${close}`))
      .join('\n');
  }
  for (const line of marked.split('\n')) out.push(`  ~ ${line}`);
  for (const line of hunk.after) out.push(`    ${visible(line)}`);
  const { removed, added } = hunk.noNewlineAtEnd;
  if (removed !== added && hunk.removed.length > 0 && hunk.added.length > 0) {
    out.push(
      removed
        ? '  (adds a line break at the end of the note)'
        : '  (removes the line break at the end of the note)',
    );
  }
  return out;
}

async function approveEverything(
  vault: Vault,
  store: PendingStore,
  onWrite: OnApprovedWrite,
  now: () => Date,
  io: CliIo,
  onDecision?: OnDecision,
): Promise<ExitCode> {
  const outcomes = await approveAll(vault, store, {
    onWrite,
    now,
    ...(onDecision === undefined ? {} : { onDecision }),
  });
  if (outcomes.length === 0) {
    io.stdout('No changes are waiting for review.\n');
    reportDamaged(store, io);
    return 0;
  }
  let refused = 0;
  for (const outcome of outcomes) {
    if (outcome.ok) io.stdout(`${describeApproval(outcome.result)}\n`);
    else {
      refused++;
      io.stderr(`noted-mcp review: ${outcome.error.message}\n`);
    }
  }
  const approved = outcomes.length - refused;
  io.stdout(
    refused === 0
      ? `Approved ${approved === 1 ? '' : 'all '}${plural(approved, 'change')}.\n`
      : `Approved ${approved} of ${plural(outcomes.length, 'change')}; ${refused} ${refused === 1 ? 'was' : 'were'} refused and ${refused === 1 ? 'is' : 'are'} still pending.\n`,
  );
  reportDamaged(store, io);
  return refused === 0 ? 0 : 1;
}

function describeApproval(result: Awaited<ReturnType<typeof approve>>): string {
  const note = quoteName(result.note);
  switch (result.outcome) {
    case 'created':
      return `Approved ${result.id}: created ${note}.`;
    case 'trashed':
      return `Approved ${result.id}: moved ${note} to the trash (deletion ${result.trashId}).`;
    case 'unchanged':
      return `Approved ${result.id}: the kept hunks leave ${note} as it is, so nothing was written.`;
    case 'updated': {
      const h = result.hunks;
      const which =
        h === null || h.kept.length === h.total ? '' : ` (hunks ${h.kept.join(', ')} of ${h.total} applied)`;
      return `Approved ${result.id}: updated ${note}${which}.`;
    }
  }
}

function reportDamaged(store: PendingStore, io: CliIo): void {
  for (const { id, reason } of store.scan().damaged) {
    io.stderr(
      `noted-mcp review: the pending change ${id} cannot be read (${reason}); remove it with: noted-mcp review reject ${id}\n`,
    );
  }
}

function headline(change: PendingSummary): string {
  return `${change.id}  ${change.kind.padEnd(6)}  ${quoteName(change.note)}`;
}

function askedBy(change: PendingSummary): string {
  return `asked by ${quoteName(change.client)} (self-declared, unverified) with ${quoteName(change.tool)} at ${change.createdAt}, session ${quoteName(change.session)}`;
}

function prefixed(prefix: string, text: string): string[] {
  if (text === '') return [`${prefix}(empty)`];
  return text
    .replace(/\r?\n$/, '')
    .split(/\r?\n/)
    .map((line) => prefix + visible(line));
}

/**
 * Security: text an agent wrote may hold terminal escape sequences; every control character but tab
 * (and line breaks, where the caller keeps them) is printed as `\uXXXX`.
 */
function visible(text: string, keepNewlines = false): string {
  const pattern = keepNewlines
    ? /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g
    : /[\u0000-\u0008\u000a-\u001f\u007f-\u009f]/g;
  return text.replace(pattern, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
