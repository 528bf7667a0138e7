/**
 * @module
 * Keeps the index in step with the files: a full scan that re-reads only files whose size, mtime or
 * inode changed (the partial sync of the paths a watcher reported is sync-paths.ts).
 *
 * Every write transaction begins IMMEDIATE. Another server process may share the index: a deferred
 * transaction that reads first and then writes fails at once with SQLITE_BUSY ("database is locked")
 * when the other process committed in between, since SQLite cannot wait for a newer snapshot;
 * IMMEDIATE takes the write lock up front and waits for it under the busy timeout instead.
 */
import { isCancelled, unobservedWork, type Work } from '../../common/work.js';
import type { NoteFormat } from '../../format/note-format.js';
import { type FileEntry, type WalkResult, walkVault, walkVaultAsync } from '../../vault/walk.js';
import type { Db } from '../db/database.js';
import { dropSecondaryIndexes, ensureSecondaryIndexesInSteps } from '../db/secondary-indexes.js';
import { bulkLoadSettings, mergeAllInSteps } from '../store/fts-merge.js';
import { indexFormat } from '../store/index-format.js';
import { type ChangeListener, type IndexedFile, IndexWriter } from '../store/store.js';
import { EVERYTHING_VISIBLE, type IndexVisibility } from '../store/visibility.js';
import { type ParsedNote, parseNoteFile } from './parse-note.js';
import type { ParsedBatch, ParserPool } from './parser-pool.js';

export interface SyncStats {
  /** Notes in the index after the sync. */
  readonly notes: number;
  /** Files below the synced folder reached through symbolic links, with their real paths. */
  readonly linked: Map<string, string>;
  /** Notes read and (re)indexed. */
  readonly reindexed: number;
  /** Notes removed from the index. */
  readonly removed: number;
  readonly ms: number;
}

const BATCH = 500;

/** Reads and indexes one note file; returns false when it vanished or cannot be read. */
export function indexFile(
  root: string,
  writer: IndexWriter,
  file: FileEntry,
  visible: boolean,
  format: NoteFormat,
): boolean {
  return putParsed(writer, file, parseNoteFile(root, file, format), visible);
}

/**
 * Indexes a parsed note. A note that could not be read (it vanished, or lost read permission, after
 * the walk listed it) is taken out: its earlier text must not go on being listed and searched.
 */
function putParsed(
  writer: IndexWriter,
  file: FileEntry,
  parsed: ParsedNote | null,
  visible: boolean,
): boolean {
  if (parsed === null) {
    writer.removeNoteByPath(file.name);
    return false;
  }
  writer.putNote(parsed.file, parsed.etag, parsed.derived, visible);
  return true;
}

/** Indexed as the file is now, and visible or not as wanted (a note whose visibility changed is read again). */
export function unchanged(row: IndexedFile | undefined, file: FileEntry, visible: boolean): boolean {
  return (
    row !== undefined &&
    row.size === file.size &&
    row.mtime_ms === file.mtimeMs &&
    row.ino === file.ino &&
    row.visible === (visible ? 1 : 0)
  );
}

/** Whether agents may see the note listed as `name`, judged where it really is. */
function visibleIn(
  visibility: IndexVisibility,
  linked: ReadonlyMap<string, string>,
): (name: string) => boolean {
  return (name) => visibility.visible(linked.get(name) ?? name);
}

interface SyncPlan {
  readonly walked: WalkResult;
  readonly stale: FileEntry[];
  readonly gone: IndexedFile[];
  readonly sub: string;
  readonly visibility: IndexVisibility;
  readonly visible: (name: string) => boolean;
}

/** What the index holds for the notes below `sub` ('' for all), by path. */
export function loadIndexedFiles(db: Db, sub = ''): Map<string, IndexedFile> {
  const rows = new Map<string, IndexedFile>();
  const columns = 'SELECT id, path, size, mtime_ms, ino, visible FROM notes';
  // The whole vault without a condition: one evaluated per row was a third of the load at 100k notes.
  const found =
    sub === ''
      ? db.prepare<[], IndexedFile>(columns).all()
      : db
          .prepare<[{ p: string }], IndexedFile>(`${columns} WHERE substr(path, 1, length(@p)) = @p`)
          .all({ p: `${sub}/` });
  for (const row of found) rows.set(row.path, row);
  return rows;
}

function planSync(
  db: Db,
  root: string,
  sub: string,
  indexed: Map<string, IndexedFile> | undefined,
  visibility: IndexVisibility,
): SyncPlan {
  return planOf(
    indexed ?? loadIndexedFiles(db, sub),
    walkVault(root, indexFormat(db).ending, sub),
    sub,
    visibility,
  );
}

function planOf(
  rows: Map<string, IndexedFile>,
  walked: WalkResult,
  sub: string,
  visibility: IndexVisibility,
): SyncPlan {
  const visible = visibleIn(visibility, walked.linked);
  const stale = walked.notes.filter((file) => !unchanged(rows.get(file.name), file, visible(file.name)));
  const seen = new Set(walked.notes.map((f) => f.name));
  const gone = [...rows.values()].filter((row) => !seen.has(row.path));
  return { walked, stale, gone, sub, visibility, visible };
}

/** Index rows compared with the files per page of {@link planInPages}. */
const COMPARE_PAGE = 5000;

/**
 * The plan of a whole-vault sync, reading the index in pages of rows (by id) and letting other work
 * run between them: nothing holds every row in memory or the thread for the whole vault (at a
 * million notes, loading them took seconds and hundreds of megabytes). Each row is looked up among
 * the walked files; those found as indexed are let go, so what is left is new or changed.
 */
async function planInPages(
  db: Db,
  walked: WalkResult,
  visibility: IndexVisibility,
  work: Work,
): Promise<SyncPlan> {
  const visible = visibleIn(visibility, walked.linked);
  const total = walked.notes.length;
  work.report(0, total, 'comparing the index with the files');
  const toRead = new Map<string, FileEntry>();
  for (const [i, file] of walked.notes.entries()) {
    toRead.set(file.name, file);
    if (i % COMPARE_PAGE === COMPARE_PAGE - 1) await work.checkpoint();
  }
  const page = db.prepare<[number, number], IndexedFile>(
    'SELECT id, path, size, mtime_ms, ino, visible FROM notes WHERE id > ? ORDER BY id LIMIT ?',
  );
  const gone: IndexedFile[] = [];
  let compared = 0;
  for (let after = 0; ; ) {
    const rows = page.all(after, COMPARE_PAGE);
    for (const row of rows) {
      const file = toRead.get(row.path);
      if (file === undefined) gone.push(row);
      else if (unchanged(row, file, visible(file.name))) toRead.delete(row.path);
    }
    compared += rows.length;
    work.report(Math.min(compared, total), total, 'comparing the index with the files');
    const last = rows[rows.length - 1];
    if (last === undefined || rows.length < COMPARE_PAGE) break;
    after = last.id;
    await work.checkpoint();
  }
  // In the walk's order, as the other plans give them.
  const stale = toRead.size === 0 ? [] : walked.notes.filter((file) => toRead.has(file.name));
  return { walked, stale, gone, sub: '', visibility, visible };
}

function finishSync(
  db: Db,
  writer: IndexWriter,
  plan: SyncPlan,
  reindexed: number,
  started: number,
): SyncStats {
  writer.write(() => {
    // By path: a row's id may be another note's by now (a note renamed was indexed at its new path
    // meanwhile, its old rows taken out with the move, and SQLite gives a freed id again).
    for (const row of plan.gone) writer.removeNoteByPath(row.path);
    syncAttachments(db, writer, plan.walked.attachments, plan.sub);
  });
  const count = db.prepare('SELECT count(*) AS n FROM notes').get() as { n: number };
  return {
    notes: count.n,
    reindexed,
    removed: plan.gone.length,
    ms: performance.now() - started,
    linked: plan.walked.linked,
  };
}

/**
 * Brings the whole index in line with the vault (or with one folder of it), on this thread. Notes
 * `visibility` hides get no full-text row.
 */
export function syncAll(
  db: Db,
  root: string,
  sub = '',
  indexed?: Map<string, IndexedFile>,
  visibility: IndexVisibility = EVERYTHING_VISIBLE,
  onChange?: ChangeListener,
): SyncStats {
  const started = performance.now();
  const plan = planSync(db, root, sub, indexed, visibility);
  const writer = new IndexWriter(db, visibility.key, onChange);
  let reindexed = 0;
  for (let i = 0; i < plan.stale.length; i += BATCH) {
    const batch = plan.stale.slice(i, i + BATCH);
    writer.write(() => {
      for (const file of batch)
        if (indexFile(root, writer, file, plan.visible(file.name), indexFormat(db))) reindexed++;
    });
  }
  return finishSync(db, writer, plan, reindexed, started);
}

/** Below this many changed notes, parser threads cost more than they save. */
const PARALLEL_THRESHOLD = 1000;
const PARALLEL_BATCH = 125;
/**
 * Batches parsed ahead of the writer: enough to keep the threads busy, few enough to bound memory.
 * Small batches and commits keep parsed texts short-lived, so they die young instead of piling up
 * in the old generation (measured at 10k notes: 313 MB → 245 MB peak RSS, and faster).
 */
const IN_FLIGHT = 4;
/**
 * Notes written per transaction during a large build. FTS5 turns what a transaction wrote into a new
 * segment that later merges must rewrite, and WAL writes a page once per commit that changed it, so
 * few large commits cost far less than many small ones (measured at 10k notes, writes alone: 250 per
 * commit 2.76 s, 2,000 per commit with the larger FTS5 hash below 2.03 s).
 */
const NOTES_PER_COMMIT = 2000;

/**
 * The same as syncAll, with reading and parsing on parser threads while this thread writes: the
 * cold build of a large vault, or the start-up re-sync. It runs while the server already answers, so
 * it reports its progress to `work` and lets other work run between folders of the walk and between
 * batches; cancelled, it stops at the next batch and keeps nothing of the one it was writing.
 */
export async function syncAllParallel(
  db: Db,
  root: string,
  makePool: () => ParserPool,
  indexed?: Map<string, IndexedFile>,
  visibility: IndexVisibility = EVERYTHING_VISIBLE,
  work: Work = unobservedWork(),
  onChange?: ChangeListener,
): Promise<SyncStats> {
  const started = performance.now();
  work.report(0, undefined, "listing the vault's files");
  const walked = await walkVaultAsync(root, indexFormat(db).ending, '', () => work.checkpoint());
  const plan =
    indexed === undefined
      ? await planInPages(db, walked, visibility, work)
      : planOf(indexed, walked, '', visibility);
  work.report(0, plan.stale.length, 'reading notes');
  if (plan.stale.length < PARALLEL_THRESHOLD) {
    const writer = new IndexWriter(db, visibility.key, onChange);
    let reindexed = 0;
    writer.write(() => {
      for (const file of plan.stale)
        if (indexFile(root, writer, file, plan.visible(file.name), indexFormat(db))) reindexed++;
    });
    return finishSync(db, writer, plan, reindexed, started);
  }
  return parseAndWrite(db, root, plan, makePool, started, work, onChange);
}

async function parseAndWrite(
  db: Db,
  root: string,
  plan: SyncPlan,
  makePool: () => ParserPool,
  started: number,
  work: Work,
  onChange: ChangeListener | undefined,
): Promise<SyncStats> {
  const writer = new IndexWriter(db, plan.visibility.key, onChange);
  // Most of the vault is written: the secondary indexes are cheaper to create afterwards than to keep
  // up row by row (secondary-indexes.ts).
  const rebuildIndexes = plan.stale.length * 2 >= plan.walked.notes.length;
  const pool = makePool();
  const batches: FileEntry[][] = [];
  for (let i = 0; i < plan.stale.length; i += PARALLEL_BATCH)
    batches.push(plan.stale.slice(i, i + PARALLEL_BATCH));
  const inFlight: { files: FileEntry[]; parsed: Promise<ParsedBatch> }[] = [];
  let next = 0;
  const dispatch = () => {
    while (next < batches.length && inFlight.length < IN_FLIGHT) {
      const files = batches[next++] as FileEntry[];
      const parsed = pool.parse(root, files, indexFormat(db).name);
      // Awaited in order below; one that fails while an earlier one is awaited (or the build stops
      // first) is not an unhandled rejection meanwhile.
      parsed.catch(() => undefined);
      inFlight.push({ files, parsed });
    }
  };
  let reindexed = 0;
  // Each parsed batch is written as soon as it arrives, inside a transaction that spans several
  // batches: the parser threads never wait for a whole commit's worth of notes to be collected.
  let uncommitted = 0;
  let written = 0;
  let restore: ((merge: boolean) => void) | undefined;
  let cancelled = false;
  try {
    if (rebuildIndexes) dropSecondaryIndexes(db);
    restore = bulkLoadSettings(db);
    dispatch();
    while (inFlight.length > 0) {
      const batch = inFlight.shift() as (typeof inFlight)[number];
      const parsed = (await batch.parsed).notes();
      await work.checkpoint();
      dispatch();
      if (uncommitted === 0) writer.begin();
      for (const [i, note] of parsed.entries()) {
        const file = batch.files[i] as FileEntry;
        if (putParsed(writer, file, note, plan.visible(file.name))) reindexed++;
      }
      uncommitted += parsed.length;
      written += parsed.length;
      if (uncommitted >= NOTES_PER_COMMIT || inFlight.length === 0) {
        writer.commit();
        uncommitted = 0;
      }
      work.report(written, plan.stale.length, 'reading notes');
    }
  } catch (err) {
    writer.rollback();
    cancelled = isCancelled(err);
    throw err;
  } finally {
    try {
      // The parser threads' heaps (about 60 MB at 100k notes) are let go first: creating the indexes
      // and FTS5's final merge are the steps that take the most memory of their own.
      await pool.close();
    } finally {
      if (!cancelled) work.report(written, plan.stale.length, 'building the lookup indexes');
      // A cancelled build (the server is stopping) leaves the indexes for the next start to create,
      // as a build that was killed would, rather than keep the process for seconds more.
      await endBulkLoad(db, rebuildIndexes && !cancelled, restore, !cancelled, work, () =>
        work.report(written, plan.stale.length, 'merging the full-text index'),
      );
    }
  }
  return finishSync(db, writer, plan, reindexed, started);
}

/**
 * Puts back what a bulk load changed: the dropped indexes, one at a time, and FTS5's segments merged
 * into one, in steps (other work runs between them), then its settings. Stopped midway (the server
 * is stopping), the settings are still put back; the next start creates what is missing, and FTS5's
 * automerge takes the segments in hand.
 */
async function endBulkLoad(
  db: Db,
  rebuildIndexes: boolean,
  restore: ((merge: boolean) => void) | undefined,
  merge: boolean,
  work: Work,
  merging: () => void,
): Promise<void> {
  try {
    if (rebuildIndexes) await ensureSecondaryIndexesInSteps(db, () => work.checkpoint());
    if (merge && restore !== undefined) {
      merging();
      await mergeAllInSteps(db, () => work.checkpoint());
    }
  } finally {
    restore?.(false);
  }
}

function syncAttachments(db: Db, writer: IndexWriter, files: FileEntry[], sub: string): void {
  const prefix = sub === '' ? '' : `${sub}/`;
  const existing = db
    .prepare<[{ p: string }], { path: string }>(
      "SELECT path FROM attachments WHERE @p = '' OR substr(path, 1, length(@p)) = @p",
    )
    .all({ p: prefix });
  const seen = new Set(files.map((f) => f.name));
  for (const row of existing) if (!seen.has(row.path)) writer.removeAttachment(row.path);
  for (const file of files) writer.putAttachment(file);
}
