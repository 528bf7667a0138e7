/**
 * @module
 * A real temporary vault with a real SQLite index beside it, filled through `syncAll` and kept
 * current through `syncPaths`, as the server does. For the index query tests.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Db, openIndexDatabase } from '../../src/index/db/database.js';
import { applyVisibility } from '../../src/index/store/partition.js';
import { EVERYTHING_VISIBLE, type IndexVisibility } from '../../src/index/store/visibility.js';
import { syncAll } from '../../src/index/sync/sync.js';
import { syncPaths } from '../../src/index/sync/sync-paths.js';

export interface IndexedVault {
  readonly dir: string;
  readonly db: Db;
  /** Writes (or overwrites) a file and syncs that path. */
  write(rel: string, content: string | Uint8Array): void;
  /** Deletes a file and syncs that path. */
  remove(rel: string): void;
  /** Judges notes by other rules from now on, and brings the index in line with them as a request would. */
  useVisibility(visibility: IndexVisibility): void;
  close(): void;
}

/** `visibility`: what agents may see (by default everything), as the server would be told by the policy. */
export function indexedVault(
  files: Record<string, string | Uint8Array>,
  visibility: IndexVisibility = EVERYTHING_VISIBLE,
): IndexedVault {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'noted-index-')));
  const dir = path.join(base, 'vault');
  fs.mkdirSync(dir);
  const put = (rel: string, content: string | Uint8Array) => {
    const abs = path.join(dir, ...rel.split('/'));
    fs.mkdirSync(path.dirname(abs), { recursive: true });
    fs.writeFileSync(abs, content);
  };
  for (const [rel, content] of Object.entries(files)) put(rel, content);
  const { db } = openIndexDatabase(path.join(base, 'index.sqlite'));
  let rules = visibility;
  const sync = (paths: string[]) => syncPaths(db, dir, paths, { visibility: rules }).changed;
  const align = () => applyVisibility(db, rules, (name) => name, sync);
  syncAll(db, dir, '', undefined, rules);
  align();
  return {
    dir,
    db,
    write(rel, content) {
      put(rel, content);
      sync([rel]);
    },
    remove(rel) {
      fs.rmSync(path.join(dir, ...rel.split('/')), { force: true });
      sync([rel]);
    },
    useVisibility(next) {
      rules = next;
      align();
    },
    close() {
      db.close();
      fs.rmSync(base, { recursive: true, force: true });
    },
  };
}
