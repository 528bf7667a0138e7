/**
 * @module
 * Parser threads for a large (cold) index build: reading, hashing and scanning notes runs on worker
 * threads while the main thread writes to SQLite, so the two overlap. The worker script is the
 * entry point's own file (only the entry point knows where it lives); it hands control to
 * `runParserThread` when started with PARSER_ROLE.
 */
import {
  isMainThread,
  MessageChannel,
  type MessagePort,
  parentPort,
  receiveMessageOnPort,
  Worker,
  workerData,
} from 'node:worker_threads';
import { formatNamed } from '../../format/formats.js';
import { markdownFormat } from '../../format/markdown-format.js';
import type { NoteFormat } from '../../format/note-format.js';
import type { FormatName } from '../../vault/format-name.js';
import type { FileEntry } from '../../vault/walk.js';
import { type ParsedNote, parseNoteFile } from './parse-note.js';

export const PARSER_ROLE = 'noted-index-parser';

interface Request {
  readonly id: number;
  readonly root: string;
  readonly files: FileEntry[];
  readonly format: FormatName;
}

/** On the thread's own channel: a batch is ready on the replies port, or it failed. */
interface Ready {
  readonly id: number;
  readonly error?: string;
}

/** On the replies port. */
interface Reply {
  readonly id: number;
  readonly parsed: (ParsedNote | null)[];
}

interface ParserThreadData {
  readonly role: typeof PARSER_ROLE;
  readonly replies: MessagePort;
}

/** A parsed batch; its notes are made into objects when asked for. */
export interface ParsedBatch {
  /** The notes, in the order of the files asked for (null where a file could not be read). */
  notes(): (ParsedNote | null)[];
}

/**
 * A batch that is ready but still waits, serialized, on its thread's replies port. Several batches
 * wait their turn while the writer works. Received as soon as they arrived, their objects outlived
 * the young generation and were promoted, so every note's records ended up as garbage in the old
 * generation: the main thread's heap grew to about 145 MB at 100k notes between full collections.
 * Taken off the port only when written, they die young.
 */
class WaitingBatch implements ParsedBatch {
  constructor(
    private readonly replies: MessagePort,
    private readonly id: number,
  ) {}

  notes(): (ParsedNote | null)[] {
    const received = receiveMessageOnPort(this.replies)?.message as Reply | undefined;
    // A thread answers its batches in order, and the writer takes them in the order it asked.
    if (received?.id !== this.id) {
      throw new Error(
        `index parser thread: batch ${this.id} was not next on its port (found ${received?.id})`,
      );
    }
    return received.parsed;
  }
}

/** True inside a parser thread started by a ParserPool. */
export function isParserThread(): boolean {
  return !isMainThread && (workerData as { role?: string } | null)?.role === PARSER_ROLE;
}

/**
 * Puts the batch's full-text bodies, most of what a batch weighs, into one buffer as UTF-8 and gives
 * each note a view of its part. The buffer is moved to the main thread instead of copied, and SQLite
 * takes the bytes as they are: the main thread, which is what limits a large build, neither
 * deserializes those strings nor encodes them again (measured A/B under the same load: 100k notes
 * 66.7 → 60.2 s, peak RSS 377 → 344 MB).
 */
function bodiesAsBytes(parsed: (ParsedNote | null)[]): ArrayBuffer | null {
  let total = 0;
  for (const note of parsed) if (note !== null) total += Buffer.byteLength(note.derived.ftsBody as string);
  if (total === 0) return null;
  const buffer = new ArrayBuffer(total);
  const whole = Buffer.from(buffer);
  let offset = 0;
  for (const note of parsed) {
    if (note === null) continue;
    const length = whole.write(note.derived.ftsBody as string, offset);
    (note.derived as { ftsBody: string | Uint8Array }).ftsBody = new Uint8Array(buffer, offset, length);
    offset += length;
  }
  return buffer;
}

/** A batch parsed on the calling thread, bodies as bytes as a parser thread hands them: for tests. */
export function parseHere(
  root: string,
  files: FileEntry[],
  format: NoteFormat = markdownFormat,
): ParsedBatch {
  const parsed = files.map((file) => parseNoteFile(root, file, format));
  bodiesAsBytes(parsed);
  return { notes: () => parsed };
}

/** The body of a parser thread: answer each batch of files with their parsed records. */
export function runParserThread(): void {
  const port = parentPort;
  if (!port) throw new Error('runParserThread must run in a worker thread');
  const { replies } = workerData as ParserThreadData;
  port.on('message', (req: Request) => {
    try {
      const format = formatNamed(req.format);
      const parsed = req.files.map((file) => parseNoteFile(req.root, file, format));
      const bytes = bodiesAsBytes(parsed);
      // The batch is on the replies port before the notice that it is there.
      replies.postMessage({ id: req.id, parsed } satisfies Reply, bytes === null ? [] : [bytes]);
      port.postMessage({ id: req.id } satisfies Ready);
    } catch (err) {
      port.postMessage({ id: req.id, error: String((err as Error).stack ?? err) } satisfies Ready);
    }
  });
}

export class ParserPool {
  private readonly workers: { worker: Worker; replies: MessagePort }[] = [];
  private readonly pending = new Map<
    number,
    { resolve: (r: ParsedBatch) => void; reject: (e: Error) => void; replies: MessagePort }
  >();
  private nextId = 0;
  private turn = 0;

  constructor(script: string, size: number) {
    for (let i = 0; i < size; i++) {
      const { port1: replies, port2: theirs } = new MessageChannel();
      // A bounded old generation makes the thread collect garbage as it goes instead of growing to
      // hundreds of megabytes over a large build. Parsing makes mostly short-lived garbage: a young
      // generation of 32 MB rather than 8 scavenges a quarter as often (measured, same load: 10k
      // notes 6.57 → 6.03 s, 100k notes 74.5 → 63.4 s, peak RSS 399 → 432 MB).
      const worker = new Worker(script, {
        workerData: { role: PARSER_ROLE, replies: theirs } satisfies ParserThreadData,
        transferList: [theirs],
        resourceLimits: { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 32 },
      });
      worker.on('message', (ready: Ready) => {
        const waiter = this.pending.get(ready.id);
        if (!waiter) return;
        this.pending.delete(ready.id);
        if (ready.error !== undefined) waiter.reject(new Error(`index parser thread failed: ${ready.error}`));
        else waiter.resolve(new WaitingBatch(waiter.replies, ready.id));
      });
      worker.on('error', (err) => this.failAll(err));
      worker.unref();
      this.workers.push({ worker, replies });
    }
  }

  /** Parses a batch of notes stored in `format` on the next thread in turn. */
  parse(root: string, files: FileEntry[], format: FormatName): Promise<ParsedBatch> {
    const id = this.nextId++;
    const { worker, replies } = this.workers[
      this.turn++ % this.workers.length
    ] as ParserPool['workers'][number];
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, replies });
      worker.postMessage({ id, root, files, format } satisfies Request);
    });
  }

  private failAll(err: Error): void {
    for (const waiter of this.pending.values()) waiter.reject(err);
    this.pending.clear();
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map(({ worker }) => worker.terminate()));
    for (const { replies } of this.workers) replies.close();
  }
}
