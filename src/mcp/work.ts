/**
 * @module
 * The MCP side of the Work handle (common/work.ts): a request's `_meta.progressToken` becomes
 * `notifications/progress` (SPEC 14.2), its abort signal (`notifications/cancelled`, a closed
 * connection) cancels the work at its next safe point.
 *
 * Progress notifications are thinned out to a few a second, each with a larger `progress` than the
 * one before (the protocol requires it to increase); the last step, and the first report of each new
 * step of the work (the text before its colon), always go. Steps that each count from 0 are counted
 * on one after the other, so progress rises over the whole call and a long call that succeeds ends
 * with progress equal to its total.
 */
import type { CallToolResult, ServerContext } from '@modelcontextprotocol/server';
import { NotedError } from '../common/errors.js';
import { createWork, isCancelled, type Work } from '../common/work.js';
import { runTool } from './result.js';

/** At most this often a progress notification goes out for one request. */
export const PROGRESS_EVERY_MS = 200;

interface RequestWork {
  readonly work: Work;
  /** Sends the last progress, at the total, once the call has succeeded (nothing without a token). */
  readonly finish: () => Promise<void>;
}

const works = new WeakMap<ServerContext, RequestWork>();

/**
 * The Work of one request: progress to the client when it asked for it, cancelled with the request.
 * One per request, so the wait for the index and the tool's own work count up on the same token.
 */
export function workFor(ctx: ServerContext): Work {
  return requestWork(ctx).work;
}

function requestWork(ctx: ServerContext): RequestWork {
  let made = works.get(ctx);
  if (made === undefined) {
    const token = ctx.mcpReq._meta?.progressToken;
    const sender = token === undefined ? undefined : progressSender(ctx, token);
    made = {
      work: createWork({
        signal: ctx.mcpReq.signal,
        ...(sender === undefined ? {} : { onProgress: sender.report }),
      }),
      finish: sender?.finish ?? (async () => undefined),
    };
    works.set(ctx, made);
  }
  return made;
}

/**
 * Turns a work's reports into notifications whose progress rises over the whole call. A long call
 * goes through steps that each count from 0 ("planning: …" of the sources, then "moving notes: …",
 * then "rewriting links: …"); the protocol drops a progress that does not increase, so each step is
 * counted on from where the steps before it ended (their totals added up), and the total grows as
 * steps begin (issue 36.3: a move went silent after its planning step, its last notification never
 * sent). A step begins when a report counts lower than the one before, or when the step before was
 * complete and the total changes.
 */
function progressSender(
  ctx: ServerContext,
  token: string | number,
): {
  report: (done: number, total: number | undefined, message: string | undefined) => void;
  finish: () => Promise<void>;
} {
  let sentAt = Number.NEGATIVE_INFINITY;
  let last = Number.NEGATIVE_INFINITY;
  let step: string | undefined;
  // The steps before this one, counted: where this step's 0 stands.
  let offset = 0;
  // This step's last report, as the work gave it.
  let stepDone: number | undefined;
  let stepTotal: number | undefined;
  // The last report as a notification would carry it, sent or thinned out.
  let latest: { progress: number; total: number | undefined; message: string | undefined } | undefined;
  let sending: Promise<unknown> = Promise.resolve();

  const send = (progress: number, total: number | undefined, message: string | undefined): void => {
    sentAt = performance.now();
    last = progress;
    sending = ctx.mcpReq
      .notify({
        method: 'notifications/progress',
        params: {
          progressToken: token,
          progress,
          ...(total === undefined ? {} : { total }),
          ...(message === undefined ? {} : { message }),
        },
      })
      // A client that went away cannot be told; the work goes on (or is cancelled) regardless.
      .catch(() => undefined);
  };

  const report = (done: number, total: number | undefined, message: string | undefined): void => {
    if (stepDone !== undefined) {
      const restarts =
        done < stepDone || (stepTotal !== undefined && stepDone >= stepTotal && total !== stepTotal);
      if (restarts) offset += Math.max(stepTotal ?? stepDone, stepDone);
    }
    stepDone = done;
    stepTotal = total;
    const progress = offset + done;
    const whole = total === undefined ? undefined : offset + total;
    latest = { progress, total: whole, message };
    const final = total !== undefined && done >= total;
    // A new step of the work ("moving notes: …" after "planning: …") is said at once.
    const nextStep = message?.split(':')[0];
    if (progress <= last) return;
    if (!final && nextStep === step && performance.now() - sentAt < PROGRESS_EVERY_MS) return;
    step = nextStep;
    send(progress, whole, message);
  };

  const finish = async (): Promise<void> => {
    // The call is done: progress ends at the total, even when the last report was thinned out or
    // came before the last item (reports go before each step's safe point).
    if (latest !== undefined) {
      const end = Math.max(latest.total ?? latest.progress, latest.progress);
      if (end > last) send(end, end, latest.message);
    }
    await sending;
  };

  return { report, finish };
}

/**
 * A cancelled request gets no response (the protocol says so, and the SDK drops it), yet the caller
 * needs to know whether the cancelled call left its changes applied or undone. So once the call has
 * stopped, its outcome also goes out as a log message on the same request (logging/setLevel applies).
 */
export async function tellIfCancelled(
  ctx: ServerContext,
  tool: string,
  result: Promise<CallToolResult>,
  writes: boolean,
): Promise<CallToolResult> {
  const done = await result;
  if (ctx.mcpReq.signal.aborted) {
    const outcome = (done.structuredContent ?? {}) as Record<string, unknown>;
    // `committed` said outright: a write the cancel raced was made all the same (SPEC 17.2). A read,
    // a dry run and a change staged for review changed nothing.
    const changed = writes && done.isError !== true && outcome.dryRun !== true && outcome.staged !== true;
    const committed = outcome.committed ?? changed;
    const said = outcome.indeterminate === true ? { indeterminate: true } : { committed };
    await ctx.mcpReq
      .log(
        done.isError === true ? 'warning' : 'info',
        { tool, cancelled: true, ...said, outcome },
        'noted-mcp',
      )
      .catch(() => undefined);
  }
  return done;
}

/**
 * Runs a tool that changes one note or folder at once. Such a write has no safe point: a cancel that
 * arrives while it runs races its commit, and the client, which gets no response to a cancelled
 * request, could not tell whether the change was made. So the outcome goes out as a log message on
 * the request, as for long calls.
 */
export function runWriteTool(
  ctx: ServerContext,
  tool: string,
  body: () => Promise<CallToolResult> | CallToolResult,
): Promise<CallToolResult> {
  return tellIfCancelled(ctx, tool, runTool(true, body), true);
}

/**
 * Runs a long tool (a move, a batch): its body gets the request's Work to pass to the gate, typed
 * errors become results (runTool), and a cancelled call's outcome is told as a log message.
 */
export function runLongTool(
  ctx: ServerContext,
  tool: string,
  body: (work: Work) => Promise<CallToolResult>,
): Promise<CallToolResult> {
  const { work, finish } = requestWork(ctx);
  return tellIfCancelled(
    ctx,
    tool,
    runTool(true, async () => {
      const result = await body(work);
      // Before the result: a client stops listening to the token once the response arrives.
      if (result.isError !== true) await finish();
      return result;
    }),
    true,
  );
}

/**
 * Runs a long read (search_notes, export_notes): its body gets the request's Work, whose safe points
 * stop it once the request is cancelled. A read changes nothing, so a stop is a `cancelled` error with
 * `committed: false`; the client that cancelled gets no response, and the outcome as a log message.
 */
export function runReadTool(
  ctx: ServerContext,
  tool: string,
  body: (work: Work) => Promise<CallToolResult>,
): Promise<CallToolResult> {
  return tellIfCancelled(
    ctx,
    tool,
    runTool(false, async () => {
      try {
        return await body(workFor(ctx));
      } catch (err) {
        if (!isCancelled(err)) throw err;
        throw new NotedError('cancelled', `${err.message} Nothing was changed; call again for the answer.`, {
          committed: false,
        });
      }
    }),
    false,
  );
}
