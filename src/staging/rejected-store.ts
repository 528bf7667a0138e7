/**
 * @module
 * Rejected changes are kept, not deleted (SPEC 9.4): for 30 days after the owner rejected it, a change
 * stays in `<vault>/.noted/rejected/` with its texts (so its hunks), its agent and the owner's reason,
 * and can be put back to pending with its own id. After 30 days it is purged, the next time the list
 * is read. A file here is laid out as a pending change's file (pending-store.ts), with `rejectedAt`
 * and `reason` on its first line.
 */
import fs from 'node:fs';
import path from 'node:path';
import { NotedError } from '../common/errors.js';
import { createFileAtomic } from '../vault/atomic-write.js';
import type { Vault } from '../vault/vault.js';
import { changeIdsIn, ID_PATTERN, parseChangeFile, readHead, serialize, toChange } from './pending-store.js';
import type { PendingChange, PendingSummary } from './types.js';

/** How long a rejected change is kept. */
export const KEEP_REJECTED_DAYS = 30;
const KEEP_MS = KEEP_REJECTED_DAYS * 24 * 60 * 60 * 1000;
/** A reason is a sentence, not a document. */
export const MAX_REASON_CHARS = 500;

export interface RejectedSummary extends PendingSummary {
  /** When the owner rejected it (ISO 8601). */
  readonly rejectedAt: string;
  /** The owner's reason, or null. */
  readonly reason: string | null;
  /** When it will be purged (ISO 8601). */
  readonly keptUntil: string;
}

export type RejectedChange = RejectedSummary & Pick<PendingChange, 'baseText' | 'newText'>;

export class RejectedStore {
  /** `<vault>/.noted/rejected` */
  readonly dir: string;
  /** When each kept change was rejected, read once: the console counts them every few seconds. */
  readonly #rejectedAt = new Map<string, number>();

  constructor(
    private readonly vault: Vault,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.dir = vault.statePath('rejected');
  }

  /** Keeps a rejected change (replacing an earlier copy of the same id). */
  keep(change: PendingChange, reason: string | null): RejectedSummary {
    const rejectedAt = this.now().toISOString();
    fs.mkdirSync(this.dir, { recursive: true });
    const file = this.fileOf(change.id);
    const text = serialize(change, { rejectedAt, reason });
    this.#rejectedAt.set(change.id, Date.parse(rejectedAt));
    if (!createFileAtomic(file, text)) {
      fs.rmSync(file, { force: true });
      createFileAtomic(file, text);
    }
    return this.withDates(change, rejectedAt, reason);
  }

  /** The rejected changes still kept, newest rejection first; those past 30 days are purged now. */
  list(): RejectedSummary[] {
    this.purge();
    const out: RejectedSummary[] = [];
    for (const id of this.ids()) {
      try {
        out.push(this.summary(id));
      } catch {
        // Damaged or removed meanwhile: not offered (and purged by date when readable again).
      }
    }
    return out.sort((a, b) => (a.rejectedAt < b.rejectedAt ? 1 : a.rejectedAt > b.rejectedAt ? -1 : 0));
  }

  /** How many rejected changes are kept (those past 30 days purged first). */
  count(): number {
    this.purge();
    return this.ids().length;
  }

  /** One rejected change with its texts; `not_found` when it is not kept (any more). */
  get(id: string): RejectedChange {
    const data = this.parse(id, () => fs.readFileSync(this.fileOf(id), 'utf8'));
    const change = toChange(id, data, true, this.vault.ending) as PendingChange;
    const { rejectedAt, reason } = rejectionOf(id, data);
    return { ...change, ...this.withDates(change, rejectedAt, reason) };
  }

  summary(id: string): RejectedSummary {
    const data = this.parse(id, () => {
      const head = readHead(this.fileOf(id));
      const end = head.indexOf('\n');
      return end > 0 && head[end - 1] === ','
        ? `${head.slice(0, end - 1)}}`
        : fs.readFileSync(this.fileOf(id), 'utf8');
    });
    const change = toChange(id, data, false, this.vault.ending);
    const { rejectedAt, reason } = rejectionOf(id, data);
    return this.withDates(change, rejectedAt, reason);
  }

  remove(id: string): boolean {
    if (!ID_PATTERN.test(id)) return false;
    try {
      fs.rmSync(this.fileOf(id));
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw err;
    }
  }

  /** Removes the rejected changes kept longer than 30 days; returns their ids. */
  purge(): string[] {
    const limit = this.now().getTime() - KEEP_MS;
    const gone: string[] = [];
    const ids = this.ids();
    const live = new Set(ids);
    for (const id of this.#rejectedAt.keys()) if (!live.has(id)) this.#rejectedAt.delete(id);
    for (const id of ids) {
      let at = this.#rejectedAt.get(id);
      if (at === undefined) {
        try {
          at = Date.parse(this.summary(id).rejectedAt);
          this.#rejectedAt.set(id, at);
        } catch {
          // A damaged file is judged by its file's age instead.
          at = fs.statSync(this.fileOf(id), { throwIfNoEntry: false })?.mtimeMs ?? Number.NaN;
        }
      }
      if (Number.isFinite(at) && at < limit && this.remove(id)) gone.push(id);
    }
    return gone;
  }

  private withDates(change: PendingSummary, rejectedAt: string, reason: string | null): RejectedSummary {
    const { id, note, kind, baseEtag, session, client, tool, createdAt } = change;
    const keptUntil = new Date(Date.parse(rejectedAt) + KEEP_MS).toISOString();
    return { id, note, kind, baseEtag, session, client, tool, createdAt, rejectedAt, reason, keptUntil };
  }

  private parse(id: string, read: () => string): unknown {
    return parseChangeFile(
      id,
      read,
      notKept,
      (why) =>
        new NotedError('validation_error', `The rejected change ${id} cannot be read: ${why}.`, { id }),
    );
  }

  private ids(): string[] {
    return changeIdsIn(this.dir);
  }

  private fileOf(id: string): string {
    return path.join(this.dir, `${id}.json`);
  }
}

function rejectionOf(id: string, data: unknown): { rejectedAt: string; reason: string | null } {
  const r = data as Record<string, unknown>;
  if (typeof r.rejectedAt !== 'string' || Number.isNaN(Date.parse(r.rejectedAt))) {
    throw new NotedError(
      'validation_error',
      `The rejected change ${id} cannot be read: rejectedAt is missing.`,
      {
        id,
      },
    );
  }
  return { rejectedAt: r.rejectedAt, reason: typeof r.reason === 'string' ? r.reason : null };
}

function notKept(id: string): NotedError {
  return new NotedError(
    'not_found',
    `No rejected change ${JSON.stringify(id)} is kept: it was put back, or purged ${KEEP_REJECTED_DAYS} days after it was rejected.`,
    { id },
  );
}
