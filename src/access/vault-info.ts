/**
 * @module
 * What an agent needs to orient itself (SPEC 12.4), as this agent may see it: the vault's name and
 * format, counts (hidden notes count nowhere), its access per folder (hidden folders are not named),
 * pending changes, whether the journal verifies, the index's state, and the limits it works within.
 * The server's own name, version and protocol version are added by the MCP layer.
 */
import path from 'node:path';
import type { Db } from '../index/db/database.js';
import { listTags } from '../index/queries/tags.js';
import { hiddenNotesOut } from '../index/store/visibility.js';
import { interruptedOperations } from '../journal/operations.js';
import { describeAccess } from '../policy/access.js';
import type { Access } from '../policy/policy.js';
import { mixedFormatAdvice } from '../vault/format-choice.js';
import { ENDING_OF } from '../vault/format-name.js';
import { folderOf } from '../vault/names.js';
import { type AccessContext, MAX_NOTE_BYTES } from './context.js';
import { EXPORT_MAX_BYTES } from './export/export.js';
import { MAX_CHANGES_PAGE } from './feed/changes.js';
import type { Rules } from './rules/rules.js';
import { visibleOption } from './rules/scope.js';

/**
 * The index's state: `building` (with progress: notes read of those to read, and what it is doing)
 * while the start-up build or re-sync runs, `ready` after, `failed` (with why) when it could not run.
 */
export interface IndexState {
  readonly state: 'ready' | 'building' | 'failed';
  readonly progress?: { readonly done: number; readonly total: number };
  readonly step?: string;
  readonly error?: string;
}

export interface VaultInfo {
  readonly vault: { readonly name: string; readonly format: 'markdown' | 'html' };
  /** Absent while the index is being built (SPEC 14.1): they are counted from it. */
  readonly counts?: {
    readonly notes: number;
    readonly attachments: number;
    readonly folders: number;
    readonly tags: number;
    readonly openTasks: number;
  };
  /**
   * Present when the agent sees notes of both formats (SPEC 17.7): how many of each, which are served
   * (the others are attachments), and what the owner can do about it.
   */
  readonly mixedFormats?: {
    readonly markdown: number;
    readonly html: number;
    readonly served: 'markdown' | 'html';
    readonly advice: string;
  };
  readonly index: IndexState;
  readonly access: {
    readonly policyFile: boolean;
    readonly default: Access;
    readonly folders: { readonly folder: string; readonly access: Access }[];
  };
  readonly pendingChanges: number;
  readonly journal: { readonly verifies: boolean; readonly entries: number; readonly problem?: string };
  /**
   * Operations a stopped server left half done (journal/operations.ts), with the owner's repair
   * command: until repaired, some of their notes are moved and others not.
   */
  readonly interrupted: {
    readonly tool: string;
    readonly group: string;
    readonly started: string;
    readonly repair: string;
  }[];
  readonly limits: {
    readonly resultBytes: number;
    readonly noteBytes: number;
    readonly searchResults: number;
    readonly listPage: number;
    readonly changesPage: number;
    readonly exportBytes: number;
  };
}

/** The largest result a tool sends (SPEC 3.3). */
const RESULT_BYTES = 8 * 1024 * 1024;

export function vaultInfo(ctx: AccessContext, rules: Rules, index: IndexState): VaultInfo {
  const visible = rules.visible ?? (() => true);
  // While the start-up build runs it owns the index: the counts wait, the rest is told at once.
  const counts = index.state === 'ready' ? countsOf(ctx, rules) : undefined;
  const mixed = counts === undefined ? null : mixedOf(ctx, rules, counts.notes);
  const summary = describeAccess(rules.policy);
  // SPEC 17.7: entries about notes now hidden are not counted (the same vault without them says less);
  // their notes are taken from the one walk that verifies the chain, up to where it is intact.
  const notes = rules.visible === undefined ? undefined : ([] as string[]);
  const journal = ctx.journal.verify(notes === undefined ? {} : { notes });
  const seenEntries = notes === undefined ? journal.entries : notes.filter(visible).length;
  return {
    vault: { name: path.basename(ctx.vault.root), format: ctx.vault.format },
    ...(counts === undefined ? {} : { counts }),
    ...(mixed === null ? {} : { mixedFormats: mixed }),
    index,
    access: {
      policyFile: summary.policyFile,
      default: summary.default,
      // Security: a hidden folder is not named, not even as hidden.
      folders: summary.folders
        .filter((f) => f.access !== 'hidden')
        .map((f) => ({ folder: f.folder, access: f.access })),
    },
    pendingChanges: ctx.pending.list().filter((p) => visible(p.note)).length,
    journal: journal.ok
      ? { verifies: true, entries: seenEntries }
      : {
          verifies: false,
          entries: seenEntries,
          problem: `${journal.brokenAt.file} line ${journal.brokenAt.line}: ${journal.reason}`,
        },
    interrupted: interruptedOperations(ctx.vault).map(({ tool, group, started, repair }) => ({
      tool,
      group,
      started,
      repair,
    })),
    limits: {
      resultBytes: RESULT_BYTES,
      noteBytes: MAX_NOTE_BYTES,
      searchResults: 50,
      listPage: 500,
      changesPage: MAX_CHANGES_PAGE,
      exportBytes: EXPORT_MAX_BYTES,
    },
  };
}

/**
 * Notes of the other format, which the index holds as attachments: a README.md in an HTML vault, or
 * .html notes in a Markdown one. Null when there are none the agent may see.
 */
function mixedOf(ctx: AccessContext, rules: Rules, served: number): VaultInfo['mixedFormats'] | null {
  const format = ctx.vault.format;
  const other = ENDING_OF[format === 'html' ? 'markdown' : 'html'];
  const visible = rules.visible ?? (() => true);
  const others = ctx.index.db
    .prepare<[string], { path: string }>('SELECT path FROM attachments WHERE lower(path) LIKE ?')
    .all(`%${other}`)
    .filter((r) => visible(r.path)).length;
  if (others === 0 || served === 0) return null;
  const counts = format === 'html' ? { markdown: others, html: served } : { markdown: served, html: others };
  return { ...counts, served: format, advice: mixedFormatAdvice(counts, format) ?? '' };
}

/**
 * What the agent may see, counted from the index. When the rules hide nothing, or the index's rows
 * follow the caller's rules (`notes.visible`, index/store/visibility.ts), SQLite counts the notes, their
 * folders and open tasks without a path of the vault taken into memory (issue 34: at 100k notes the
 * paths took a second of this thread per call, at a million ten); otherwise every path is judged.
 */
function countsOf(ctx: AccessContext, rules: Rules): NonNullable<VaultInfo['counts']> {
  ctx.index.refresh();
  const db = ctx.index.db;
  const option = visibleOption(rules);
  const visible = rules.visible ?? (() => true);
  const inSql = rules.visible === undefined ? '1' : hiddenNotesOut(db, option);
  const attachments = db.prepare<[], string>('SELECT path FROM attachments').pluck().all();
  const shownAttachments = rules.visible === undefined ? attachments : attachments.filter(visible);
  const folders = new Set<string>();
  const addWithParents = (folder: string) => {
    for (let d = folder; d !== '' && !folders.has(d); d = folderOf(d)) folders.add(d);
  };
  for (const p of shownAttachments) addWithParents(folderOf(p));
  if (inSql !== null) {
    const count = (sql: string) => db.prepare<[], number>(sql).pluck().get() as number;
    for (const folder of noteFolders(db, inSql)) addWithParents(folder);
    return {
      notes: count(`SELECT count(*) FROM notes n WHERE ${inSql}`),
      attachments: shownAttachments.length,
      folders: folders.size,
      tags:
        rules.visible === undefined
          ? count('SELECT count(DISTINCT tag_lower) FROM note_tag_prefixes')
          : listTags(db, option).length,
      // Open tasks of hidden notes taken away by id (few, as a rule): a join judging each task's note
      // read a row of notes per task (1.4 s at 100k notes).
      openTasks: count(
        rules.visible === undefined
          ? 'SELECT count(*) FROM note_tasks WHERE done = 0'
          : 'SELECT count(*) FROM note_tasks WHERE done = 0 AND note_id NOT IN (SELECT id FROM notes WHERE visible = 0)',
      ),
    };
  }
  const notes = db.prepare<[], string>('SELECT path FROM notes').pluck().all().filter(visible);
  for (const p of notes) addWithParents(folderOf(p));
  const openTasks = db
    .prepare<[], { path: string; n: number }>(
      'SELECT n.path AS path, count(*) AS n FROM note_tasks t JOIN notes n ON n.id = t.note_id WHERE t.done = 0 GROUP BY n.id',
    )
    .all()
    .reduce((sum, r) => sum + (visible(r.path) ? r.n : 0), 0);
  return {
    notes: notes.length,
    attachments: shownAttachments.length,
    folders: folders.size,
    tags: listTags(db, option).length,
    openTasks,
  };
}

/**
 * The folders holding the notes `where` (over alias `n`) keeps, exact in letter case, read from the
 * folder index: the first and the last path of each lower-cased folder, in code-unit order, share
 * every path's folder when theirs agree (all paths between two strings start with what both start
 * with); only a folder written in several letter cases has its paths read one by one.
 */
function noteFolders(db: Db, where: string): Set<string> {
  const found = new Set<string>();
  const groups = db
    .prepare<[], { f: string; lo: string; hi: string }>(
      `SELECT n.folder_lower AS f, min(n.path) AS lo, max(n.path) AS hi FROM notes n WHERE ${where} GROUP BY n.folder_lower`,
    )
    .all();
  const inFolder = db
    .prepare<[string], string>(`SELECT n.path FROM notes n WHERE n.folder_lower = ? AND ${where}`)
    .pluck();
  for (const { f, lo, hi } of groups) {
    const a = folderOf(lo);
    const b = folderOf(hi);
    found.add(a);
    if (a === b) continue;
    for (const p of inFolder.all(f)) found.add(folderOf(p));
  }
  return found;
}
