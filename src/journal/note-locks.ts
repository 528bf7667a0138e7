/**
 * @module
 * Holding several notes' locks at once, for an undo that must check every note of a group before it
 * writes any (SPEC 6.3: together or not at all). `Vault.withNoteLock` runs a synchronous section
 * under one lock and cannot nest; so this takes the same lock files through a `LockDir` over the
 * vault's lock folder, with the same key, and nests synchronously.
 *
 * The key must stay the one `Vault.withNoteLock` uses; a test pins that the two meet on one file.
 */

import { LockDir } from '../vault/locks.js';
import type { Vault } from '../vault/vault.js';

/** The lock key `Vault.withNoteLock` takes for a note. */
export function noteLockKey(name: string): string {
  return `note:${name.normalize('NFC').toLowerCase()}`;
}

/** The vault's lock folder, as `Vault` lays it out. */
export function vaultLocks(vault: Vault): LockDir {
  return new LockDir(vault.statePath('locks'));
}

/**
 * Runs the synchronous `fn` while holding the lock of every note in `names`. Locks are taken in key
 * order, so two callers locking overlapping sets cannot deadlock; the journal's lock, taken inside by
 * `record`, always comes last.
 */
export function withNoteLocks<T>(vault: Vault, names: readonly string[], fn: () => T): Promise<T> {
  const keys = [...new Set(names.map(noteLockKey))].sort();
  const single = names[0];
  if (keys.length === 1 && single !== undefined) return vault.withNoteLock(single, fn);
  const locks = vaultLocks(vault);
  const nest = (i: number): T => {
    const key = keys[i];
    return key === undefined ? fn() : locks.withLockSync(key, () => nest(i + 1));
  };
  const [first] = keys;
  if (first === undefined) return Promise.resolve().then(fn);
  return locks.withLock(first, () => nest(1));
}
