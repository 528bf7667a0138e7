/**
 * @module
 * The one gate every agent action goes through (ARCHITECTURE principle 3). Tools call these methods
 * and nothing else, so none of them can bypass what is applied here: the owner's policy, read afresh
 * for each request (a broken policy file closes the vault with `policy_error`), staging, the journal
 * and the per-note locks.
 */
import type { Diagnostic } from '../common/diagnostics.js';
import type { Work } from '../common/work.js';
import { purgeTrash } from '../vault/trash.js';
import { listAttachments, readAttachmentContent } from './attachments/tools.js';
import { listBases, queryBase } from './bases/bases.js';
import type { AccessContext, Writer } from './context.js';
import { type CreateInput, createNote } from './create.js';
import { type DailyNoteInput, getDailyNote } from './daily/daily.js';
import { namesNothingHidden } from './diagnostic-names.js';
import { exportNotes } from './export/export.js';
import { listenToChanges, policyFingerprint, type VaultChangesListener } from './feed/change-events.js';
import { listChanges } from './feed/changes.js';
import { createFolder, deleteFolder, listFolders } from './folders.js';
import { waitForIndex } from './index-wait.js';
import { backlinks, outgoingLinks } from './links/links.js';
import { listLinks } from './links/vault-links.js';
import { deleteNotes, moveNotes } from './moves/batch.js';
import { moveFolder } from './moves/folder-move.js';
import { moveNote } from './moves/move.js';
import { idOf, type NoteRef, nameOfRef } from './note-ids.js';
import { noteOutline } from './outline.js';
import { noteText, promptFingerprint, promptNotes } from './prompts.js';
import { getProperties } from './properties.js';
import { listNotes, readNote } from './read.js';
import { completePaths, listVaultFiles, readVaultFile } from './resources.js';
import type { PolicyReader, Rules } from './rules/rules.js';
import { withScope } from './rules/scope.js';
import { search } from './search.js';
import { queryNotes } from './table.js';
import { listTags, notesByTag } from './tags.js';
import { listTasks, type TaskUpdate, updateTask } from './tasks.js';
import { deleteNote, restoreNote, trashPage } from './trash-ops.js';
import type { AgentSession } from './types.js';
import { type IndexState, vaultInfo } from './vault-info.js';
import {
  createGeneratedNote,
  type GeneratedNote,
  type NoteRewrite,
  rewriteGeneratedNote,
} from './workflows.js';
import { type EditInput, editNote, type UpdateInput, updateNote } from './write.js';

type Rest<F> = F extends (ctx: AccessContext, rules: Rules, ...rest: infer R) => unknown ? R : never;
type WriterRest<F> = F extends (ctx: AccessContext, rules: Rules, who: Writer, ...rest: infer R) => unknown
  ? R
  : never;

export class VaultAccess {
  /** Long operations still running (moves, batches), which a stopping server lets finish or undo. */
  private readonly running = new Set<Promise<unknown>>();

  constructor(
    readonly ctx: AccessContext,
    private readonly policy: PolicyReader,
  ) {}

  private track<T>(operation: Promise<T>): Promise<T> {
    const done = operation.then(
      () => undefined,
      () => undefined,
    );
    this.running.add(done);
    void done.then(() => this.running.delete(done));
    return operation;
  }

  /**
   * Waits, at most `maxMs`, until the long operations still running have finished: a stopping server
   * closes its connections first (which cancels them: a move undoes what it did), then waits here
   * before it closes the index they write to. False when some were still running at the deadline.
   */
  async settled(maxMs: number): Promise<boolean> {
    if (this.running.size === 0) return true;
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), maxMs);
    });
    const all = Promise.all([...this.running]).then(() => true as const);
    try {
      return await Promise.race([all, deadline]);
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * The policy for this request. The index is brought in line with it first, so that no search
   * answered under it counts a note it hides (index/store/visibility.ts). Every method passes its session,
   * so a write added later is limited by `in_folder` too.
   */
  rules(session: AgentSession): Rules {
    const rules = this.policy.load();
    this.ctx.index.useVisibility(rules.visibility);
    // The writes of this call are limited by the session's guards (SPEC 12.5, 17.1), when it names any.
    return withScope(rules, {
      ...(session.inFolder === undefined ? {} : { inFolder: session.inFolder }),
      ...(session.exactFolder === undefined ? {} : { exactFolder: session.exactFolder }),
      ...(session.notInFolders === undefined ? {} : { notInFolders: session.notInFolders }),
    });
  }

  /**
   * Hears the server's diagnostics (the last few first), for the connections' log messages: those that
   * name nothing the policy hides as it stands when each is heard (diagnostic-names.ts).
   */
  onDiagnostic(listener: (diagnostic: Diagnostic) => void): () => void {
    return this.ctx.diagnostics.subscribe((d) => {
      let rules: Rules | null = null;
      try {
        rules = this.policy.load();
      } catch {
        // A policy that cannot be read (or a vault converted since): nothing named is told.
      }
      if (namesNothingHidden(d, this.ctx.vault.root, rules)) listener(d);
    });
  }

  /**
   * Hears every change to notes and attachments agents may see, from any source, after the index
   * applied it (hidden paths left out); returns how to stop. See change-events.ts.
   */
  onChanges(listener: VaultChangesListener): () => void {
    return listenToChanges(this.ctx, this.policy, listener);
  }

  /** Changes when the owner's policy file does (what agents may see may have changed as a whole). */
  policyFingerprint(): string {
    return policyFingerprint(this.ctx);
  }

  /**
   * Waits until the index is ready, reporting the build's progress to `work`; a call still waiting
   * after 30 s is answered `busy` with the build's progress (access/index-wait.ts).
   */
  waitForIndex(work: Work, maxWaitMs?: number): Promise<void> {
    return waitForIndex(this.ctx.index, work, maxWaitMs);
  }

  /**
   * The name of the note a call gives by `name` or by `id` (SPEC 17.3), resolved here once: the call
   * then goes on with it exactly as with a typed name. `what` names the note in errors.
   */
  noteName(session: AgentSession, ref: NoteRef, what?: string): string {
    return nameOfRef(this.ctx, () => this.rules(session), ref, what);
  }

  /**
   * The id of the note at `path` (SPEC 17.3), for a result that already names that path (so the
   * agent may see it); undefined when no note is indexed there.
   */
  idOf(path: string): string | undefined {
    return idOf(this.ctx, path);
  }

  listNotes(session: AgentSession, ...args: Rest<typeof listNotes>) {
    return listNotes(this.ctx, this.rules(session), ...args);
  }

  readNote(session: AgentSession, ...args: Rest<typeof readNote>) {
    return readNote(this.ctx, this.rules(session), ...args);
  }

  search(session: AgentSession, ...args: Rest<typeof search>) {
    return search(this.ctx, this.rules(session), ...args);
  }

  /** A note's headings, blocks and counts (SPEC 12.3). */
  noteOutline(session: AgentSession, ...args: Rest<typeof noteOutline>) {
    return noteOutline(this.ctx, this.rules(session), ...args);
  }

  /** What changed since a cursor or a time (SPEC 12.1), the policy applied as it is read. */
  listChanges(session: AgentSession, ...args: Rest<typeof listChanges>) {
    return listChanges(this.ctx, this.rules(session), ...args);
  }

  /** Many notes at once, in pages under a byte budget (SPEC 12.2). */
  exportNotes(session: AgentSession, ...args: Rest<typeof exportNotes>) {
    return exportNotes(this.ctx, this.rules(session), ...args);
  }

  /**
   * Where the index stands (SPEC 14.1, 12.4): `ready`, or `building` with how far the start-up build
   * or re-sync is (notes read of the notes to read; 0 of 0 while the files are still being listed).
   */
  indexState(): IndexState {
    const now = this.ctx.index.state();
    if (now.state === 'ready') return { state: 'ready' };
    if (now.state === 'failed') return { state: 'failed', error: now.error };
    return { state: 'building', progress: { done: now.done, total: now.total ?? 0 }, step: now.step };
  }

  /** What an agent needs to orient itself (SPEC 12.4), as it may see the vault. */
  vaultInfo(session: AgentSession) {
    return vaultInfo(this.ctx, this.rules(session), this.indexState());
  }

  listTasks(session: AgentSession, ...args: Rest<typeof listTasks>) {
    return listTasks(this.ctx, this.rules(session), ...args);
  }

  backlinks(session: AgentSession, ...args: Rest<typeof backlinks>) {
    return backlinks(this.ctx, this.rules(session), ...args);
  }

  outgoingLinks(session: AgentSession, ...args: Rest<typeof outgoingLinks>) {
    return outgoingLinks(this.ctx, this.rules(session), ...args);
  }

  listTags(session: AgentSession, ...args: Rest<typeof listTags>) {
    return listTags(this.ctx, this.rules(session), ...args);
  }

  notesByTag(session: AgentSession, ...args: Rest<typeof notesByTag>) {
    return notesByTag(this.ctx, this.rules(session), ...args);
  }

  getProperties(session: AgentSession, ...args: Rest<typeof getProperties>) {
    return getProperties(this.ctx, this.rules(session), ...args);
  }

  queryNotes(session: AgentSession, ...args: Rest<typeof queryNotes>) {
    return queryNotes(this.ctx, this.rules(session), ...args);
  }

  /** The visible `.base` files and ```base blocks, with their views (SPEC 16.1). */
  listBases(session: AgentSession, ...args: Rest<typeof listBases>) {
    return listBases(this.ctx, this.rules(session), ...args);
  }

  /** One view of a base evaluated as Obsidian does, hidden notes never rows (SPEC 16.2, 16.5). */
  queryBase(session: AgentSession, ...args: Rest<typeof queryBase>) {
    return queryBase(this.ctx, this.rules(session), ...args);
  }

  createNote(session: AgentSession, input: CreateInput) {
    return createNote(this.ctx, this.rules(session), writerOf(session), input);
  }

  updateNote(session: AgentSession, input: UpdateInput) {
    return updateNote(this.ctx, this.rules(session), writerOf(session), input);
  }

  editNote(session: AgentSession, input: EditInput) {
    return editNote(this.ctx, this.rules(session), writerOf(session), input);
  }

  /** One task line ticked, re-statused, re-worded or re-dated (SPEC 13.2), as an edit of its note. */
  updateTask(session: AgentSession, input: TaskUpdate) {
    return updateTask(this.ctx, this.rules(session), writerOf(session), input);
  }

  /** The daily note of a day, created from Obsidian's daily template when asked (SPEC 13.3). */
  getDailyNote(session: AgentSession, input: DailyNoteInput) {
    return getDailyNote(this.ctx, this.rules(session), writerOf(session), input);
  }

  /** The vault's unresolved links or its orphan notes, as this agent may see them (SPEC 17.5). */
  listLinks(session: AgentSession, ...args: Rest<typeof listLinks>) {
    return listLinks(this.ctx, this.rules(session), ...args);
  }

  /** Files that are not notes, with how many notes link them (SPEC 13.4). */
  listAttachments(session: AgentSession, ...args: Rest<typeof listAttachments>) {
    return listAttachments(this.ctx, this.rules(session), ...args);
  }

  /** One attachment, shaped by its type (SPEC 13.4); hidden answers like missing. */
  readAttachment(session: AgentSession, ...args: Rest<typeof readAttachmentContent>) {
    return readAttachmentContent(this.ctx, this.rules(session), ...args);
  }

  deleteNote(session: AgentSession, ...args: WriterRest<typeof deleteNote>) {
    return deleteNote(this.ctx, this.rules(session), writerOf(session), ...args);
  }

  /** One page of the trash. A read only: deletions past retention are left out, not purged here. */
  listTrash(session: AgentSession, ...args: Rest<typeof trashPage>) {
    return trashPage(this.ctx, this.rules(session), ...args);
  }

  restoreNote(session: AgentSession, ...args: WriterRest<typeof restoreNote>) {
    return restoreNote(this.ctx, this.rules(session), writerOf(session), ...args);
  }

  /** A fingerprint of the prompt notes agents may see: it changes when one is added, changed or removed. */
  promptFingerprint(session: AgentSession): string {
    return promptFingerprint(this.ctx, this.rules(session));
  }

  /** The prompt notes agents may see (SPEC 9.1), with their text. */
  promptNotes(session: AgentSession) {
    return promptNotes(this.ctx, this.rules(session));
  }

  /** The text of the note a prompt is applied to; hidden answers like missing. */
  promptNoteText(session: AgentSession, name: string) {
    return noteText(this.ctx, this.rules(session), name);
  }

  /** Notes and attachments agents may see, by path, paged (SPEC 9.2). */
  listVaultFiles(session: AgentSession, ...args: Rest<typeof listVaultFiles>) {
    return listVaultFiles(this.ctx, this.rules(session), ...args);
  }

  /** Paths agents may see that start with a prefix, for completion. */
  completePaths(session: AgentSession, ...args: Rest<typeof completePaths>) {
    return completePaths(this.ctx, this.rules(session), ...args);
  }

  /** One note (text) or attachment (bytes) by its exact path; hidden answers like missing. */
  readVaultFile(session: AgentSession, ...args: Rest<typeof readVaultFile>) {
    return readVaultFile(this.ctx, this.rules(session), ...args);
  }

  /**
   * Creates an agent-workflow note whose text `input.build` computes (SPEC 7). Journaled like any
   * create; refused in read-only, hidden and staged folders.
   */
  createWorkflowNote<T>(session: AgentSession, input: GeneratedNote<T>) {
    return createGeneratedNote(this.ctx, this.rules(session), writerOf(session), input);
  }

  /**
   * Rewrites an agent-workflow note under its lock: `expectedEtag` must match, `input.rewrite`
   * computes the new text from the stored one (or refuses), then journal and atomic write.
   */
  rewriteWorkflowNote<T>(session: AgentSession, input: NoteRewrite<T>) {
    return rewriteGeneratedNote(this.ctx, this.rules(session), writerOf(session), input);
  }

  /**
   * Moves or renames a note and rewrites the links to it (and any link the move would divert), as one
   * journal group; see move.ts.
   */
  moveNote(session: AgentSession, ...args: WriterRest<typeof moveNote>) {
    return this.track(moveNote(this.ctx, this.rules(session), writerOf(session), ...args));
  }

  /** Several moves, one after the other, in one journal group; not a transaction. */
  moveNotes(session: AgentSession, ...args: WriterRest<typeof moveNotes>) {
    return this.track(moveNotes(this.ctx, this.rules(session), writerOf(session), ...args));
  }

  /** Several deletions to the trash, in one journal group; not a transaction. */
  deleteNotes(session: AgentSession, ...args: WriterRest<typeof deleteNotes>) {
    return this.track(deleteNotes(this.ctx, this.rules(session), writerOf(session), ...args));
  }

  /** Folders agents may see, with note counts. */
  listFolders(session: AgentSession, ...args: Rest<typeof listFolders>) {
    return listFolders(this.ctx, this.rules(session), ...args);
  }

  createFolder(session: AgentSession, ...args: Rest<typeof createFolder>) {
    return createFolder(this.ctx, this.rules(session), ...args);
  }

  /** Moves a folder with every note and attachment agents may see in it, links kept. */
  moveFolder(session: AgentSession, ...args: WriterRest<typeof moveFolder>) {
    return this.track(moveFolder(this.ctx, this.rules(session), writerOf(session), ...args));
  }

  /** Deletes an empty folder, against the revision a dry run gave. */
  deleteFolder(session: AgentSession, ...args: Rest<typeof deleteFolder>) {
    return deleteFolder(this.ctx, this.rules(session), ...args);
  }

  /** Drops deletions past the retention period; runs on start and on a timer (open.ts). */
  purgeExpiredTrash(): number {
    return purgeTrash(this.ctx.vault, this.ctx.trashRetentionDays, this.ctx.now());
  }
}

function writerOf(session: AgentSession): Writer {
  return { session: session.id, client: session.clientName() ?? null };
}
