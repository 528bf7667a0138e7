/**
 * @module
 * Pending changes in the console (SPEC 5.2): the list with each note's line counts and whether it is
 * outdated; the diffs of a page of changes in one request; more lines of a text on demand; approve
 * (whole or some hunks), reject, and approve or reject the listed changes. Decisions go through
 * `staging/approve.ts` exactly as `noted-mcp review` makes them, with the same journal hook, so an
 * approval here is recorded under the agent's session and client and can be undone with the rest of
 * that session.
 *
 * "Approve all" and "Reject all" name the changes they decide, each with the hunks its card keeps: a
 * change that arrived after the page was drawn, or a hunk the owner unchecked, is never approved
 * unseen.
 */
import { isNotedError } from '../common/errors.js';
import { approve, approveEach, reject } from '../staging/approve.js';
import { textLines } from '../staging/hunks.js';
import { MAX_PENDING_CHANGES } from '../staging/pending-store.js';
import { decisionHook, groupedByNote, mergeViewOf } from './api-decisions.js';
import type { ApiContext, Route } from './context.js';
import { field } from './context.js';
import { diffView } from './diff-view.js';
import { ConsoleError, errorReply } from './http-util.js';

/** Changes whose diffs one request may ask for: a page of the list. */
export const MAX_DETAILS = 50;
/** Lines one request for more lines may ask for. */
export const MAX_LINES = 5000;

const bad = (why: string): never => {
  throw new ConsoleError(400, 'validation_error', why);
};

function keepOf(value: unknown, where = '"keep"'): number[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (
    !Array.isArray(value) ||
    value.length > 10_000 ||
    value.some((n) => !Number.isSafeInteger(n) || n < 1)
  ) {
    return bad(`${where} must be a list of hunk numbers (from 1).`);
  }
  return value as number[];
}

/** The listed ids of a body field: unique strings, at most one per possible pending change. */
function idList(value: unknown, name: string): string[] {
  if (!Array.isArray(value)) return bad(`"${name}" must list the changes the page shows.`);
  if (value.length > MAX_PENDING_CHANGES)
    return bad(`"${name}" lists more than ${MAX_PENDING_CHANGES} changes.`);
  const ids = value.map((v) =>
    typeof v === 'string' && v !== '' ? v : bad(`"${name}" must hold change ids.`),
  );
  if (new Set(ids).size !== ids.length) bad(`"${name}" names a change twice.`);
  return ids;
}

function choicesOf(body: unknown): { id: string; keep?: number[] }[] {
  const changes = field(body, 'changes');
  if (!Array.isArray(changes))
    return bad('"changes" must list the changes the page shows, each {id, keep?}.');
  const ids = idList(
    changes.map((c) => field(c, 'id')),
    'changes',
  );
  return ids.map((id, i) => {
    const keep = keepOf(field(changes[i], 'keep'), `"keep" of change ${id}`);
    return keep === undefined ? { id } : { id, keep };
  });
}

function onWrite(ctx: ApiContext) {
  return ctx.deps.recordApprovedWrite(ctx.vault);
}

function detail(ctx: ApiContext, id: string) {
  const change = ctx.store.get(id);
  const { baseText, newText, ...summary } = change;
  const facts = ctx.facts.of(summary);
  return {
    change: { ...summary, ...facts },
    diff: diffView(baseText, newText),
    merge: facts.outdated === null ? null : mergeViewOf(ctx, change),
  };
}

function reasonOf(body: unknown): string | null {
  const reason = field(body, 'reason');
  if (reason === undefined || reason === null) return null;
  if (typeof reason !== 'string') return bad('"reason" is a sentence (text), or absent.');
  return reason;
}

function ontoOf(body: unknown): string | undefined {
  const onto = field(body, 'onto');
  if (onto === undefined || onto === null) return undefined;
  if (typeof onto !== 'string' || onto === '')
    return bad('"onto" is the etag of the note the merge was shown on.');
  return onto;
}

function lines(ctx: ApiContext, id: string, query: URLSearchParams) {
  const side = query.get('side') ?? 'base';
  if (side !== 'base' && side !== 'new')
    bad('"side" is base (the text the agent saw) or new (the text after).');
  const from = Number(query.get('from') ?? '1');
  const count = Number(query.get('count') ?? '100');
  if (!Number.isSafeInteger(from) || from < 1) bad('"from" is a line number, from 1.');
  if (!Number.isSafeInteger(count) || count < 1 || count > MAX_LINES) bad(`"count" is 1 to ${MAX_LINES}.`);
  const change = ctx.store.get(id);
  const text = side === 'base' ? change.baseText : change.newText;
  if (text === null)
    bad(
      `This change has no ${side === 'base' ? 'text before (it creates the note)' : 'text after (it deletes the note)'}.`,
    );
  const all = textLines(text as string);
  return { side, from, lines: all.slice(from - 1, from - 1 + count), total: all.length };
}

export const PENDING_ROUTES: readonly Route[] = [
  {
    method: 'GET',
    path: 'pending',
    handle: (ctx) => {
      const { changes, damaged } = ctx.store.scan();
      const listed = groupedByNote(changes.map((c) => ({ ...c, ...ctx.facts.of(c) })));
      return { changes: listed, damaged, total: changes.length, rejected: ctx.rejected.count() };
    },
  },
  {
    method: 'GET',
    path: 'pending/details',
    handle: (ctx, { query }) => {
      const ids = (query.get('ids') ?? '').split(',').filter((id) => id !== '');
      if (ids.length === 0 || ids.length > MAX_DETAILS)
        bad(`"ids" names 1 to ${MAX_DETAILS} changes, by commas.`);
      return {
        details: ids.map((id) => {
          try {
            return { id, ...detail(ctx, id) };
          } catch (err) {
            const reply = errorReply(err);
            if (reply === null) throw err;
            return { id, ...(reply.body as { error: { code: string; message: string } }) };
          }
        }),
      };
    },
  },
  { method: 'GET', path: 'pending/:id', handle: (ctx, { params }) => detail(ctx, params.id as string) },
  {
    method: 'GET',
    path: 'pending/:id/lines',
    handle: (ctx, { params, query }) => lines(ctx, params.id as string, query),
  },
  {
    method: 'POST',
    path: 'pending/:id/approve',
    handle: async (ctx, { params, body }) => {
      const keep = keepOf(field(body, 'keep'));
      const onto = ontoOf(body);
      const result = await approve(ctx.vault, ctx.store, params.id as string, {
        onWrite: onWrite(ctx),
        ...decisionHook(ctx),
        now: ctx.now,
        ...(keep === undefined ? {} : { keep }),
        ...(onto === undefined ? {} : { onto }),
      });
      return { result };
    },
  },
  {
    method: 'POST',
    path: 'pending/:id/reject',
    handle: (ctx, { params, body }) => ({
      result: reject(ctx.store, params.id as string, {
        keep: ctx.rejected,
        reason: reasonOf(body),
        ...decisionHook(ctx),
      }),
    }),
  },
  {
    method: 'POST',
    path: 'pending-all/approve',
    handle: async (ctx, { body }) => {
      const outcomes = await approveEach(ctx.vault, ctx.store, choicesOf(body), {
        onWrite: onWrite(ctx),
        ...decisionHook(ctx),
        now: ctx.now,
      });
      return {
        outcomes: outcomes.map((o) =>
          o.ok
            ? { id: o.id, note: o.note, ok: true, result: o.result }
            : { id: o.id, note: o.note, ok: false, error: { code: o.error.code, message: o.error.message } },
        ),
        stillPending: ctx.store.count(),
      };
    },
  },
  {
    method: 'POST',
    path: 'pending-all/reject',
    handle: (ctx, { body }) => {
      const rejected: { id: string; note: string | null }[] = [];
      const missing: string[] = [];
      const options = { keep: ctx.rejected, reason: reasonOf(body), ...decisionHook(ctx) };
      for (const id of idList(field(body, 'ids'), 'ids')) {
        try {
          rejected.push(reject(ctx.store, id, options));
        } catch (err) {
          if (!isNotedError(err) || err.code !== 'not_found') throw err;
          missing.push(id);
        }
      }
      return { rejected, missing, stillPending: ctx.store.count() };
    },
  },
];
