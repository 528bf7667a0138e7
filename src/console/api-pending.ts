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
import { approve, approveEach } from '../staging/approve.js';
import { textLines } from '../staging/hunks.js';
import { MAX_PENDING_CHANGES } from '../staging/pending-store.js';
import { reject } from '../staging/reject.js';
import { decisionHook, groupedByNote, mergeViewOf } from './api-decisions.js';
import type { ApiContext, Route } from './context.js';
import { field } from './context.js';
import { diffView, FIRST_PAGE, hunkLines } from './diff-view.js';
import { hiddenCharsIn } from './hidden-chars.js';
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

/** Hunks one request for more hunks may ask for. */
export const MAX_HUNKS = 200;

function detail(ctx: ApiContext, id: string) {
  const change = ctx.store.get(id);
  const { baseText, newText, ...summary } = change;
  const facts = ctx.facts.of(summary);
  return {
    change: { ...summary, ...facts, hidden: hiddenOf(summary.note, baseText, newText) },
    diff: diffView(baseText, newText, FIRST_PAGE, ctx.facts.hunksOf(change)),
    merge: facts.outdated === null ? null : mergeViewOf(ctx, change),
  };
}

/**
 * The hidden characters (bidi controls, zero-width and other format characters) of a change's note
 * name and of the lines it changes, so its card can warn of them before any of its lines is drawn.
 */
function hiddenOf(note: string, before: string | null, after: string | null): string[] {
  const texts = [note];
  if (before === null || after === null) texts.push((before ?? after) as string);
  else {
    const was = textLines(before);
    const now = textLines(after);
    let start = 0;
    while (start < was.length && start < now.length && was[start] === now[start]) start++;
    let end = 0;
    while (
      end < was.length - start &&
      end < now.length - start &&
      was[was.length - 1 - end] === now[now.length - 1 - end]
    )
      end++;
    // Everything between the common start and end: a superset of the changed lines, cheap to find.
    texts.push(...was.slice(start, was.length - end), ...now.slice(start, now.length - end));
  }
  return hiddenCharsIn(texts);
}

function intParam(query: URLSearchParams, name: string, fallback: number, max: number, what: string): number {
  const value = Number(query.get(name) ?? String(fallback));
  if (!Number.isSafeInteger(value) || value < 1 || value > max) bad(`"${name}" is ${what}.`);
  return value;
}

function updateTexts(ctx: ApiContext, id: string) {
  const change = ctx.store.get(id);
  if (change.baseText === null || change.newText === null)
    bad('This change creates or deletes a whole note: it has no hunks; ask for its lines instead.');
  return {
    before: change.baseText as string,
    after: change.newText as string,
    hunks: ctx.facts.hunksOf(change),
  };
}

/** The next hunks of an update, each with its first lines: the page draws more hunks in place. */
function moreHunks(ctx: ApiContext, id: string, query: URLSearchParams) {
  const from = intParam(query, 'from', 1, Number.MAX_SAFE_INTEGER, 'a hunk number, from 1');
  const count = intParam(query, 'count', 20, MAX_HUNKS, `1 to ${MAX_HUNKS}`);
  const { before, after, hunks } = updateTexts(ctx, id);
  const view = diffView(before, after, { from, count, lines: MAX_LINES }, hunks);
  if (view.kind !== 'update') return bad('This change has no hunks.');
  return { hunks: view.hunks, hunkCount: view.hunkCount };
}

/** More lines of one hunk, in order, as the diff draws them: the page shows a long hunk in place. */
function moreHunkLines(ctx: ApiContext, id: string, query: URLSearchParams) {
  const hunk = intParam(query, 'hunk', 1, Number.MAX_SAFE_INTEGER, 'a hunk number, from 1');
  const from = intParam(query, 'from', 1, Number.MAX_SAFE_INTEGER, 'a line of the hunk, from 1');
  const count = intParam(query, 'count', 1000, MAX_LINES, `1 to ${MAX_LINES}`);
  const { before, after, hunks } = updateTexts(ctx, id);
  const part = hunkLines(before, after, hunk, from, count, hunks);
  if (part === null) return bad(`This change has no hunk ${hunk}.`);
  return { hunk, from, ...part };
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
    path: 'pending/:id/hunks',
    handle: (ctx, { params, query }) => moreHunks(ctx, params.id as string, query),
  },
  {
    method: 'GET',
    path: 'pending/:id/hunk-lines',
    handle: (ctx, { params, query }) => moreHunkLines(ctx, params.id as string, query),
  },
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
