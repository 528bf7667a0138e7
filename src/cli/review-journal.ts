/**
 * @module
 * The journal's hooks for the owner's decisions, shared by `noted-mcp review` and the console: each
 * approved write recorded before it is made, each rejection and put-back recorded as the owner's
 * decision (SPEC 5.2, 6.1, 9.4), with the user's journal key.
 */
import { Journal } from '../journal/journal.js';
import type { JournalKeyState } from '../journal/journal-key.js';
import type { OnApprovedWrite, OnDecision } from '../staging/approve.js';
import { ANYWHERE } from '../vault/checked-folder.js';
import type { Vault } from '../vault/vault.js';

/**
 * Records each approved write in the vault's journal before it is made (SPEC 5.2, 6.1), with the
 * user's journal key (`key` is asked for when the first approval needs it).
 */
export function journalApprovedWrites(key: () => JournalKeyState, now: () => Date = () => new Date()) {
  return (vault: Vault): OnApprovedWrite => {
    const journal = new Journal(vault, { now, key: key() });
    return (info) => {
      const { session, client, tool } = info.change;
      const hunks = info.hunks ?? null;
      const entry = journal.record({
        session,
        client,
        tool,
        note: info.note,
        kind: info.kind,
        before: info.before,
        after: info.after,
        decision: {
          by: 'owner',
          action: 'approve',
          pending: info.change.id,
          ...(hunks === null ? {} : { hunks: { total: hunks.total, kept: [...hunks.kept] } }),
          ...(info.merged === true ? { merged: true } : {}),
        },
      });
      return (now) => {
        journal.voidEntries([{ entry, now }]);
      };
    };
  };
}

/**
 * Records the owner's rejections and put-backs in the vault's journal (SPEC 9.4): an entry of kind
 * `decision` under the agent's session, client and tool, whose before and after are the note as it is
 * (the decision changes no note).
 */
export function journalDecisions(key: () => JournalKeyState, now: () => Date = () => new Date()) {
  return (vault: Vault): OnDecision => {
    const journal = new Journal(vault, { now, key: key() });
    return ({ change, action, reason }) => {
      const current = vault.read(change.note, ANYWHERE)?.bytes ?? null;
      journal.record({
        session: change.session,
        client: change.client,
        tool: change.tool,
        note: change.note,
        kind: 'decision',
        before: current,
        after: current,
        decision: {
          by: 'owner',
          action,
          pending: change.id,
          ...(reason === null ? {} : { reason }),
        },
      });
    };
  };
}
