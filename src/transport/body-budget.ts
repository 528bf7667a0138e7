/**
 * @module
 * How much request-body memory the HTTP server holds at once (issue 25: ten concurrent 15 MB bodies,
 * each under the 16 MiB cap, took the server from 80 MB to a 577 MB peak). A body is read whole, then
 * parsed, validated and handled, so each one in flight costs a few times its size until its answer is
 * sent. Each request reserves its declared size (the cap, when it does not declare one) before its body
 * is read, and gives it back when its response is done; a request that does not fit waits, its socket
 * left unread (TCP holds the rest back), and is answered 503 with Retry-After when it waited too long.
 * Small requests fit beside large ones, so `list_notes` is not stuck behind uploads.
 */

export interface BodyBudgetOptions {
  /** Bytes of bodies admitted at once. */
  readonly bytes: number;
  /** How long a request waits for room before it is turned away. */
  readonly waitMs: number;
}

/** 32 MiB: two bodies of the largest size at once, or many small ones. */
export const DEFAULT_BODY_BUDGET: BodyBudgetOptions = { bytes: 32 * 1024 * 1024, waitMs: 30_000 };

interface Waiter {
  readonly bytes: number;
  readonly admit: () => void;
}

export class BodyBudget {
  private used = 0;
  private most = 0;
  private readonly waiters: Waiter[] = [];

  constructor(private readonly options: BodyBudgetOptions = DEFAULT_BODY_BUDGET) {}

  /** Bytes reserved now, and the most ever reserved at once (for tests and figures). */
  get inUse(): number {
    return this.used;
  }

  get peak(): number {
    return this.most;
  }

  /**
   * Reserves `bytes` (at most the whole budget), waiting for room; resolves to the function that gives
   * them back (call it once), or null when no room came within the wait.
   */
  reserve(bytes: number): Promise<(() => void) | null> {
    const want = Math.min(Math.max(0, bytes), this.options.bytes);
    if (this.fits(want) && this.waiters.length === 0) return Promise.resolve(this.take(want));
    if (this.fits(want) && want <= this.smallest()) return Promise.resolve(this.take(want));
    return new Promise((resolve) => {
      const waiter: Waiter = {
        bytes: want,
        admit: () => {
          clearTimeout(timer);
          resolve(this.take(want));
        },
      };
      const timer = setTimeout(() => {
        const at = this.waiters.indexOf(waiter);
        if (at !== -1) this.waiters.splice(at, 1);
        resolve(null);
      }, this.options.waitMs);
      timer.unref?.();
      this.waiters.push(waiter);
    });
  }

  private fits(bytes: number): boolean {
    return this.used + bytes <= this.options.bytes;
  }

  /** The smallest waiting reservation: a request no larger may pass the queue without starving it. */
  private smallest(): number {
    return Math.min(...this.waiters.map((w) => w.bytes));
  }

  private take(bytes: number): () => void {
    this.used += bytes;
    this.most = Math.max(this.most, this.used);
    let given = false;
    return () => {
      if (given) return;
      given = true;
      this.used -= bytes;
      this.wake();
    };
  }

  /** Admits waiting requests in order while they fit. */
  private wake(): void {
    while (this.waiters.length > 0) {
      const first = this.waiters[0] as Waiter;
      if (!this.fits(first.bytes)) return;
      this.waiters.shift();
      first.admit();
    }
  }
}
