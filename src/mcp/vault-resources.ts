/**
 * @module
 * The vault itself and its folders as MCP resources (SPEC 17.6), beside `noted://note/{path}`:
 * `noted://vault` is get_vault_info's answer, and `noted://folder/{path}` a folder's notes and
 * sub-folders (directly in it), both as JSON, as this agent may see the vault.
 */
import type { VaultAccess } from '../access/gate.js';
import type { AgentSession } from '../access/types.js';
import { folderOf } from '../vault/names.js';

export const VAULT_URI = 'noted://vault';
export const FOLDER_URI_PREFIX = 'noted://folder/';
export const FOLDER_URI_TEMPLATE = 'noted://folder/{path}';

/** The most notes a folder resource lists (more: `truncated`; list_notes pages through them all). */
const FOLDER_NOTES = 1000;
/** The most pages of 500 notes below a folder read to find those directly in it. */
const SCAN_PAGES = 20;

/** The URI of a folder (each segment URL-encoded); `''` is the vault root. */
export function folderUri(path: string): string {
  return FOLDER_URI_PREFIX + path.split('/').map(encodeURIComponent).join('/');
}

/** `noted://vault`: what get_vault_info answers, as JSON. */
export function vaultResource(access: VaultAccess, session: AgentSession) {
  return {
    contents: [
      {
        uri: VAULT_URI,
        mimeType: 'application/json',
        text: JSON.stringify(access.vaultInfo(session), null, 2),
      },
    ],
  };
}

/**
 * `noted://folder/{path}` (`folder` already decoded and judged by pathOfUri's rules): the notes
 * directly in it and its sub-folders, as JSON. A hidden folder answers as a missing one (the gate).
 */
export function folderResource(access: VaultAccess, session: AgentSession, uri: string, folder: string) {
  const subFolders = access
    .listFolders(session, { ...(folder === '' ? {} : { folder }), limit: 1000 })
    .folders.filter((f) => folderOf(f.path) === folder)
    .map((f) => ({ path: f.path, notes: f.totalNotes, uri: folderUri(f.path) }));
  const notes: { name: string; title: string; modified: string }[] = [];
  let truncated = false;
  let cursor: string | undefined;
  // Bounded: the notes below the folder are read a page at a time, at most SCAN_PAGES pages.
  for (let pages = 0; pages === 0 || cursor !== undefined; pages++) {
    if (pages === SCAN_PAGES) {
      truncated = true;
      break;
    }
    const page = access.listNotes(session, {
      ...(folder === '' ? {} : { folder }),
      limit: 500,
      ...(cursor === undefined ? {} : { cursor }),
    });
    for (const n of page.notes) {
      if (folderOf(n.name) !== folder) continue;
      if (notes.length === FOLDER_NOTES) {
        truncated = true;
        break;
      }
      notes.push({ name: n.name, title: n.title, modified: n.modified });
    }
    cursor = truncated ? undefined : page.nextCursor;
    if (cursor === undefined) break;
  }
  const data = { folder, folders: subFolders, notes, ...(truncated ? { truncated: true } : {}) };
  return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(data, null, 2) }] };
}
