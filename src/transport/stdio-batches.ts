/**
 * @module
 * The stdio wire, one JSON-RPC message per line, with JSON-RPC batches (an array of messages on one
 * line) for the protocol versions that have them: 2024-11-05 and 2025-03-26 (batching was removed in
 * 2025-06-18). The SDK's own stdio transport drops an array without a word; over HTTP the SDK answers
 * batches, and so does stdio now, as JSON-RPC 2.0 says: one array holding the response of each
 * request of the batch (notifications get none, a batch of notifications gets nothing), errors for
 * the members that are not messages. A batch sent on a connection whose version has none, or before
 * `initialize`, is answered with one error that says so; nothing is ever dropped silently.
 *
 * The era-choosing entry (`serveStdio` of the SDK) reads from this transport like from its own.
 */
import {
  type JSONRPCMessage,
  parseJSONRPCMessage,
  serializeMessage,
  type Transport,
} from '@modelcontextprotocol/server';

/** The protocol versions that have JSON-RPC batches. */
export const BATCH_VERSIONS: readonly string[] = ['2024-11-05', '2025-03-26'];
/** The most messages one batch may hold (the SDK's HTTP transport takes the same). */
export const MAX_BATCH = 100;
/** The longest line read, as the SDK's stdio transport allows (10 MB). */
export const MAX_LINE_BYTES = 10 * 1024 * 1024;

type Id = string | number;

interface PendingBatch {
  /** Requests of the batch not answered yet. */
  readonly waiting: Set<Id>;
  readonly responses: JSONRPCMessage[];
}

export class BatchingStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private buffer: Buffer[] = [];
  private buffered = 0;
  private version: string | undefined;
  private closed = false;
  /** Batch of each request id still waited for. */
  private readonly batchOf = new Map<Id, PendingBatch>();
  /**
   * While an `initialize` is being answered, the lines after it wait: whether a batch is taken
   * depends on the version it agrees on, and they keep their order.
   */
  private initializing: Id | null = null;
  private held: string[] = [];

  constructor(
    private readonly stdin: NodeJS.ReadableStream = process.stdin,
    private readonly stdout: NodeJS.WritableStream = process.stdout,
  ) {}

  async start(): Promise<void> {
    this.stdin.on('data', this.onData);
    this.stdin.on('error', this.onStreamError);
    this.stdin.on('end', this.onEnd);
    this.stdin.on('close', this.onEnd);
    this.stdout.on('error', this.onStreamError);
  }

  setProtocolVersion = (version: string): void => {
    this.version = version;
  };

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) throw new Error('The stdio transport is closed.');
    const id = 'id' in message && ('result' in message || 'error' in message) ? message.id : undefined;
    if (id !== undefined && id !== null && id === this.initializing) {
      await this.write(message);
      this.initializing = null;
      const held = this.held;
      this.held = [];
      for (const line of held) this.receive(line);
      return;
    }
    const batch = id === undefined || id === null ? undefined : this.batchOf.get(id);
    if (batch === undefined || id === undefined || id === null) return this.write(message);
    this.batchOf.delete(id);
    batch.waiting.delete(id);
    batch.responses.push(message);
    if (batch.waiting.size === 0) await this.write(batch.responses);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.stdin.off('data', this.onData);
    this.stdin.off('error', this.onStreamError);
    this.stdin.off('end', this.onEnd);
    this.stdin.off('close', this.onEnd);
    this.stdout.off('error', this.onStreamError);
    this.batchOf.clear();
    this.buffer = [];
    this.held = [];
    this.onclose?.();
  }

  private readonly onEnd = () => void this.close();

  private readonly onStreamError = (error: Error) => {
    this.onerror?.(error);
  };

  private readonly onData = (chunk: Buffer | string) => {
    let data = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    for (let nl = data.indexOf(10); nl !== -1; nl = data.indexOf(10)) {
      const line = Buffer.concat([...this.buffer, data.subarray(0, nl)]).toString('utf8');
      this.buffer = [];
      this.buffered = 0;
      data = data.subarray(nl + 1);
      this.receive(line.replace(/\r$/, ''));
    }
    if (data.length > 0) {
      this.buffer.push(data);
      this.buffered += data.length;
    }
    if (this.buffered > MAX_LINE_BYTES) {
      this.onerror?.(new Error(`A message on stdin is longer than ${MAX_LINE_BYTES} bytes; closing.`));
      void this.close();
    }
  };

  private receive(line: string): void {
    if (line.trim() === '') return;
    if (this.initializing !== null) {
      this.held.push(line);
      return;
    }
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      this.reply(
        null,
        -32700,
        'Parse error: a line on stdin is not JSON. Send one JSON-RPC message per line.',
      );
      return;
    }
    if (Array.isArray(value)) {
      this.receiveBatch(value);
      return;
    }
    const message = this.parse(value);
    if (message !== null) this.deliver(message);
  }

  private receiveBatch(members: unknown[]): void {
    const refusal = this.batchRefusal(members);
    if (refusal !== null) {
      this.reply(null, -32600, refusal);
      return;
    }
    const batch: PendingBatch = { waiting: new Set(), responses: [] };
    const deliver: JSONRPCMessage[] = [];
    for (const member of members) {
      const message = this.parse(member, batch);
      if (message === null) continue;
      if ('method' in message && 'id' in message) {
        if (batch.waiting.has(message.id) || this.batchOf.has(message.id)) {
          batch.responses.push(
            errorOf(
              message.id,
              -32600,
              `Invalid Request: the id ${JSON.stringify(message.id)} is used twice.`,
            ),
          );
          continue;
        }
        batch.waiting.add(message.id);
        this.batchOf.set(message.id, batch);
      }
      deliver.push(message);
    }
    // Members that were not messages are answered at once when nothing else is awaited.
    if (batch.waiting.size === 0 && batch.responses.length > 0) void this.write(batch.responses);
    for (const message of deliver) this.deliver(message);
  }

  /** Why this batch is not taken, or null to take it. */
  private batchRefusal(members: unknown[]): string | null {
    if (members.length === 0) return 'Invalid Request: an empty batch.';
    if (members.length > MAX_BATCH) return `Invalid Request: a batch may hold at most ${MAX_BATCH} messages.`;
    if (this.version === undefined) {
      return `Invalid Request: a JSON-RPC batch on a connection that has not agreed on a protocol version with batches (${BATCH_VERSIONS.join(' or ')}, by initialize). Send initialize on its own line first (it may never be part of a batch), or send each message on its own line.`;
    }
    if (!BATCH_VERSIONS.includes(this.version)) {
      return `Invalid Request: JSON-RPC batches are part of protocol versions ${BATCH_VERSIONS.join(' and ')} only, and this connection uses ${this.version}. Send each message on its own line.`;
    }
    return null;
  }

  /** A member as a message, or null after answering it with an error (into `batch`, when in one). */
  private parse(value: unknown, batch?: PendingBatch): JSONRPCMessage | null {
    try {
      return parseJSONRPCMessage(value);
    } catch {
      const raw = value as { id?: unknown } | null;
      const id = typeof raw?.id === 'string' || typeof raw?.id === 'number' ? raw.id : null;
      const error = errorOf(id, -32600, 'Invalid Request: not a JSON-RPC 2.0 message.');
      if (batch !== undefined) batch.responses.push(error);
      else void this.write(error);
      return null;
    }
  }

  private deliver(message: JSONRPCMessage): void {
    if ('method' in message && message.method === 'initialize' && 'id' in message)
      this.initializing = message.id;
    // A cancelled request gets no response: it is no longer waited for in its batch.
    if ('method' in message && message.method === 'notifications/cancelled' && !('id' in message)) {
      const id = (message.params as { requestId?: Id } | undefined)?.requestId;
      const batch = id === undefined ? undefined : this.batchOf.get(id);
      if (batch !== undefined && id !== undefined) {
        this.batchOf.delete(id);
        batch.waiting.delete(id);
        if (batch.waiting.size === 0 && batch.responses.length > 0) void this.write(batch.responses);
      }
    }
    this.onmessage?.(message);
  }

  private reply(id: Id | null, code: number, message: string): void {
    void this.write(errorOf(id, code, message));
  }

  private write(message: JSONRPCMessage | JSONRPCMessage[]): Promise<void> {
    if (this.closed) return Promise.resolve();
    const line = Array.isArray(message) ? `${JSON.stringify(message)}\n` : serializeMessage(message);
    return new Promise((resolve, reject) => {
      const ok = this.stdout.write(line, (err) => (err ? reject(err) : undefined));
      if (ok) resolve();
      else this.stdout.once('drain', () => resolve());
    });
  }
}

function errorOf(id: Id | null, code: number, message: string): JSONRPCMessage {
  return { jsonrpc: '2.0', id, error: { code, message } } as JSONRPCMessage;
}
