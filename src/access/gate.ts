/**
 * @module
 * The one gate every agent action goes through (ARCHITECTURE principle 3). Tools call these methods
 * and nothing else, so none of them can bypass what is applied here: the owner's policy, read afresh
 * for each request (a broken policy file closes the vault with `policy_error`), staging, the journal
 * and the per-note locks.
 */
import { purgeTrash } from '../vault/trash.js';
import type { AccessContext, Writer } from './context.js';
import { backlinks, outgoingLinks } from './links.js';
import { getProperties } from './properties.js';
import { listNotes, readNote, search } from './read.js';
import type { PolicyReader, Rules } from './rules.js';
import { queryNotes } from './table.js';
import { listTags, notesByTag } from './tags.js';
import { listTasks } from './tasks.js';
import { deleteNote, listTrash, restoreNote } from './trash-ops.js';
import type { AgentSession } from './types.js';
import {
  type CreateInput,
  createNote,
  type EditInput,
  editNote,
  type UpdateInput,
  updateNote,
} from './write.js';

type Rest<F> = F extends (ctx: AccessContext, rules: Rules, ...rest: infer R) => unknown ? R : never;
type WriterRest<F> = F extends (ctx: AccessContext, rules: Rules, who: Writer, ...rest: infer R) => unknown
  ? R
  : never;

export class VaultAccess {
  constructor(
    readonly ctx: AccessContext,
    private readonly policy: PolicyReader,
  ) {}

  /** The policy for this request. */
  rules(): Rules {
    return this.policy.load();
  }

  listNotes(_session: AgentSession, ...args: Rest<typeof listNotes>) {
    return listNotes(this.ctx, this.rules(), ...args);
  }

  readNote(_session: AgentSession, ...args: Rest<typeof readNote>) {
    return readNote(this.ctx, this.rules(), ...args);
  }

  search(_session: AgentSession, ...args: Rest<typeof search>) {
    return search(this.ctx, this.rules(), ...args);
  }

  listTasks(_session: AgentSession, ...args: Rest<typeof listTasks>) {
    return listTasks(this.ctx, this.rules(), ...args);
  }

  backlinks(_session: AgentSession, ...args: Rest<typeof backlinks>) {
    return backlinks(this.ctx, this.rules(), ...args);
  }

  outgoingLinks(_session: AgentSession, ...args: Rest<typeof outgoingLinks>) {
    return outgoingLinks(this.ctx, this.rules(), ...args);
  }

  listTags(_session: AgentSession, ...args: Rest<typeof listTags>) {
    return listTags(this.ctx, this.rules(), ...args);
  }

  notesByTag(_session: AgentSession, ...args: Rest<typeof notesByTag>) {
    return notesByTag(this.ctx, this.rules(), ...args);
  }

  getProperties(_session: AgentSession, ...args: Rest<typeof getProperties>) {
    return getProperties(this.ctx, this.rules(), ...args);
  }

  queryNotes(_session: AgentSession, ...args: Rest<typeof queryNotes>) {
    return queryNotes(this.ctx, this.rules(), ...args);
  }

  createNote(session: AgentSession, input: CreateInput) {
    return createNote(this.ctx, this.rules(), writerOf(session), input);
  }

  updateNote(session: AgentSession, input: UpdateInput) {
    return updateNote(this.ctx, this.rules(), writerOf(session), input);
  }

  editNote(session: AgentSession, input: EditInput) {
    return editNote(this.ctx, this.rules(), writerOf(session), input);
  }

  deleteNote(session: AgentSession, ...args: WriterRest<typeof deleteNote>) {
    return deleteNote(this.ctx, this.rules(), writerOf(session), ...args);
  }

  listTrash(_session: AgentSession) {
    const rules = this.rules();
    this.purgeExpiredTrash();
    return { items: listTrash(this.ctx, rules) };
  }

  restoreNote(session: AgentSession, ...args: WriterRest<typeof restoreNote>) {
    const rules = this.rules();
    this.purgeExpiredTrash();
    return restoreNote(this.ctx, rules, writerOf(session), ...args);
  }

  /** Drops deletions past the retention period; runs on start and before trash is shown. */
  purgeExpiredTrash(): number {
    return purgeTrash(this.ctx.vault, this.ctx.trashRetentionDays, this.ctx.now());
  }
}

function writerOf(session: AgentSession): Writer {
  return { session: session.id, client: session.clientName() ?? null };
}
