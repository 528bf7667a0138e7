/**
 * @module
 * A real temporary vault with a real SQLite index beside it, filled through `syncAll` and kept
 * current through `syncPaths`, as the server does. For the index query tests.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Db, openIndexDatabase } from '../../src/index/database.js';
import { syncAll, syncPaths } from '../../src/index/sync.js';

export interface IndexedVault {
  readonly dir: string;
  readonly db: Db;
  /** Writes (or overwrites) a file and syncs that path. */
  write(rel: string, content: string | Uint8Array): void;
  /** Deletes a file and syncs that path. */
  remove(rel: string): void;
  close(): void;
}

export function indexedVault(files: Record<string, string | Uint8Array>): IndexedVault {
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
  syncAll(db, dir);
  return {
    dir,
    db,
    write(rel, content) {
      put(rel, content);
      syncPaths(db, dir, [rel]);
    },
    remove(rel) {
      fs.rmSync(path.join(dir, ...rel.split('/')), { force: true });
      syncPaths(db, dir, [rel]);
    },
    close() {
      db.close();
      fs.rmSync(base, { recursive: true, force: true });
    },
  };
}
