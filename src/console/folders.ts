/**
 * @module
 * The vault's folder tree for the access page. Real folders only, as agents see them: folders whose
 * name starts with `.` are always hidden and left out, and a linked folder is not listed under its
 * link's name, because the policy judges a note where it really is.
 */
import fs from 'node:fs';
import path from 'node:path';
import { MAX_FOLDER_DEPTH } from '../vault/names.js';

/** The page lists at most this many folders. */
export const MAX_FOLDERS = 5000;

export interface FolderList {
  /** Vault-relative folder paths with `/`, in tree order (a folder before what lies inside it). */
  readonly folders: string[];
  readonly truncated: boolean;
}

export function listFolders(root: string): FolderList {
  const folders: string[] = [];
  let truncated = false;
  const visit = (abs: string, rel: string, depth: number) => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(abs, { withFileTypes: true });
    } catch {
      return; // vanished or unreadable: nothing to show
    }
    const names = entries
      .filter((e) => e.isDirectory() && !e.name.startsWith('.'))
      .map((e) => e.name)
      .sort((a, b) => a.localeCompare(b));
    for (const name of names) {
      if (folders.length >= MAX_FOLDERS) {
        truncated = true;
        return;
      }
      const childRel = rel === '' ? name : `${rel}/${name}`;
      folders.push(childRel);
      if (depth + 1 < MAX_FOLDER_DEPTH) visit(path.join(abs, name), childRel, depth + 1);
    }
  };
  visit(root, '', 0);
  return { folders, truncated };
}
