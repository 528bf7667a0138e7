/**
 * @module
 * File-system steps of reorganizing a vault: listing folders, a fingerprint of a folder's listing, and
 * removing folders only while they are empty. (Moving files and making folders go through the checked
 * folders of checked-write.ts.)
 * Callers pass absolute paths already confined by `Vault.pathOf`.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fsyncDir } from './atomic-write.js';

/**
 * Every real folder below `root` (symbolic links are not followed), skipping names that start with
 * `.`, in path order. `accept` prunes a folder and everything below it.
 */
export function listFolderTree(root: string, accept: (rel: string) => boolean): string[] {
  const out: string[] = [];
  const visit = (abs: string, rel: string) => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(abs, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      if (!e.isDirectory() || e.name.startsWith('.')) continue;
      const childRel = rel === '' ? e.name : `${rel}/${e.name}`;
      if (!accept(childRel)) continue;
      out.push(childRel);
      visit(path.join(abs, e.name), childRel);
    }
  };
  visit(root, '');
  return out.sort();
}

/** What is inside a folder, every name included (dot-files too), as vault-relative paths. */
export interface FolderListing {
  readonly files: string[];
  readonly folders: string[];
  /** Hex SHA-256 over every entry's path, kind, size and modification time. */
  readonly revision: string;
}

/**
 * Lists everything below `abs` (symbolic links listed, not followed) and fingerprints it, so that a
 * folder which changed between a look and an action is noticed.
 */
export function folderListing(abs: string, rel: string): FolderListing {
  const files: string[] = [];
  const folders: string[] = [];
  const hash = createHash('sha256');
  const visit = (dirAbs: string, dirRel: string) => {
    const entries = fs
      .readdirSync(dirAbs, { withFileTypes: true })
      .sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const e of entries) {
      const childAbs = path.join(dirAbs, e.name);
      const childRel = `${dirRel}/${e.name}`;
      const st = fs.lstatSync(childAbs);
      hash.update(`${childRel}\0${e.isDirectory() ? 'd' : 'f'}\0${st.size}\0${st.mtimeMs}\n`);
      if (e.isDirectory()) {
        folders.push(childRel);
        visit(childAbs, childRel);
      } else files.push(childRel);
    }
  };
  visit(abs, rel);
  return { files, folders, revision: `sha256:${hash.digest('hex')}` };
}

/**
 * Removes `abs` and the folders below it, deepest first, with `rmdir`, which refuses a folder that
 * is not empty: a file that appeared meanwhile stops the removal rather than being lost. Returns
 * false when something was left.
 */
export function removeEmptyTree(abs: string): boolean {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(abs, { withFileTypes: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return true;
    throw err;
  }
  let empty = true;
  for (const e of entries) {
    if (e.isDirectory()) empty = removeEmptyTree(path.join(abs, e.name)) && empty;
    else empty = false;
  }
  if (!empty) return false;
  try {
    fs.rmdirSync(abs);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOTEMPTY' || code === 'EEXIST') return false;
    if (code !== 'ENOENT') throw err;
  }
  fsyncDir(path.dirname(abs));
  return true;
}

/** True when a folder (not a file) exists at `abs`. */
export function isFolder(abs: string): boolean {
  try {
    return fs.statSync(abs).isDirectory();
  } catch {
    return false;
  }
}

/** True when anything (file, folder, link) exists at `abs`. */
export function existsAny(abs: string): boolean {
  try {
    fs.lstatSync(abs);
    return true;
  } catch {
    return false;
  }
}
