/**
 * @module
 * Pending changes in the console (SPEC 5.2): list, show as word-marked hunks, approve (whole or some
 * hunks), reject, approve all, reject all. Decisions go through `staging/approve.ts` exactly as
 * `noted-mcp review` makes them, with the same journal hook, so an approval here is recorded under
 * the agent's session and client and can be undone with the rest of that session.
 */
import { approve, approveAll, reject, rejectAll } from '../staging/approve.js';
import type { ApiContext, Route } from './context.js';
import { field } from './context.js';
import { diffView } from './diff-view.js';
import { ConsoleError } from './http-util.js';

function keepOf(body: unknown): number[] | undefined {
  const keep = field(body, 'keep');
  if (keep === undefined || keep === null) return undefined;
  if (!Array.isArray(keep) || keep.some((n) => !Number.isSafeInteger(n) || n < 1)) {
    throw new ConsoleError(400, 'validation_error', '"keep" must be a list of hunk numbers (from 1).');
  }
  return keep as number[];
}

function onWrite(ctx: ApiContext) {
  return ctx.deps.recordApprovedWrite(ctx.vault);
}

export const PENDING_ROUTES: readonly Route[] = [
  {
    method: 'GET',
    path: 'pending',
    handle: (ctx) => {
      const { changes, damaged } = ctx.store.scan();
      return { changes, damaged };
    },
  },
  {
    method: 'GET',
    path: 'pending/:id',
    handle: (ctx, { params }) => {
      const change = ctx.store.get(params.id as string);
      const { baseText, newText, ...summary } = change;
      return { change: summary, diff: diffView(baseText, newText) };
    },
  },
  {
    method: 'POST',
    path: 'pending/:id/approve',
    handle: async (ctx, { params, body }) => {
      const keep = keepOf(body);
      const result = await approve(ctx.vault, ctx.store, params.id as string, {
        onWrite: onWrite(ctx),
        now: ctx.now,
        ...(keep === undefined ? {} : { keep }),
      });
      return { result };
    },
  },
  {
    method: 'POST',
    path: 'pending/:id/reject',
    handle: (ctx, { params }) => ({ result: reject(ctx.store, params.id as string) }),
  },
  {
    method: 'POST',
    path: 'pending-all/approve',
    handle: async (ctx) => {
      const outcomes = await approveAll(ctx.vault, ctx.store, { onWrite: onWrite(ctx), now: ctx.now });
      return {
        outcomes: outcomes.map((o) =>
          o.ok
            ? { id: o.id, note: o.note, ok: true, result: o.result }
            : { id: o.id, note: o.note, ok: false, error: { code: o.error.code, message: o.error.message } },
        ),
      };
    },
  },
  {
    method: 'POST',
    path: 'pending-all/reject',
    handle: (ctx) => ({ rejected: rejectAll(ctx.store) }),
  },
];
