/**
 * @module
 * The open HTTP sessions (SPEC 8.2): Streamable HTTP sessions of 2025-era clients and legacy SSE
 * connections share one table, at most `max` at once, each closed after `idleMs` without a
 * request. The clock is injected, so tests can let half an hour pass at once.
 *
 * When all slots are taken, a new session takes the slot of the least recently used idle one
 * (issue 36.6): many clients (the Inspector CLI, the conformance suite, a script that exits) never
 * send DELETE, so twenty of them locked every other client out for half an hour. Idle means no
 * request or stream of it is open right now (`begin`); a legacy SSE session is its open stream, so
 * it is never idle. Only when every session is busy is a new one refused.
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

/** A session closed to make room for a new one, as the server's log tells it. */
export interface Eviction {
  readonly id: string;
  readonly kind: SessionEntry['kind'];
  /** How long since its last request. */
  readonly idleMs: number;
}

export const DEFAULT_MAX_SESSIONS = 20;
export const DEFAULT_IDLE_MS = 30 * 60 * 1000;

interface Live<T extends SessionEntry> {
  readonly entry: T;
  lastSeen: number;
  /** Requests and streams of the session open right now. */
  busy: number;
}

export class SessionTable<T extends SessionEntry = SessionEntry> {
  readonly max: number;
  readonly idleMs: number;
  readonly #now: () => number;
  readonly #live = new Map<string, Live<T>>();
  /** Slots taken by sessions still being set up, so concurrent openings cannot pass the limit. */
  #reserved = 0;

  readonly #onEvict: (eviction: Eviction) => void;

  constructor(limits: SessionLimits = {}, onEvict: (eviction: Eviction) => void = () => undefined) {
    this.max = limits.max ?? DEFAULT_MAX_SESSIONS;
    this.idleMs = limits.idleMs ?? DEFAULT_IDLE_MS;
    this.#now = limits.now ?? Date.now;
    this.#onEvict = onEvict;
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

  /**
   * Takes a slot for a session about to open, closing the least recently used idle session when all
   * are taken (and telling `onEvict`); false only when every open session is busy.
   */
  async reserveOrEvict(): Promise<boolean> {
    if (this.reserve()) return true;
    let oldest: Live<T> | undefined;
    for (const live of this.#live.values()) {
      if (live.busy > 0 || live.entry.kind === 'sse') continue;
      if (oldest === undefined || live.lastSeen < oldest.lastSeen) oldest = live;
    }
    if (oldest === undefined) return false;
    const { id, kind } = oldest.entry;
    const idleMs = this.#now() - oldest.lastSeen;
    await this.close(id);
    this.#onEvict({ id, kind, idleMs });
    return this.reserve();
  }

  /**
   * Marks a request or stream of a session as open until the returned function is called (any number
   * of times): a busy session is never closed to make room.
   */
  begin(id: string): () => void {
    const live = this.#live.get(id);
    if (live === undefined) return () => undefined;
    live.busy++;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      live.busy--;
      live.lastSeen = Math.max(live.lastSeen, this.#now());
    };
  }

  release(): void {
    if (this.#reserved > 0) this.#reserved--;
  }

  /** Turns a reserved slot into a live session. */
  add(entry: T): void {
    this.release();
    this.#live.set(entry.id, { entry, lastSeen: this.#now(), busy: 0 });
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
