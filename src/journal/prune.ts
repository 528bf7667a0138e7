/**
 * @module
 * Freeing room in the journal (usage.ts): the owner removes the stored texts of changes made before a
 * date. The entries stay, so the record of who changed what is whole; those changes can no longer be
 * undone. A text a later entry also needs is kept.
 *
 * Only a journal that verifies is pruned, and the prune is written to the journal's anchor, outside the
 * vault (`prunedBefore`), so that verify accepts exactly these missing texts: a text deleted in the
 * vault by anyone else still reads as deleted.
 */
import fs from 'node:fs';
import path from 'node:path';
import { NotedError } from '../common/errors.js';
import { writeFileAtomic } from '../vault/atomic-write.js';
import { readAnchor, readVaultId, writeAnchor } from './anchor.js';
import { newPackName, type PackIndex, packBytes } from './blob-packs.js';
import type { JournalEntry } from './entry.js';
import { blobPath } from './files.js';
import type { JournalKeyState } from './journal-key.js';
import { measureUsage, saveUsage } from './usage.js';
import type { VerifyResult } from './verify.js';

export interface PruneResult {
  /** Entries before this seq had their texts removed (1: none). */
  readonly beforeSeq: number;
  /** Texts removed, and the bytes they took. */
  readonly texts: number;
  readonly bytes: number;
  /** What the stored texts take afterwards (as before on a dry run). */
  readonly storedBytes: number;
  readonly dryRun: boolean;
}

export interface PruneContext {
  readonly dir: string;
  readonly packs: PackIndex;
  readonly key: JournalKeyState;
  readonly entries: readonly JournalEntry[];
  readonly verified: VerifyResult;
  readonly bytesOf: (sha256: string) => Buffer | null;
  readonly now: Date;
}

/** Removes the texts only entries made before `before` (an ISO time) need; call under the journal lock. */
export function pruneTexts(ctx: PruneContext, before: string, dryRun: boolean): PruneResult {
  const state = ctx.key;
  if (state.key === null) {
    throw new NotedError(
      'not_supported',
      `The journal cannot be pruned on this machine: ${state.reason}. A prune is recorded beside the journal key, so that removed texts are not taken for deleted ones.`,
    );
  }
  const key = state.key;
  const vaultId = readVaultId(ctx.dir);
  if (typeof vaultId !== 'string') {
    throw new NotedError('not_supported', 'The journal has no authenticated entries yet: nothing to prune.');
  }
  if (!ctx.verified.ok || ctx.verified.unverified !== null) {
    throw new NotedError(
      'not_supported',
      `The journal does not fully verify here (${ctx.verified.ok ? ctx.verified.unverified : ctx.verified.reason}), so it was not pruned: a prune would hide what verify should show. Run "noted-mcp journal verify".`,
    );
  }
  const cut = ctx.entries.find((e) => e.time >= before);
  const beforeSeq = cut?.seq ?? (ctx.entries.at(-1)?.seq ?? 0) + 1;
  const keep = new Set<string>();
  const drop = new Set<string>();
  for (const e of ctx.entries) {
    for (const [sha, stored] of [
      [e.beforeSha256, e.beforeStored],
      [e.afterSha256, e.afterStored],
    ] as const) {
      if (sha === null || !stored) continue;
      (e.seq >= beforeSeq ? keep : drop).add(sha);
    }
  }
  for (const sha of keep) drop.delete(sha);
  const loose = [...drop].filter((sha) => fs.existsSync(blobPath(ctx.dir, sha)));
  const packsToRewrite = [...ctx.packs.packs()].filter(([, shas]) => shas.some((sha) => drop.has(sha)));
  const packsDir = ctx.packs.dir;
  let bytes = loose.reduce((n, sha) => n + fs.statSync(blobPath(ctx.dir, sha)).size, 0);
  for (const [, shas] of packsToRewrite) {
    for (const sha of shas) if (drop.has(sha)) bytes += ctx.bytesOf(sha)?.length ?? 0;
  }
  const texts = new Set([...loose, ...packsToRewrite.flatMap(([, shas]) => shas.filter((s) => drop.has(s)))])
    .size;
  if (dryRun) {
    return { beforeSeq, texts, bytes, storedBytes: measureUsage(ctx.dir).storedBytes, dryRun };
  }
  // The anchor first: should the removal stop half way, verify already accepts what is gone.
  const anchor = readAnchor(key.dir, vaultId);
  if (anchor === null || anchor === 'damaged') {
    throw new NotedError('not_supported', 'The journal has no anchor on this machine, so it was not pruned.');
  }
  writeAnchor(key.dir, {
    ...anchor,
    prunedBefore: Math.max(anchor.prunedBefore ?? 1, beforeSeq),
    updated: ctx.now.toISOString(),
  });
  for (const [file, shas] of packsToRewrite) {
    const kept = shas
      .filter((sha) => !drop.has(sha))
      .map((sha) => ({ sha256: sha, bytes: ctx.bytesOf(sha) }))
      .filter((b): b is { sha256: string; bytes: Buffer } => b.bytes !== null);
    if (kept.length > 0) writeFileAtomic(path.join(packsDir, newPackName()), packBytes(kept));
    fs.rmSync(path.join(packsDir, file), { force: true });
    ctx.packs.removed(file);
  }
  for (const sha of loose) fs.rmSync(blobPath(ctx.dir, sha), { force: true });
  const after = measureUsage(ctx.dir);
  saveUsage(ctx.dir, after);
  return { beforeSeq, texts, bytes, storedBytes: after.storedBytes, dryRun };
}
