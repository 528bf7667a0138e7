/**
 * @module
 * Opens a vault for agents: the vault folder, its index and the gate. `startVault` returns while the
 * index is still being built or caught up (SPEC 14.1: the server answers at once; the gate makes
 * tools that need the index wait for it); `openVault` waits for it, as tests and commands want.
 */

import { Diagnostics } from '../common/diagnostics.js';
import { isCancelled } from '../common/work.js';
import {
  type IndexLogger,
  type IndexOptions,
  type IndexStartInfo,
  NoteIndex,
} from '../index/sync/note-index.js';
import { Journal } from '../journal/journal.js';
import type { JournalKeyState } from '../journal/journal-key.js';
import { interruptedOperations, interruptedText } from '../journal/operations.js';
import { reconcileJournal } from '../journal/reconcile.js';
import { PendingStore } from '../staging/pending-store.js';
import { removeOrphanTemps } from '../vault/atomic-write.js';
import { DEFAULT_JOURNAL_MAX_MB } from '../vault/config.js';
import { Vault } from '../vault/vault.js';
import { VaultAccess } from './gate.js';
import { PolicyReader } from './rules/rules.js';

export interface OpenOptions {
  readonly vaultDir: string;
  readonly trashRetentionDays: number;
  readonly now?: () => Date;
  /** Watch the files for outside changes (default true). */
  readonly watch?: boolean;
  /** Where diagnostics are written (default: stderr, each line prefixed `noted-mcp: `). */
  readonly log?: IndexLogger;
  /** The entry point's script, to run index parser threads from (see index/sync/parser-pool.ts). */
  readonly parserScript?: string;
  /** How often deletions past the retention period are purged while serving (default hourly). */
  readonly purgeEveryMs?: number;
  /** How the index parses a large build instead (tests hold a build midway with it). */
  readonly parserPool?: IndexOptions['parserPool'];
  /** How the index watches the vault instead (tests deliver the watcher's batches by hand with it). */
  readonly watcher?: IndexOptions['watcher'];
  /** The user's journal key (journal/journal-key.ts), read by the entry point. */
  readonly journalKey: JournalKeyState;
  /** The most the journal's stored texts may take (journal/usage.ts); null: no limit. Default 1024 MB. */
  readonly journalMaxBytes?: number | null;
}

/** Deletions past retention are purged on start and then this often; never as a side effect of a read. */
export const PURGE_EVERY_MS = 60 * 60 * 1000;

export interface StartingVault {
  readonly vault: Vault;
  readonly index: NoteIndex;
  readonly access: VaultAccess;
  /** The server's diagnostics: written to `log`, and heard by each MCP connection (logging). */
  readonly diagnostics: Diagnostics;
  /** The index's start-up build or re-sync; rejects when it failed (the vault is closed then). */
  readonly ready: Promise<IndexStartInfo>;
  /** Trash entries purged on start for being past the retention period. */
  readonly purged: number;
  /** Stops a build still running, then closes the index. */
  close(): Promise<void>;
}

export interface OpenedVault extends StartingVault {
  readonly started: IndexStartInfo;
}

/** Opens the vault and waits until its index is ready. */
export async function openVault(options: OpenOptions): Promise<OpenedVault> {
  const starting = await startVault(options);
  try {
    return { ...starting, started: await starting.ready };
  } catch (err) {
    await starting.close();
    throw err;
  }
}

/**
 * Opens the vault and starts its index in the background. Whatever can stop the server from serving
 * at all (a vault folder that cannot be opened, an index file that cannot be created) fails here.
 */
export async function startVault(options: OpenOptions): Promise<StartingVault> {
  const sink = options.log ?? { warn: (m: string) => process.stderr.write(`noted-mcp: ${m}\n`) };
  const log = new Diagnostics((m) => sink.warn(m));
  const vault = Vault.open(options.vaultDir);
  const index = NoteIndex.open(vault, log, {
    ...(options.parserScript === undefined ? {} : { parserScript: options.parserScript }),
    ...(options.parserPool === undefined ? {} : { parserPool: options.parserPool }),
    ...(options.watcher === undefined ? {} : { watcher: options.watcher }),
  });
  const now = options.now ?? (() => new Date());
  const journal = new Journal(vault, {
    now,
    key: options.journalKey,
    maxStoredBytes:
      options.journalMaxBytes === undefined ? DEFAULT_JOURNAL_MAX_MB * 1048576 : options.journalMaxBytes,
  });
  const policy = new PolicyReader(vault, () => index.linkedPaths());
  const access = new VaultAccess(
    {
      vault,
      index,
      journal,
      pending: new PendingStore(vault, now),
      trashRetentionDays: options.trashRetentionDays,
      now,
      diagnostics: log,
    },
    policy,
  );
  try {
    // The first build already leaves out the full-text rows of what the policy hides. A policy that
    // cannot be read closes the vault until it is fixed; the first request after that sorts it out.
    index.useVisibility(policy.load().visibility);
  } catch {}
  try {
    const purged = access.purgeExpiredTrash();
    await checkJournal(journal, log);
    // Security (issue 35 finding 8): an operation killed half done is said at every start until repaired.
    for (const op of interruptedOperations(vault)) log.warn(interruptedText(op));
    sweepStateTemps(vault, log);
    const purging = setInterval(() => purgeQuietly(access, log), options.purgeEveryMs ?? PURGE_EVERY_MS);
    purging.unref();
    const ready = index.start({ watch: options.watch ?? true }).then(
      (started) => {
        if (started.rebuiltBecause !== null) log.info(`The index was rebuilt (${started.rebuiltBecause}).`);
        return started;
      },
      (err: unknown) => {
        // A build stopped because the server is stopping (an unrelated failure at start-up) is no
        // failure of the index: saying one would mislead whoever reads the exit's reason (issue 32).
        if (!isCancelled(err)) log.error(`The search index could not be built: ${(err as Error).message}`);
        throw err;
      },
    );
    ready.catch(() => undefined);
    const close = () => {
      clearInterval(purging);
      return index.close();
    };
    return { vault, index, access, diagnostics: log, ready, purged, close };
  } catch (err) {
    await index.close();
    throw err;
  }
}

/** The timer's purge: a failure (a permission taken away) is reported, and tried again next time. */
function purgeQuietly(access: VaultAccess, log: IndexLogger): void {
  try {
    access.purgeExpiredTrash();
  } catch (err) {
    log.warn(`could not purge expired trash: ${(err as Error).message}`);
  }
}

/** State folders where writes go through temporary files that a killed writer can leave behind. */
const STATE_TEMP_FOLDERS = [
  ['journal', 'blobs', 'packs'],
  ['journal', 'blobs'],
  ['journal'],
  ['pending'],
  ['operations'],
  [],
] as const;

/** Removes those leftovers; like the journal check, it only reports and never stops the server. */
function sweepStateTemps(vault: Vault, log: IndexLogger): void {
  try {
    let removed = 0;
    for (const parts of STATE_TEMP_FOLDERS) removed += removeOrphanTemps(vault.statePath(...parts));
    if (removed > 0)
      log.warn(`removed ${removed} temporary file(s) left in .noted/ by writers that were stopped`);
  } catch (err) {
    log.warn(`could not sweep temporary files in .noted/: ${(err as Error).message}`);
  }
}

/**
 * The journal's start-up check (journal/reconcile.ts), before serving: notes each change that was
 * recorded but never made. It only reports; a failure here never stops the server.
 */
async function checkJournal(journal: Journal, log: Diagnostics): Promise<void> {
  try {
    const result = await reconcileJournal(journal);
    if (result.cutOff > 0) {
      log.warn(
        `journal: removed an incomplete last line (${result.cutOff} bytes) left by a writer that stopped while appending it; the change it began was never made.`,
      );
    }
    for (const e of result.notApplied) {
      log.warn(
        `journal: entry ${e.voids} ("${e.note}") was recorded but its change was never made (the writer stopped in between); noted as entry ${e.id} (not_applied). The note was left as it is.`,
        [e.note],
      );
    }
    for (const problem of result.problems) log.warn(`journal start-up check: ${problem}`);
  } catch (err) {
    log.warn(`journal start-up check failed, serving anyway: ${(err as Error).message}`);
  }
}
