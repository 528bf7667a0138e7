/**
 * @module
 * The one gate every agent action goes through (ARCHITECTURE principle 3). Tools call these methods
 * and nothing else, so none of them can bypass the rules applied here.
 */
import { purgeTrash } from '../vault/trash.js';
import type { AccessContext, Writer } from './context.js';
import { listNotes, readNote, search } from './read.js';
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

export class VaultAccess {
  constructor(readonly ctx: AccessContext) {}

  listNotes(_session: AgentSession, options: Parameters<typeof listNotes>[1]) {
    return listNotes(this.ctx, options);
  }

  readNote(_session: AgentSession, name: string, options?: Parameters<typeof readNote>[2]) {
    return readNote(this.ctx, name, options);
  }

  search(_session: AgentSession, options: Parameters<typeof search>[1]) {
    return search(this.ctx, options);
  }

  createNote(session: AgentSession, input: CreateInput) {
    return createNote(this.ctx, writerOf(session), input);
  }

  updateNote(session: AgentSession, input: UpdateInput) {
    return updateNote(this.ctx, writerOf(session), input);
  }

  editNote(session: AgentSession, input: EditInput) {
    return editNote(this.ctx, writerOf(session), input);
  }

  deleteNote(session: AgentSession, input: Parameters<typeof deleteNote>[2]) {
    return deleteNote(this.ctx, writerOf(session), input);
  }

  listTrash(_session: AgentSession) {
    this.purgeExpiredTrash();
    return { items: listTrash(this.ctx) };
  }

  restoreNote(session: AgentSession, input: Parameters<typeof restoreNote>[2]) {
    this.purgeExpiredTrash();
    return restoreNote(this.ctx, writerOf(session), input);
  }

  /** Drops deletions past the retention period; runs on start and before trash is shown. */
  purgeExpiredTrash(): number {
    return purgeTrash(this.ctx.vault, this.ctx.trashRetentionDays, this.ctx.now());
  }
}

function writerOf(session: AgentSession): Writer {
  return { session: session.id, client: session.clientName() ?? null };
}
