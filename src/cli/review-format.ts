/**
 * @module
 * What `noted-mcp review` prints: the pending and the rejected changes listed, one change shown with
 * its hunks and word marks, and the names and texts in them made safe for a terminal.
 */
import { type Hunk, hunksOf } from '../staging/hunks.js';
import type { PendingStore } from '../staging/pending-store.js';
import { KEEP_REJECTED_DAYS, type RejectedStore } from '../staging/rejected-store.js';
import type { PendingChange, PendingSummary } from '../staging/types.js';
import { wordDiff } from '../staging/word-diff.js';
import { quoteName } from '../vault/names.js';
import type { Vault } from '../vault/vault.js';
import type { CliIo, ExitCode } from './io.js';

export function listRejected(rejected: RejectedStore, io: CliIo): ExitCode {
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

export function list(store: PendingStore, vault: Vault, io: CliIo): ExitCode {
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

export function show(change: PendingChange, io: CliIo): ExitCode {
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

export function reportDamaged(store: PendingStore, io: CliIo): void {
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

export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
