/**
 * @module
 * Attachments (files that are not notes, SPEC 1.1) as the index knows them, in path order for keyset
 * pages: list_attachments reads them here and counts the notes that link to each with
 * `linkingNoteCounts` (queries/links.ts).
 */

import type { Db } from '../db/database.js';
import { escapeLike } from '../db/like.js';
import type { Visible } from '../store/visibility.js';
import { visibleSql } from './notes.js';

export interface AttachmentRow {
  readonly path: string;
  readonly file_lower: string;
  readonly size: number;
  readonly mtime_ms: number;
}

export interface AttachmentScope {
  /** Lower-cased folder; `''` for the whole vault. Sub-folders are included. */
  readonly folderLower: string;
  readonly visible?: Visible;
}

/** Attachments in scope whose path sorts after `after`, in path order, at most `limit`. */
export function attachmentRows(
  db: Db,
  scope: AttachmentScope,
  after: string,
  limit: number,
): AttachmentRow[] {
  const { where, params } = scopeSql(db, scope);
  return db
    .prepare<Record<string, unknown>, AttachmentRow>(
      `SELECT n.path, n.file_lower, n.size, n.mtime_ms FROM attachments n
       WHERE n.path > @after${where} ORDER BY n.path LIMIT @limit`,
    )
    .all({ ...params, after, limit });
}

/** How many attachments are in scope. */
export function countAttachments(db: Db, scope: AttachmentScope): number {
  const { where, params } = scopeSql(db, scope);
  return db
    .prepare<Record<string, unknown>, { total: number }>(
      `SELECT count(*) AS total FROM attachments n WHERE 1${where}`,
    )
    .get(params)!.total;
}

function scopeSql(db: Db, scope: AttachmentScope): { where: string; params: Record<string, unknown> } {
  let where = '';
  const params: Record<string, unknown> = {};
  if (scope.folderLower !== '') {
    where += ` AND n.path_lower LIKE @folder ESCAPE '\\'`;
    params.folder = `${escapeLike(scope.folderLower)}/%`;
  }
  const hidden = visibleSql(db, scope.visible);
  if (hidden !== null) where += ` AND ${hidden}`;
  return { where, params };
}
