/**
 * @module
 * The open HTTP sessions (SPEC 8.2): Streamable HTTP sessions of 2025-era clients and legacy SSE
 * connections share one table, at most `max` at once, each closed after `idleMs` without a
 * request. The clock is injected, so tests can let half an hour pass at once.
 */

export interface SessionEntry {
  readonly id: string;
  readonly kind: 'streamable' | 'sse';
  /** Closes the MCP server and its transport; called once. */
  readonly close: () => Promise<void>;
}

export interface SessionLimits {
  /** At most this many sessions at once (default 20). */
  readonly max?: number;
  /** A session without a request for this long is closed (default 30 minutes). */
  readonly idleMs?: number;
  /** Milliseconds now (default `Date.now`). */
  readonly now?: () => number;
}

export const DEFAULT_MAX_SESSIONS = 20;
export const DEFAULT_IDLE_MS = 30 * 60 * 1000;

interface Live<T extends SessionEntry> {
  readonly entry: T;
  lastSeen: number;
}

export class SessionTable<T extends SessionEntry = SessionEntry> {
  readonly max: number;
  readonly idleMs: number;
  readonly #now: () => number;
  readonly #live = new Map<string, Live<T>>();
  /** Slots taken by sessions still being set up, so concurrent openings cannot pass the limit. */
  #reserved = 0;

  constructor(limits: SessionLimits = {}) {
    this.max = limits.max ?? DEFAULT_MAX_SESSIONS;
    this.idleMs = limits.idleMs ?? DEFAULT_IDLE_MS;
    this.#now = limits.now ?? Date.now;
  }

  get size(): number {
    return this.#live.size;
  }

  ids(): string[] {
    return [...this.#live.keys()];
  }

  /** Takes a slot for a session about to open; false when all are taken. Release or add after. */
  reserve(): boolean {
    if (this.#live.size + this.#reserved >= this.max) return false;
    this.#reserved++;
    return true;
  }

  release(): void {
    if (this.#reserved > 0) this.#reserved--;
  }

  /** Turns a reserved slot into a live session. */
  add(entry: T): void {
    this.release();
    this.#live.set(entry.id, { entry, lastSeen: this.#now() });
  }

  /**
   * The live session with this id, marked as used now; undefined when unknown, ended, or idle too
   * long (an idle one is closed here even if the sweep has not come round yet).
   */
  use(id: string): T | undefined {
    const live = this.#live.get(id);
    if (live === undefined) return undefined;
    const now = this.#now();
    if (now - live.lastSeen > this.idleMs) {
      void this.close(id);
      return undefined;
    }
    live.lastSeen = now;
    return live.entry;
  }

  /** Forgets a session without closing it (its transport already closed). */
  forget(id: string): void {
    this.#live.delete(id);
  }

  /** Closes and forgets one session; a no-op for an unknown id. */
  async close(id: string): Promise<void> {
    const live = this.#live.get(id);
    if (live === undefined) return;
    this.#live.delete(id);
    await live.entry.close().catch(() => undefined);
  }

  /** Closes every session idle for longer than `idleMs`; returns their ids. */
  async sweep(): Promise<string[]> {
    const now = this.#now();
    const idle = [...this.#live.values()]
      .filter((l) => now - l.lastSeen > this.idleMs)
      .map((l) => l.entry.id);
    await Promise.all(idle.map((id) => this.close(id)));
    return idle;
  }

  async closeAll(): Promise<void> {
    await Promise.all(this.ids().map((id) => this.close(id)));
  }
}
