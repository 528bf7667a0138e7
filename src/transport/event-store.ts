/**
 * @module
 * Resumable SSE streams for one 2025-era session (issue 19; SEP-1699): every event the session sends
 * on a stream gets an id, a stream opens with a priming event that carries one (and the `retry` the
 * client should wait before reconnecting), and a client that reconnects with `Last-Event-ID` gets what
 * it missed on that stream. The SDK's transport does the wire work; this keeps the events.
 *
 * Kept in memory, per session (so an id from another session finds nothing): the last 16 events
 * (a stream's priming event is one), at most 1 MB, none older than 5 minutes. That covers the few
 * streams in flight when a network blip cuts them, which the client resumes a second later, and keeps
 * a busy session's memory flat: with 64 events the load test's 20 sessions still filled their stores
 * from one round to the next (live heap +2.9 MB of the 3 MB it allows); with 1,000, +8 MB. A client
 * asking to resume before the oldest kept event is told the id is unknown, and starts over.
 *
 * A resume replaces the connection the stream had: the client asks only when it lost the stream, and
 * the server may not have noticed yet (it was busy, or the network dropped silently).
 */
import type { EventStore, JSONRPCMessage } from '@modelcontextprotocol/server';

interface Kept {
  readonly streamId: string;
  readonly message: JSONRPCMessage;
  readonly bytes: number;
  readonly at: number;
}

export class SessionEventStore implements EventStore {
  private readonly events = new Map<string, Kept>();
  private seq = 0;
  private bytes = 0;

  constructor(
    private readonly maxEvents = 16,
    private readonly maxBytes = 1024 * 1024,
    private readonly maxAgeMs = 5 * 60 * 1000,
    private readonly now: () => number = Date.now,
  ) {}

  async storeEvent(streamId: string, message: JSONRPCMessage): Promise<string> {
    const id = String(++this.seq);
    const bytes = JSON.stringify(message).length;
    const at = this.now();
    this.events.set(id, { streamId, message, bytes, at });
    this.bytes += bytes;
    for (const [oldest, kept] of this.events) {
      const over = this.events.size > this.maxEvents || this.bytes > this.maxBytes;
      if (oldest === id || (!over && at - kept.at <= this.maxAgeMs)) break;
      this.events.delete(oldest);
      this.bytes -= kept.bytes;
    }
    return id;
  }

  /**
   * The stream an event was sent on; undefined when this session never gave the id or no longer keeps
   * it. Deliberately not the SDK's optional `getStreamIdForEventId`: given that, the SDK answers a
   * resume 409 while it still holds the stream open (issue 36.5), though a client only resumes a
   * stream it lost; without it, the SDK hands the stream over to the new connection. The endpoint
   * asks this first and answers an unknown id 400 itself (http-mcp.ts).
   */
  streamOf(eventId: string): string | undefined {
    return this.events.get(eventId)?.streamId;
  }

  async replayEventsAfter(
    lastEventId: string,
    { send }: { send: (eventId: string, message: JSONRPCMessage) => Promise<void> },
  ): Promise<string> {
    const last = this.events.get(lastEventId);
    if (last === undefined) throw new Error(`Unknown event id ${lastEventId}`);
    const after = Number(lastEventId);
    for (const [id, kept] of this.events) {
      if (Number(id) <= after || kept.streamId !== last.streamId) continue;
      // A priming event carries no message: nothing to send again.
      if (!('jsonrpc' in kept.message)) continue;
      await send(id, kept.message);
    }
    return last.streamId;
  }
}
