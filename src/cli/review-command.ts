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
import { approve, approveAll, type OnApprovedWrite, type OnDecision } from '../staging/approve.js';
import { PendingStore } from '../staging/pending-store.js';
import { putBack, reject, rejectAll } from '../staging/reject.js';
import { KEEP_REJECTED_DAYS, RejectedStore } from '../staging/rejected-store.js';
import { quoteName } from '../vault/names.js';
import { Vault } from '../vault/vault.js';
import type { ParsedArgs } from './args.js';
import { vaultDirFrom } from './config.js';
import { type CliIo, type ExitCode, usageError } from './io.js';
import { cliJournalKey } from './journal-args.js';
import { list, listRejected, plural, reportDamaged, show } from './review-format.js';
import { journalApprovedWrites, journalDecisions } from './review-journal.js';

export interface ReviewDeps {
  /** Builds the hook called before each approved write: the journal's recorder once it exists. */
  readonly recordApprovedWrite: (vault: Vault) => OnApprovedWrite;
  /** Builds the hook called before each rejection or put-back: the journal's recorder. */
  readonly recordDecision?: (vault: Vault) => OnDecision;
  readonly now?: () => Date;
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
