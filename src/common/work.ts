/**
 * @module
 * The handle long work takes (SPEC 14.2, 3.3a): it reports how far the work is, and at each safe
 * point (`checkpoint`) it lets the event loop run other requests, timers and signals when the work has
 * held the thread for a slice, and stops the work when it was cancelled. The MCP adapter makes one
 * from a request's progress token and abort signal (mcp/work.ts); everything below it sees only this
 * interface, so no layer under `mcp/` knows about the protocol.
 *
 * @example
 * for (const [i, note] of notes.entries()) {
 *   await work.checkpoint(); // may throw Cancelled: nothing after the last safe point is left half done
 *   moveOne(note);
 *   work.report(i + 1, notes.length, `moved ${note}`);
 * }
 */

/** Thrown at a safe point once the work was cancelled; the work undoes or keeps what it did, and says so. */
export class Cancelled extends Error {
  readonly code = 'cancelled';

  constructor(reason?: string) {
    super(
      reason === undefined || reason === ''
        ? 'The call was cancelled.'
        : `The call was cancelled: ${reason}.`,
    );
    this.name = 'Cancelled';
  }
}

export function isCancelled(err: unknown): err is Cancelled {
  return err instanceof Cancelled;
}

export interface Work {
  /** How far the work is: `done` of `total` steps (total unknown: undefined), with what it is doing. */
  report(done: number, total?: number, message?: string): void;
  /**
   * A safe point: yields to the event loop when the work has run for a slice since the last yield,
   * then throws Cancelled when the work was cancelled.
   */
  checkpoint(): Promise<void>;
  /** True once cancellation was asked for; for code that must decide without awaiting. */
  readonly cancelled: boolean;
}

export interface WorkOptions {
  /** Where reports go (throttling is the receiver's business). */
  readonly onProgress?: (done: number, total: number | undefined, message: string | undefined) => void;
  /** Cancels the work when aborted. */
  readonly signal?: AbortSignal;
  /** The longest the work runs between two yields, in milliseconds (default 25). */
  readonly sliceMs?: number;
}

/**
 * How long work holds the thread before a checkpoint lets others run. Short enough that a search from
 * another client, or SIGTERM, waits a few tens of milliseconds behind a huge move; long enough that
 * yielding costs nothing measurable.
 */
export const SLICE_MS = 25;

export function createWork(options: WorkOptions = {}): Work {
  const sliceMs = options.sliceMs ?? SLICE_MS;
  let sliceStarted = performance.now();
  const { signal } = options;
  return {
    report(done, total, message) {
      options.onProgress?.(done, total, message);
    },
    async checkpoint() {
      if (performance.now() - sliceStarted >= sliceMs) {
        // setImmediate, not a microtask: it runs after pending I/O, so a request or a signal that
        // arrived meanwhile is served before the work goes on.
        await new Promise<void>((resolve) => setImmediate(resolve));
        sliceStarted = performance.now();
      }
      if (signal?.aborted) throw new Cancelled(reasonOf(signal));
    },
    get cancelled() {
      return signal?.aborted === true;
    },
  };
}

/** Work nobody watches or cancels: it still yields, so it never holds other clients up for long. */
export function unobservedWork(): Work {
  return createWork();
}

/**
 * The same work without its reports: for one step of a batch, whose own progress would not count up
 * with the batch's (item 3 of 5 is not "notes 0 to 200 of a rewrite").
 */
export function quiet(work: Work): Work {
  return {
    report: () => undefined,
    checkpoint: () => work.checkpoint(),
    get cancelled() {
      return work.cancelled;
    },
  };
}

function reasonOf(signal: AbortSignal): string | undefined {
  const reason: unknown = signal.reason;
  if (typeof reason === 'string') return reason;
  // An AbortSignal aborted without a reason carries a DOMException "This operation was aborted".
  if (reason instanceof Error && reason.name !== 'AbortError') return reason.message;
  return undefined;
}
