/**
 * @module
 * The MCP side of the Work handle (common/work.ts): a request's `_meta.progressToken` becomes
 * `notifications/progress` (SPEC 14.2), its abort signal (`notifications/cancelled`, a closed
 * connection) cancels the work at its next safe point.
 *
 * Progress notifications are thinned out to a few a second, each with a larger `progress` than the
 * one before (the protocol requires it to increase); the last step, and the first report of each new
 * step of the work (the text before its colon) that counts further, always go.
 */
import type { CallToolResult, ServerContext } from '@modelcontextprotocol/server';
import { createWork, type Work } from '../common/work.js';
import { runTool } from './result.js';

/** At most this often a progress notification goes out for one request. */
export const PROGRESS_EVERY_MS = 200;

const works = new WeakMap<ServerContext, Work>();

/**
 * The Work of one request: progress to the client when it asked for it, cancelled with the request.
 * One per request, so the wait for the index and the tool's own work count up on the same token.
 */
export function workFor(ctx: ServerContext): Work {
  let work = works.get(ctx);
  if (work === undefined) {
    const token = ctx.mcpReq._meta?.progressToken;
    work = createWork({
      signal: ctx.mcpReq.signal,
      ...(token === undefined ? {} : { onProgress: progressSender(ctx, token) }),
    });
    works.set(ctx, work);
  }
  return work;
}

function progressSender(
  ctx: ServerContext,
  token: string | number,
): (done: number, total: number | undefined, message: string | undefined) => void {
  let sentAt = Number.NEGATIVE_INFINITY;
  let last = Number.NEGATIVE_INFINITY;
  let step: string | undefined;
  return (done, total, message) => {
    const now = performance.now();
    const final = total !== undefined && done >= total;
    // A new step of the work ("moving notes: …" after "planning: …") is said at once.
    const nextStep = message?.split(':')[0];
    if (done <= last) return;
    if (!final && nextStep === step && now - sentAt < PROGRESS_EVERY_MS) return;
    sentAt = now;
    last = done;
    step = nextStep;
    ctx.mcpReq
      .notify({
        method: 'notifications/progress',
        params: {
          progressToken: token,
          progress: done,
          ...(total === undefined ? {} : { total }),
          ...(message === undefined ? {} : { message }),
        },
      })
      // A client that went away cannot be told; the work goes on (or is cancelled) regardless.
      .catch(() => undefined);
  };
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
): Promise<CallToolResult> {
  const done = await result;
  if (ctx.mcpReq.signal.aborted) {
    const outcome = done.structuredContent ?? {};
    await ctx.mcpReq
      .log(done.isError === true ? 'warning' : 'info', { tool, cancelled: true, outcome }, 'noted-mcp')
      .catch(() => undefined);
  }
  return done;
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
  return tellIfCancelled(
    ctx,
    tool,
    runTool(true, () => body(workFor(ctx))),
  );
}
