/**
 * @module
 * Opens a vault for agents: the vault folder, its index (caught up with the files) and the gate.
 */

import { type IndexLogger, type IndexStartInfo, NoteIndex } from '../index/note-index.js';
import { Journal } from '../journal/journal.js';
import { PendingStore } from '../staging/pending-store.js';
import { Vault } from '../vault/vault.js';
import { VaultAccess } from './gate.js';
import { PolicyReader } from './rules.js';

export interface OpenOptions {
  readonly vaultDir: string;
  readonly trashRetentionDays: number;
  readonly now?: () => Date;
  /** Watch the files for outside changes (default true). */
  readonly watch?: boolean;
  readonly log?: IndexLogger;
  /** The entry point's script, to run index parser threads from (see index/parser-pool.ts). */
  readonly parserScript?: string;
}

export interface OpenedVault {
  readonly vault: Vault;
  readonly index: NoteIndex;
  readonly access: VaultAccess;
  readonly started: IndexStartInfo;
  /** Trash entries purged on start for being past the retention period. */
  readonly purged: number;
  close(): Promise<void>;
}

export async function openVault(options: OpenOptions): Promise<OpenedVault> {
  const log = options.log ?? { warn: (m: string) => process.stderr.write(`noted-mcp: ${m}\n`) };
  const vault = Vault.open(options.vaultDir);
  const index = NoteIndex.open(
    vault,
    log,
    options.parserScript === undefined ? {} : { parserScript: options.parserScript },
  );
  const now = options.now ?? (() => new Date());
  const access = new VaultAccess(
    {
      vault,
      index,
      journal: new Journal(vault, { now }),
      pending: new PendingStore(vault, now),
      trashRetentionDays: options.trashRetentionDays,
      now,
    },
    new PolicyReader(vault, () => index.linkedPaths()),
  );
  try {
    const started = await index.start({ watch: options.watch ?? true });
    const purged = access.purgeExpiredTrash();
    return { vault, index, access, started, purged, close: () => index.close() };
  } catch (err) {
    await index.close();
    throw err;
  }
}
